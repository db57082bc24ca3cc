// One nest that is rewritten and one that is not.
void f(const double *a, const double *b, double *c, int n) {
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
        c[i * n + j] += a[i * n + k] * b[k * n + j];
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < i; ++k)
        c[i * n + j] += a[i * n + k] * b[k * n + j];
}
