// Blocks of C kept in registers: accumulators started at zero, summed into
// by the K loop and added to their elements after it, and step registers
// that hold what one K step reads. Each is its element, or its value,
// where nothing else can tell: near misses stay as written.
//
// RUN: gemm-opt %s -o %t.c --kernels=%t.cu 2>&1 | FileCheck %s --implicit-check-not=remark:

// A 1x2 block of registers per call (accumulators declared with their
// start), A's element in a step register.
static void block1x2(int k, const float *a, const float *b, int ldb,
                     float *c) {
  float c0 = 0.0f, c1 = 0.0f, ak;
  for (int p = 0; p < k; p++) {
    ak = a[p];
    c0 += ak * b[p * ldb];
    c1 += ak * b[p * ldb + 1];
  }
  c[0] += c0;
  c[1] += c1;
}
void calls(int m, int n, int k, const float *A, const float *B, float *C) {
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = m x n x k; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; 'j' is unrolled by 2 and jammed into 'p'; the launcher runs only where n % 2 == 0 {{.*}} [-Rpass=gemm]
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j += 2)
      block1x2(k, &A[i * k], &B[j], n, &C[i * n + j]);
}

// Inline, with accumulators started by statements, B's columns through
// pointers set per step and bumped after their last read.
void pointers(int m, int n, int k, const double *A, const double *B,
              double *C) {
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f64, M x N x K = m x n x k; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; 'j' is unrolled by 2 and jammed into 'l'; the launcher runs only where n % 2 == 0 {{.*}} [-Rpass=gemm]
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j += 2) {
      double s0, s1;
      const double *b0, *b1;
      s0 = 0;
      s1 = 0;
      for (int l = 0; l < k; l++) {
        b0 = &B[l * n + j];
        b1 = &B[l * n + j + 1];
        s0 += A[i * k + l] * *b0++;
        s1 += A[i * k + l] * *b1++;
      }
      C[i * n + j] += s0;
      C[i * n + j + 1] += s1;
    }
}

// Accumulators started by one chained assignment (`s0 = s1 = 0;`).
void chained(int m, int n, int k, const float *A, const float *B, float *C) {
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = m x n x k; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; 'j' is unrolled by 2 and jammed into 'l'; the launcher runs only where n % 2 == 0 {{.*}} [-Rpass=gemm]
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j += 2) {
      float s0, s1;
      s0 = s1 = 0.0f;
      for (int l = 0; l < k; l++) {
        s0 += A[i * k + l] * B[l * n + j];
        s1 += A[i * k + l] * B[l * n + j + 1];
      }
      C[i * n + j] += s0;
      C[i * n + j + 1] += s1;
    }
}

// The chain also starts a count that the nest reads after the loop: the
// accumulators' start stays, and the count keeps the nest as written.
void chainedCount(int m, int n, int k, const float *A, const float *B,
                  float *C, int *steps) {
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: {{.*}} [-Rpass-missed=gemm]
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j += 2) {
      float s0, s1;
      int t;
      t = s0 = s1 = 0;
      for (int l = 0; l < k; l++) {
        s0 += A[i * k + l] * B[l * n + j];
        s1 += A[i * k + l] * B[l * n + j + 1];
        t++;
      }
      C[i * n + j] += s0;
      C[i * n + j + 1] += s1;
      *steps += t;
    }
}

