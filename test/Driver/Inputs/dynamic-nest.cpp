// A row-major SGEMM whose extents are known only at run time.
void sgemm(long m, long n, long k, const float *A, const float *B, float *C) {
  for (long i = 0; i < m; ++i)
    for (long j = 0; j < n; ++j) {
      float sum = 0;
      for (long l = 0; l < k; ++l)
        sum += A[i * k + l] * B[l * n + j];
      C[i * n + j] = sum;
    }
}
