// Epilogues: an accumulator that starts from a bias (null-checked or not),
// a bias added at the store along M or N, C set to a bias ahead of an
// accumulation into it, statements that finish the sum (or a helper's
// by-value parameter that holds it), and an activation
// around the stored value (fmaxf/fminf, std::max/std::min, a conditional). They become
// the launcher's bias operand (zero strides along the dimensions it is
// broadcast over; `p ? p : 0` where the source checks for null) and clamp
// bounds: C = act(alpha*A*B + beta*C + bias).
//
// RUN: gemm-opt %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --check-prefix=OUT
// RUN: gemm-opt %s --emit=mlir 2>/dev/null | FileCheck %s --check-prefix=MLIR

#include <algorithm>
#include <cmath>
#include <cstddef>

float A[64][16], B[16][32], C[64][32], biasM[64], biasN[32];
double dA[64][16], dB[16][32], dC[64][32];

// OUT: #line 1 "{{.*}}epilogue.cpp"

// A dense layer: M is batch x time, the bias is nullable, then ReLU.
void dense(float *out, const float *inp, const float *weight,
           const float *bias, int Bn, int T, int Cn, int OC) {
  // REMARK: :[[@LINE+3]]:3: remark: GEMM recognised: f32, M x N x K = (Bn * T) x OC x Cn; A row-major, B column-major, C row-major; accumulates in 'val', alpha = 1, beta = 0; epilogue: + 'bias[o]' (none if null), max with '0.F'; rewritten to call gemm_opt_nest_0 [-Rpass=gemm]
  // OUT: if (!gemm_opt_nest_0(inp, Bn * T, Cn, Cn, 1, weight, Cn, OC, 1, Cn, out, Bn * T, OC, OC, 1, 1, 0, bias ? bias : 0, Bn * T, OC, 0, 1, 0.F)) {
  // MLIR: gemm.matmul {{.*}} bias(%arg5 : memref<?x?xf32, strided<[?, 1], offset: ?>>) params(%arg6 : f32) {activation = [#gemm.clamp<lower, nan = bound>]}
  for (int b = 0; b < Bn; b++)
    for (int t = 0; t < T; t++)
      for (int o = 0; o < OC; o++) {
        float val = (bias != NULL) ? bias[o] : 0.0f;
        for (int i = 0; i < Cn; i++)
          val += inp[(b * T + t) * Cn + i] * weight[o * Cn + i];
        out[(b * T + t) * OC + o] = fmaxf(val, 0.0f);
      }
}

void forms(float alpha, float beta, float lo, float hi, const float *bias) {
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: {{.*}}; accumulates in 's', alpha = 1, beta = 0; epilogue: + 'biasN[j]'; rewritten to call gemm_opt_nest_1 [-Rpass=gemm]
  // OUT: if (!gemm_opt_nest_1(&A[0][0], 64, 16, 16, 1, &B[0][0], 16, 32, 32, 1, &C[0][0], 64, 32, 32, 1, 1, 0, biasN, 64, 32, 0, 1)) {
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 32; ++j) {
      float s = biasN[j];
      for (int k = 0; k < 16; ++k)
        s += A[i][k] * B[k][j];
      C[i][j] = s;
    }

  // std::max with the sum second turns a NaN into the bound.
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: {{.*}}; epilogue: + 'bias[j]' (none if null), max with '0.F'; rewritten to call gemm_opt_nest_2 [-Rpass=gemm]
  // OUT: if (!gemm_opt_nest_2({{.*}}, 1, 0, bias ? bias : 0, 64, 32, 0, 1, 0.F)) {
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 32; ++j) {
      float s = !bias ? 0 : bias[j];
      for (int k = 0; k < 16; ++k)
        s += A[i][k] * B[k][j];
      C[i][j] = std::max(0.0f, s);
    }

  // alpha and beta with a bias at the store.
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: {{.*}}; accumulates in 's', alpha = alpha, beta = beta; epilogue: + 'biasN[j]', max with '0.F'; rewritten to call gemm_opt_nest_3 [-Rpass=gemm]
  // OUT: if (!gemm_opt_nest_3({{.*}}, alpha, beta, biasN, 64, 32, 0, 1, 0.F)) {
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 32; ++j) {
      float s = 0;
      for (int k = 0; k < 16; ++k)
        s += A[i][k] * B[k][j];
      C[i][j] = fmaxf(alpha * s + beta * C[i][j] + biasN[j], 0.0f);
    }

  // A clamp to [lo, hi] of a bias along M.
  // REMARK: :[[@LINE+3]]:3: remark: GEMM recognised: {{.*}}; epilogue: + 'biasM[i]', max with 'lo', min with 'hi'; rewritten to call gemm_opt_nest_4 [-Rpass=gemm]
  // OUT: if (!gemm_opt_nest_4({{.*}}, 1, 0, biasM, 64, 32, 1, 0, lo, hi)) {
  // MLIR: gemm.matmul {{.*}} params(%arg6, %arg7 : f32, f32) {activation = [#gemm.clamp<lower, nan = bound>, #gemm.clamp<upper, nan = bound>]}
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 32; ++j) {
      float s = 0;
      for (int k = 0; k < 16; ++k)
        s += A[i][k] * B[k][j];
      C[i][j] = fminf(fmaxf(biasM[i] + s, lo), hi);
    }

  // Through a local declared after the sum, under a conditional.
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: {{.*}}; epilogue: + 'biasM[i]', min with 'hi'; rewritten to call gemm_opt_nest_5 [-Rpass=gemm]
  // OUT: if (!gemm_opt_nest_5({{.*}}, 1, 0, biasM, 64, 32, 1, 0, hi)) {
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 32; ++j) {
      float s = 0;
      for (int k = 0; k < 16; ++k)
        s += A[i][k] * B[k][j];
      float x = s + biasM[i];
      C[i][j] = x < hi ? x : hi;
    }

  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f64, {{.*}}; epilogue: max with '0'; rewritten to call gemm_opt_nest_6 [-Rpass=gemm]
  // OUT: if (!gemm_opt_nest_6({{.*}}, 1, 0, 0)) {
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 32; ++j) {
      double s = 0;
      for (int k = 0; k < 16; ++k)
        s += dA[i][k] * dB[k][j];
      dC[i][j] = s > 0 ? s : 0;
    }
}

