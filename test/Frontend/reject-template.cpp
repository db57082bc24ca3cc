// Nests in templates are reported once, at the template's `for`, and left
// alone: their types are not known until instantiation, and one rewrite
// would have to serve every instantiation.
//
// RUN: gemm-opt %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --check-prefix=OUT
//
// OUT-NOT: gemm_opt_nest
// OUT:     #line 1 "{{.*}}reject-template.cpp"
// OUT-NOT: gemm_opt_nest

template <typename T>
void gemm(int n, const T *A, const T *B, T *C) {
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: it is in a template, whose types are not known until instantiation [-Rpass-missed=gemm]
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
        C[i * n + j] += A[i * n + k] * B[k * n + j];
}

template <int N> struct Fixed {
  double a[N][N], b[N][N], c[N][N];
  void multiply() {
    // REMARK: :[[@LINE+1]]:5: remark: loop nest not rewritten: it is in a template, whose types are not known until instantiation [-Rpass-missed=gemm]
    for (int i = 0; i < N; ++i)
      for (int j = 0; j < N; ++j)
        for (int k = 0; k < N; ++k)
          c[i][j] += a[i][k] * b[k][j];
  }
};

// Instantiations add no remarks and no rewrites.
template void gemm<float>(int, const float *, const float *, float *);
template void gemm<double>(int, const double *, const double *, double *);
template struct Fixed<8>;