// B's step registers loaded through pointers that walk B's columns from
// before the K loop (`b0 = *b0p++;`), in a helper, the block's statements
// row pair by row pair (how-to-optimize-gemm's AddDot4x4 of MMult_4x4_9):
// the walks are read in the inlined body, and the copies of the jammed
// loops interleave, each in the first copy's order.
static void walked2x2(int k, const double *a, int lda, const double *b,
                      int ldb, double *c, int ldc) {
  int p;
  double c00, c01, c10, c11, a0, a1, b0, b1;
  const double *b0p, *b1p;
  b0p = &b[0];
  b1p = &b[ldb];
  c00 = 0.0;
  c01 = 0.0;
  c10 = 0.0;
  c11 = 0.0;
  for (p = 0; p < k; p++) {
    a0 = a[p * lda];
    a1 = a[p * lda + 1];
    b0 = *b0p++;
    b1 = *b1p++;
    c00 += a0 * b0;
    c10 += a1 * b0;
    c01 += a0 * b1;
    c11 += a1 * b1;
  }
  c[0] += c00;
  c[ldc] += c01;
  c[1] += c10;
  c[ldc + 1] += c11;
}
void walkedCalls(int m, int n, int k, const double *A, int lda,
                 const double *B, int ldb, double *C, int ldc) {
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f64, M x N x K = m x n x k; A column-major, B column-major, C column-major; accumulates into C, alpha = 1, beta = 1; 'j' is unrolled by 2 and jammed into 'p'; 'i' is unrolled by 2 and jammed into 'p'; the launcher runs only where n % 2 == 0 and m % 2 == 0 {{.*}} [-Rpass=gemm]
  for (int j = 0; j < n; j += 2)
    for (int i = 0; i < m; i += 2)
      walked2x2(k, &A[i], lda, &B[j * ldb], ldb, &C[j * ldc + i], ldc);
}

// The same inline, the pointers declared with their starts between the
// accumulators' and the K loop, and one column read as `b1p[p]`.
void walkedInline(int m, int n, int k, const float *A, int lda,
                  const float *B, int ldb, float *C, int ldc) {
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = m x n x k; A column-major, B column-major, C column-major; accumulates into C, alpha = 1, beta = 1; 'j' is unrolled by 2 and jammed into 'p'; 'i' is unrolled by 2 and jammed into 'p'; the launcher runs only where n % 2 == 0 and m % 2 == 0 {{.*}} [-Rpass=gemm]
  for (int j = 0; j < n; j += 2)
    for (int i = 0; i < m; i += 2) {
      float c00 = 0, c01 = 0, c10 = 0, c11 = 0, a0, a1, b0, b1;
      const float *b0p = &B[j * ldb], *b1p = &B[(j + 1) * ldb];
      for (int p = 0; p < k; p++) {
        a0 = A[p * lda + i];
        a1 = A[p * lda + i + 1];
        b0 = *b0p++;
        b1 = b1p[p];
        c00 += a0 * b0;
        c10 += a1 * b0;
        c01 += a0 * b1;
        c11 += a1 * b1;
      }
      C[j * ldc + i] += c00;
      C[(j + 1) * ldc + i] += c01;
      C[j * ldc + i + 1] += c10;
      C[(j + 1) * ldc + i + 1] += c11;
    }
}

// Near misses. The accumulator is read again after its element took it:
// it must keep its sum.
void readTwice(int m, int n, int k, const float *A, const float *B, float *C,
               float *last) {
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: {{.*}} [-Rpass-missed=gemm]
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      float s = 0;
      for (int l = 0; l < k; l++)
        s += A[i * k + l] * B[l * n + j];
      C[i * n + j] += s;
      *last = s;
    }
}

// The K loop reads C: the element may not take the sum while it runs.
void readsC(int m, int n, int k, const float *A, const float *B, float *C) {
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: {{.*}} [-Rpass-missed=gemm]
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      float s = 0;
      for (int l = 0; l < k; l++)
        s += A[i * k + l] * B[l * n + j] * C[i * n + j];
      C[i * n + j] += s;
    }
}

// The step register is read before it is set in its step: each step reads
// the previous step's value.
void readBeforeSet(int m, int n, int k, const float *A, const float *B,
                   float *C) {
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: {{.*}} [-Rpass-missed=gemm]
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      float a = 0;
      for (int l = 0; l < k; l++) {
        C[i * n + j] += a * B[l * n + j];
        a = A[i * k + l];
      }
    }
}

