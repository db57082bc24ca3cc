// A transformer-style forward pass written the way C training code writes
// it: the token index `bt = b*T + t` held in a local (M spread over two
// loops whose strides compose into one dimension of B*T), llm.c's
// matmul_forward with row pointers offset by `b*T*OC + t*OC` (and other
// spellings of that offset), row pointers declared in the nest, a head loop
// whose operand ignores it (a batch that B is broadcast over), and the GEMV
// of a final projection (remarked, left on the CPU).
//
// RUN: %host_cxx -O1 -I %S/Inputs %s -o %t.orig && %t.orig > %t.expected
// RUN: gemm-opt %s --reference-kernel -o %t.cu -- -I %S/Inputs 2>&1 | FileCheck %s
// RUN: %nvcc %nvcc_flags -I %S/Inputs %t.cu -o %t.gpu && %t.gpu > %t.actual
// RUN: %python %S/compare.py %t.expected %t.actual
// The lifted problems on the CPU (front-end tests: the reference kernel keeps
// nvcc quick).
// RUN: env GEMM_OPT_DEVICE=cpu %t.gpu > %t.lifted
// RUN: %python %S/compare.py %t.expected %t.lifted
#include "e2e_util.h"

#include <vector>

// out[B*T][OC] = inp[B*T][C] * weight[OC][C]^T
static void projection(float *out, const float *inp, const float *weight,
                       int B, int T, int C, int OC) {
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = (B * T) x OC x C
  for (int b = 0; b < B; b++) {
    for (int t = 0; t < T; t++) {
      int bt = b * T + t;
      for (int o = 0; o < OC; o++) {
        float val = 0.0f;
        for (int i = 0; i < C; i++)
          val += inp[bt * C + i] * weight[o * C + i];
        out[bt * OC + o] = val;
      }
    }
  }
}

// llm.c's matmul_forward: row pointers in the t loop offset by b*T*OC +
// t*OC, in the spellings below; each is the projection's GEMM.
static void matmul_forward(float *out, const float *inp, const float *weight,
                           int B, int T, int C, int OC) {
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = (B * T) x OC x C
  for (int b = 0; b < B; b++) {
    for (int t = 0; t < T; t++) {
      float *out_bt = out + b * T * OC + t * OC;
      const float *inp_bt = inp + b * T * C + t * C;
      for (int o = 0; o < OC; o++) {
        float val = 0.0f;
        const float *wrow = weight + o * C;
        for (int i = 0; i < C; i++) {
          val += inp_bt[i] * wrow[i];
        }
        out_bt[o] = val;
      }
    }
  }
}

// The o and i loops after matmul_forward's, for the other spellings.
#define PROJECT(out_bt, inp_bt)                                                \
  for (int o = 0; o < OC; o++) {                                               \
    float val = 0.0f;                                                          \
    const float *wrow = weight + o * C;                                        \
    for (int i = 0; i < C; i++)                                                \
      val += inp_bt[i] * wrow[i];                                              \
    out_bt[o] = val;                                                           \
  }

static void forward_grouped(float *out, const float *inp, const float *weight,
                            int B, int T, int C, int OC) {
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = (B * T) x OC x C
  for (int b = 0; b < B; b++)
    for (int t = 0; t < T; t++) {
      float *out_bt = out + b * (T * OC) + t * OC;
      const float *inp_bt = inp + b * (T * C) + t * C;
      PROJECT(out_bt, inp_bt)
    }
}

static void forward_factored(float *out, const float *inp,
                             const float *weight, int B, int T, int C,
                             int OC) {
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = (B * T) x OC x C
  for (int b = 0; b < B; b++)
    for (int t = 0; t < T; t++) {
      float *out_bt = out + OC * (t + T * b);
      const float *inp_bt = inp + t * C + b * T * C;
      PROJECT(out_bt, inp_bt)
    }
}

static void forward_per_loop(float *out, const float *inp,
                             const float *weight, int B, int T, int C,
                             int OC) {
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = (B * T) x OC x C
  for (int b = 0; b < B; b++) {
    float *out_b = out + b * T * OC;
    const float *inp_b = &inp[b * T * C];
    for (int t = 0; t < T; t++) {
      float *out_bt = out_b + t * OC;
      const float *inp_bt = inp_b + t * C;
      PROJECT(out_bt, inp_bt)
    }
  }
}

