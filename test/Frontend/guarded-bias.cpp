// A bias assigned under a test: `float v = 0; if (bias) v = bias[o];` (a
// nullable pointer) or `if (layer.has_bias) sum = layer.bias[p];` (a flag
// of the layer) leaves v holding `test ? bias[o] : 0`, the bias under its
// guard: the launcher gets `test ? bias : 0`, and no bias where the test
// fails. A clamp helper around the store (std::min/std::max of its
// by-value parameters) is inlined into clamps, and an activation that a
// helper picks by a `switch` at run time versions the nest. Near misses: a
// flag that the nest writes, a start other than zero, an `if` with an else.
//
// RUN: gemm-opt %s -o %t.cu 2>&1 | FileCheck %s --implicit-check-not=remark:
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --check-prefix=OUT

#include <algorithm>

template <typename T> inline T bounded(T v, T lo, T hi) {
  using std::max;
  using std::min;
  return min(max(v, lo), hi);
}

// A fully connected layer: the bias pointer may be null.
void connected(const float *in, const float *w, const float *bias, float *out,
               int batches, int depth, int outs, float lo, float hi) {
  // CHECK: :[[@LINE+2]]:3: remark: GEMM recognised: f32, M x N x K = batches x outs x depth; A row-major, B column-major, C row-major; accumulates in 'total', alpha = 1, beta = 0; epilogue: + 'bias[o]' (none if null), max with 'lo' (NaN kept), min with 'hi' (NaN kept); rewritten to call gemm_opt_nest_0 [-Rpass=gemm]
  // OUT: if (!gemm_opt_nest_0({{.*}}, 1, 0, bias ? bias : 0, batches, outs, 0, 1, lo, hi)) {
  for (int b = 0; b < batches; ++b)
    for (int o = 0; o < outs; ++o) {
      float total = 0.f;
      for (int d = 0; d < depth; ++d)
        total += in[b * depth + d] * w[o * depth + d];
      float bv = 0.0f;
      if (bias) {
        bv = bias[o];
      }
      out[o + outs * b] = bounded(total + bv, lo, hi);
    }
}

struct Dense {
  int has_bias, outputs;
  const float *weights, *bias;
};

// The accumulator starts from the bias where the layer has one.
void dense(const Dense &layer, const float *in, float *out, int rows,
           int width) {
  // CHECK: :[[@LINE+2]]:3: remark: GEMM recognised: f32, M x N x K = rows x layer.outputs x width; {{.*}}; accumulates in 'sum', alpha = 1, beta = 0; epilogue: + 'layer.bias[p]' (none where 'layer.has_bias' is false), max with '0.F' (NaN kept); rewritten to call gemm_opt_nest_1 [-Rpass=gemm]
  // OUT: if (!gemm_opt_nest_1({{.*}}, 1, 0, layer.has_bias ? layer.bias : 0, rows, layer.outputs, 0, 1, 0.F)) {
  for (int j = 0; j < rows; j++) {
    const float *row = in + j * width;
    float *dst = out + j * layer.outputs;
    for (int p = 0; p < layer.outputs; p++) {
      const float *kp = layer.weights + width * p;
      float sum = 0.f;
      if (layer.has_bias)
        sum = layer.bias[p];
      for (int i = 0; i < width; i++)
        sum += row[i] * kp[i];
      dst[p] = std::max(sum, 0.f);
    }
  }
}

// The same choice spelled as a `?:` on a flag.
void flagged(const float *a, const float *b, const float *bias, float *c,
             int M, int N, int K, bool withBias) {
  // CHECK: :[[@LINE+2]]:3: remark: GEMM recognised: f32, M x N x K = M x N x K; {{.*}}; epilogue: + 'bias[i]' (none where 'withBias' is false); rewritten to call gemm_opt_nest_2 [-Rpass=gemm]
  // OUT: if (!gemm_opt_nest_2({{.*}}, 1, 0, withBias ? bias : 0, M, N, 1, 0)) {
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float s = withBias ? bias[i] : 0.0f;
      for (int k = 0; k < K; ++k)
        s += a[i * K + k] * b[k * N + j];
      c[i * N + j] = s;
    }
}

// Near miss: the flag changes inside the nest.
void flagWritten(const float *a, const float *b, const float *bias, float *c,
                 int M, int N, int K, int flag) {
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = M x N x K; A row-major, B column-major, C row-major; into a temporary, alpha = 1, beta = 0; the product goes through a temporary of M x N elements, and the rest of the nest runs as written (the K loop at line [[@LINE+6]] reads it; where its stores may meet A or B, the loop runs), since as a whole the nest is no GEMM: whether accumulator 's' starts at 'bias[j]' depends on 'flag', which is assigned inside the nest; rewritten to call gemm_opt_nest_{{[0-9]+}} [-Rpass=gemm]
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float s = 0.f;
      if (flag)
        s = bias[j];
      for (int k = 0; k < K; ++k)
        s += a[i * K + k] * b[j * K + k];
      c[i * N + j] = s;
      flag = j & 1;
    }
}

