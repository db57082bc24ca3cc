// Element pointers formed through byte offsets: rows of a matrix class found
// as `(float *)((unsigned char *)data + w * y * elemsize)`, versioned on the
// element size (run with elemsize == sizeof(float), where the launcher
// runs, and with a wider one, where the loops run as written); operands read
// through char and std::byte views; and pointers bumped through an integer
// by row widths in bytes. Each is run as written and as rewritten; C sits
// between guard cells that must come out untouched, and the inputs must
// come out as they went in.
//
// RUN: %host_cxx -O1 -std=c++17 -I %S/Inputs %s -o %t.orig && %t.orig > %t.expected
// RUN: gemm-opt %s -o %t.cu -- -std=c++17 -I %S/Inputs 2>&1 | FileCheck %s --implicit-check-not=Rpass-missed
// RUN: %nvcc %nvcc_flags -I %S/Inputs %t.cu -o %t.gpu && %t.gpu > %t.actual
// RUN: %python %S/compare.py %t.expected %t.actual
// The lifted problems, computed on the CPU (GEMM_OPT_DEVICE=cpu), must agree too.
// RUN: env GEMM_OPT_DEVICE=cpu %t.gpu > %t.lifted
// RUN: %python %S/compare.py %t.expected %t.lifted
// CHECK: the launcher runs only where x.elemsize == sizeof(float) and out.elemsize == sizeof(float)
// CHECK-COUNT-3: [-Rpass=gemm]
#include "e2e_util.h"

#include <cstddef>
#include <cstdint>
#include <vector>

typedef unsigned long PTR;

enum { GUARD = 16 };
const double POISON = 7.25;

/// A matrix of h rows of w floats, each row elemsize * w bytes after the
/// last: an element size wider than a float leaves gaps between elements'
/// rows, as a packed layout would.
struct Blob {
  void *data;
  int w, h;
  size_t elemsize;
  float *row(int y) const {
    return (float *)((unsigned char *)data + (size_t)w * y * elemsize);
  }
};

/// out(j, i) = sum_k x(i, k) * weight(j, k): a projection whose output is
/// transposed, x read with a walking pointer from its row.
static void project(const Blob &x, const float *weight, Blob &out, int K) {
  for (int i = 0; i < x.h; i++) {
    for (int j = 0; j < out.h; j++) {
      const float *ptr = x.row(i);
      const float *kptr = weight + j * K;
      float sum = 0.f;
      for (int k = 0; k < K; k++)
        sum += *ptr++ * *kptr++;
      out.row(j)[i] = sum;
    }
  }
}

/// C = A * B, row-major doubles, read and written through byte views.
static void viewed(int m, int n, int k, const double *A, const double *B,
                   double *C) {
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      double s = 0;
      for (int l = 0; l < k; l++)
        s += *(const double *)((const std::byte *)A +
                               (size_t)(i * k + l) * sizeof(double)) *
             ((const double *)((const char *)B + sizeof(double) * l * n))[j];
      *(double *)&((char *)C)[(size_t)(i * n + j) << 3] = s;
    }
}

/// C += A * B with A's and C's rows bumped through an integer by their
/// widths in bytes (the offset also on the left), B's column walked down
/// by a width held in a const local.
static void bumped(unsigned m, unsigned n, unsigned k, unsigned lda,
                   const double *A, const double *B, double *C) {
  const PTR aStep = lda << 3, bStep = (PTR)n * sizeof(double);
  for (unsigned i = 0; i < m; i++) {
    for (unsigned j = 0; j < n; j++) {
      const double *b = B + j;
      double s = 0;
      for (unsigned l = 0; l < k; l++) {
        s += A[l] * *b;
        b = (const double *)((PTR)b + bStep);
      }
      C[j] += s;
    }
    A = (const double *)(aStep + (PTR)A);
    C = (double *)((uintptr_t)C + (n << 3));
  }
}

/// Poisoned guard cells either side of `count` elements.
template <class T> struct Guarded {
  std::vector<T> cells;
  explicit Guarded(size_t count) : cells(count + 2 * GUARD, T(POISON)) {}
  T *data() { return cells.data() + GUARD; }
  long broken() const {
    long n = 0;
    for (long g = 0; g < GUARD; ++g)
      n += (cells[g] != T(POISON)) + (cells[cells.size() - 1 - g] != T(POISON));
    return n;
  }
};

static void runProject(int rows, int outs, int K, size_t xElem,
                       unsigned seed) {
  // x holds rows of K floats spaced by xElem / 4 times K.
  size_t xStride = K * xElem / sizeof(float);
  std::vector<float> xs(xStride * rows), w(size_t(outs) * K);
  fillRandom(xs.data(), long(xs.size()), seed);
  fillRandom(w.data(), long(w.size()), seed + 1);
  std::vector<float> xs0 = xs, w0 = w;
  Guarded<float> o(size_t(outs) * rows);
  Blob x{xs.data(), K, rows, xElem};
  Blob out{o.data(), rows, outs, sizeof(float)};
  project(x, w.data(), out, K);
  double scale = frobenius(xs.data(), long(xs.size())) *
                 frobenius(w.data(), long(w.size()));
  printMatrix("project", K, scale, o.data(), outs, rows, rows, 1);
  std::printf("guards project %ld broken, inputs %s\n", o.broken(),
              xs == xs0 && w == w0 ? "kept" : "changed");
}

int main() {
  const int sizes[][3] = {{32, 24, 40}, {37, 29, 45}, {1, 7, 3}};
  for (const int *s : sizes) {
    int m = s[0], n = s[1], k = s[2];
    runProject(m, n, k, sizeof(float), 1);
    runProject(m, n, k, 2 * sizeof(float), 4);
    {
      std::vector<double> a(size_t(m) * k), b(size_t(k) * n);
      fillRandom(a.data(), long(a.size()), 7);
      fillRandom(b.data(), long(b.size()), 8);
      std::vector<double> a0 = a, b0 = b;
      Guarded<double> c(size_t(m) * n);
      viewed(m, n, k, a.data(), b.data(), c.data());
      double scale = frobenius(a.data(), long(a.size())) *
                     frobenius(b.data(), long(b.size()));
      printMatrix("viewed", k, scale, c.data(), m, n, n, 1);
      std::printf("guards viewed %ld broken, inputs %s\n", c.broken(),
                  a == a0 && b == b0 ? "kept" : "changed");
    }
    {
      // A with a leading dimension wider than k.
      unsigned lda = k + 3;
      std::vector<double> a(size_t(m) * lda), b(size_t(k) * n);
      fillRandom(a.data(), long(a.size()), 10);
      fillRandom(b.data(), long(b.size()), 11);
      std::vector<double> a0 = a, b0 = b;
      Guarded<double> c(size_t(m) * n);
      fillRandom(c.data(), long(m) * n, 12);
      double scale = frobenius(a.data(), long(a.size())) *
                         frobenius(b.data(), long(b.size())) +
                     frobenius(c.data(), long(m) * n);
      bumped(m, n, k, lda, a.data(), b.data(), c.data());
      printMatrix("bumped", k, scale, c.data(), m, n, n, 1);
      std::printf("guards bumped %ld broken, inputs %s\n", c.broken(),
                  a == a0 && b == b0 ? "kept" : "changed");
    }
  }
  return 0;
}
