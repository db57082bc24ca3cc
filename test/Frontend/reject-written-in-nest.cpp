// A pointer, bound or leading dimension written inside the nest changes what
// the nest addresses while it runs, so it is left alone.
//
// RUN: gemm-opt %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --check-prefix=OUT
//
// OUT-NOT: gemm_opt_nest
// OUT:     #line 1 "{{.*}}reject-written-in-nest.cpp"
// OUT-NOT: gemm_opt_nest

void written(int n, int ld, double *A, const double *A2, const double *B,
             double *C) {
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: pointer 'A' is read before the statement that sets it in each iteration of the loop over 'k', so it holds what the iteration before left [-Rpass-missed=gemm]
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k) {
        C[i * n + j] += A[i * n + k] * B[k * n + j];
        A = (double *)A2;
      }

  // Moved by a compound assignment in the outermost loop: a walk of C by n
  // per row (PointerWalk.cpp), but the next nest reads C where it stopped.
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: pointer 'C' is read after the loop (line 35), where it holds the value the loop moved it to; the rewrite would not set it [-Rpass-missed=gemm]
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
        C[j] += A[i * n + k] * B[k * n + j];
    C += n;
  }

  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: bound 'n' of 'i' is written inside the nest [-Rpass-missed=gemm]
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < 64; ++j)
      for (int k = 0; k < 64; ++k) {
        C[i * 64 + j] += A[i * 64 + k] * B[k * 64 + j];
        n = 64;
      }

  // A bound that reads a variable the nest assigns names the variable.
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: bound 'n - 1' of 'i' depends on 'n', which is assigned inside the nest [-Rpass-missed=gemm]
  for (int i = 0; i < n - 1; ++i)
    for (int j = 0; j < 64; ++j)
      for (int k = 0; k < 64; ++k) {
        C[i * 64 + j] += A[i * 64 + k] * B[k * 64 + j];
        n = 64;
      }

  // A leading dimension.
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: 'ld' is written besides the accumulation into C (only a zero-init, a scaling of C, a bias element or a step of the sum may be fused) [-Rpass-missed=gemm]
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 64; ++j) {
      for (int k = 0; k < 64; ++k)
        C[i * ld + j] += A[i * ld + k] * B[k * ld + j];
      ld = 64;
    }
}
