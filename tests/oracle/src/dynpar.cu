// Dynamic parallelism: launches from the device go through the device runtime (libcudadevrt),
// whose functions only device linking supplies.
extern "C" __global__ void fc_child(int *x) { x[threadIdx.x] = 1; }
extern "C" __global__ void fc_parent(int *x) { fc_child<<<1, 32>>>(x); }
