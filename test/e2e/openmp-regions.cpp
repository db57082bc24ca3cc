// OpenMP programs, rewritten as users run gemm-opt (without -fopenmp) and
// with it, built with OpenMP and run on four threads. A nest whose own
// loop carries `parallel for` is rewritten, and so is one with an orphaned
// `for` (launched only outside parallel regions), and so is each loop of a
// region that only shares out loops (PolyBench's OpenMP style: the region
// ends before the launcher and opens again after it), the second product
// reading the first's result. A nest whose own `for` shares it out among
// the threads of a region that does more (a statement, `nowait`, a repeat
// loop) is launched by one thread of the team (`omp single`), which tells
// the others. A product per head in the body of a `parallel for` over the
// heads is launched by each iteration's thread.
//
// RUN: %host_cxx -O1 -fopenmp -I %S/Inputs %s -o %t.orig && env OMP_NUM_THREADS=4 %t.orig > %t.expected
// RUN: gemm-opt %s -o %t.cu -- -I %S/Inputs 2>&1 | FileCheck %s --implicit-check-not=remark:
// RUN: gemm-opt %s -o %t.omp.cu -- -I %S/Inputs -fopenmp 2>&1 | FileCheck %s --implicit-check-not=remark:
// RUN: %nvcc %nvcc_flags -Xcompiler -fopenmp -lgomp -I %S/Inputs %t.cu -o %t.gpu
// RUN: %nvcc %nvcc_flags -Xcompiler -fopenmp -lgomp -I %S/Inputs %t.omp.cu -o %t.omp.gpu
// RUN: env OMP_NUM_THREADS=4 %t.gpu > %t.actual && %python %S/compare.py %t.expected %t.actual
// RUN: env OMP_NUM_THREADS=4 %t.omp.gpu > %t.omp.actual && %python %S/compare.py %t.expected %t.omp.actual
// The lifted problems, computed on the CPU (GEMM_OPT_DEVICE=cpu), must agree too.
// RUN: env OMP_NUM_THREADS=4 GEMM_OPT_DEVICE=cpu %t.gpu > %t.lifted && %python %S/compare.py %t.expected %t.lifted
// RUN: env OMP_NUM_THREADS=4 GEMM_OPT_DEVICE=cpu %t.omp.gpu > %t.omp.lifted && %python %S/compare.py %t.expected %t.omp.lifted
#include "e2e_util.h"

#include <vector>

constexpr int M = 37, N = 29, K = 23;

// CHECK: :[[@LINE+6]]:5: remark: GEMM recognised: {{.*}} [-Rpass=gemm]
static void inRegion(const float *A, const float *B, float *C) {
#pragma omp parallel
  {
    // Every thread runs the region; the `for` shares the rows among them.
#pragma omp for
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j)
        for (int k = 0; k < K; ++k)
          C[i * N + j] += A[i * K + k] * B[k * N + j];
  }
}

// tmp = A*B, then D = tmp*E, both loops shared out by one region, the
// indices declared before it and private to each loop (PolyBench's 2mm):
// each nest leaves them dead, the second's `for (j = 0; ...)` sets j again.
// CHECK: :[[@LINE+8]]:5: remark: GEMM recognised: {{.*}} [-Rpass=gemm]
// CHECK: :[[@LINE+14]]:5: remark: GEMM recognised: {{.*}} [-Rpass=gemm]
static void twoInRegion(const float *A, const float *B, const float *E,
                        float *tmp, float *D) {
  int i, j, k;
#pragma omp parallel num_threads(3)
  {
#pragma omp for private(j, k)
    for (i = 0; i < M; ++i)
      for (j = 0; j < N; ++j) {
        tmp[i * N + j] = 0;
        for (k = 0; k < K; ++k)
          tmp[i * N + j] += A[i * K + k] * B[k * N + j];
      }
#pragma omp for private(j, k)
    for (i = 0; i < M; ++i)
      for (j = 0; j < K; ++j) {
        D[i * K + j] *= 0.5f;
        for (k = 0; k < N; ++k)
          D[i * K + j] += tmp[i * N + k] * E[k * K + j];
      }
  }
}

