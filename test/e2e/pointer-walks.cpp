// Products written by walking pointers instead of indexing: bumps once per
// iteration, post-increments in the accesses and stores, pointers reset per
// row or walking on across rows, bumps in a loop's increment, and counters
// counted down by `while` and `do` loops (set with the function's other
// locals, in a block below them). Each is run as written and as
// rewritten; C sits between guard cells that must come out untouched, and
// the inputs must come out as they went in.
//
// RUN: %host_cxx -O1 -I %S/Inputs %s -o %t.orig && %t.orig > %t.expected
// RUN: gemm-opt %s -o %t.cu -- -I %S/Inputs 2>&1 | FileCheck %s --implicit-check-not=Rpass-missed
// RUN: %nvcc %nvcc_flags -I %S/Inputs %t.cu -o %t.gpu && %t.gpu > %t.actual
// RUN: %python %S/compare.py %t.expected %t.actual
// The lifted problems, computed on the CPU (GEMM_OPT_DEVICE=cpu), must agree too.
// RUN: env GEMM_OPT_DEVICE=cpu %t.gpu > %t.lifted
// RUN: %python %S/compare.py %t.expected %t.lifted
// CHECK-COUNT-9: [-Rpass=gemm]
#include "problem.h"

#include <vector>

// C(ah x bh) += A(ah x aw) * B(bh x aw)^T, column-major, k outermost.
static void addMultABt(int ah, int bh, int aw, const double *ad,
                       const double *bd, double *cd) {
  for (int k = 0; k < aw; k++) {
    double *cp = cd;
    for (int j = 0; j < bh; j++) {
      const double bjk = bd[j];
      for (int i = 0; i < ah; i++)
        cp[i] += ad[i] * bjk;
      cp += ah;
    }
    ad += ah;
    bd = bd + bh;
  }
}

// C(aw x bw) += alpha * A(ah x aw)^T * B(ah x bw), column-major.
static void addMultAtB(double alpha, int ah, int aw, int bw, const double *ad,
                       const double *bd, double *cd) {
  for (int j = 0; j < bw; j++) {
    const double *ap = ad;
    for (int i = 0; i < aw; i++) {
      double d = 0.0;
      for (int k = 0; k < ah; k++)
        d += ap[k] * bd[k];
      *(cd++) += alpha * d;
      ap += ah;
    }
    bd += ah;
  }
}

// C = A * B^T, row-major, rows reset per i, C stored with *out++.
static void matmulTransB(int M, int N, int K, const float *pA,
                         const float *pB, float *pOut) {
  for (int i = 0; i < M; i++) {
    const float *rowA = pA + i * K;
    float *out = pOut + i * N;
    for (int j = 0; j < N; j++) {
      const float *rowB = pB + j * K;
      float sum = 0.f;
      for (int k = 0; k < K; k++)
        sum += rowA[k] * rowB[k];
      *out++ = sum;
    }
  }
}

// Y += X * W^T, both factors read with post-increments.
static void affine(int batch, int outs, int ins, const float *x,
                   const float *w, float *y) {
  for (int b = 0; b < batch; b++) {
    float *o = y + b * outs;
    for (int j = 0; j < outs; ++j) {
      const float *xi = x + b * ins;
      const float *wj = w + j * ins;
      for (int i = 0; i < ins; ++i)
        *o += (*xi++) * (*wj++);
      ++o;
    }
  }
}

// A bumped in the increment, C walking across rows without a reset.
static void acrossRows(int M, int N, int K, const float *a, const float *b,
                       float *c) {
  for (int i = 0; i < M; i++, a += K)
    for (int j = 0; j < N; j++) {
      float s = 0;
      for (int k = 0; k < K; k++)
        s += a[k] * b[k * N + j];
      *c++ = s;
    }
}

