// A `switch` on an integer that the nest never changes versions the nest:
// one version per way into the switch's body (each case's statements up to
// its `break`, in its braces or not, or to its `return`, through the labels
// it falls past, and the values no label lists: the `default:` case, or
// nothing). The switch may be in the nest
// (a broadcast mode that picks B's batch offset, the update per layout) or
// in a helper the nest calls (an activation chosen by a layer's type). The
// rewrite switches once, before the nest; a version that is no GEMM runs
// the loops. A helper called with a constant needs no version. Near misses:
// a condition the nest changes, a switch whose cases are no plain list, a
// helper read with two conditions, and a switch no case of which is a GEMM.
//
// RUN: gemm-opt %s -o %t.cu 2>&1 | FileCheck %s --implicit-check-not=remark:
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --check-prefix=OUT
#include <algorithm>
#include <cmath>

// An activation picked by the layer's type: ReLU, leaky ReLU, clip,
// sigmoid, softplus; any other type leaves the value.
static inline float activate(float x, int kind, const float *params) {
  switch (kind) {
  case 1:
    x = std::max(x, 0.f);
    break;
  case 2: {
    float slope = params[0];
    x = x > 0.f ? x : x * slope;
  } break;
  case 3: {
    float lo = params[0], hi = params[1];
    x = std::min(std::max(x, lo), hi);
  } break;
  case 4:
    x = 1.f / (1.f + expf(-x));
    break;
  case 5:
    x = logf(1.f + expf(x));
    break;
  }
  return x;
}

struct FullyConnected {
  int outputs, bias_term, kind;
  const float *weight, *bias, *params;
};

void forward(const FullyConnected &fc, const float *in, float *out, int rows,
             int width) {
  // CHECK: :[[@LINE+1]]:3: remark: versioned on the 'switch' on 'fc.kind'; where it is 1, GEMM recognised: f32, M x N x K = rows x fc.outputs x width; {{.*}}; epilogue: + 'fc.bias[p]' (none where 'fc.bias_term' is false), max with '0.F' (NaN kept), rewritten to call gemm_opt_nest_0; where it is 2, left as written: {{.*}}'x = x > 0.F ? x : x * slope'{{.*}}; where it is 3, left as written: {{.*}}'x = std::min(std::max(x, lo), hi)'{{.*}}; where it is 4, GEMM recognised: {{.*}}; epilogue: + 'fc.bias[p]' (none where 'fc.bias_term' is false), sigmoid, rewritten to call gemm_opt_nest_1; where it is 5, left as written: the nest applies 'logf', which no epilogue of the GEMM computes (it has the clamps, tanh, sigmoid and GELU); where it is none of the values listed, GEMM recognised: {{.*}}; epilogue: + 'fc.bias[p]' (none where 'fc.bias_term' is false), rewritten to call gemm_opt_nest_2 [-Rpass=gemm]
  for (int r = 0; r < rows; r++)
    for (int p = 0; p < fc.outputs; p++) {
      float sum = 0.f;
      if (fc.bias_term)
        sum = fc.bias[p];
      for (int i = 0; i < width; i++)
        sum += in[r * width + i] * fc.weight[p * width + i];
      out[r * fc.outputs + p] = activate(sum, fc.kind, fc.params);
    }
}
// OUT: { if (!((rows) > 0 && (fc.outputs) > 0 && (width) > 0)) {
// OUT: } else switch ((long long)(fc.kind)) {
// OUT-NEXT: case 1LL: {
// OUT-NEXT: if (!gemm_opt_nest_0(
// OUT: } break;
// OUT-NEXT: case 4LL: {
// OUT-NEXT: if (!gemm_opt_nest_1(
// OUT: } break;
// OUT-NEXT: default: {
// OUT-NEXT: if (!gemm_opt_nest_2(
// OUT: } break;
// OUT-NEXT: case 2LL: case 3LL: case 5LL: {
// OUT-NEXT: #line 51
// OUT-NEXT: for (int r = 0; r < rows; r++)

