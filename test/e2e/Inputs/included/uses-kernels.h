// Another header that includes dense-kernels.h: by then its guard is set.
#ifndef E2E_USES_KERNELS_H
#define E2E_USES_KERNELS_H
#include "dense-kernels.h"
inline void squareAtB(int n, const double *a, double *c) {
  gemmAtB(n, n, n, a, n, a, n, c, n);
}
#endif