// The same product through row pointers.
static void rows(float *out, const float *inp, const float *weight, int N,
                 int C, int OC) {
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = N x OC x C
  for (int n = 0; n < N; n++) {
    const float *x = inp + n * C;
    float *y = &out[n * OC];
    for (int o = 0; o < OC; o++) {
      const float *w = weight + o * C;
      float val = 0.0f;
      for (int i = 0; i < C; i++)
        val += x[i] * w[i];
      y[o] = val;
    }
  }
}

// Per head h: att[h][t][s] = q[h][t][:] . k[s][:] with one key matrix
// shared by every head (its index ignores h), and each head's scores HS
// apart (padded, so h and t do not merge into one dimension).
static void scores(double *att, const double *q, const double *k, int H,
                   int T, int D, int HS) {
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f64, M x N x K = T x T x D, batch H
  for (int h = 0; h < H; h++)
    for (int t = 0; t < T; t++)
      for (int s = 0; s < T; s++) {
        double dot = 0;
        for (int d = 0; d < D; d++)
          dot += q[(h * T + t) * D + d] * k[s * D + d];
        att[h * HS + t * T + s] = dot;
      }
}

// logits[v] = sum_c h[c] * wte[v][c]
static void logits(float *out, const float *h, const float *wte, int V,
                   int C) {
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: matrix-vector product (M x K = V x C)
  for (int v = 0; v < V; v++) {
    float s = 0;
    for (int c = 0; c < C; c++)
      s += wte[v * C + c] * h[c];
    out[v] = s;
  }
}

int main() {
  const int B = 3, T = 5, C = 24, OC = 17, H = 2, D = 7, V = 11;
  std::vector<float> inp(B * T * C), weight(OC * C), out(B * T * OC, -1);
  fillRandom(inp.data(), long(inp.size()), 1);
  fillRandom(weight.data(), long(weight.size()), 2);
  const double scale = frobenius(inp.data(), long(inp.size())) *
                       frobenius(weight.data(), long(weight.size()));
  projection(out.data(), inp.data(), weight.data(), B, T, C, OC);
  printMatrix("projection", C, scale, out.data(), B * T, OC, OC, 1);
  std::vector<float> out2(B * T * OC, -1);
  rows(out2.data(), inp.data(), weight.data(), B * T, C, OC);
  printMatrix("rows", C, scale, out2.data(), B * T, OC, OC, 1);
  struct {
    const char *label;
    void (*forward)(float *, const float *, const float *, int, int, int, int);
  } spellings[] = {{"matmul_forward", matmul_forward},
                   {"forward_grouped", forward_grouped},
                   {"forward_factored", forward_factored},
                   {"forward_per_loop", forward_per_loop}};
  for (const auto &spelling : spellings) {
    std::vector<float> y(B * T * OC, -1);
    spelling.forward(y.data(), inp.data(), weight.data(), B, T, C, OC);
    printMatrix(spelling.label, C, scale, y.data(), B * T, OC, OC, 1);
  }

  const int HS = T * T + 3;
  std::vector<double> q(H * T * D), k(T * D), att(H * HS, -1);
  fillRandom(q.data(), long(q.size()), 3);
  fillRandom(k.data(), long(k.size()), 4);
  scores(att.data(), q.data(), k.data(), H, T, D, HS);
  // Every element, the padding between heads included (it must keep -1).
  printMatrix("scores", D,
              frobenius(q.data(), long(q.size())) *
                  frobenius(k.data(), long(k.size())) * H,
              att.data(), 1, H * HS, 0, 1);

  std::vector<float> wte(V * C), lg(V, -1);
  fillRandom(wte.data(), long(wte.size()), 5);
  logits(lg.data(), inp.data(), wte.data(), V, C);
  printMatrix("logits", C,
              frobenius(wte.data(), long(wte.size())) *
                  frobenius(inp.data(), C),
              lg.data(), V, 1, 1, 1);
  return 0;
}
