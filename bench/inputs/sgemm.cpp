// Single-precision GEMMs as BLAS users write them by hand: row-major
// matrices with leading dimensions, C = alpha * op(A) * op(B) + beta * C
// through an accumulator, one function per transpose combination, and a
// strided batch. bench/gen.sh rewrites this file with gemm-opt; bench.cu
// calls the rewritten functions on device memory.

// A is m x k (A[i*lda + l]), B is k x n (B[l*ldb + j]).
void sgemm_nn(long m, long n, long k, float alpha, const float *A, long lda,
              const float *B, long ldb, float beta, float *C, long ldc) {
  for (long i = 0; i < m; ++i)
    for (long j = 0; j < n; ++j) {
      float sum = 0;
      for (long l = 0; l < k; ++l)
        sum += A[i * lda + l] * B[l * ldb + j];
      C[i * ldc + j] = alpha * sum + beta * C[i * ldc + j];
    }
}

// B is stored n x k: op(B)(l, j) = B[j*ldb + l].
void sgemm_nt(long m, long n, long k, float alpha, const float *A, long lda,
              const float *B, long ldb, float beta, float *C, long ldc) {
  for (long i = 0; i < m; ++i)
    for (long j = 0; j < n; ++j) {
      float sum = 0;
      for (long l = 0; l < k; ++l)
        sum += A[i * lda + l] * B[j * ldb + l];
      C[i * ldc + j] = alpha * sum + beta * C[i * ldc + j];
    }
}

// A is stored k x m: op(A)(i, l) = A[l*lda + i].
void sgemm_tn(long m, long n, long k, float alpha, const float *A, long lda,
              const float *B, long ldb, float beta, float *C, long ldc) {
  for (long i = 0; i < m; ++i)
    for (long j = 0; j < n; ++j) {
      float sum = 0;
      for (long l = 0; l < k; ++l)
        sum += A[l * lda + i] * B[l * ldb + j];
      C[i * ldc + j] = alpha * sum + beta * C[i * ldc + j];
    }
}

void sgemm_tt(long m, long n, long k, float alpha, const float *A, long lda,
              const float *B, long ldb, float beta, float *C, long ldc) {
  for (long i = 0; i < m; ++i)
    for (long j = 0; j < n; ++j) {
      float sum = 0;
      for (long l = 0; l < k; ++l)
        sum += A[l * lda + i] * B[j * ldb + l];
      C[i * ldc + j] = alpha * sum + beta * C[i * ldc + j];
    }
}

// NN on `batch` matrices, strideA/B/C elements apart.
void sgemm_batched(long batch, long m, long n, long k, float alpha,
                   const float *A, long lda, long strideA, const float *B,
                   long ldb, long strideB, float beta, float *C, long ldc,
                   long strideC) {
  for (long b = 0; b < batch; ++b)
    for (long i = 0; i < m; ++i)
      for (long j = 0; j < n; ++j) {
        float sum = 0;
        for (long l = 0; l < k; ++l)
          sum += A[b * strideA + i * lda + l] * B[b * strideB + l * ldb + j];
        C[b * strideC + i * ldc + j] =
            alpha * sum + beta * C[b * strideC + i * ldc + j];
      }
}
