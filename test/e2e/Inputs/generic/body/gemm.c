#ifndef GENERIC_FILE
#define GENERIC_FILE "body/gemm.c"
#else
/* One body for every element type, its names made per type. */
void Real_(gemm)(int m, int n, int k, const real *a, const real *b, real *c) {
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      real sum = 0;
      for (int l = 0; l < k; ++l)
        sum += a[i * k + l] * b[l * n + j];
      c[i * n + j] = sum;
    }
}
#endif
