// Device malloc/free and assert: .extern malloc, free and __assertfail, which the driver provides.
#include <cassert>
extern "C" __global__ void fc_malloc(int n)
{
    int *p = (int *)malloc(n * sizeof(int));
    assert(p != nullptr);
    p[0] = n;
    free(p);
}
