// A kernel that reads a device variable defined in another translation unit.
extern __device__ int fc_ext_value;
extern "C" __global__ void fc_ext_var(int *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = fc_ext_value;
}
