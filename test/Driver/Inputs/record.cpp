// Nests for the optimisation record (record*.test): one left as written, one
// in a member function, one of static extents and one in a function template
// with two instantiations.

namespace blas {

struct Matrix {
  int n;
  float *data;
  // A product into this matrix.
  void multiply(const float *A, const float *B) {
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        for (int k = 0; k < n; ++k)
          data[i * n + j] += A[i * n + k] * B[k * n + j];
  }
};

} // namespace blas

void kept(int n, const float *A, const float *B, float *C) {
#pragma gemm_opt off
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
        C[i * n + j] += A[i * n + k] * B[k * n + j];
}

double X[12][6], Y[6][12], Z[12][12];

void small() {
  for (int i = 0; i < 12; ++i)
    for (int j = 0; j < 12; ++j) {
      Z[i][j] = 0;
      for (int k = 0; k < 6; ++k)
        Z[i][j] += X[i][k] * Y[k][j];
    }
}

template <typename T>
void gemm(int n, const T *A, const T *B, T *C) {
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
        C[i * n + k] += A[i * n + j] * B[j * n + k];
}

template void gemm<float>(int, const float *, const float *, float *);
template void gemm<double>(int, const double *, const double *, double *);
