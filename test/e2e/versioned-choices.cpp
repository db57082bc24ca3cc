// Nests versioned on several loop-invariant branches: TinyTorch's CPU
// gemm (gemmCpuImpl's style: A's and B's elements picked per iteration by
// `transA ? .. : ..` and `transB ? .. : ..`) in float and double, B's
// layout in the double one an `if`/`else` around the update, and a flag
// with a layout code as a `switch`, one combination of which is no GEMM.
// Each is run with every combination of the flags, odd sizes, and guard
// cells around C.
//
// RUN: %host_cxx -O1 -I %S/Inputs %s -o %t.orig && %t.orig > %t.expected
// RUN: gemm-opt %s --reference-kernel -o %t.cu -- -I %S/Inputs 2>&1 | FileCheck %s --implicit-check-not=Rpass-missed
// RUN: %nvcc %nvcc_flags -I %S/Inputs %t.cu -o %t.gpu && %t.gpu > %t.actual
// RUN: %python %S/compare.py %t.expected %t.actual
// RUN: env GEMM_OPT_DEVICE=cpu %t.gpu > %t.lifted
// RUN: %python %S/compare.py %t.expected %t.lifted
// CHECK-COUNT-3: versioned on
#include "e2e_util.h"
#include "guard_cells.h"

#include <string>
#include <vector>

// k outermost, into C as it stands (zero beforehand).
static void gemmF(float *c, const float *a, const float *b, int m, int k,
                  int n, bool transA, bool transB) {
  for (int p = 0; p < k; p++)
    for (int i = 0; i < m; i++)
      for (int j = 0; j < n; j++)
        c[i * n + j] += (transA ? a[p * m + i] : a[i * k + p]) *
                        (transB ? b[j * k + p] : b[p * n + j]);
}

// TinyTorch's loop order; B's layout an `if`/`else` around the update.
static void gemmD(double *c, const double *a, const double *b, int m, int k,
                  int n, bool transA, bool transB) {
  for (int i = 0; i < m; i++)
    for (int p = 0; p < k; p++) {
      double av = transA ? a[p * m + i] : a[i * k + p];
      for (int j = 0; j < n; j++) {
        if (transB)
          c[i * n + j] += av * b[j * k + p];
        else
          c[i * n + j] += av * b[p * n + j];
      }
    }
}

// A flag and a layout code as a `switch`; where the code is none of the
// values listed, the nest sums A's rows: no GEMM, the loops run.
static void gemmCode(int M, int N, int K, const float *A, const float *B,
                     float *C, int transA, int layoutB) {
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float s = 0;
      for (int k = 0; k < K; ++k) {
        float x = transA ? A[k * M + i] : A[i * K + k];
        switch (layoutB) {
        case 0:
          s += x * B[k * N + j];
          break;
        case 1:
          s += x * B[j * K + k];
          break;
        default:
          s += x;
        }
      }
      C[i * N + j] = s;
    }
}

int main() {
  const int M = 19, N = 23, K = 31;
  std::vector<float> af(M * K), bf(K * N);
  std::vector<double> ad(M * K), bd(K * N);
  fillRandom(af.data(), M * K, 1);
  fillRandom(bf.data(), K * N, 2);
  fillRandom(ad.data(), M * K, 4);
  fillRandom(bd.data(), K * N, 5);
  double normF = frobenius(af.data(), M * K) * frobenius(bf.data(), K * N);
  double normD = frobenius(ad.data(), M * K) * frobenius(bd.data(), K * N);
  const char *labels[2][2] = {{"NN", "NT"}, {"TN", "TT"}};
  for (bool transA : {false, true})
    for (bool transB : {false, true}) {
      const char *label = labels[transA][transB];
      std::vector<float> c = guarded(long(M) * N, 0.f);
      gemmF(c.data() + GUARD, af.data(), bf.data(), M, K, N, transA, transB);
      printMatrix((std::string("f32") + label).c_str(), K, normF,
                  c.data() + GUARD, M, N, N, 1);
      checkGuards(label, c);
      std::vector<double> d = guarded(long(M) * N, 0.25);
      gemmD(d.data() + GUARD, ad.data(), bd.data(), M, K, N, transA, transB);
      printMatrix((std::string("f64") + label).c_str(), K,
                  normD + 0.25 * M * N, d.data() + GUARD, M, N, N, 1);
      checkGuards(label, d);
    }
  for (int transA : {0, 1})
    for (int layoutB : {0, 1, 2}) {
      std::string label =
          "code" + std::to_string(transA) + std::to_string(layoutB);
      std::vector<float> c = guarded(long(M) * N, float(NAN));
      gemmCode(M, N, K, af.data(), bf.data(), c.data() + GUARD, transA,
               layoutB);
      printMatrix(label.c_str(), K, normF, c.data() + GUARD, M, N, N, 1);
      checkGuards(label.c_str(), c);
    }
  return 0;
}