// Counters set before the loops and counted down, every operand walked.
static void countedDown(int M, int N, int K, const float *A, const float *B,
                        float *C) {
  const float *pa = A;
  float *pc = C;
  int row = M;
  do {
    const float *pb = B;
    int col = N;
    while (col > 0) {
      const float *pk = pb;
      const float *pr = pa;
      float sum = 0.0f;
      int cnt = K;
      while (cnt > 0) {
        sum += *pr++ * *pk;
        pk += N;
        cnt--;
      }
      *pc++ = sum;
      pb++;
      col--;
    }
    pa += K;
    row--;
  } while (row > 0);
}

// Row pointers declared first and set per row, C89 style; k before j.
static void declaredFirst(int M, int N, int K, const double *A,
                          const double *B, double *C) {
  int i, j, k;
  double *crow;
  const double *arow;
  for (i = 0; i < M; i++) {
    crow = C + i * N;
    arow = A + i * K;
    for (k = 0; k < K; k++)
      for (j = 0; j < N; j++)
        crow[j] += arow[k] * B[k * N + j];
  }
}

// The pre-increment spelling: both pointers start one before their row.
static void preIncrement(int M, int N, int K, const float *A, const float *B,
                         float *C) {
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      const float *a = A + i * K - 1;
      const float *b = B + j - N;
      float s = 0;
      for (int k = 0; k < K; k++) {
        b += N;
        s += *++a * *b;
      }
      C[i * N + j] = s;
    }
}

// CMSIS-DSP's counters: set with the function's other locals, the nest in
// the else-block of a size check.
static int blockCounters(unsigned M, unsigned N, unsigned K, const float *pa,
                         const float *pb, float *pc) {
  unsigned col, i = 0U, row = M, cnt;
  int status;
  if (M == 0 || N == 0) {
    status = -1;
  } else {
    do {
      float *px = pc + i;
      const float *p2 = pb;
      col = N;
      do {
        const float *p1 = pa;
        float sum = 0.0f;
        cnt = K;
        while (cnt > 0U) {
          sum += *p1++ * *p2;
          p2 += N;
          cnt--;
        }
        *px++ = sum;
        col--;
        p2 = pb + (N - col);
      } while (col > 0U);
      i = i + N;
      pa = pa + K;
      row--;
    } while (row > 0U);
    status = 0;
  }
  return status;
}

int main() {
  const int sizes[][3] = {{32, 24, 40}, {37, 29, 45}, {1, 7, 3}};
  for (const int *s : sizes) {
    int m = s[0], n = s[1], k = s[2];
    {
      Problem<double> p(m, n, k, 1);
      addMultABt(m, n, k, p.a.data(), p.b.data(), p.C());
      p.print("abt", 1, m);
    }
    {
      Problem<double> p(m, n, k, 4);
      addMultAtB(0.5, k, m, n, p.a.data(), p.b.data(), p.C());
      p.print("atb", 1, m);
    }
    {
      Problem<float> p(m, n, k, 7);
      matmulTransB(m, n, k, p.a.data(), p.b.data(), p.C());
      p.print("transb", n, 1);
    }
    {
      Problem<float> p(m, n, k, 10);
      affine(m, n, k, p.a.data(), p.b.data(), p.C());
      p.print("affine", n, 1);
    }
    {
      Problem<float> p(m, n, k, 13);
      acrossRows(m, n, k, p.a.data(), p.b.data(), p.C());
      p.print("across", n, 1);
    }
    {
      Problem<float> p(m, n, k, 16);
      countedDown(m, n, k, p.a.data(), p.b.data(), p.C());
      p.print("counted-down", n, 1);
    }
    {
      Problem<double> p(m, n, k, 19);
      declaredFirst(m, n, k, p.a.data(), p.b.data(), p.C());
      p.print("declared-first", n, 1);
    }
    {
      Problem<float> p(m, n, k, 22);
      preIncrement(m, n, k, p.a.data(), p.b.data(), p.C());
      p.print("pre-increment", n, 1);
    }
    {
      Problem<float> p(m, n, k, 25);
      if (blockCounters(m, n, k, p.a.data(), p.b.data(), p.C()) != 0)
        return 1;
      p.print("block-counters", n, 1);
    }
  }
  return 0;
}
