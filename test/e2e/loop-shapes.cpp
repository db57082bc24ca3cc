// Loops shaped unlike their iteration space: tiled and strip-mined loops,
// loops unrolled by hand with and without remainders or jammed into an
// inner loop, `while` and `do` loops (counters stepped at the end of the
// body or by the test), strided and downward loops, blocks
// of C kept in register accumulators. Each is
// run as written and as rewritten, at sizes the tiles and unrolling divide
// and at sizes they do not (where a precondition fails, the rewrite runs
// the loop); C sits between guard cells that must come out untouched.
//
// RUN: %host_cxx -O1 -I %S/Inputs %s -o %t.orig && %t.orig > %t.expected
// RUN: gemm-opt %s -o %t.cu -- -I %S/Inputs 2>&1 | FileCheck %s --implicit-check-not=Rpass-missed
// RUN: %nvcc %nvcc_flags -I %S/Inputs %t.cu -o %t.gpu && %t.gpu > %t.actual
// RUN: %python %S/compare.py %t.expected %t.actual
// The lifted problems, computed on the CPU (GEMM_OPT_DEVICE=cpu), must agree too.
// RUN: env GEMM_OPT_DEVICE=cpu %t.gpu > %t.lifted
// RUN: %python %S/compare.py %t.expected %t.lifted
// CHECK-COUNT-26: [-Rpass=gemm]
#include "e2e_util.h"

#include <algorithm>
#include <vector>

enum { GUARD = 16, PAD = 8 };
const double POISON = 7.25;

/// Operands of an m x n x k product with room for PAD more rows and columns
/// (loops that run past the sizes when a precondition fails), C between
/// GUARD poisoned cells on either side.
template <class T> struct Problem {
  int m, n, k;
  std::vector<T> a, b, c;
  double scale = 0;
  Problem(int m, int n, int k, unsigned seed)
      : m(m), n(n), k(k), a(size_t(m + PAD) * (k + PAD)),
        b(size_t(k + PAD) * (n + PAD)),
        c(size_t(m + PAD) * (n + PAD) + 2 * GUARD, T(POISON)) {
    fillRandom(a.data(), long(a.size()), seed);
    fillRandom(b.data(), long(b.size()), seed + 1);
    fillRandom(C(), long(m + PAD) * (n + PAD), seed + 2);
    scale = frobenius(a.data(), long(a.size())) *
                frobenius(b.data(), long(b.size())) +
            frobenius(C(), long(m + PAD) * (n + PAD));
  }
  T *C() { return c.data() + GUARD; }
  /// The product's matrix, then whether the guards held.
  void print(const char *label) {
    printMatrix(label, k + PAD, scale, C(), m + PAD, n + PAD, n + PAD, 1);
    long broken = 0;
    for (long g = 0; g < GUARD; ++g)
      broken += (c[g] != T(POISON)) + (c[c.size() - 1 - g] != T(POISON));
    std::printf("guards %s %ld broken\n", label, broken);
  }
};

// Cache blocking of i, j and k, clipped tiles. Leading dimensions are the
// padded sizes.
static void blocked(int m, int n, int k, const float *A, const float *B,
                    float *C) {
  const int lda = k + PAD, ldb = n + PAD, ldc = n + PAD;
  for (int ii = 0; ii < m; ii += 8)
    for (int jj = 0; jj < n; jj += 8)
      for (int kk = 0; kk < k; kk += 16)
        for (int i = ii; i < std::min(ii + 8, m); i++)
          for (int j = jj; j < (jj + 8 < n ? jj + 8 : n); j++)
            for (int l = kk; l < std::min(kk + 16, k); l++)
              C[i * ldc + j] += A[i * lda + l] * B[l * ldb + j];
}

