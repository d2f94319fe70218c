// Dynamic shared memory: the PTX declares an .extern .shared array, which is no reference to
// another translation unit (its size is given at launch).
extern "C" __global__ void fc_dynshared(float *x, int n)
{
    extern __shared__ float tile[];
    int i = threadIdx.x;
    tile[i] = i < n ? x[i] : 0.0f;
    __syncthreads();
    if (i < n)
        x[i] = tile[(i + 1) % blockDim.x];
}
