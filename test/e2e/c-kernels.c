/* A numerical library in plain C99: column-major sgemm with alpha and beta,
 * a dgemm over row-major malloc'd arrays written with `register` and
 * `restrict`, a VLA product, a 2x2 block of C kept in registers that
 * start at C's elements (the odd edges left to another routine: with an
 * odd size the loop runs as written), a 2x2 block kept in an array added
 * to C (catseye's sgemm7_) and a 1x4 block of zero-started registers
 * stored into C. gemm-opt writes the host file in C (built
 * with gcc as the original is) and the kernels apart (built with nvcc); the
 * two link into one program that must print what the original prints.
 *
 * RUN: rm -rf %t && mkdir -p %t
 * RUN: %host_cc -std=c99 -O1 %s -lm -o %t/orig && %t/orig > %t/expected
 * RUN: gemm-opt %s -o %t/host.c --kernels=%t/kernels.cu 2>&1 | FileCheck %s --implicit-check-not=Rpass-missed
 * RUN: %host_cc -std=c99 -Wall -Werror -O1 -c %t/host.c -o %t/host.o
 * RUN: %nvcc -std=c++17 -arch=sm_%cuda_arch -I %gemm_runtime_include -c %t/kernels.cu -o %t/kernels.o
 * RUN: %nvcc -arch=sm_%cuda_arch %t/host.o %t/kernels.o %gemm_runtime_lib -o %t/split
 * RUN: %t/split > %t/actual && %python %S/compare.py %t/expected %t/actual
 * RUN: env GEMM_OPT_DEVICE=cpu %t/split > %t/lifted && %python %S/compare.py %t/expected %t/lifted
 * The launchers are the host file's only new names, with C linkage.
 * RUN: FileCheck --check-prefix=HOST %s < %t/host.c
 * CHECK-COUNT-6: [-Rpass=gemm]
 * HOST: extern "C" {
 * HOST: int gemm_opt_kernels_{{[0-9a-f]+}}_nest_0(const float *a
 * HOST: #line 1 "{{.*}}c-kernels.c"
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static void fill(double *p, long n, unsigned seed) {
  unsigned long long state = seed * 6364136223846793005ULL + 1442695040888963407ULL;
  long i;
  for (i = 0; i < n; ++i) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    p[i] = 2.0 * ((double)(state >> 11) / 9007199254740992.0) - 1.0;
  }
}

static double norm(const double *p, long n) {
  double sum = 0;
  long i;
  for (i = 0; i < n; ++i)
    sum += p[i] * p[i];
  return sqrt(sum);
}

static void print(const char *label, const char *type, long k, double scale,
                  const double *c, long count) {
  long i;
  printf("matrix %s %s %ld %.17g %ld", label, type, k, scale, count);
  for (i = 0; i < count; ++i)
    printf(" %.17g", c[i]);
  printf("\n");
}

/* Column-major, as the reference BLAS lays it out. */
void my_sgemm(int m, int n, int k, float alpha, const float *a, int lda,
              const float *b, int ldb, float beta, float *c, int ldc) {
  int i, j, l;
  for (j = 0; j < n; j++)
    for (i = 0; i < m; i++) {
      register float temp = 0.0f;
      for (l = 0; l < k; l++)
        temp += a[i + l * lda] * b[l + j * ldb];
      c[i + j * ldc] = alpha * temp + beta * c[i + j * ldc];
    }
}

void my_dgemm(int m, int n, int k, const double *restrict a,
              const double *restrict b, double *restrict c) {
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      double sum = 0;
      for (int l = 0; l < k; ++l)
        sum += a[i * k + l] * b[l * n + j];
      c[i * n + j] = sum;
    }
}

void vla_product(int m, int n, int k, double a[m][k], double b[k][n],
                 double c[m][n]) {
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      c[i][j] = 0;
      for (int l = 0; l < k; ++l)
        c[i][j] += a[i][l] * b[l][j];
    }
}