// The tiles' ends clamped by conditionals in locals (`i_max = ii + 8 > m ?
// m : ii + 8`) and A's element read ahead of the loop over j, once per
// tile of jj (C3L0/transformer's matmul_blocked).
static void clampedTiles(int m, int n, int k, const float *A, const float *B,
                         float *C) {
  const int lda = k + PAD, ldb = n + PAD, ldc = n + PAD;
  for (int ii = 0; ii < m; ii += 8)
    for (int jj = 0; jj < n; jj += 8)
      for (int kk = 0; kk < k; kk += 16) {
        int i_max = (ii + 8 > m) ? m : ii + 8;
        int j_max = (jj + 8 > n) ? n : jj + 8;
        int k_max = (kk + 16 > k) ? k : kk + 16;
        for (int i = ii; i < i_max; i++)
          for (int l = kk; l < k_max; l++) {
            float a_il = A[i * lda + l];
            for (int j = jj; j < j_max; j++)
              C[i * ldc + j] += a_il * B[l * ldb + j];
          }
      }
}

// kann's kad_sgemm_simple (A * B^T): the tiles' ends in locals, the point
// loops' variables declared apart, row pointers per tile, B's row walked by
// a pointer that the loop's own header sets and bumps, and a dot helper.
static float sdot(int n, const float *x, const float *y) {
  float s = 0.f;
  for (int i = 0; i < n; ++i)
    s += x[i] * y[i];
  return s;
}
static void kannTiles(int m, int n, int k, const float *A, const float *B,
                      float *C) {
  static const int x = 16;
  for (int i = 0; i < m; i += x)
    for (int j = 0; j < n; j += x) {
      int ii, ie = m < i + x ? m : i + x;
      int jj, je = n < j + x ? n : j + x;
      for (ii = i; ii < ie; ++ii) {
        const float *aii = A + ii * k, *bjj;
        float *cii = C + ii * (n + PAD);
        for (jj = j, bjj = B + j * k; jj < je; ++jj, bjj += k)
          cii[jj] += sdot(k, aii, bjj);
      }
    }
}

// Tiles clipped by a second test rather than a minimum, ggml's
// `ii < i + blck && ii < m`, with the tile sizes in locals.
static void clippedByTests(int m, int n, int k, const float *A,
                           const float *B, float *C) {
  const int lda = k + PAD, ldb = n + PAD, ldc = n + PAD;
  long bm = 16, bn = 8;
  for (int j = 0; j < n; j += bn)
    for (int i = 0; i < m; i += bm)
      for (int ii = i; ii < i + bm && ii < m; ii++)
        for (int jj = j; n > jj && jj < j + bn; jj++) {
          float s = 0;
          for (int l = 0; l < k; l++)
            s += A[ii * lda + l] * B[l * ldb + jj];
          C[ii * ldc + jj] += s;
        }
}

// Partial sums per tile of k, added into C.
static void partialSums(int m, int n, int k, const double *A, const double *B,
                        double *C) {
  const int lda = k + PAD, ldb = n + PAD, ldc = n + PAD;
  for (int kk = 0; kk < k; kk += 16)
    for (int i = 0; i < m; i++)
      for (int j = 0; j < n; j++) {
        double s = 0;
        for (int l = kk; l < std::min(kk + 16, k); l++)
          s += A[i * lda + l] * B[l * ldb + j];
        C[i * ldc + j] += s;
      }
}

// Unclipped tiles of rows: the launcher runs where 8 divides m.
static void unclipped(int m, int n, int k, const float *A, const float *B,
                      float *C) {
  const int lda = k + PAD, ldb = n + PAD, ldc = n + PAD;
  for (int ii = 0; ii < m; ii += 8)
    for (int i = ii; i < ii + 8; i++)
      for (int j = 0; j < n; j++)
        for (int l = 0; l < k; l++)
          C[i * ldc + j] += A[i * lda + l] * B[l * ldb + j];
}

// Strip-mined rows, the index rebuilt in the body; the launcher runs where
// 4 divides m.
static void stripMined(int m, int n, int k, const float *A, const float *B,
                       float *C) {
  const int lda = k + PAD, ldb = n + PAD, ldc = n + PAD;
  for (int obt = 0; obt < m; obt += 4)
    for (int ibt = 0; ibt < 4; ibt++) {
      int i = obt + ibt;
      for (int j = 0; j < n; j++) {
        float s = 0;
        for (int l = 0; l < k; l++)
          s += A[i * lda + l] * B[l * ldb + j];
        C[i * ldc + j] = s;
      }
    }
}

