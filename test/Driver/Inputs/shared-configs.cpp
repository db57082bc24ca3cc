// Three products of one class (f32, row-major, extents known only at run
// time) and a fourth of the same class with static extents: the first three
// have one schedule and the same alternatives for smaller problems.
void forward(const float *x, const float *w, float *y, int m, int n, int k) {
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      float sum = 0;
      for (int p = 0; p < k; ++p)
        sum += x[i * k + p] * w[p * n + j];
      y[i * n + j] = sum;
    }
}

void backward(const float *dy, const float *wt, float *dx, int m, int n,
              int k) {
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      float sum = 0;
      for (int p = 0; p < k; ++p)
        sum += dy[i * k + p] * wt[p * n + j];
      dx[i * n + j] = sum;
    }
}

void update(const float *a, const float *b, float *c, int m, int n, int k) {
  for (int i = 0; i < m; ++i)
    for (int p = 0; p < k; ++p)
      for (int j = 0; j < n; ++j)
        c[i * n + j] += a[i * k + p] * b[p * n + j];
}
