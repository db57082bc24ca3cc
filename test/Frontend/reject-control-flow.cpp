// Early exits and other control flow in the nest: the rewrite would run the
// whole product, so such nests are left alone.
//
// RUN: gemm-opt %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --check-prefix=OUT
//
// OUT-NOT: gemm_opt_nest
// OUT:     #line 1 "{{.*}}reject-control-flow.cpp"
// OUT-NOT: gemm_opt_nest

double A[64][64], B[64][64], C[64][64];

void exits(double eps) {
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: early exit ('break') in the nest [-Rpass-missed=gemm]
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 64; ++j)
      for (int k = 0; k < 64; ++k) {
        C[i][j] += A[i][k] * B[k][j];
        break;
      }

  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: early exit ('continue') in the nest [-Rpass-missed=gemm]
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 64; ++j) {
      continue;
      for (int k = 0; k < 64; ++k)
        C[i][j] += A[i][k] * B[k][j];
    }

  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: early exit ('return') in the nest [-Rpass-missed=gemm]
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 64; ++j)
      for (int k = 0; k < 64; ++k) {
        C[i][j] += A[i][k] * B[k][j];
        return;
      }

  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: 'goto done' jumps out of the nest [-Rpass-missed=gemm]
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 64; ++j)
      for (int k = 0; k < 64; ++k) {
        C[i][j] += A[i][k] * B[k][j];
        goto done;
      }
done:

  // A conditional break.
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: conditional control flow in the nest body [-Rpass-missed=gemm]
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 64; ++j)
      for (int k = 0; k < 64; ++k) {
        if (A[i][k] == 0)
          break;
        C[i][j] += A[i][k] * B[k][j];
      }

  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: conditional control flow in the nest body [-Rpass-missed=gemm]
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 64; ++j)
      for (int k = 0; k < 64; ++k)
        if (A[i][k] > eps)
          C[i][j] += A[i][k] * B[k][j];

  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the loop with the test 'eps > 1' has no integer induction variable that steps at the end of each iteration, so its trip count is unknown [-Rpass-missed=gemm]
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 64; ++j)
      for (int k = 0; k < 64; ++k) {
        C[i][j] += A[i][k] * B[k][j];
        while (eps > 1)
          eps = eps / 2;
      }
}
