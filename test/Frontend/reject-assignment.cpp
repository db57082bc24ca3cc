// A plain assignment of the product is no accumulation: the nest keeps only
// the last k, which no GEMM computes.
//
// RUN: gemm-opt %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --check-prefix=OUT
//
// OUT-NOT: gemm_opt_nest
// OUT:     #line 1 "{{.*}}reject-assignment.cpp"
// OUT-NOT: gemm_opt_nest

double A[64][64], B[64][64], C[64][64];

void assign(double alpha) {
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: assignment where accumulation is needed: 'C[i][j]' is overwritten on every iteration instead of summed [-Rpass-missed=gemm]
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 64; ++j)
      for (int k = 0; k < 64; ++k)
        C[i][j] = A[i][k] * B[k][j];

  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: assignment where accumulation is needed: 'C[i][j]' is overwritten on every iteration instead of summed [-Rpass-missed=gemm]
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 64; ++j)
      for (int k = 0; k < 64; ++k)
        C[i][j] = alpha * A[i][k] * B[k][j];

  // Into a scalar that is then stored.
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: assignment where accumulation is needed: 's' is overwritten on every iteration instead of summed [-Rpass-missed=gemm]
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 64; ++j) {
      double s = 0;
      for (int k = 0; k < 64; ++k)
        s = A[i][k] * B[k][j];
      C[i][j] = s;
    }

  // Multiplied into C.
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: no multiply-accumulate of two array elements (C += A * B) in the nest [-Rpass-missed=gemm]
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 64; ++j)
      for (int k = 0; k < 64; ++k)
        C[i][j] *= A[i][k] * B[k][j];
}