// What the step register holds is overwritten before it is read.
void overwritten(int m, int n, int k, float *A, const float *B, float *C) {
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: {{.*}} [-Rpass-missed=gemm]
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      float a;
      for (int l = 0; l < k; l++) {
        a = A[i * k + l];
        A[i * k + l] = 0;
        C[i * n + j] += a * B[l * n + j];
      }
    }
}

// Between the K loop and the stores a statement reads memory, which may be
// C by another name: the accumulators keep their sums until the stores.
void readBetween(int m, int n, int k, const float *A, const float *B,
                 float *C, const float *Cview, float *out) {
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: {{.*}} [-Rpass-missed=gemm]
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j += 2) {
      float s0 = 0, s1 = 0;
      for (int l = 0; l < k; l++) {
        s0 += A[i * k + l] * B[l * n + j];
        s1 += A[i * k + l] * B[l * n + j + 1];
      }
      out[i * n + j] = Cview[i * n + j];
      C[i * n + j] += s0;
      C[i * n + j + 1] += s1;
    }
}

// Accumulators started at the elements they are stored back to (`s = C;
// ...; C = s;` is `C += ...`), and values that the K step keeps in
// registers declared with them (`double u0 = al * A(r, s), u1 = ...;`):
// a 2x2 block, the odd edges left to another routine (yzhaiustc's DGEMM
// kernels).
#define AE(r, t) a[(r) + (t) * lda]
#define BE(r, t) b[(r) + (t) * ldb]
#define CE(r, t) c[(r) + (t) * ldc]
void startsAtC(int m, int n, int k, double al, const double *a, int lda,
               const double *b, int ldb, double *c, int ldc) {
  int r, q, s;
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f64, M x N x K = m x n x k; A column-major, B column-major, C column-major; accumulates into C, alpha = al, beta = 1; 'r' is unrolled by 2 and jammed into 's'; 'q' is unrolled by 2 and jammed into 's'; the launcher runs only where m % 2 == 0 and n % 2 == 0 (there the loops cover exactly this domain; elsewhere the loop runs); rewritten to call gemm_opt_{{.*}}_nest_5 [-Rpass=gemm]
  for (r = 0; r + 1 < m; r += 2)
    for (q = 0; q + 1 < n; q += 2) {
      double s00 = CE(r, q), s01 = CE(r, q + 1), s10 = CE(r + 1, q),
             s11 = CE(r + 1, q + 1);
      for (s = 0; s < k; s++) {
        double u0 = al * AE(r, s), u1 = al * AE(r + 1, s);
        double v0 = BE(s, q), v1 = BE(s, q + 1);
        s00 += u0 * v0;
        s01 += u0 * v1;
        s10 += u1 * v0;
        s11 += u1 * v1;
      }
      CE(r, q) = s00;
      CE(r, q + 1) = s01;
      CE(r + 1, q) = s10;
      CE(r + 1, q + 1) = s11;
    }
}

// The same with a declaration per accumulator and the sizes cut to even
// (`M2 = M & -2`), as yzhaiustc's kernel3 writes it.
void startsAtCApart(int M, int N, int K, double alpha, const double *a,
                    int lda, const double *b, int ldb, double *c, int ldc) {
  int i, j, k;
  int M2 = M & -2, N2 = N & -2;
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f64, M x N x K = M2 x N2 x K; {{.*}}'i' is unrolled by 2 and jammed into 'k'; 'j' is unrolled by 2 and jammed into 'k'; {{.*}}rewritten to call gemm_opt_{{.*}}_nest_6 [-Rpass=gemm]
  for (i = 0; i < M2; i += 2) {
    for (j = 0; j < N2; j += 2) {
      double c00 = CE(i, j);
      double c01 = CE(i, j + 1);
      double c10 = CE(i + 1, j);
      double c11 = CE(i + 1, j + 1);
      for (k = 0; k < K; k++) {
        double a0 = alpha * AE(i, k);
        double a1 = alpha * AE(i + 1, k);
        double b0 = BE(k, j);
        double b1 = BE(k, j + 1);
        c00 += a0 * b0;
        c01 += a0 * b1;
        c10 += a1 * b0;
        c11 += a1 * b1;
      }
      CE(i, j) = c00;
      CE(i, j + 1) = c01;
      CE(i + 1, j) = c10;
      CE(i + 1, j + 1) = c11;
    }
  }
}

