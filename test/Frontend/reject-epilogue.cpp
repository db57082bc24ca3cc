// Epilogues that are not rewritten, each with its reason: a call that no
// activation makes (test/Frontend/reject-activation.cpp has the functions'
// near-misses), two biases, a bias that alpha would scale, an
// activation under +=, a bias that is C or of another type, a clamp that
// rounds, more than two clamps, and statements
// after the sum that are no bias or clamp, or come in the wrong order.
//
// RUN: gemm-opt %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --check-prefix=OUT
//
// OUT:     #line 1 "{{.*}}reject-epilogue.cpp"
// No nest is a GEMM as a whole: the launches are of products through
// temporaries (Temporary.cpp), each in the block that allocates its own.
// OUT-NOT: if (!gemm_opt_nest

#include <cmath>
#include <cstddef>

float A[64][16], B[16][32], C[64][32], bias[32], other[32];
double dA[64][16], dB[16][32], dC[64][32], dbias[32];

void rejected(float alpha, const float *p, const float *q) {
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the nest applies 'logf', which no epilogue of the GEMM computes (it has the clamps, tanh, sigmoid and GELU) [-Rpass-missed=gemm]
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 32; ++j) {
      float s = 0;
      for (int k = 0; k < 16; ++k)
        s += A[i][k] * B[k][j];
      C[i][j] = logf(s + bias[j]);
    }

  // REMARK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = 64 x 32 x 16; A row-major, B row-major, C row-major; into a temporary, alpha = 1, beta = 0; the product goes through a temporary of 64 x 32 elements, and the rest of the nest runs as written (the K loop at line [[@LINE+4]] reads it; where its stores may meet A or B, the loop runs), since as a whole the nest is no GEMM: two biases added to 'C[i][j]': at most one bias element per element of C; rewritten to call gemm_opt_nest_{{[0-9]+}} [-Rpass=gemm]
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 32; ++j) {
      float s = bias[j];
      for (int k = 0; k < 16; ++k)
        s += A[i][k] * B[k][j];
      C[i][j] = s + other[j];
    }

  // REMARK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = 64 x 32 x 16; A row-major, B row-major, C row-major; into a temporary, alpha = 1, beta = 0; the product goes through a temporary of 64 x 32 elements, and the rest of the nest runs as written (the K loop at line [[@LINE+4]] reads it; where its stores may meet A or B, the loop runs), since as a whole the nest is no GEMM: accumulator 's' holds the bias 'bias[j]', which the store scales by 'alpha' with the sum: the epilogue adds the bias after alpha, and scales no bias; rewritten to call gemm_opt_nest_{{[0-9]+}} [-Rpass=gemm]
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 32; ++j) {
      float s = bias[j];
      for (int k = 0; k < 16; ++k)
        s += A[i][k] * B[k][j];
      C[i][j] = alpha * s;
    }

  // REMARK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = 64 x 32 x 16; A row-major, B row-major, C row-major; into a temporary, alpha = 1, beta = 0; the product goes through a temporary of 64 x 32 elements, and the rest of the nest runs as written (the K loop at line [[@LINE+4]] reads it; where its stores may meet A or B, the loop runs), since as a whole the nest is no GEMM: the activation 'fmaxf(s, 0.F)' is added to C (+=): it would apply to the new term alone, not to the element of C; rewritten to call gemm_opt_nest_{{[0-9]+}} [-Rpass=gemm]
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 32; ++j) {
      float s = 0;
      for (int k = 0; k < 16; ++k)
        s += A[i][k] * B[k][j];
      C[i][j] += fmaxf(s, 0.0f);
    }

  // REMARK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = 64 x 32 x 16; A row-major, B row-major, C row-major; into a temporary, alpha = 1, beta = 0; the product goes through a temporary of 64 x 32 elements, and the rest of the nest runs as written (the K loop at line [[@LINE+4]] reads it; where its stores may meet A or B, the loop runs), since as a whole the nest is no GEMM: the bias 'C[0][j]' reads C, which the nest writes; rewritten to call gemm_opt_nest_{{[0-9]+}} [-Rpass=gemm]
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 32; ++j) {
      float s = 0;
      for (int k = 0; k < 16; ++k)
        s += A[i][k] * B[k][j];
      C[i][j] = s + C[0][j];
    }

  // REMARK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = 64 x 32 x 16; A row-major, B row-major, C row-major; into a temporary, alpha = 1, beta = 0; the product goes through a temporary of 64 x 32 elements, and the rest of the nest runs as written (the K loop at line [[@LINE+4]] reads it; where its stores may meet A or B, the loop runs), since as a whole the nest is no GEMM: the bias 'dbias[j]' is 'double' but C is 'float'; rewritten to call gemm_opt_nest_{{[0-9]+}} [-Rpass=gemm]
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 32; ++j) {
      float s = 0;
      for (int k = 0; k < 16; ++k)
        s += A[i][k] * B[k][j];
      C[i][j] = s + dbias[j];
    }

  // REMARK: :[[@LINE+1]]:3: remark: GEMM recognised: f64, M x N x K = 64 x 32 x 16; A row-major, B row-major, C row-major; into a temporary, alpha = 1, beta = 0; the product goes through a temporary of 64 x 32 elements, and the rest of the nest runs as written (the K loop at line [[@LINE+4]] reads it; where its stores may meet A or B, the loop runs), since as a whole the nest is no GEMM: the activation 'fmaxf(s, 0.F)' computes in 'float'; C is 'double'; rewritten to call gemm_opt_nest_{{[0-9]+}} [-Rpass=gemm]
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 32; ++j) {
      double s = 0;
      for (int k = 0; k < 16; ++k)
        s += dA[i][k] * dB[k][j];
      dC[i][j] = fmaxf(s, 0.0f);
    }

  // REMARK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = 64 x 32 x 16; A row-major, B row-major, C row-major; into a temporary, alpha = 1, beta = 0; the product goes through a temporary of 64 x 32 elements, and the rest of the nest runs as written (the K loop at line [[@LINE+4]] reads it; where its stores may meet A or B, the loop runs), since as a whole the nest is no GEMM: activation of 3 clamps: at most two (a lower and an upper bound) are supported; rewritten to call gemm_opt_nest_{{[0-9]+}} [-Rpass=gemm]
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 32; ++j) {
      float s = 0;
      for (int k = 0; k < 16; ++k)
        s += A[i][k] * B[k][j];
      C[i][j] = fmaxf(fminf(fmaxf(s, 0.0f), 6.0f), 1.0f);
    }

  // A bound that varies is no clamp.
  // REMARK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = 64 x 32 x 16; A row-major, B row-major, C row-major; into a temporary, alpha = 1, beta = 0; the product goes through a temporary of 64 x 32 elements, and the rest of the nest runs as written (the K loop at line [[@LINE+4]] reads it; where its stores may meet A or B, the loop runs), since as a whole the nest is no GEMM: unsupported store of accumulator 's': expected C = alpha*s + beta*C, C = s, C += s or C -= s, with an optional bias term and activation; rewritten to call gemm_opt_nest_{{[0-9]+}} [-Rpass=gemm]
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 32; ++j) {
      float s = 0;
      for (int k = 0; k < 16; ++k)
        s += A[i][k] * B[k][j];
      C[i][j] = fmaxf(s, bias[j]);
    }

  // REMARK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = 64 x 32 x 16; A row-major, B row-major, C row-major; into a temporary, alpha = 1, beta = 0; the product goes through a temporary of 64 x 32 elements, and the rest of the nest runs as written (the K loop at line [[@LINE+4]] reads it; where its stores may meet A or B, the loop runs), since as a whole the nest is no GEMM: the bias 'bias[j]' is added to 'v' after its activation; rewritten to call gemm_opt_nest_{{[0-9]+}} [-Rpass=gemm]
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 32; ++j) {
      float v = 0;
      for (int k = 0; k < 16; ++k)
        v += A[i][k] * B[k][j];
      v = fmaxf(v, 0.0f);
      v += bias[j];
      C[i][j] = v;
    }

  // REMARK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = 64 x 32 x 16; A row-major, B row-major, C row-major; into a temporary, alpha = 1, beta = 0; the product goes through a temporary of 64 x 32 elements, and the rest of the nest runs as written (the K loop at line [[@LINE+4]] reads it; where its stores may meet A or B, the loop runs), since as a whole the nest is no GEMM: the store of accumulator 'v' scales or adds to it after its activation; rewritten to call gemm_opt_nest_{{[0-9]+}} [-Rpass=gemm]
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 32; ++j) {
      float v = 0;
      for (int k = 0; k < 16; ++k)
        v += A[i][k] * B[k][j];
      v = fmaxf(v, 0.0f);
      C[i][j] = alpha * v;
    }

  // REMARK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = 64 x 32 x 16; A row-major, B row-major, C row-major; into a temporary, alpha = 1, beta = 0; the product goes through a temporary of 64 x 32 elements, and the rest of the nest runs as written (the K loop at line [[@LINE+4]] reads it; where its stores may meet A or B, the loop runs), since as a whole the nest is no GEMM: accumulator 'v' is written after the sum by 'v *= 2': only a bias (v += bias[o]) or an activation (v = fmaxf(v, 0)) may finish it; rewritten to call gemm_opt_nest_{{[0-9]+}} [-Rpass=gemm]
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 32; ++j) {
      float v = 0;
      for (int k = 0; k < 16; ++k)
        v += A[i][k] * B[k][j];
      v *= 2;
      C[i][j] = v;
    }


  // C set to a bias in a loop of its own ahead of the accumulation.
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: 'C[i][j]' is written besides the accumulation into C (only a zero-init, a scaling of C, a bias element or a step of the sum may be fused) [-Rpass-missed=gemm]
  for (int i = 0; i < 64; ++i) {
    for (int j = 0; j < 32; ++j)
      C[i][j] = bias[j];
    for (int k = 0; k < 16; ++k)
      for (int j = 0; j < 32; ++j)
        C[i][j] += A[i][k] * B[k][j];
  }
}