// K unrolled by 4 into one sum, with its remainder.
static void unrolledSum(int m, int n, int k, const float *A, const float *B,
                        float *C) {
  const int lda = k + PAD, ldb = n + PAD, ldc = n + PAD;
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      float s = 0;
      int l;
      for (l = 0; l + 4 <= k; l += 4)
        s += A[i * lda + l] * B[l * ldb + j] +
             A[i * lda + l + 1] * B[(l + 1) * ldb + j] +
             A[i * lda + l + 2] * B[(l + 2) * ldb + j] +
             A[i * lda + l + 3] * B[(l + 3) * ldb + j];
      for (; l < k; l++)
        s += A[i * lda + l] * B[l * ldb + j];
      C[i * ldc + j] = s;
    }
}

// K unrolled by 2 as statements, a `while` remainder, C += s.
static void unrolledStatements(int m, int n, int k, const double *A,
                               const double *B, double *C) {
  const int lda = k + PAD, ldb = n + PAD, ldc = n + PAD;
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      double s = 0;
      int l = 0;
      for (; l < k - 1; l += 2) {
        s += A[i * lda + l] * B[l * ldb + j];
        s += A[i * lda + l + 1] * B[(l + 1) * ldb + j];
      }
      while (l < k) {
        s += A[i * lda + l] * B[l * ldb + j];
        l++;
      }
      C[i * ldc + j] += s;
    }
}

// The remainder starts where the unrolled loop stops.
static void remainderStart(int m, int n, int k, const float *A,
                           const float *B, float *C) {
  const int lda = k + PAD, ldb = n + PAD, ldc = n + PAD;
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      float s = 0;
      for (int l = 0; l + 4 <= k; l += 4)
        s += A[i * lda + l] * B[l * ldb + j] +
             A[i * lda + l + 2] * B[(l + 2) * ldb + j] +
             A[i * lda + l + 1] * B[(l + 1) * ldb + j] +
             A[i * lda + l + 3] * B[(l + 3) * ldb + j];
      for (int r = k / 4 * 4; r < k; r++)
        s += A[i * lda + r] * B[r * ldb + j];
      C[i * ldc + j] = s;
    }
}

// No remainder: the launcher runs where 4 divides k.
static void noRemainder(int m, int n, int k, const float *A, const float *B,
                        float *C) {
  const int lda = k + PAD, ldb = n + PAD, ldc = n + PAD;
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      float s = 0;
      for (int l = 0; l + 4 <= k; l += 4)
        s += A[i * lda + l] * B[l * ldb + j] +
             A[i * lda + l + 1] * B[(l + 1) * ldb + j] +
             A[i * lda + l + 2] * B[(l + 2) * ldb + j] +
             A[i * lda + l + 3] * B[(l + 3) * ldb + j];
      C[i * ldc + j] = s;
    }
}

// `while` loops, and a `do` loop: the launcher runs where k > 0.
static void whiles(int m, int n, int k, const float *A, const float *B,
                   float *C) {
  const int lda = k + PAD, ldb = n + PAD, ldc = n + PAD;
  int i = 0;
  while (i < m) {
    int j = 0;
    while (j < n) {
      float s = 0;
      int l = 0;
      do {
        s += A[i * lda + l] * B[l * ldb + j];
        ++l;
      } while (l < k);
      C[i * ldc + j] = s;
      j += 1;
    }
    i++;
  }
}

// Counters stepped by their tests: `while (l--)` with A and B walked by
// pointers, rows by `while (i-- > 0)`, columns by `do ... while (--j)`
// (which runs where n > 0), and an unsigned `while (l-- != 0)`.
static void steppedByTests(int m, int n, int k, const float *A,
                           const float *B, float *C) {
  const int lda = k + PAD, ldb = n + PAD, ldc = n + PAD;
  int i = m;
  while (i-- > 0) {
    int j = n;
    do {
      const float *a = A + i * lda, *b = B + (n - j);
      float s = 0;
      int l = k;
      while (l--) {
        s += *a++ * *b;
        b += ldb;
      }
      C[i * ldc + (n - j)] = s;
    } while (--j);
  }
}

