// A kernel that calls a device function defined in another translation unit.
extern __device__ int fc_ext_op(int a, int b);
extern "C" __global__ void fc_ext_call(int *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = fc_ext_op(x[i], i);
}
