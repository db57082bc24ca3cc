// Two loops that together run the sum (a weight gradient summed over batch
// and time, `dW[o][i] += dout[b][t][o] * in[b][t][i]`): one K of B * T
// where the strides of b and t compose in both inputs. The same loops with
// a padded time axis (strides that do not compose) stay as written; with
// the sum restarted for every b, the sum over t of each b goes through a
// temporary (Temporary.cpp) and the nest runs as written around it. C sits
// between guard cells and starts from nonzero values (beta = 1).
//
// RUN: %host_cxx -O1 -I %S/Inputs %s -o %t.orig && %t.orig > %t.expected
// RUN: gemm-opt %s --reference-kernel -o %t.cu -- -I %S/Inputs 2>&1 | FileCheck %s
// RUN: %nvcc %nvcc_flags -I %S/Inputs %t.cu -o %t.gpu && %t.gpu > %t.actual
// RUN: %python %S/compare.py %t.expected %t.actual
// RUN: env GEMM_OPT_DEVICE=cpu %t.gpu > %t.lifted
// RUN: %python %S/compare.py %t.expected %t.lifted
#include "e2e_util.h"
#include "guard_cells.h"

#include <vector>

// CHECK: :[[@LINE+4]]:3: remark: GEMM recognised: {{.*}} M x N x K = C x OC x (B * Tn); A column-major, B row-major, C column-major; accumulates into C, alpha = 1, beta = 1
template <class T>
static void gradient(T *dw, const T *dout, const T *in, int B, int Tn,
                     int C, int OC) {
  for (int o = 0; o < OC; o++)
    for (int b = 0; b < B; b++)
      for (int t = 0; t < Tn; t++) {
        const T *dout_bt = dout + b * Tn * OC + t * OC;
        const T *in_bt = in + b * Tn * C + t * C;
        T *row = dw + o * C;
        T d = dout_bt[o];
        for (int i = 0; i < C; i++)
          row[i] += in_bt[i] * d;
      }
}

// The time axis holds Tn + 1 slots of which Tn are summed: b steps by
// (Tn + 1) * C, not Tn * C, so b and t are two K loops.
// CHECK: :[[@LINE+3]]:3: remark: loop nest not rewritten: index maps are not a contraction
static void padded(float *dw, const float *dout, const float *in, int B,
                   int Tn, int C, int OC) {
  for (int o = 0; o < OC; o++)
    for (int b = 0; b < B; b++)
      for (int t = 0; t < Tn; t++)
        for (int i = 0; i < C; i++)
          dw[o * C + i] += in[(b * (Tn + 1) + t) * C + i] *
                           dout[(b * (Tn + 1) + t) * OC + o];
}

// A partial sum that starts again for every b: summed into C (the same
// sum, rounded per b), or stored (the last b's alone); either way the
// scalar restarts inside the outer K loop, so b and t stay two loops:
// the sums over t go through a temporary with a batch per b.
// CHECK: :[[@LINE+3]]:3: remark: GEMM recognised: f32, M x N x K = C x OC x Tn, batch B; {{.*}}the product goes through a temporary of OC x C x B elements{{.*}}since as a whole the nest is no GEMM: index maps are not a contraction
static void restarted(float *dw, const float *dout, const float *in, int B,
                      int Tn, int C, int OC) {
  for (int o = 0; o < OC; o++)
    for (int i = 0; i < C; i++)
      for (int b = 0; b < B; b++) {
        float s = 0;
        for (int t = 0; t < Tn; t++)
          s += in[(b * Tn + t) * C + i] * dout[(b * Tn + t) * OC + o];
        dw[o * C + i] += s;
      }
}

// CHECK: :[[@LINE+3]]:3: remark: GEMM recognised: f32, M x N x K = C x OC x Tn, batch B; {{.*}}the product goes through a temporary of OC x C x B elements{{.*}}since as a whole the nest is no GEMM: index maps are not a contraction
static void lastOnly(float *dw, const float *dout, const float *in, int B,
                     int Tn, int C, int OC) {
  for (int o = 0; o < OC; o++)
    for (int i = 0; i < C; i++)
      for (int b = 0; b < B; b++) {
        float s = 0;
        for (int t = 0; t < Tn; t++)
          s += in[(b * Tn + t) * C + i] * dout[(b * Tn + t) * OC + o];
        dw[o * C + i] = s;
      }
}

template <class T> static void run(const char *label, int B, int Tn, int C,
                                   int OC) {
  std::vector<T> dout(size_t(B) * (Tn + 1) * OC), in(size_t(B) * (Tn + 1) * C);
  fillRandom(dout.data(), long(dout.size()), 7);
  fillRandom(in.data(), long(in.size()), 8);
  std::vector<T> dw = guarded(long(OC) * C, T(0.25));
  gradient(dw.data() + GUARD, dout.data(), in.data(), B, Tn, C, OC);
  double norm = frobenius(dout.data(), long(B) * Tn * OC) *
                    frobenius(in.data(), long(B) * Tn * C) +
                0.25 * OC * C;
  printMatrix(label, B * Tn, norm, dw.data() + GUARD, OC, C, C, 1);
  checkGuards(label, dw);
}

int main() {
  run<float>("gradientF", 3, 5, 37, 29);
  run<double>("gradientD", 4, 7, 19, 41);
  run<float>("oneStep", 1, 1, 8, 8);
  const int B = 3, Tn = 4, C = 9, OC = 6;
  std::vector<float> dout(B * (Tn + 1) * OC), in(B * (Tn + 1) * C);
  fillRandom(dout.data(), long(dout.size()), 9);
  fillRandom(in.data(), long(in.size()), 10);
  std::vector<float> a = guarded(long(OC) * C, 0.5f), r = a, l = a;
  padded(a.data() + GUARD, dout.data(), in.data(), B, Tn, C, OC);
  restarted(r.data() + GUARD, dout.data(), in.data(), B, Tn, C, OC);
  lastOnly(l.data() + GUARD, dout.data(), in.data(), B, Tn, C, OC);
  double norm = frobenius(dout.data(), long(dout.size())) *
                    frobenius(in.data(), long(in.size())) +
                0.5 * OC * C;
  printMatrix("padded", B * Tn, norm, a.data() + GUARD, OC, C, C, 1);
  printMatrix("restarted", B * Tn, norm, r.data() + GUARD, OC, C, C, 1);
  printMatrix("lastOnly", B * Tn, norm, l.data() + GUARD, OC, C, C, 1);
  checkGuards("padded", a);
  checkGuards("restarted", r);
  checkGuards("lastOnly", l);
  return 0;
}
