// The definitions the other sources refer to: relocatable code with nothing unresolved.
__device__ int fc_ext_value = 7;
__device__ int fc_ext_op(int a, int b) { return a * b + fc_ext_value; }