#define AE(r, t) a[(r) + (t) * lda]
#define BE(r, t) b[(r) + (t) * ldb]
#define CE(r, t) c[(r) + (t) * ldc]
void block2x2(int m, int n, int k, double al, const double *a, int lda,
              const double *b, int ldb, double *c, int ldc) {
  int r, q, s;
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

void lanes2x2(int m, int n, int k, const double *a, const double *b,
              double *c) {
  for (int i = 0; i < m; i += 2)
    for (int j = 0; j < n; j += 2) {
      double acc[4] = {0};
      for (int l = 0; l < k; l++) {
        double a0 = a[i * k + l], a1 = a[(i + 1) * k + l];
        double b0 = b[l * n + j], b1 = b[l * n + j + 1];
        acc[0] += a0 * b0;
        acc[1] += a0 * b1;
        acc[2] += a1 * b0;
        acc[3] += a1 * b1;
      }
      c[i * n + j] += acc[0];
      c[i * n + j + 1] += acc[1];
      c[(i + 1) * n + j] += acc[2];
      c[(i + 1) * n + j + 1] += acc[3];
    }
}

void zeroed1x4(int m, int n, int k, const float *a, const float *b,
               float *c) {
  for (int i = 0; i < m; i++)
    for (int j = 0; j + 3 < n; j += 4) {
      float s0 = 0, s1 = 0, s2 = 0, s3 = 0;
      for (int l = 0; l < k; l++) {
        float x = a[i * k + l];
        s0 += x * b[l * n + j];
        s1 += x * b[l * n + j + 1];
        s2 += x * b[l * n + j + 2];
        s3 += x * b[l * n + j + 3];
      }
      c[i * n + j] = s0;
      c[i * n + j + 1] = s1;
      c[i * n + j + 2] = s2;
      c[i * n + j + 3] = s3;
    }
}

int main(void) {
  const int m = 37, n = 29, k = 45, ld = 41;
  double *a = malloc(sizeof(double) * ld * k);
  double *b = malloc(sizeof(double) * k * n);
  double *c = malloc(sizeof(double) * ld * n);
  float *af = malloc(sizeof(float) * ld * k);
  float *bf = malloc(sizeof(float) * k * n);
  float *cf = malloc(sizeof(float) * ld * n);
  double *out = malloc(sizeof(double) * ld * n);
  long i;
  int row, col;
  double scale;
  fill(a, (long)ld * k, 1);
  fill(b, (long)k * n, 2);
  fill(c, (long)ld * n, 3);
  for (i = 0; i < (long)ld * k; ++i)
    af[i] = (float)a[i];
  for (i = 0; i < (long)k * n; ++i)
    bf[i] = (float)b[i];
  for (i = 0; i < (long)ld * n; ++i)
    cf[i] = (float)c[i];

  /* Column-major m x n result in an ld x n array: the rows past m are
     padding that must come back untouched. */
  my_sgemm(m, n, k, 1.5f, af, ld, bf, k, -0.5f, cf, ld);
  for (i = 0; i < (long)ld * n; ++i)
    out[i] = cf[i];
  print("sgemm", "f32", k, 1.5 * norm(a, (long)ld * k) * norm(b, (long)k * n) +
        0.5 * norm(c, (long)ld * n), out, (long)ld * n);

  my_dgemm(m, n, k, a, b, c);
  print("dgemm", "f64", k, norm(a, (long)m * k) * norm(b, (long)k * n), c,
        (long)m * n);

  vla_product(m, n, k, (double (*)[k])a, (double (*)[n])b, (double (*)[n])c);
  for (row = 0; row < m; ++row)
    for (col = 0; col < n; ++col)
      out[row * n + col] = c[row * n + col];
  print("vla", "f64", k, norm(a, (long)m * k) * norm(b, (long)k * n), out,
        (long)m * n);
  /* Even sizes (lifted), then odd ones (the loop as written). */
  fill(out, (long)ld * n, 4);
  scale = 1.5 * norm(a, (long)ld * k) * norm(b, (long)k * n) +
          norm(out, (long)ld * n);
  block2x2(m - 1, n - 1, k, 1.5, a, ld, b, k, out, ld);
  print("block2x2", "f64", k, scale, out, (long)ld * n);
  scale = 0.5 * norm(a, (long)ld * k) * norm(b, (long)k * n) +
          norm(out, (long)ld * n);
  block2x2(m, n, k, -0.5, a, ld, b, k, out, ld);
  print("block2x2-odd", "f64", k, scale, out, (long)ld * n);
  /* Row-major blocks: even sizes (lifted), then the rows past the sizes
     that a block of 2 or 4 covers exactly (the loop as written). */
  fill(out, (long)ld * n, 5);
  scale = norm(a, (long)ld * k) * norm(b, (long)k * n) +
          norm(out, (long)ld * n);
  lanes2x2(m - 1, n - 1, k, a, b, out);
  print("lanes2x2", "f64", k, scale, out, (long)ld * n);
  fill(out, (long)ld * n, 6);
  for (i = 0; i < (long)ld * n; ++i)
    cf[i] = (float)out[i];
  zeroed1x4(m, 28, k, af, bf, cf);
  zeroed1x4(m - 1, 26, k, af, bf, cf + 1);
  for (i = 0; i < (long)ld * n; ++i)
    out[i] = cf[i];
  print("zeroed1x4", "f32", k, norm(a, (long)ld * k) * norm(b, (long)k * n) +
        norm(out, (long)ld * n), out, (long)ld * n);
  free(a);
  free(b);
  free(c);
  free(af);
  free(bf);
  free(cf);
  free(out);
  return 0;
}
