/* A header without OpenACC directives whose nest a file with them calls
 * from inside a data region (openacc.c). */
static void hostProduct(int n, const float *A, const float *B, float *C) {
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
        C[i * n + j] += A[i * n + k] * B[k * n + j];
}
