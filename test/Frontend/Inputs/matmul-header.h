// A header's own function, defined where it is declared (a C library's
// inline helpers), and a template that nothing instantiates.
static inline void headerMatmul(int n, const float *a, const float *b,
                                float *c) {
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
        c[i * n + j] += a[i * n + k] * b[k * n + j];
}

template <class T> void headerTemplate(int n, const T *a, const T *b, T *c) {
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
        c[i * n + j] += a[i * n + k] * b[k * n + j];
}