// Statements that finish the sum before its store: a bias, then clamps.
void statements(float lo, float hi) {
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: {{.*}}; accumulates in 'v', alpha = 1, beta = 0; epilogue: + 'biasN[j]', max with 'lo', min with 'hi'; rewritten to call gemm_opt_nest_7 [-Rpass=gemm]
  // OUT: if (!gemm_opt_nest_7({{.*}}, 1, 0, biasN, 64, 32, 0, 1, lo, hi)) {
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 32; ++j) {
      float v = 0;
      for (int k = 0; k < 16; ++k)
        v += A[i][k] * B[k][j];
      v += biasN[j];
      v = fmaxf(v, lo);
      v = v < hi ? v : hi;
      C[i][j] = v;
    }
}

// C set to a bias ahead of an accumulation into C: beta 0 and a bias.
void intoC(const float *bias) {
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: {{.*}}; fused bias init of C, alpha = 1, beta = 0; epilogue: + 'bias[j]' (none if null); rewritten to call gemm_opt_nest_8 [-Rpass=gemm]
  // OUT: if (!gemm_opt_nest_8({{.*}}, 1, 0, bias ? bias : 0, 64, 32, 0, 1)) {
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 32; ++j) {
      C[i][j] = bias ? bias[j] : 0.0f;
      for (int k = 0; k < 16; ++k)
        C[i][j] += A[i][k] * B[k][j];
    }
}

// A bias per batch element and column; std::min with the sum first keeps
// a NaN.
void batched(float *c, const float *a, const float *b, const float *bias,
             int H, int M, int N, int K) {
  // REMARK: :[[@LINE+3]]:3: remark: GEMM recognised: f32, M x N x K = M x N x K, batch H; {{.*}}; epilogue: + 'bias[h * N + j]', min with '6.F' (NaN kept); rewritten to call gemm_opt_nest_9 [-Rpass=gemm]
  // OUT: if (!gemm_opt_nest_9({{.*}}, 1, 0, bias, H, M, N, N, 0, 1, 6.F)) {
  // MLIR: {activation = [#gemm.clamp<upper, nan = keep>]}
  for (int h = 0; h < H; ++h)
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        float s = bias[h * N + j];
        for (int k = 0; k < K; ++k)
          s += a[(h * M + i) * K + k] * b[k * N + j];
        c[(h * M + i) * N + j + h] = std::min(s, 6.0f);
      }
}

// A helper that finishes the sum in its by-value parameter: the parameter
// is a copy of the sum (`v = s`), and its steps are the sum's.
static inline float relu_bias(float v, float b) {
  v += b;
  v = std::max(v, 0.0f);
  return v;
}

void copied(float *c, const float *a, const float *b, const float *bias,
            int M, int N, int K) {
  // REMARK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, {{.*}}; epilogue: + 'bias[j]', max with '0.F' (NaN kept); rewritten to call gemm_opt_nest_10 [-Rpass=gemm]
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float s = 0;
      for (int k = 0; k < K; ++k)
        s += a[i * K + k] * b[k * N + j];
      c[i * N + j] = relu_bias(s, bias[j]);
    }
}

// Near miss: the sum read again after its copy took it.
static inline float twice(float v, float s) {
  v = std::max(v, 0.0f);
  return v + s;
}

void copied_and_read(float *c, const float *a, const float *b, int M, int N,
                     int K) {
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: accumulator 's' is used after its copy 'v' takes the sum [-Rpass-missed=gemm]
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float s = 0;
      for (int k = 0; k < K; ++k)
        s += a[i * K + k] * b[k * N + j];
      c[i * N + j] = twice(s, s);
    }
}