// Near misses, each branch arm no GEMM (so not versioned either): where
// the test fails the start is 1, no bias; an else arm that reads another
// buffer.
void startsAtOne(const float *a, const float *b, const float *bias, float *c,
                 int M, int N, int K) {
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = M x N x K; A row-major, B column-major, C row-major; into a temporary, alpha = 1, beta = 0; the product goes through a temporary of M x N elements, and the rest of the nest runs as written (the K loop at line [[@LINE+6]] reads it; where its stores may meet A or B, the loop runs), since as a whole the nest is no GEMM: conditional control flow in the nest body; rewritten to call gemm_opt_nest_{{[0-9]+}} [-Rpass=gemm]
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float s = 1.f;
      if (bias)
        s = bias[j];
      for (int k = 0; k < K; ++k)
        s += a[i * K + k] * b[j * K + k];
      c[i * N + j] = s;
    }
}

void otherwise(const float *a, const float *b, const float *bias,
               const float *alt, float *c, int M, int N, int K) {
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = M x N x K; A row-major, B column-major, C row-major; into a temporary, alpha = 1, beta = 0; the product goes through a temporary of M x N elements, and the rest of the nest runs as written (the K loop at line [[@LINE+8]] reads it; where its stores may meet A or B, the loop runs), since as a whole the nest is no GEMM: conditional control flow in the nest body; rewritten to call gemm_opt_nest_{{[0-9]+}} [-Rpass=gemm]
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float s = 0.f;
      if (bias)
        s = bias[j];
      else
        s = alt[i * N + j];
      for (int k = 0; k < K; ++k)
        s += a[i * K + k] * b[j * K + k];
      c[i * N + j] = s;
    }
}

// The guarded bias under an activation that a helper picks by a switch on
// the layer's type at run time: one version per case, each with the bias.
static inline float activate(float v, int kind) {
  switch (kind) {
  case 1:
    v = std::max(v, 0.f);
    break;
  case 2:
    v = v > 0.f ? v : 0.1f * v;
    break;
  default:
    break;
  }
  return v;
}

void denseActivated(const Dense &layer, int kind, const float *in, float *out,
                    int rows, int width) {
  // CHECK: :[[@LINE+1]]:3: remark: versioned on the 'switch' on 'kind'; where it is 1, {{.*}} epilogue: + 'layer.bias[p]' (none where 'layer.has_bias' is false), max with '0.F' (NaN kept), rewritten to call gemm_opt_nest_6; where it is 2, left as written: {{.*}}; where it is none of the values listed, {{.*}} epilogue: + 'layer.bias[p]' (none where 'layer.has_bias' is false), rewritten to call gemm_opt_nest_7 [-Rpass=gemm]
  for (int j = 0; j < rows; j++)
    for (int p = 0; p < layer.outputs; p++) {
      float sum = 0.f;
      if (layer.has_bias)
        sum = layer.bias[p];
      for (int i = 0; i < width; i++)
        sum += in[j * width + i] * layer.weights[width * p + i];
      out[j * layer.outputs + p] = activate(sum, kind);
    }
}

// TNN's NaiveFC: `if (bias) acc += bias[o];` after the sum adds
// `bias ? bias[o] : 0`, in a template (whose nests are not versioned) as in
// a plain function; the element conversions are the identity for float.
template <typename T>
void naiveFC(T *in, T *out, T *wt, float *bias, int batch, int nin,
             int nout) {
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = nout x batch x nin; A row-major, B column-major, C column-major; accumulates in 'acc', alpha = 1, beta = 0; epilogue: + 'bias[o]' (none if null); rewritten to call gemm_opt_nest_8 [-Rpass=gemm]
  for (int b = 0; b < batch; ++b) {
    T *row = in + b * nin;
    T *dst = out + b * nout;
    for (int o = 0; o < nout; ++o) {
      float acc = 0;
      for (int i = 0; i < nin; ++i)
        acc += float(wt[o * nin + i]) * float(row[i]);
      if (bias)
        acc += bias[o];
      dst[o] = acc;
    }
  }
}
template void naiveFC(float *, float *, float *, float *, int, int, int);

