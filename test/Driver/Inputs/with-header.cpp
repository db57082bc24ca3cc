// A nest whose extent comes from a header.
#include "extent.h"
float A[EXTENT][EXTENT], B[EXTENT][EXTENT], C[EXTENT][EXTENT];
void f() {
  for (int i = 0; i < EXTENT; ++i)
    for (int j = 0; j < EXTENT; ++j)
      for (int k = 0; k < EXTENT; ++k)
        C[i][j] += A[i][k] * B[k][j];
}
