// C named again as an input updates it in place: later products read
// elements the nest has already changed, which a GEMM kernel would not. The
// same buffer is rejected at compile time even where the offsets might keep
// the two apart; different names that may alias are checked at run time
// (aliasing-runtime.cpp).
//
// RUN: gemm-opt %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --check-prefix=OUT
//
// OUT-NOT: gemm_opt_nest
// OUT:     #line 1 "{{.*}}reject-aliasing.cpp"
// OUT-NOT: gemm_opt_nest

double A[64][64], B[64][64], C[64][64];

void inPlace(int n, double *buf) {
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: C and an input are the same buffer 'C': the nest updates it in place (aliasing) [-Rpass-missed=gemm]
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 64; ++j)
      for (int k = 0; k < 64; ++k)
        C[i][j] += C[i][k] * B[k][j];

  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: C and an input are the same buffer 'C': the nest updates it in place (aliasing) [-Rpass-missed=gemm]
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 64; ++j)
      for (int k = 0; k < 64; ++k)
        C[i][j] += A[i][k] * C[k][j];

  // Through a hoisted scalar.
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: C and an input are the same buffer 'C': the nest updates it in place (aliasing) [-Rpass-missed=gemm]
  for (int i = 0; i < 64; ++i)
    for (int k = 0; k < 64; ++k) {
      double t = C[i][k];
      for (int j = 0; j < 64; ++j)
        C[i][j] += t * B[k][j];
    }

  // Two halves of one flat buffer.
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: C and an input are the same buffer 'buf': the nest updates it in place (aliasing) [-Rpass-missed=gemm]
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
        buf[n * n + i * n + j] += buf[i * n + k] * A[k][j];
}