// tinygrad's generated kernel: the bias read into a local ahead of the sum
// and added in the store; and C's element read ahead the same way (beta =
// 1).
void hoisted(float *out, const float *x, const float *w, const float *bias,
             int M, int N, int K) {
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = M x N x K; A row-major, B column-major, C row-major; accumulates in 'acc', alpha = 1, beta = 0; epilogue: + 'bias[j]'; rewritten to call gemm_opt_nest_9 [-Rpass=gemm]
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      float acc = 0.0f;
      float bv = bias[j];
      for (int k = 0; k < K; k++) {
        float xv = x[i * K + k];
        float wv = w[j * K + k];
        acc = ((xv * wv) + acc);
      }
      out[i * N + j] = (acc + bv);
    }
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = M x N x K; A row-major, B column-major, C row-major; accumulates in 'acc', alpha = 1, beta = 1; rewritten to call gemm_opt_nest_10 [-Rpass=gemm]
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      float old = out[i * N + j];
      float acc = 0.0f;
      for (int k = 0; k < K; k++)
        acc += x[i * K + k] * w[j * K + k];
      out[i * N + j] = acc + old;
    }
}

// Near misses: a bias read once per row, before the stores of the row
// (which may change it); C read before a scaling of C; a guard that reads
// the sum; a guard that varies with the element.
void hoistedEarly(float *out, const float *x, const float *w,
                  const float *bias, int M, int N, int K, float beta) {
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: {{.*}}into a temporary{{.*}} since as a whole the nest is no GEMM: unsupported store of accumulator 'acc': expected C = alpha*s + beta*C, C = s, C += s or C -= s, with an optional bias term and activation; rewritten to call gemm_opt_nest_11 [-Rpass=gemm]
  for (int i = 0; i < M; i++) {
    float bv = bias[i];
    for (int j = 0; j < N; j++) {
      float acc = 0.0f;
      for (int k = 0; k < K; k++)
        acc += x[i * K + k] * w[j * K + k];
      out[i * N + j] = acc + bv;
    }
  }
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: {{.*}}into a temporary{{.*}} since as a whole the nest is no GEMM: unsupported store of accumulator 'acc': expected C = alpha*s + beta*C, C = s, C += s or C -= s, with an optional bias term and activation; rewritten to call gemm_opt_nest_12 [-Rpass=gemm]
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      float old = out[i * N + j];
      out[i * N + j] *= beta;
      float acc = 0.0f;
      for (int k = 0; k < K; k++)
        acc += x[i * K + k] * w[j * K + k];
      out[i * N + j] += acc + old;
    }
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: {{.*}}into a temporary{{.*}} since as a whole the nest is no GEMM: conditional control flow in the nest body; rewritten to call gemm_opt_nest_13 [-Rpass=gemm]
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      float acc = 0.0f;
      for (int k = 0; k < K; k++)
        acc += x[i * K + k] * w[j * K + k];
      if (acc > 0)
        acc += bias[j];
      out[i * N + j] = acc;
    }
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: {{.*}}into a temporary{{.*}} since as a whole the nest is no GEMM: accumulator 'acc' is written after the sum by 'acc += bias[j] > 0 ? bias[j] : 0.F': only a bias (acc += bias[o]) or an activation (acc = fmaxf(acc, 0)) may finish it; rewritten to call gemm_opt_nest_14 [-Rpass=gemm]
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      float acc = 0.0f;
      for (int k = 0; k < K; k++)
        acc += x[i * K + k] * w[j * K + k];
      if (bias[j] > 0)
        acc += bias[j];
      out[i * N + j] = acc;
    }
}

// The bias added under its flag beside a statement that is split off: the
// copy that runs the statement after the launcher blanks the whole `if`.
void flaggedBeside(const float *x, const float *w, const float *bias,
                   float *out, float *side, int M, int N, int K, int flag) {
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, {{.*}}epilogue: + 'bias[j]' (none where 'flag' is false); 'side[i] = side[i] + x[i * K + k]' runs beside the product: {{.*}}; rewritten to call gemm_opt_nest_15 [-Rpass=gemm]
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      float acc = 0.0f;
      for (int k = 0; k < K; k++) {
        side[i] = side[i] + x[i * K + k];
        acc += x[i * K + k] * w[j * K + k];
      }
      if (flag)
        acc += bias[j];
      out[i * N + j] = acc;
    }
  // OUT: side[i] = side[i] + x[i * K + k];
  // OUT-NEXT: acc += x[i * K + k] * w[j * K + k];
  // OUT: } else {
  // OUT: side[i] = side[i] + x[i * K + k];
  // OUT-NEXT: ;;
  // OUT-NEXT: }
  // OUT-NEXT: ;;
  // OUT-NEXT: ;;
  // OUT-NEXT: }
}