// A helper called with a constant kind: its case is read, no version.
void relu_layer(const FullyConnected &fc, const float *in, float *out,
                int rows, int width) {
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: {{.*}} epilogue: max with '0.F' (NaN kept); rewritten to call gemm_opt_nest_3 [-Rpass=gemm]
  for (int r = 0; r < rows; r++)
    for (int p = 0; p < fc.outputs; p++) {
      float sum = 0.f;
      for (int i = 0; i < width; i++)
        sum += in[r * width + i] * fc.weight[p * width + i];
      out[r * fc.outputs + p] = activate(sum, 1, fc.params);
    }
}

struct MatMulParam {
  int batch, m, n, k;
  int b_dims; // 2: one B for every batch; 3: a B per batch
};

// A batched product whose B is shared by every batch or not, as the
// switch on B's rank picks its offset; an unknown rank reads a B per batch.
void matmul(const float *a, const float *b, float *c, const MatMulParam *p) {
  // CHECK: :[[@LINE+1]]:3: remark: versioned on the 'switch' on 'p->b_dims'; where it is 2, GEMM recognised: f32, M x N x K = (p->batch * p->m) x p->n x p->k; {{.*}}, rewritten to call gemm_opt_nest_4; where it is 3 or none of the values listed, GEMM recognised: f32, M x N x K = p->m x p->n x p->k, batch p->batch; {{.*}}, rewritten to call gemm_opt_nest_5 [-Rpass=gemm]
  for (int nb = 0; nb < p->batch; nb++) {
    const float *pa = a + nb * p->m * p->k;
    const float *pb;
    switch (p->b_dims) {
    case 2:
      pb = b;
      break;
    case 3:
    default:
      pb = b + nb * p->k * p->n;
      break;
    }
    for (int i = 0; i < p->m; i++)
      for (int j = 0; j < p->n; j++) {
        float tmp = 0.f;
        for (int kk = 0; kk < p->k; kk++)
          tmp += pa[i * p->k + kk] * pb[kk * p->n + j];
        c[nb * p->m * p->n + i * p->n + j] = tmp;
      }
  }
}
// OUT: } else switch ((long long)(p->b_dims)) {
// OUT-NEXT: case 2LL: {
// OUT-NEXT: if (!gemm_opt_nest_4(
// OUT: } break;
// OUT-NEXT: case 3LL: default: {
// OUT-NEXT: if (!gemm_opt_nest_5(
// OUT: } break;
// OUT-NEXT: } }

enum Layout { NN = 0, NT = 1, TN = 2, SQUARE = 3 };

// The update per layout in the K loop, the labels enumerators. SQUARE
// multiplies A by itself, and a value no label lists updates nothing: no
// GEMM, so the loops run.
void gemm_layout(Layout layout, int M, int N, int K, const double *A,
                 const double *B, double *C) {
  // CHECK: :[[@LINE+1]]:3: remark: versioned on the 'switch' on 'layout'; where it is NN, GEMM recognised: f64, {{.*}}; A row-major, B row-major, C row-major; {{.*}}, rewritten to call gemm_opt_nest_6; where it is NT, GEMM recognised: f64, {{.*}}; A row-major, B column-major, C row-major; {{.*}}, rewritten to call gemm_opt_nest_7; where it is TN, GEMM recognised: f64, {{.*}}; A column-major, B row-major, C row-major; {{.*}}, rewritten to call gemm_opt_nest_8; where it is SQUARE, left as written: {{.*}}; where it is none of the values listed, left as written: no multiply-accumulate of two array elements (C += A * B) in the nest [-Rpass=gemm]
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double acc = 0;
      for (int k = 0; k < K; ++k) {
        switch (layout) {
        case NN:
          acc += A[i * K + k] * B[k * N + j];
          break;
        case NT:
          acc += A[i * K + k] * B[j * K + k];
          break;
        case TN:
          acc += A[k * M + i] * B[k * N + j];
          break;
        case SQUARE:
          acc += A[i * K + k] * A[i * K + k];
          break;
        }
      }
      C[i * N + j] = acc;
    }
}
// OUT: } else switch ((long long)(layout)) {
// OUT-NEXT: case 0LL: {
// OUT: case 1LL: {
// OUT: case 2LL: {
// OUT: case 3LL: default: {
// OUT-NEXT: #line

