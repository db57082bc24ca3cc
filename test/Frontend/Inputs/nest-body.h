// The body of a GEMM, stamped out per element type by the file that
// includes it (included-nest.cpp).
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j)
      for (int l = 0; l < k; ++l)
        c[i * n + j] += a[i * k + l] * b[l * n + j];