static void unsignedSteppedByTest(unsigned m, unsigned n, unsigned k,
                                  const double *A, const double *B,
                                  double *C) {
  const unsigned lda = k + PAD, ldb = n + PAD, ldc = n + PAD;
  for (unsigned i = 0; i < m; i++)
    for (unsigned j = 0; j < n; j++) {
      double s = 0;
      unsigned l = k;
      while (l-- != 0)
        s += A[i * lda + l] * B[l * ldb + j];
      C[i * ldc + j] += s;
    }
}

// Every other row of A and C; rows and columns counted down.
static void strided(int m, int n, int k, const double *A, const double *B,
                    double *C) {
  const int lda = k + PAD, ldb = n + PAD, ldc = n + PAD;
  for (int i = 0; i < m; i += 2)
    for (int j = n - 1; j >= 0; j--)
      for (int l = k; l > 0; --l)
        C[i * ldc + j] += A[i * lda + l - 1] * B[(l - 1) * ldb + j];
}

// Unroll-and-jam of j: by 4 into i through calls, by 2 into k as
// statements, by 4 into k through a helper's offsets from its block; i
// and j by 2 into k.
static void dot(int k, const double *x, const double *y, int incy,
                double *gamma) {
  for (int p = 0; p < k; p++)
    *gamma += x[p] * y[p * incy];
}
static void jammedCalls(int m, int n, int k, const double *A, const double *B,
                        double *C) {
  const int lda = k + PAD, ldb = n + PAD, ldc = n + PAD;
  for (int j = 0; j < n; j += 4)
    for (int i = 0; i < m; i++) {
      dot(k, &A[i * lda], &B[j], ldb, &C[i * ldc + j]);
      dot(k, &A[i * lda], &B[j + 1], ldb, &C[i * ldc + j + 1]);
      dot(k, &A[i * lda], &B[j + 2], ldb, &C[i * ldc + j + 2]);
      dot(k, &A[i * lda], &B[j + 3], ldb, &C[i * ldc + j + 3]);
    }
}
static void jammedStatements(int m, int n, int k, const float *A,
                             const float *B, float *C) {
  const int lda = k + PAD, ldb = n + PAD, ldc = n + PAD;
  for (int j = 0; j < n; j += 2)
    for (int i = 0; i < m; i++)
      for (int l = 0; l < k; l++) {
        C[i * ldc + j] += A[i * lda + l] * B[l * ldb + j];
        C[i * ldc + j + 1] += A[i * lda + l] * B[l * ldb + j + 1];
      }
}
static void fourColumns(int k, const double *a, const double *b, int ldb,
                        double *c) {
  for (int p = 0; p < k; p++) {
    c[0] += a[p] * b[p * ldb];
    c[1] += a[p] * b[p * ldb + 1];
    c[2] += a[p] * b[p * ldb + 2];
    c[3] += a[p] * b[p * ldb + 3];
  }
}
static void jammedOffsets(int m, int n, int k, const double *A,
                          const double *B, double *C) {
  const int lda = k + PAD, ldb = n + PAD, ldc = n + PAD;
  for (int j = 0; j < n; j += 4)
    for (int i = 0; i < m; i++)
      fourColumns(k, A + i * lda, B + j, ldb, C + i * ldc + j);
}
static void jammedBlock(int m, int n, int k, const float *A, const float *B,
                        float *C) {
  const int lda = k + PAD, ldb = n + PAD, ldc = n + PAD;
  for (int i = 0; i < m; i += 2)
    for (int j = 0; j < n; j += 2)
      for (int l = 0; l < k; l++) {
        C[i * ldc + j] += A[i * lda + l] * B[l * ldb + j];
        C[i * ldc + j + 1] += A[i * lda + l] * B[l * ldb + j + 1];
        C[(i + 1) * ldc + j] += A[(i + 1) * lda + l] * B[l * ldb + j];
        C[(i + 1) * ldc + j + 1] +=
            A[(i + 1) * lda + l] * B[l * ldb + j + 1];
      }
}

