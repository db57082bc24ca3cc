// Found from its own directory, not the main file's, by its quoted include.
#include "helper.h"
inline void otherMatmul(int n, const float *a, const float *b, float *c) {
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
        c[i * n + j] += a[i * n + k] * b[k * n + j];
}