// Near misses: stored to elements other than their starts (a transposed
// block); a value register narrowed to float, which rounds what it holds.
void storedElsewhere(int m, int n, int k, const double *a, int lda,
                     const double *b, int ldb, double *c, int ldc) {
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: more than one multiply-accumulate in the nest [-Rpass-missed=gemm]
  for (int r = 0; r + 1 < m; r += 2)
    for (int q = 0; q < n; q++) {
      double s0 = CE(r, q), s1 = CE(r + 1, q);
      for (int s = 0; s < k; s++) {
        s0 += AE(r, s) * BE(s, q);
        s1 += AE(r + 1, s) * BE(s, q);
      }
      CE(r + 1, q) = s0;
      CE(r, q) = s1;
    }
}
void narrowed(int m, int n, int k, const double *a, int lda, const double *b,
              int ldb, double *c, int ldc) {
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: more than one multiply-accumulate in the nest [-Rpass-missed=gemm]
  for (int r = 0; r + 1 < m; r += 2)
    for (int q = 0; q < n; q++) {
      double s0 = 0, s1 = 0;
      for (int s = 0; s < k; s++) {
        float u0 = AE(r, s), u1 = AE(r + 1, s);
        s0 += u0 * BE(s, q);
        s1 += u1 * BE(s, q);
      }
      CE(r, q) += s0;
      CE(r + 1, q) += s1;
    }
}

// Accumulators started at zero and stored into C (`C = s;`): C starts at
// zero before the K loop and takes the sums.
void zeroStarted(int m, int n, int k, const double *A, const double *B,
                 double *C) {
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f64, M x N x K = m x n x k; A row-major, B row-major, C row-major; fused zero-init of C, alpha = 1, beta = 0; 'j' is unrolled by 4 and jammed into 'l'; the launcher runs only where n % 4 == 0 {{.*}} [-Rpass=gemm]
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j += 4) {
      double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
      for (int l = 0; l < k; l++) {
        double a = A[i * k + l];
        s0 += a * B[l * n + j];
        s1 += a * B[l * n + j + 1];
        s2 += a * B[l * n + j + 2];
        s3 += a * B[l * n + j + 3];
      }
      C[i * n + j] = s0;
      C[i * n + j + 1] = s1;
      C[i * n + j + 2] = s2;
      C[i * n + j + 3] = s3;
    }
}

// The zero stores written out, rows of the block in a loop between.
void zeroStores(int m, int n, int k, const float *A, const float *B,
                float *C) {
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = m x n x k; A row-major, B row-major, C row-major; fused zero-init of C, alpha = 1, beta = 0; 'r' is unrolled by 2 and jammed into 'd'; the launcher runs only where m % 2 == 0 {{.*}} [-Rpass=gemm]
  for (int r = 0; r < m; r += 2)
    for (int c = 0; c < n; ++c) {
      C[r * n + c] = 0;
      C[(r + 1) * n + c] = 0;
      for (int d = 0; d < k; ++d) {
        C[r * n + c] += A[r * k + d] * B[d * n + c];
        C[(r + 1) * n + c] += A[(r + 1) * k + d] * B[d * n + c];
      }
    }
}

