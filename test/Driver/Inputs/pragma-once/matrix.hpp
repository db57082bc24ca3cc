// PX4-Matrix style: two headers that include each other under #pragma once.
#pragma once
#include "math.hpp"
inline void mul(int n, const float *a, const float *b, float *c) {
  for (int i = 0; i < n; i++)
    for (int k = 0; k < n; k++)
      for (int j = 0; j < n; j++)
        c[i * n + j] += a[i * n + k] * b[k * n + j];
}
