// Activations besides clamps: tanh (tanhf, tanh, std::tanh), the sigmoid
// 1 / (1 + exp(-x)), and GELU in its tanh form (llm.c's, the constants
// spelled as a macro or literals, the cube through a local) and its erf
// form (x / sqrt(2) or x * M_SQRT1_2), in float and double, alone, after a
// bias, as a statement after the sum and under a clamp. They become
// #gemm.fn steps; a GELU's constants are the launcher's params, as the
// source spells them.
//
// RUN: gemm-opt %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --check-prefix=OUT
// RUN: gemm-opt %s --emit=mlir 2>/dev/null | FileCheck %s --check-prefix=MLIR

#include <cmath>

#define GELU_SCALING_FACTOR sqrtf(2.0f / M_PI)

float A[64][16], B[16][32], C[64][32], bias[32];
double dA[64][16], dB[16][32], dC[64][32], dbias[32];

void functions() {
  // REMARK: :[[@LINE+3]]:3: remark: GEMM recognised: {{.*}}epilogue: + 'bias[j]', tanh; rewritten to call gemm_opt_nest_0 [-Rpass=gemm]
  // OUT: bias, 64, 32, 0, 1)) {
  // MLIR: gemm.matmul {{.*}} bias(%arg5 : {{.*}}) {activation = [#gemm.fn<tanh>]} : {{.*}}, f32
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 32; ++j) {
      float s = 0;
      for (int k = 0; k < 16; ++k)
        s += A[i][k] * B[k][j];
      C[i][j] = tanhf(s + bias[j]);
    }

  // REMARK: :[[@LINE+3]]:3: remark: GEMM recognised: f64, {{.*}} epilogue: tanh; rewritten to call gemm_opt_nest_1 [-Rpass=gemm]
  // OUT: &dC[0][0], 64, 32, 32, 1, 1, 0)) {
  // MLIR: gemm.matmul {{.*}} {activation = [#gemm.fn<tanh>]} : {{.*}}, f64
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 32; ++j) {
      double s = 0;
      for (int k = 0; k < 16; ++k)
        s += dA[i][k] * dB[k][j];
      dC[i][j] = std::tanh(s);
    }

  // REMARK: :[[@LINE+3]]:3: remark: GEMM recognised: {{.*}}accumulates in 's', alpha = 1, beta = 0; epilogue: + 'bias[j]', sigmoid; rewritten to call gemm_opt_nest_2 [-Rpass=gemm]
  // OUT: bias, 64, 32, 0, 1)) {
  // MLIR: gemm.matmul {{.*}} bias(%arg5 : {{.*}}) {activation = [#gemm.fn<sigmoid>]} : {{.*}}, f32
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 32; ++j) {
      float s = bias[j];
      for (int k = 0; k < 16; ++k)
        s += A[i][k] * B[k][j];
      C[i][j] = 1.0f / (1.0f + expf(-s));
    }

  // REMARK: :[[@LINE+3]]:3: remark: GEMM recognised: f64, {{.*}} epilogue: + 'dbias[j]', sigmoid; rewritten to call gemm_opt_nest_3 [-Rpass=gemm]
  // OUT: dbias, 64, 32, 0, 1)) {
  // MLIR: gemm.matmul {{.*}} {activation = [#gemm.fn<sigmoid>]} : {{.*}}, f64
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 32; ++j) {
      double s = 0;
      for (int k = 0; k < 16; ++k)
        s += dA[i][k] * dB[k][j];
      double x = s + dbias[j];
      dC[i][j] = 1 / (1 + exp(-x));
    }

  // REMARK: :[[@LINE+3]]:3: remark: GEMM recognised: {{.*}}epilogue: tanh, max with '0.F'; rewritten to call gemm_opt_nest_4 [-Rpass=gemm]
  // OUT: 1, 1, 0, 0.F)) {
  // MLIR: gemm.matmul {{.*}} params(%arg5 : f32) {activation = [#gemm.fn<tanh>, #gemm.clamp<lower, nan = bound>]}
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 32; ++j) {
      float s = 0;
      for (int k = 0; k < 16; ++k)
        s += A[i][k] * B[k][j];
      s = std::tanh(s);
      C[i][j] = fmaxf(s, 0.0f);
    }
}