// A block kept in an array indexed by constants (catseye's sgemm7_, MACE's
// sum[16]), added to C or stored into it.
void arrayAdded(int m, int n, int k, const float *A, const float *B,
                float *C) {
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = m x n x k; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; 'i' is unrolled by 2 and jammed into 'l'; 'j' is unrolled by 2 and jammed into 'l'; {{.*}} [-Rpass=gemm]
  for (int i = 0; i < m; i += 2)
    for (int j = 0; j < n; j += 2) {
      float c[4] = {0};
      for (int l = 0; l < k; l++) {
        float a0 = A[i * k + l], a1 = A[(i + 1) * k + l];
        float b0 = B[l * n + j], b1 = B[l * n + j + 1];
        c[0] += a0 * b0;
        c[1] += a0 * b1;
        c[2] += a1 * b0;
        c[3] += a1 * b1;
      }
      C[i * n + j] += c[0];
      C[i * n + j + 1] += c[1];
      C[(i + 1) * n + j] += c[2];
      C[(i + 1) * n + j + 1] += c[3];
    }
}
void arrayStored(int m, int n, int k, const double *A, const double *B,
                 double *C) {
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f64, M x N x K = m x n x k; A row-major, B row-major, C row-major; fused zero-init of C, alpha = 1, beta = 0; 'r' is unrolled by 2 and jammed into 'd'; {{.*}} [-Rpass=gemm]
  for (int r = 0; r < m; r += 2)
    for (int c = 0; c < n; ++c) {
      double s[2] = {0};
      for (int d = 0; d < k; ++d) {
        s[0] += A[r * k + d] * B[d * n + c];
        s[1] += A[(r + 1) * k + d] * B[d * n + c];
      }
      C[r * n + c] = s[0];
      C[(r + 1) * n + c] = s[1];
    }
}

// Near misses: two lanes stored into one element; a lane scaled as it is
// stored; a lane read through a variable index; the array passed on whole;
// memory read between the K loop and the stores.
void sameElement(int m, int n, int k, const double *A, const double *B,
                 double *C) {
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: {{.*}} [-Rpass-missed=gemm]
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; j += 2) {
      double s0 = 0, s1 = 0;
      for (int k2 = 0; k2 < k; ++k2) {
        s0 += A[i * k + k2] * B[k2 * n + j];
        s1 += A[i * k + k2] * B[k2 * n + j + 1];
      }
      C[i * n + j] = s0;
      C[i * n + j] = s1;
    }
}
void laneScaled(int m, int n, int k, const double *A, const double *B,
                double *C) {
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: {{.*}} [-Rpass-missed=gemm]
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; j += 2) {
      double s[2] = {0};
      for (int k2 = 0; k2 < k; ++k2) {
        s[0] += A[i * k + k2] * B[k2 * n + j];
        s[1] += A[i * k + k2] * B[k2 * n + j + 1];
      }
      C[i * n + j] = s[0];
      C[i * n + j + 1] = 2 * s[1];
    }
}
void laneByVariable(int m, int n, int k, const double *A, const double *B,
                    double *C) {
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: {{.*}} [-Rpass-missed=gemm]
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; j += 2) {
      double s[2] = {0};
      for (int k2 = 0; k2 < k; ++k2) {
        s[0] += A[i * k + k2] * B[k2 * n + j];
        s[1] += A[i * k + k2] * B[k2 * n + j + 1];
      }
      for (int t = 0; t < 2; ++t)
        C[i * n + j + t] = s[1 - t];
    }
}
void keep(const double *lanes);
void arrayPassed(int m, int n, int k, const double *A, const double *B,
                 double *C) {
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: {{.*}} [-Rpass-missed=gemm]
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; j += 2) {
      double s[2] = {0};
      for (int k2 = 0; k2 < k; ++k2) {
        s[0] += A[i * k + k2] * B[k2 * n + j];
        s[1] += A[i * k + k2] * B[k2 * n + j + 1];
      }
      C[i * n + j] = s[0];
      C[i * n + j + 1] = s[1];
      keep(s);
    }
}
void readBeforeStores(int m, int n, int k, const float *A, const float *B,
                      float *C, const float *Cview, float *out) {
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: {{.*}} [-Rpass-missed=gemm]
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j += 2) {
      float s[2] = {0};
      for (int l = 0; l < k; l++) {
        s[0] += A[i * k + l] * B[l * n + j];
        s[1] += A[i * k + l] * B[l * n + j + 1];
      }
      out[i * n + j] = Cview[i * n + j];
      C[i * n + j] = s[0];
      C[i * n + j + 1] = s[1];
    }
}
