// Calls the products of two rewritten files whose kernels are the same
// (test/Driver/kernel-dir.test), and prints their results for compare.py.
#include "e2e_util.h"

void forward(const float *x, const float *w, float *y, int m, int n, int k);
void update(const float *a, const float *b, float *c, int m, int n, int k);
void second_forward(const float *x, const float *w, float *y, int m, int n,
                    int k);

int main() {
  const int m = 70, n = 45, k = 33;
  static float a[m * k], b[k * n], c[m * n], d[m * n], e[m * n];
  fillRandom(a, m * k, 1);
  fillRandom(b, k * n, 2);
  fillRandom(e, m * n, 3);
  const double scale = frobenius(a, m * k) * frobenius(b, k * n);
  forward(a, b, c, m, n, k);
  second_forward(a, b, d, m, n, k);
  const double updated = scale + frobenius(e, m * n);
  update(a, b, e, m, n, k);
  printMatrix("forward", k, scale, c, m, n, n, 1);
  printMatrix("second_forward", k, scale, d, m, n, n, 1);
  printMatrix("update", k, updated, e, m, n, n, 1);
  return 0;
}