// llm.c's GELU after a matmul with a bias.
void gelu_tanh(float *out, const float *inp, const float *w, const float *b,
               int N, int IC, int OC) {
  // REMARK: :[[@LINE+3]]:3: remark: GEMM recognised: f32, M x N x K = N x OC x IC; {{.*}} epilogue: + 'b[o]', GELU (tanh form, k = 'sqrtf(2.F / 3.1415926535897931)', c = '0.0447149985F'); rewritten to call gemm_opt_nest_5 [-Rpass=gemm]
  // OUT: b, N, OC, 0, 1, sqrtf(2.F / 3.1415926535897931), 0.0447149985F)) {
  // MLIR: gemm.matmul {{.*}} bias(%arg5 : {{.*}}) params(%arg6, %arg7 : f32, f32) {activation = [#gemm.fn<gelu_tanh>]}
  for (int n = 0; n < N; n++)
    for (int o = 0; o < OC; o++) {
      float val = b[o];
      for (int i = 0; i < IC; i++)
        val += inp[n * IC + i] * w[o * IC + i];
      float x = val;
      float cube = 0.044715f * x * x * x;
      out[n * OC + o] = 0.5f * x * (1.0f + tanhf(GELU_SCALING_FACTOR * (x + cube)));
    }

  // REMARK: :[[@LINE+3]]:3: remark: GEMM recognised: f64, {{.*}} epilogue: GELU (tanh form, k = '0.79788456080286541', c = '0.044714999999999998'); rewritten to call gemm_opt_nest_6 [-Rpass=gemm]
  // OUT: 1, 1, 0, 0.79788456080286541, 0.044714999999999998)) {
  // MLIR: gemm.matmul {{.*}} params(%arg5, %arg6 : f64, f64) {activation = [#gemm.fn<gelu_tanh>]}
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 32; ++j) {
      double s = 0;
      for (int k = 0; k < 16; ++k)
        s += dA[i][k] * dB[k][j];
      dC[i][j] = 0.5 * s * (1.0 + tanh(0.7978845608028654 * (s + 0.044715 * s * s * s)));
    }
}

void gelu_erf() {
  // REMARK: :[[@LINE+3]]:3: remark: GEMM recognised: f64, {{.*}} epilogue: GELU (erf form, erf(x * '1.0 / sqrt(2.)')); rewritten to call gemm_opt_nest_7 [-Rpass=gemm]
  // OUT: 1, 1, 0, 1.0 / sqrt(2.))) {
  // MLIR: gemm.matmul {{.*}} params(%arg5 : f64) {activation = [#gemm.fn<gelu_erf>]}
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 32; ++j) {
      double s = 0;
      for (int k = 0; k < 16; ++k)
        s += dA[i][k] * dB[k][j];
      dC[i][j] = 0.5 * s * (1 + erf(s / sqrt(2.0)));
    }

  // REMARK: :[[@LINE+3]]:3: remark: GEMM recognised: f32, {{.*}} epilogue: + 'bias[j]', GELU (erf form, erf(x * '0.70710678118654757')); rewritten to call gemm_opt_nest_8 [-Rpass=gemm]
  // OUT: bias, 64, 32, 0, 1, 0.70710678118654757)) {
  // MLIR: gemm.matmul {{.*}} bias(%arg5 : {{.*}}) params(%arg6 : f32) {activation = [#gemm.fn<gelu_erf>]}
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 32; ++j) {
      float s = 0;
      for (int k = 0; k < 16; ++k)
        s += A[i][k] * B[k][j];
      float x = s + bias[j];
      C[i][j] = x * 0.5f * (1.0f + erff(x * M_SQRT1_2));
    }
}