// A `for` inside a region that does more than share out loops: its
// threads leave the loop unsynchronised (nowait), every thread runs a
// statement of the region, or the loop is in a repeat loop beside a timer
// (ParRes). One thread of the team launches (`omp single`) and tells the
// others that it did.
// CHECK: :[[@LINE+5]]:5: remark: GEMM recognised: {{.*}} [-Rpass=gemm]
static void nowaitRegion(const float *A, const float *B, float *C) {
#pragma omp parallel
  {
#pragma omp for nowait
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j)
        for (int k = 0; k < K; ++k)
          C[i * N + j] += A[i * K + k] * B[k * N + j];
  }
}

// CHECK: :[[@LINE+6]]:5: remark: GEMM recognised: {{.*}} [-Rpass=gemm]
static void countedRegion(const float *A, const float *B, float *C,
                          int *threads) {
#pragma omp parallel
  {
#pragma omp for
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j)
        for (int k = 0; k < K; ++k)
          C[i * N + j] += A[i * K + k] * B[k * N + j];
#pragma omp atomic
    ++*threads;
  }
}

// CHECK: :[[@LINE+14]]:9: remark: GEMM recognised: {{.*}} [-Rpass=gemm]
static void repeated(int iterations, const double *A, const double *B,
                     double *C, int *ticks) {
  int i, j, k, iter;
#pragma omp parallel private(i, j, k, iter)
  {
    for (iter = 0; iter < iterations; iter++) {
      if (iter == 1) {
#pragma omp barrier
#pragma omp master
        ++*ticks;
      }
      {
#pragma omp for
        for (j = 0; j < N; j++)
          for (k = 0; k < K; k++)
            for (i = 0; i < M; i++)
              C[i + M * j] += A[i + M * k] * B[k + K * j];
      }
    }
  }
}

// Called from inside a region, the `for` binds to the caller's team and the
// loop runs as written; called outside one, the launcher runs.
// CHECK: :[[@LINE+3]]:3: remark: GEMM recognised: {{.*}}; its OpenMP 'for' shares the loop with a caller's team where one is active
static void orphaned(const double *A, const double *B, double *C) {
#pragma omp for
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double s = 0;
      for (int k = 0; k < K; ++k)
        s += A[i * K + k] * B[k * N + j];
      C[i * N + j] += s;
    }
}

// CHECK: :[[@LINE+3]]:3: remark: GEMM recognised: {{.*}} [-Rpass=gemm]
static void ownParallelFor(const double *A, const double *B, double *C) {
#pragma omp parallel for
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      for (int k = 0; k < K; ++k)
        C[i * N + j] += A[i * K + k] * B[k * N + j];
}

// A product per head in the body of a `parallel for` over the heads, each
// head's matrices a view that counts its copies (ncnn's Mat): each
// iteration's thread launches its head's product.
struct HeadView {
  const float *data;
  int w;
  int *copies;
  HeadView(const float *d, int w, int *copies) : data(d), w(w), copies(copies) {}
  HeadView(const HeadView &o) : data(o.data), w(o.w), copies(o.copies) {
#pragma omp atomic
    ++*copies;
  }
  const float *row(int i) const { return data + i * w; }
};

// CHECK: :[[@LINE+9]]:5: remark: GEMM recognised: {{.*}}; launched once per iteration of the OpenMP 'parallel for' loop (line [[@LINE+4]]), by the thread that runs it; rewritten to call {{.*}} [-Rpass=gemm]
static void perHead(int heads, const float *Q, const float *Kt, float *S,
                    int *copies) {
  const HeadView all(Q, K, copies), keys(Kt, K, copies);
#pragma omp parallel for
  for (int h = 0; h < heads; ++h) {
    const HeadView q(all.row(h * M), K, copies), k(keys.row(h * N), K, copies);
    const HeadView qh = q, kh = k;
    float *out = S + h * M * N;
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        float sum = 0;
        for (int l = 0; l < K; ++l)
          sum += qh.row(i)[l] * kh.row(j)[l];
        out[i * N + j] = sum;
      }
  }
}

