// Tables of rows with an epilogue and a scalar read through a pointer: the
// launcher takes the tables (first row and offset), alpha and beta, the
// bias, the activation's params and the reads, in LauncherSignature.h's
// order, and the op carries `rows`, `params`, `reads` and both kinds of
// step. test/e2e/row-tables-epilogue.cpp runs such layers.
//
// RUN: gemm-opt %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --check-prefix=OUT
// RUN: gemm-opt %s --emit=mlir 2>/dev/null | FileCheck %s --check-prefix=MLIR

#include <cmath>

// OUT: static bool gemm_opt_nest_0(const float *const *a, long long /*a_size0*/, long long a_size1, long long a_offset,
// OUT-NEXT: const float *b, long long /*b_size0*/, long long /*b_size1*/, long long b_stride0, long long b_stride1,
// OUT-NEXT: float *const *c, long long c_size0, long long c_size1, long long c_offset,
// OUT-NEXT: float alpha, float beta,
// OUT-NEXT: const float *bias, long long /*bias_size0*/, long long /*bias_size1*/, long long bias_stride0, long long bias_stride1, float param0, const float *read0) {
// OUT:      {nullptr, 0, 0, 0}, {b, 0, b_stride0, b_stride1}, {nullptr, 0, 0, 0},
// OUT-NEXT: alpha, beta);
// OUT-NEXT: problem.epilogue = {{[{][{]}}bias, 0, bias_stride0, bias_stride1}, 2, {{[{][{]}}gemm_rt::Step::Lower, true, {param0}}, {gemm_rt::Step::Tanh, false, {}}}};
// OUT-NEXT: problem.reads = {1, {{[{][{]}}read0, sizeof *read0}}};
// OUT-NEXT: const std::vector<const void *> a_rows = gemm_rt::rowStarts(a, problem.m, a_offset);
// OUT-NEXT: const std::vector<const void *> c_rows = gemm_rt::rowStarts(c, problem.m, c_offset);
// OUT-NEXT: const gemm_rt::RowOperands rows = {{[{][{]}}a_rows.data(), false}, {}, {c_rows.data(), false{{[}][}]}};
// OUT:      return gemm_rt::run(problem, rows, gemm_rt::Plan{variants,
// OUT:      if (!gemm_opt_nest_0((const float *const *)(x), N, C, 0, w, C, OC, 1, C, y, N, OC, 0, (*alpha), 0, b, N, OC, 0, 1, 0.F, alpha)) {

// MLIR-LABEL: func.func @gemm_opt_nest_0(
// MLIR: gemm.matmul %arg0, %arg1, %arg2, %arg3, %arg4 bias(%arg5 : {{.*}}) params(%arg6 : f32) reads(%arg7 : memref<f32>)
// MLIR-SAME: activation = [#gemm.clamp<lower, nan = bound>, #gemm.fn<tanh>], rows = [#gemm.rows<pointers>, #gemm.rows<none>, #gemm.rows<pointers>]
void layer(float **y, float *const *x, const float *w, const float *b,
           const float *alpha, int N, int C, int OC) {
  // REMARK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = N x OC x C; A row pointers, B column-major, C row pointers; accumulates in 's', alpha = (*alpha), beta = 0; reads '*alpha' before the nest (the loop runs where C holds it); epilogue: + 'b[o]', max with '0.F', tanh; rewritten to call gemm_opt_nest_0 [-Rpass=gemm]
  for (int n = 0; n < N; n++)
    for (int o = 0; o < OC; o++) {
      float s = 0;
      for (int i = 0; i < C; i++)
        s += x[n][i] * w[o * C + i];
      y[n][o] = tanhf(fmaxf(*alpha * s + b[o], 0.0f));
    }
}
