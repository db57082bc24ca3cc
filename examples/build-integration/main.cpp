// A product of row-major matrices behind flat pointers, and the one in
// tile.cpp; prints their results, which are exact (small integers).
#include "tile.h"

#include <cstdio>
#include <vector>

void multiply(int m, int n, int k, const float *a, const float *b, float *c) {
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      float sum = 0;
      for (int l = 0; l < k; ++l)
        sum += a[i * k + l] * b[l * n + j];
      c[i * n + j] = sum;
    }
}

int main() {
  const int m = 5, n = 7, k = 3;
  std::vector<float> a(m * k), b(k * n), c(m * n);
  for (int i = 0; i < m * k; ++i)
    a[i] = i % 4;
  for (int i = 0; i < k * n; ++i)
    b[i] = i % 3 - 1;
  multiply(m, n, k, a.data(), b.data(), c.data());
  // Weights that tell the elements apart.
  double checksum = 0;
  for (int i = 0; i < m * n; ++i)
    checksum += (i + 1) * c[i];
  std::printf("multiply: checksum = %g\n", checksum);
  std::printf("tile: sum = %g\n", tileProduct());
  return 0;
}
