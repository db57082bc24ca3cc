// Activation functions that are not rewritten, each with its reason: tanh
// scaled after the call, a sigmoid without the minus, a GELU with another
// factor than 0.5 or a square for the cube, a float tanhf in a double nest,
// two functions, and a function under +=.
//
// RUN: gemm-opt %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --check-prefix=OUT
//
// OUT-NOT: gemm_opt_nest
// OUT:     #line 1 "{{.*}}reject-activation.cpp"
// OUT-NOT: gemm_opt_nest

#include <cmath>

float A[64][16], B[16][32], C[64][32], bias[32];
double dA[64][16], dB[16][32], dC[64][32];

void rejected() {
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the activation around 'tanhf(s + bias[j])' is none of the recognised forms: tanh(x), 1 / (1 + exp(-x)), 0.5*x*(1 + tanh(k*(x + c*x*x*x))), 0.5*x*(1 + erf(x*s)) and clamps [-Rpass-missed=gemm]
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 32; ++j) {
      float s = 0;
      for (int k = 0; k < 16; ++k)
        s += A[i][k] * B[k][j];
      C[i][j] = 2.0f * tanhf(s + bias[j]);
    }

  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the activation around 'expf(s)' is none of the recognised forms: {{.*}} [-Rpass-missed=gemm]
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 32; ++j) {
      float s = 0;
      for (int k = 0; k < 16; ++k)
        s += A[i][k] * B[k][j];
      C[i][j] = 1.0f / (1.0f + expf(s));
    }

  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the activation around 'tanhf(0.797884583F * (s + 0.0447149985F * s * s * s))' is none of the recognised forms: {{.*}} [-Rpass-missed=gemm]
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 32; ++j) {
      float s = 0;
      for (int k = 0; k < 16; ++k)
        s += A[i][k] * B[k][j];
      C[i][j] = 0.25f * s * (1.0f + tanhf(0.7978845608f * (s + 0.044715f * s * s * s)));
    }

  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the activation around 'tanhf(0.797884583F * (s + 0.0447149985F * s * s))' is none of the recognised forms: {{.*}} [-Rpass-missed=gemm]
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 32; ++j) {
      float s = 0;
      for (int k = 0; k < 16; ++k)
        s += A[i][k] * B[k][j];
      C[i][j] = 0.5f * s * (1.0f + tanhf(0.7978845608f * (s + 0.044715f * s * s)));
    }

  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the activation 'tanhf(s)' computes in 'float'; C is 'double' [-Rpass-missed=gemm]
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 32; ++j) {
      double s = 0;
      for (int k = 0; k < 16; ++k)
        s += dA[i][k] * dB[k][j];
      dC[i][j] = tanhf(s);
    }

  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: activation of 2 functions: at most one (tanh, sigmoid or GELU) is supported [-Rpass-missed=gemm]
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 32; ++j) {
      float s = 0;
      for (int k = 0; k < 16; ++k)
        s += A[i][k] * B[k][j];
      C[i][j] = tanhf(1.0f / (1.0f + expf(-s)));
    }

  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the activation 'tanhf(s)' is added to C (+=): it would apply to the new term alone, not to the element of C [-Rpass-missed=gemm]
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 32; ++j) {
      float s = 0;
      for (int k = 0; k < 16; ++k)
        s += A[i][k] * B[k][j];
      C[i][j] += tanhf(s);
    }
}
