// An external device function called only from a device function no kernel calls.
extern __device__ int fc_ext_op(int a, int b);
__device__ int fc_ext_helper(int a) { return fc_ext_op(a, 3); }
extern "C" __global__ void fc_ext_free(int *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] += 1;
}