// A 2x2 block of C per call kept in register accumulators, A's two
// elements of a step in step registers and B's row through a pointer set
// per step (how-to-optimize-gemm's AddDot4x4 from MMult_4x4_6 on).
static void block2x2(int k, const float *a, int lda, const float *b,
                     int ldb, float *c, int ldc) {
  float c00 = 0, c01 = 0, c10 = 0, c11 = 0;
  float a0, a1;
  const float *row;
  for (int p = 0; p < k; ++p) {
    a0 = a[p];
    a1 = a[lda + p];
    row = &b[p * ldb];
    c00 += a0 * row[0];
    c01 += a0 * row[1];
    c10 += a1 * row[0];
    c11 += a1 * row[1];
  }
  c[0] += c00;
  c[1] += c01;
  c[ldc] += c10;
  c[ldc + 1] += c11;
}
static void registerBlock(int m, int n, int k, const float *A,
                          const float *B, float *C) {
  const int lda = k + PAD, ldb = n + PAD, ldc = n + PAD;
  for (int i = 0; i < m; i += 2)
    for (int j = 0; j < n; j += 2)
      block2x2(k, &A[i * lda], lda, &B[j], ldb, &C[i * ldc + j], ldc);
}
// The same in double, written inline: accumulators started by statements,
// B's two columns through pointers bumped after their last read.
static void registerPointers(int m, int n, int k, const double *A,
                             const double *B, double *C) {
  const int lda = k + PAD, ldb = n + PAD, ldc = n + PAD;
  for (int j = 0; j < n; j += 2)
    for (int i = 0; i < m; i += 2) {
      double s00, s01, s10, s11;
      const double *b0, *b1;
      s00 = 0.0;
      s01 = 0.0;
      s10 = 0.0;
      s11 = 0.0;
      for (int l = 0; l < k; l++) {
        b0 = &B[l * ldb + j];
        b1 = &B[l * ldb + j + 1];
        s00 += A[i * lda + l] * *b0;
        s01 += A[i * lda + l] * *b1;
        s10 += A[(i + 1) * lda + l] * *b0++;
        s11 += A[(i + 1) * lda + l] * *b1++;
      }
      C[i * ldc + j] += s00;
      C[i * ldc + j + 1] += s01;
      C[(i + 1) * ldc + j] += s10;
      C[(i + 1) * ldc + j + 1] += s11;
    }
}
// A 1x2 block whose accumulators one chained assignment starts.
static void chainedStart(int m, int n, int k, const float *A, const float *B,
                         float *C) {
  const int lda = k + PAD, ldb = n + PAD, ldc = n + PAD;
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j += 2) {
      float s0, s1;
      s0 = s1 = 0.0f;
      for (int l = 0; l < k; l++) {
        s0 += A[i * lda + l] * B[l * ldb + j];
        s1 += A[i * lda + l] * B[l * ldb + j + 1];
      }
      C[i * ldc + j] += s0;
      C[i * ldc + j + 1] += s1;
    }
}
// Jammed copies through row pointers declared between the loops.
static void rowPointerBlock(int m, int n, int k, const float *A,
                            const float *B, float *C) {
  const int lda = k + PAD, ldb = n + PAD, ldc = n + PAD;
  for (int i = 0; i < m; i += 2)
    for (int j = 0; j < n; j += 2) {
      const float *a = &A[i * lda], *b = B + j;
      float *c = &C[i * ldc + j];
      for (int p = 0; p < k; ++p) {
        c[0] += a[p] * b[p * ldb];
        c[1] += a[p] * b[p * ldb + 1];
        c[ldc] += a[lda + p] * b[p * ldb];
        c[ldc + 1] += a[lda + p] * b[p * ldb + 1];
      }
    }
}
// B's step registers loaded through pointers that walk B's rows from
// before the K loop (`b0 = *b0p++;`), in a helper, the block's statements
// row by row of B's pair (how-to-optimize-gemm's MMult_4x4_9).
static void walked2x2(int k, const float *a, int lda, const float *b,
                      int ldb, float *c, int ldc) {
  float c00, c01, c10, c11, a0, a1, b0, b1;
  const float *b0p, *b1p;
  b0p = &b[0];
  b1p = &b[1];
  c00 = 0;
  c01 = 0;
  c10 = 0;
  c11 = 0;
  for (int p = 0; p < k; ++p) {
    a0 = a[p];
    a1 = a[lda + p];
    b0 = *b0p;
    b1 = *b1p;
    b0p += ldb;
    b1p += ldb;
    c00 += a0 * b0;
    c10 += a1 * b0;
    c01 += a0 * b1;
    c11 += a1 * b1;
  }
  c[0] += c00;
  c[1] += c01;
  c[ldc] += c10;
  c[ldc + 1] += c11;
}
static void walkedBlock(int m, int n, int k, const float *A, const float *B,
                        float *C) {
  const int lda = k + PAD, ldb = n + PAD, ldc = n + PAD;
  for (int i = 0; i < m; i += 2)
    for (int j = 0; j < n; j += 2)
      walked2x2(k, &A[i * lda], lda, &B[j], ldb, &C[i * ldc + j], ldc);
}
// The same in double, inline, the walking pointers declared with their
// starts and read by `*b0p++`.
static void walkedInline(int m, int n, int k, const double *A,
                         const double *B, double *C) {
  const int lda = k + PAD, ldb = n + PAD, ldc = n + PAD;
  for (int j = 0; j < n; j += 2)
    for (int i = 0; i < m; i += 2) {
      double c00 = 0, c01 = 0, c10 = 0, c11 = 0, a0, a1, b0, b1;
      const double *b0p = &B[j], *b1p = &B[j + 1];
      for (int p = 0; p < k; p++) {
        a0 = A[i * lda + p];
        a1 = A[(i + 1) * lda + p];
        b0 = *b0p;
        b1 = *b1p;
        b0p += ldb;
        b1p += ldb;
        c00 += a0 * b0;
        c01 += a0 * b1;
        c10 += a1 * b0;
        c11 += a1 * b1;
      }
      C[i * ldc + j] += c00;
      C[i * ldc + j + 1] += c01;
      C[(i + 1) * ldc + j] += c10;
      C[(i + 1) * ldc + j + 1] += c11;
    }
}
// A dot helper that walks its parameters.
static float dotWalk(int k, const float *x, const float *y, int incy) {
  float s = 0;
  for (int p = 0; p < k; p++) {
    s += *x++ * *y;
    y += incy;
  }
  return s;
}
static void walkedDot(int m, int n, int k, const float *A, const float *B,
                      float *C) {
  const int lda = k + PAD, ldb = n + PAD, ldc = n + PAD;
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++)
      C[i * ldc + j] += dotWalk(k, &A[i * lda], &B[j], ldb);
}

