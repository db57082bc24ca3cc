// Activation functions that are not rewritten, each with its reason: tanh
// scaled after the call, a sigmoid without the minus, a GELU with another
// factor than 0.5 or a square for the cube, a float tanhf in a double nest,
// two functions, and a function under +=.
//
// RUN: gemm-opt %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --check-prefix=OUT
//
// OUT:     #line 1 "{{.*}}reject-activation.cpp"
// No nest is a GEMM as a whole: the launches are of products through
// temporaries (Temporary.cpp), each in the block that allocates its own.
// OUT-NOT: if (!gemm_opt_nest

#include <cmath>

float A[64][16], B[16][32], C[64][32], bias[32];
double dA[64][16], dB[16][32], dC[64][32];

void rejected() {
  // REMARK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = 64 x 32 x 16; A row-major, B row-major, C row-major; into a temporary, alpha = 1, beta = 0; the product goes through a temporary of 64 x 32 elements, and the rest of the nest runs as written (the K loop at line [[@LINE+4]] reads it; where its stores may meet A or B, the loop runs), since as a whole the nest is no GEMM: the activation around 'tanhf(s + bias[j])' is none of the recognised forms: tanh(x), 1 / (1 + exp(-x)), 0.5*x*(1 + tanh(k*(x + c*x*x*x))), 0.5*x*(1 + erf(x*s)) and clamps; rewritten to call gemm_opt_nest_{{[0-9]+}} [-Rpass=gemm]
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 32; ++j) {
      float s = 0;
      for (int k = 0; k < 16; ++k)
        s += A[i][k] * B[k][j];
      C[i][j] = 2.0f * tanhf(s + bias[j]);
    }

  // REMARK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = 64 x 32 x 16; A row-major, B row-major, C row-major; into a temporary, alpha = 1, beta = 0; the product goes through a temporary of 64 x 32 elements, and the rest of the nest runs as written (the K loop at line [[@LINE+4]] reads it; where its stores may meet A or B, the loop runs), since as a whole the nest is no GEMM: the activation around 'expf(s)' is none of the recognised forms: tanh(x), 1 / (1 + exp(-x)), 0.5*x*(1 + tanh(k*(x + c*x*x*x))), 0.5*x*(1 + erf(x*s)) and clamps; rewritten to call gemm_opt_nest_{{[0-9]+}} [-Rpass=gemm]
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 32; ++j) {
      float s = 0;
      for (int k = 0; k < 16; ++k)
        s += A[i][k] * B[k][j];
      C[i][j] = 1.0f / (1.0f + expf(s));
    }

  // REMARK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = 64 x 32 x 16; A row-major, B row-major, C row-major; into a temporary, alpha = 1, beta = 0; the product goes through a temporary of 64 x 32 elements, and the rest of the nest runs as written (the K loop at line [[@LINE+4]] reads it; where its stores may meet A or B, the loop runs), since as a whole the nest is no GEMM: the activation around 'tanhf(0.797884583F * (s + 0.0447149985F * s * s * s))' is none of the recognised forms: tanh(x), 1 / (1 + exp(-x)), 0.5*x*(1 + tanh(k*(x + c*x*x*x))), 0.5*x*(1 + erf(x*s)) and clamps; rewritten to call gemm_opt_nest_{{[0-9]+}} [-Rpass=gemm]
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 32; ++j) {
      float s = 0;
      for (int k = 0; k < 16; ++k)
        s += A[i][k] * B[k][j];
      C[i][j] = 0.25f * s * (1.0f + tanhf(0.7978845608f * (s + 0.044715f * s * s * s)));
    }

  // REMARK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = 64 x 32 x 16; A row-major, B row-major, C row-major; into a temporary, alpha = 1, beta = 0; the product goes through a temporary of 64 x 32 elements, and the rest of the nest runs as written (the K loop at line [[@LINE+4]] reads it; where its stores may meet A or B, the loop runs), since as a whole the nest is no GEMM: the activation around 'tanhf(0.797884583F * (s + 0.0447149985F * s * s))' is none of the recognised forms: tanh(x), 1 / (1 + exp(-x)), 0.5*x*(1 + tanh(k*(x + c*x*x*x))), 0.5*x*(1 + erf(x*s)) and clamps; rewritten to call gemm_opt_nest_{{[0-9]+}} [-Rpass=gemm]
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 32; ++j) {
      float s = 0;
      for (int k = 0; k < 16; ++k)
        s += A[i][k] * B[k][j];
      C[i][j] = 0.5f * s * (1.0f + tanhf(0.7978845608f * (s + 0.044715f * s * s)));
    }

  // REMARK: :[[@LINE+1]]:3: remark: GEMM recognised: f64, M x N x K = 64 x 32 x 16; A row-major, B row-major, C row-major; into a temporary, alpha = 1, beta = 0; the product goes through a temporary of 64 x 32 elements, and the rest of the nest runs as written (the K loop at line [[@LINE+4]] reads it; where its stores may meet A or B, the loop runs), since as a whole the nest is no GEMM: the activation 'tanhf(s)' computes in 'float'; C is 'double'; rewritten to call gemm_opt_nest_{{[0-9]+}} [-Rpass=gemm]
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 32; ++j) {
      double s = 0;
      for (int k = 0; k < 16; ++k)
        s += dA[i][k] * dB[k][j];
      dC[i][j] = tanhf(s);
    }

  // REMARK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = 64 x 32 x 16; A row-major, B row-major, C row-major; into a temporary, alpha = 1, beta = 0; the product goes through a temporary of 64 x 32 elements, and the rest of the nest runs as written (the K loop at line [[@LINE+4]] reads it; where its stores may meet A or B, the loop runs), since as a whole the nest is no GEMM: activation of 2 functions: at most one (tanh, sigmoid or GELU) is supported; rewritten to call gemm_opt_nest_{{[0-9]+}} [-Rpass=gemm]
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 32; ++j) {
      float s = 0;
      for (int k = 0; k < 16; ++k)
        s += A[i][k] * B[k][j];
      C[i][j] = tanhf(1.0f / (1.0f + expf(-s)));
    }

  // REMARK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = 64 x 32 x 16; A row-major, B row-major, C row-major; into a temporary, alpha = 1, beta = 0; the product goes through a temporary of 64 x 32 elements, and the rest of the nest runs as written (the K loop at line [[@LINE+4]] reads it; where its stores may meet A or B, the loop runs), since as a whole the nest is no GEMM: the activation 'tanhf(s)' is added to C (+=): it would apply to the new term alone, not to the element of C; rewritten to call gemm_opt_nest_{{[0-9]+}} [-Rpass=gemm]
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 32; ++j) {
      float s = 0;
      for (int k = 0; k < 16; ++k)
        s += A[i][k] * B[k][j];
      C[i][j] += tanhf(s);
    }
}
