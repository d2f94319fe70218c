/* callback.h - what the library returns for the value a caller's callback returned. */
#ifndef FC_CALLBACK_H
#define FC_CALLBACK_H

#include "fatcheck/common.h"

/* What a scan returns for a callback's value RC: RC when it is zero or positive, FC_STOP for any
 * negative value, so that no stop is read as one of the library's own failures (common.h). */
static inline int fc_callback_value(int rc)
{
    return rc < 0 ? FC_STOP : rc;
}

#endif
