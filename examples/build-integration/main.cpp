// A product of row-major matrices behind flat pointers, its rows shared out
// among OpenMP threads, and the ones in tile.cpp and matmul.c; prints their
// results, which are exact (small integers).
#include "matmul.h"
#include "tile.h"

#include <omp.h>

#include <cstdio>
#include <vector>

void multiply(int m, int n, int k, const float *a, const float *b, float *c) {
#pragma omp parallel for
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      float sum = 0;
      for (int l = 0; l < k; ++l)
        sum += a[i * k + l] * b[l * n + j];
      c[i * n + j] = sum;
    }
}

int main() {
  std::printf("threads: %d\n", omp_get_max_threads());
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
  // c = a (5x3) times b read as 3x7, both column-major now.
  std::vector<double> ad(a.begin(), a.end()), bd(b.begin(), b.end()),
      cd(m * n);
  matmul_colmajor(m, n, k, ad.data(), bd.data(), cd.data());
  checksum = 0;
  for (int i = 0; i < m * n; ++i)
    checksum += (i + 1) * cd[i];
  std::printf("matmul: checksum = %g\n", checksum);
  return 0;
}
