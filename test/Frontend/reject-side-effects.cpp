// Anything else with an effect in the nest (calls, increments, writes to other
// arrays or variables, assignments inside expressions) would be dropped by the
// rewrite, so the nest is left alone. A statement of the outermost loop alone
// lets the finder try the nests inside it; here they are only 2 deep.
//
// RUN: gemm-opt %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --check-prefix=OUT
//
// OUT-NOT: gemm_opt_nest
// OUT:     #line 1 "{{.*}}reject-side-effects.cpp"
// OUT-NOT: gemm_opt_nest

#include <cstdio>

double A[64][64], B[64][64], C[64][64], D[64][64];
double scale(int);

void effects() {
  int count = 0;
  double last;
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the nest calls the library function 'printf', whose effects (on memory, output or errno) gemm-opt does not model, so the launch could not keep them [-Rpass-missed=gemm]
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 64; ++j)
      for (int k = 0; k < 64; ++k) {
        C[i][j] += A[i][k] * B[k][j];
        std::printf("%d\n", k);
      }

  // In the outermost loop only.
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the nest calls the library function 'printf', whose effects (on memory, output or errno) gemm-opt does not model, so the launch could not keep them [-Rpass-missed=gemm]
  for (int i = 0; i < 64; ++i) {
    std::printf("row %d\n", i);
    for (int j = 0; j < 64; ++j)
      for (int k = 0; k < 64; ++k)
        C[i][j] += A[i][k] * B[k][j];
  }

  // A call inside the product.
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: 'scale' has no body in this translation unit, so its effects are unknown [-Rpass-missed=gemm]
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 64; ++j)
      for (int k = 0; k < 64; ++k)
        C[i][j] += scale(k) * A[i][k] * B[k][j];

  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: 'count' is stepped in the nest ('count++'), an effect beside the product's that the launch would not have [-Rpass-missed=gemm]
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 64; ++j)
      for (int k = 0; k < 64; ++k) {
        C[i][j] += A[i][k] * B[k][j];
        count++;
      }

  // A write to another array.
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: 'D[i][j]' is written besides the accumulation into C (only a zero-init, a scaling of C, a bias element or a step of the sum may be fused) [-Rpass-missed=gemm]
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 64; ++j)
      for (int k = 0; k < 64; ++k) {
        C[i][j] += A[i][k] * B[k][j];
        D[i][j] = C[i][j];
      }

  // A write to a scalar of the enclosing function.
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: 'last' is written besides the accumulation into C (only a zero-init, a scaling of C, a bias element or a step of the sum may be fused) [-Rpass-missed=gemm]
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 64; ++j)
      for (int k = 0; k < 64; ++k) {
        C[i][j] += A[i][k] * B[k][j];
        last = A[i][k];
      }

  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: assignment inside an expression in the nest body [-Rpass-missed=gemm]
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 64; ++j)
      for (int k = 0; k < 64; ++k)
        C[i][j] += A[i][k] * (D[k][j] = B[k][j]);

  // Two products, the second reading what the first writes.
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: more than one multiply-accumulate in the nest [-Rpass-missed=gemm]
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 64; ++j)
      for (int k = 0; k < 64; ++k) {
        C[i][j] += A[i][k] * B[k][j];
        D[i][j] += C[i][k] * A[k][j];
      }

  // A comma expression hides a second assignment.
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the statement 'C[i][j] += A[i][k] * B[k][j] , last = 1' has effects that gemm-opt does not model (only assignments, increments and calls are read) [-Rpass-missed=gemm]
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 64; ++j)
      for (int k = 0; k < 64; ++k)
        C[i][j] += A[i][k] * B[k][j], last = 1;
  std::printf("%d %f\n", count, last);
}