int main() {
  std::vector<float> a(M * K), b(K * N), c(M * N);
  fillRandom(a.data(), M * K, 1);
  fillRandom(b.data(), K * N, 2);
  fillRandom(c.data(), M * N, 3);
  const double scale = frobenius(a.data(), M * K) * frobenius(b.data(), K * N) +
                       frobenius(c.data(), M * N);
  inRegion(a.data(), b.data(), c.data());
  printMatrix("region", K, scale, c.data(), M, N, N, 1);
  nowaitRegion(a.data(), b.data(), c.data());
  printMatrix("nowait", K, 2 * scale, c.data(), M, N, N, 1);
  int threads = 0;
  countedRegion(a.data(), b.data(), c.data(), &threads);
  printMatrix("counted", K, 3 * scale, c.data(), M, N, N, 1);

  std::vector<double> ra(M * K), rb(K * N), rc(M * N);
  fillRandom(ra.data(), M * K, 13);
  fillRandom(rb.data(), K * N, 14);
  fillRandom(rc.data(), M * N, 15);
  int ticks = 0;
  const double rScale = 3 * frobenius(ra.data(), M * K) *
                            frobenius(rb.data(), K * N) +
                        frobenius(rc.data(), M * N);
  repeated(3, ra.data(), rb.data(), rc.data(), &ticks);
  printMatrix("repeated", 3 * K, rScale, rc.data(), M, N, 1, M);
  std::printf("repeated ticks %d\n", ticks);

  std::vector<float> e(N * K), tmp(M * N), d(M * K);
  fillRandom(e.data(), N * K, 8);
  fillRandom(tmp.data(), M * N, 9);
  fillRandom(d.data(), M * K, 10);
  const double dScale = frobenius(a.data(), M * K) * frobenius(b.data(), K * N) *
                            frobenius(e.data(), N * K) +
                        frobenius(d.data(), M * K);
  twoInRegion(a.data(), b.data(), e.data(), tmp.data(), d.data());
  printMatrix("two-in-region", N, dScale, d.data(), M, K, K, 1);

  std::vector<double> da(M * K), db(K * N), dc(M * N), dd(M * N);
  fillRandom(da.data(), M * K, 4);
  fillRandom(db.data(), K * N, 5);
  fillRandom(dc.data(), M * N, 6);
  fillRandom(dd.data(), M * N, 7);
  const double dscale = frobenius(da.data(), M * K) * frobenius(db.data(), K * N) +
                        frobenius(dc.data(), M * N);
#pragma omp parallel
  orphaned(da.data(), db.data(), dc.data());
  printMatrix("orphaned", K, dscale, dc.data(), M, N, N, 1);
  orphaned(da.data(), db.data(), dc.data());
  printMatrix("orphaned-alone", K, 2 * dscale, dc.data(), M, N, N, 1);

  ownParallelFor(da.data(), db.data(), dd.data());
  printMatrix("own-parallel-for", K,
              frobenius(da.data(), M * K) * frobenius(db.data(), K * N) +
                  frobenius(dd.data(), M * N),
              dd.data(), M, N, N, 1);

  constexpr int heads = 5;
  std::vector<float> q(heads * M * K), kt(heads * N * K), s(heads * M * N);
  fillRandom(q.data(), heads * M * K, 11);
  fillRandom(kt.data(), heads * N * K, 12);
  int copies = 0;
  perHead(heads, q.data(), kt.data(), s.data(), &copies);
  printMatrix("per-head", K,
              frobenius(q.data(), heads * M * K) *
                  frobenius(kt.data(), heads * N * K),
              s.data(), heads * M, N, N, 1);
  std::printf("per-head copies %d\n", copies);
  return 0;
}
