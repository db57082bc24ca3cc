// The benchmark's loops (bench/widen/run.sh rewrites them with gemm-opt):
// C = A * B on row-major float matrices, summed in double as CUDA samples'
// matrixMulCPU does (widened by the launcher), and summed in float.
void mm_double_sum(int m, int n, int k, const float *A, const float *B,
                   float *C) {
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      double sum = 0;
      for (int p = 0; p < k; ++p)
        sum += A[i * k + p] * B[p * n + j];
      C[i * n + j] = (float)sum;
    }
}

void mm_float_sum(int m, int n, int k, const float *A, const float *B,
                  float *C) {
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      float sum = 0;
      for (int p = 0; p < k; ++p)
        sum += A[i * k + p] * B[p * n + j];
      C[i * n + j] = sum;
    }
}