// Fallthrough: ReLU6 falls into the upper clamp that kind 7 is alone.
static inline float clamp6(float v, int kind) {
  switch (kind) {
  case 6:
    v = std::max(v, 0.f);
    [[fallthrough]];
  case 7:
    v = std::min(v, 6.f);
    break;
  default:
    break;
  }
  return v;
}

void relu6(int kind, const float *A, const float *B, float *C) {
  // CHECK: :[[@LINE+1]]:3: remark: versioned on the 'switch' on 'kind'; where it is 6, {{.*}} epilogue: max with '0.F' (NaN kept), min with '6.F' (NaN kept), rewritten to call gemm_opt_nest_9; where it is 7, {{.*}} epilogue: min with '6.F' (NaN kept), rewritten to call gemm_opt_nest_10; where it is none of the values listed, {{.*}}beta = 0, rewritten to call gemm_opt_nest_11 [-Rpass=gemm]
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 32; ++j) {
      float s = 0;
      for (int k = 0; k < 16; ++k)
        s += A[i * 16 + k] * B[k * 32 + j];
      C[i * 32 + j] = clamp6(s, kind);
    }
}

// The same choices in other spellings: braced cases that end in `break`
// inside their braces (ncnn's activation_ss), a helper whose cases
// return, and a `default:` that falls to the end of the body.
static inline float braced(float v, int type, const float *params) {
  switch (type) {
  case 1:
  {
    v = v > 0.f ? v : 0.f;
    break;
  }
  case 2:
  {
    float scale = params[0];
    v *= scale;
    break;
  }
  case 4:
  {
    v = tanhf(v);
    break;
  }
  }
  return v;
}

static inline float returned(float v, int type) {
  switch (type) {
  case 1:
    return std::max(v, 0.f);
  case 2: {
    return tanhf(v);
  }
  default:
    v = std::min(v, 6.f);
  }
  return v;
}

void braced_layer(const FullyConnected &fc, const float *in, float *out,
                  int rows, int width) {
  // CHECK: :[[@LINE+1]]:3: remark: versioned on the 'switch' on 'fc.kind'; where it is 1, {{.*}} epilogue: + 'fc.bias[p]' (none if null), max with '0.F', rewritten to call gemm_opt_nest_12; where it is 2, left as written: {{.*}}; where it is 4, {{.*}}tanh, rewritten to call gemm_opt_nest_13; where it is none of the values listed, {{.*}}, rewritten to call gemm_opt_nest_14 [-Rpass=gemm]
  for (int r = 0; r < rows; r++)
    for (int p = 0; p < fc.outputs; p++) {
      float sum = fc.bias ? fc.bias[p] : 0.f;
      for (int i = 0; i < width; i++)
        sum += in[r * width + i] * fc.weight[p * width + i];
      out[r * fc.outputs + p] = braced(sum, fc.kind, fc.params);
    }
}
// OUT: } else switch ((long long)(fc.kind)) {
// OUT-NEXT: case 1LL: {
// OUT-NEXT: if (!gemm_opt_nest_12(
// OUT: case 4LL: {
// OUT-NEXT: if (!gemm_opt_nest_13(
// OUT: default: {
// OUT-NEXT: if (!gemm_opt_nest_14(
// OUT: case 2LL: {

void returned_layer(int type, const float *A, const float *B, float *C) {
  // CHECK: :[[@LINE+1]]:3: remark: versioned on the 'switch' on 'type'; where it is 1, {{.*}} epilogue: max with '0.F' (NaN kept), rewritten to call gemm_opt_nest_15; where it is 2, {{.*}} epilogue: tanh, rewritten to call gemm_opt_nest_16; where it is none of the values listed, {{.*}} epilogue: min with '6.F' (NaN kept), rewritten to call gemm_opt_nest_17 [-Rpass=gemm]
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 32; ++j) {
      float s = 0;
      for (int k = 0; k < 16; ++k)
        s += A[i * 16 + k] * B[k * 32 + j];
      C[i * 32 + j] = returned(s, type);
    }
}