int main() {
  const int sizes[][3] = {{32, 24, 40}, {37, 29, 45}};
  for (const int *s : sizes) {
    int m = s[0], n = s[1], k = s[2];
    {
      Problem<float> p(m, n, k, 1);
      blocked(m, n, k, p.a.data(), p.b.data(), p.C());
      p.print("blocked");
    }
    {
      Problem<float> p(m, n, k, 31);
      clampedTiles(m, n, k, p.a.data(), p.b.data(), p.C());
      p.print("clamped-tiles");
    }
    {
      // B read as n rows of k (B^T), within its buffer.
      Problem<float> p(m, n, k, 22);
      kannTiles(m, n, k, p.a.data(), p.b.data(), p.C());
      p.print("kann-tiles");
    }
    {
      Problem<float> p(m, n, k, 2);
      clippedByTests(m, n, k, p.a.data(), p.b.data(), p.C());
      p.print("clipped-by-tests");
    }
    {
      Problem<double> p(m, n, k, 4);
      partialSums(m, n, k, p.a.data(), p.b.data(), p.C());
      p.print("partial-sums");
    }
    {
      Problem<float> p(m, n, k, 7);
      unclipped(m, n, k, p.a.data(), p.b.data(), p.C());
      p.print("unclipped");
    }
    {
      Problem<float> p(m, n, k, 10);
      stripMined(m, n, k, p.a.data(), p.b.data(), p.C());
      p.print("strip-mined");
    }
    {
      Problem<float> p(m, n, k, 13);
      unrolledSum(m, n, k, p.a.data(), p.b.data(), p.C());
      p.print("unrolled-sum");
    }
    {
      Problem<double> p(m, n, k, 16);
      unrolledStatements(m, n, k, p.a.data(), p.b.data(), p.C());
      p.print("unrolled-statements");
    }
    {
      Problem<float> p(m, n, k, 19);
      remainderStart(m, n, k, p.a.data(), p.b.data(), p.C());
      p.print("remainder-start");
    }
    {
      Problem<float> p(m, n, k, 22);
      noRemainder(m, n, k, p.a.data(), p.b.data(), p.C());
      p.print("no-remainder");
    }
    {
      Problem<float> p(m, n, k, 25);
      whiles(m, n, k, p.a.data(), p.b.data(), p.C());
      p.print("whiles");
    }
    {
      Problem<double> p(m, n, k, 28);
      strided(m, n, k, p.a.data(), p.b.data(), p.C());
      p.print("strided");
    }
    {
      Problem<double> p(m, n, k, 37);
      jammedCalls(m, n, k, p.a.data(), p.b.data(), p.C());
      p.print("jammed-calls");
    }
    {
      Problem<float> p(m, n, k, 40);
      jammedStatements(m, n, k, p.a.data(), p.b.data(), p.C());
      p.print("jammed-statements");
    }
    {
      Problem<double> p(m, n, k, 43);
      jammedOffsets(m, n, k, p.a.data(), p.b.data(), p.C());
      p.print("jammed-offsets");
    }
    {
      Problem<float> p(m, n, k, 46);
      jammedBlock(m, n, k, p.a.data(), p.b.data(), p.C());
      p.print("jammed-block");
    }
    {
      Problem<float> p(m, n, k, 49);
      registerBlock(m, n, k, p.a.data(), p.b.data(), p.C());
      p.print("register-block");
    }
    {
      Problem<double> p(m, n, k, 52);
      registerPointers(m, n, k, p.a.data(), p.b.data(), p.C());
      p.print("register-pointers");
    }
    {
      Problem<float> p(m, n, k, 67);
      chainedStart(m, n, k, p.a.data(), p.b.data(), p.C());
      p.print("chained-start");
    }
    {
      Problem<float> p(m, n, k, 55);
      rowPointerBlock(m, n, k, p.a.data(), p.b.data(), p.C());
      p.print("row-pointer-block");
    }
    {
      Problem<float> p(m, n, k, 58);
      walkedBlock(m, n, k, p.a.data(), p.b.data(), p.C());
      p.print("walked-block");
    }
    {
      Problem<double> p(m, n, k, 61);
      walkedInline(m, n, k, p.a.data(), p.b.data(), p.C());
      p.print("walked-inline");
    }
    {
      Problem<float> p(m, n, k, 64);
      walkedDot(m, n, k, p.a.data(), p.b.data(), p.C());
      p.print("walked-dot");
    }
    {
      Problem<float> p(m, n, k, 70);
      steppedByTests(m, n, k, p.a.data(), p.b.data(), p.C());
      p.print("stepped-by-tests");
    }
    {
      Problem<double> p(m, n, k, 73);
      unsignedSteppedByTest(m, n, k, p.a.data(), p.b.data(), p.C());
      p.print("unsigned-stepped-by-test");
    }
  }
  // K below the unrolling, and a `do` loop over an empty range (it runs
  // once; the launcher does not).
  for (int k : {3, 0}) {
    Problem<float> p(9, 7, k, 31);
    unrolledSum(9, 7, k, p.a.data(), p.b.data(), p.C());
    p.print("unrolled-short");
    Problem<float> q(9, 7, k, 34);
    whiles(9, 7, k, q.a.data(), q.b.data(), q.C());
    q.print("whiles-short");
    Problem<float> r(9, 7, k, 37);
    steppedByTests(9, 7, k, r.a.data(), r.b.data(), r.C());
    r.print("stepped-short");
    Problem<double> u(9, 7, k, 40);
    unsignedSteppedByTest(9, 7, k, u.a.data(), u.b.data(), u.C());
    u.print("unsigned-stepped-short");
  }
  return 0;
}