// B's batch pointer set in braced cases of the nest's own switch.
void braced_batches(const float *a, const float *b, float *c,
                    const MatMulParam *p) {
  // CHECK: :[[@LINE+1]]:3: remark: versioned on the 'switch' on 'p->b_dims'; where it is 2, GEMM recognised: f32, M x N x K = (p->batch * p->m) x p->n x p->k; {{.*}}, rewritten to call gemm_opt_nest_18; where it is none of the values listed, GEMM recognised: f32, M x N x K = p->m x p->n x p->k, batch p->batch; {{.*}}, rewritten to call gemm_opt_nest_19 [-Rpass=gemm]
  for (int nb = 0; nb < p->batch; nb++) {
    const float *pb;
    switch (p->b_dims) {
    case 2: {
      pb = b;
      break;
    }
    default: {
      pb = b + nb * p->k * p->n;
    }
    }
    for (int i = 0; i < p->m; i++)
      for (int j = 0; j < p->n; j++) {
        float tmp = 0.f;
        for (int kk = 0; kk < p->k; kk++)
          tmp += a[(nb * p->m + i) * p->k + kk] * pb[kk * p->n + j];
        c[(nb * p->m + i) * p->n + j] = tmp;
      }
  }
}

// Near misses.

// The condition changes in the nest.
void by_index(int M, int N, int K, const float *A, const float *B,
              const float *B2, float *C) {
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the 'switch' on 'k % 2' depends on the loop index 'k' [-Rpass-missed=gemm]
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      for (int k = 0; k < K; ++k)
        switch (k % 2) {
        case 0:
          C[i * N + j] += A[i * K + k] * B[k * N + j];
          break;
        default:
          C[i * N + j] += A[i * K + k] * B2[k * N + j];
          break;
        }
}

// A case left by a `break` inside an `if`, in its braces: its run is no
// list of statements.
static inline float capped(float v, int kind) {
  switch (kind) {
  case 1: {
    if (v > 100.f)
      break;
    v = std::max(v, 0.f);
    break;
  }
  }
  return v;
}

void capped_layer(int kind, const float *A, const float *B, float *C) {
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: 'capped' picks what it computes by a 'switch' on 'kind', which leaves a case by a 'break' inside another statement, so its cases are no versions of the nest [-Rpass-missed=gemm]
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 32; ++j) {
      float s = 0;
      for (int k = 0; k < 16; ++k)
        s += A[i * 16 + k] * B[k * 32 + j];
      C[i * 32 + j] = capped(s, kind);
    }
}

// One helper, two kinds: the version would fix both calls' case.
void two_kinds(int first, int second, const float *A, const float *B,
               float *C, float *D) {
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: in no case of the 'switch' on 'kind' in 'clamp6' is the nest a GEMM: the 'switch' on 'first' is read on 'second' too, at another call of its helper [-Rpass-missed=gemm]
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 32; ++j) {
      float s = 0;
      for (int k = 0; k < 16; ++k)
        s += A[i * 16 + k] * B[k * 32 + j];
      C[i * 32 + j] = clamp6(s, first);
      D[i * 32 + j] = clamp6(s, second);
    }
}

// No case is a GEMM: each case's reason.
void no_case(int mode, int M, int N, int K, const float *A, const float *B,
             float *C) {
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: in no case of the 'switch' on 'mode' is the nest a GEMM; where it is 0, {{.*}}; where it is none of the values listed, {{.*}} [-Rpass-missed=gemm]
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      for (int k = 0; k < K; ++k)
        switch (mode) {
        case 0:
          C[i * N + j] += A[i * K + k] * A[i * K + k];
          break;
        default:
          C[i * N + j] = A[i * K + k] * B[k * N + j];
          break;
        }
}

// Every case of a helper's switch stops where the nest stops without it
// (a loop whose pointer moves by a step read from memory, around the
// product): the remark names that, not the switch.
struct Layer {
  int n;
};
void unrelated_switch(Layer *l, Layer *end, int kind, const int *step,
                      const float *A, const float *B, float *C) {
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the end 'end' that the loop runs pointer 'l' to is not proven {{.*}} [-Rpass-missed=gemm]
  for (; l < end; l += *step)
    for (int i = 0; i < 64; ++i)
      for (int j = 0; j < 32; ++j) {
        float s = 0;
        for (int k = 0; k < 16; ++k)
          s += A[i * 16 + k] * B[k * 32 + j];
        C[i * 32 + j] = clamp6(s, kind);
      }
}
