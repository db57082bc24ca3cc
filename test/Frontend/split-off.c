// A product beside another computation (SplitOff.cpp): the other statement
// runs after the launcher in the nest's loops, where its memory and the
// product's do not overlap (checked before the launcher). Near misses keep
// the nest as written: a statement that reads the accumulator or C, one
// that steps a counter.
//
// RUN: gemm-opt %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --check-prefix=OUT

#include <stddef.h>

void backward(float *dw, float *db, const float *dout, const float *in,
              int B, int T, int C, int OC) {
  // REMARK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = C x OC x (B * T); A column-major, B row-major, C column-major; accumulates into C, alpha = 1, beta = 1; 'if (db != NULL) { db[o] += d; }' runs beside the product: it runs as written after the launcher, in the nest's loops, where its memory and the product's do not overlap (elsewhere the loop runs); rewritten to call gemm_opt_nest_0 [-Rpass=gemm]
  for (int o = 0; o < OC; o++)
    for (int b = 0; b < B; b++)
      for (int t = 0; t < T; t++) {
        const float *drow = dout + (b * T + t) * OC;
        const float *irow = in + (b * T + t) * C;
        float *wrow = dw + o * C;
        float d = drow[o];
        if (db != NULL) { db[o] += d; }
        for (int i = 0; i < C; i++)
          wrow[i] += irow[i] * d;
      }
}
// The guard compares the spans, then the side copy runs: the product's
// statement and the pointers only it reads are blanked.
// OUT: if (!(((unsigned long long)(db + {{.*}} && gemm_opt_nest_0(in, C, B * T, 1, C, dout, B * T, OC, OC, 1, dw, C, OC, 1, C, 1, 1))) {
// OUT: } else {
// OUT-NEXT: #line 15 "{{.*}}split-off.c"
// OUT-NEXT: for (int o = 0; o < OC; o++)
// OUT-NEXT:     for (int b = 0; b < B; b++)
// OUT-NEXT:       for (int t = 0; t < T; t++) {
// OUT-NEXT:         const float *drow = dout + (b * T + t) * OC;
// OUT-NEXT:         ;
// OUT-NEXT:         ;
// OUT-NEXT:         float d = drow[o];
// OUT-NEXT:         if (db != NULL) { db[o] += d; }
// OUT-NEXT:         ;;
// OUT-NEXT:       }
// OUT-NEXT: }
// OUT-NEXT: #line 25 "{{.*}}split-off.c"

void colsums(int m, int n, int k, const double *a, const double *b, double *c,
             double *cs) {
  // REMARK: :[[@LINE+1]]:3: remark: GEMM recognised: f64, M x N x K = m x n x k; A row-major, B row-major, C row-major; accumulates in 's', alpha = 1, beta = 0; 'cs[j] = cs[j] + b[j] * 0.5' runs beside the product: {{.*}} rewritten to call gemm_opt_nest_1 [-Rpass=gemm]
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      double s = 0;
      for (int p = 0; p < k; p++)
        s += a[i * k + p] * b[p * n + j];
      c[i * n + j] = s;
      cs[j] = cs[j] + b[j] * 0.5;
    }
}

// Two independent products: the second goes to the launcher, the first
// runs as written beside it.
void twoProducts(int n, const float *a, const float *b, float *c, float *d) {
  // REMARK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = n x n x n; A row-major, B column-major, C row-major; accumulates into C, alpha = 1, beta = 1; 'c[i * n + j] += a[i * n + k] * b[k * n + j]' runs beside the product: {{.*}} rewritten to call gemm_opt_nest_2 [-Rpass=gemm]
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k) {
        c[i * n + j] += a[i * n + k] * b[k * n + j];
        d[i * n + j] += b[i * n + k] * a[j * n + k];
      }
}

// The copy sets what its loops' headers read as the nest does: f2c's bound
// temporary (`i__3 = m;`), a `while` loop's start and step.
void boundTemporary(int m, int n, int k, const float *a, const float *b,
                    float *c, float *rows) {
  int i, j, l, i__3;
  // REMARK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = m x n x k; {{.*}}'rows[i] = rows[i] + 1.F' runs beside the product: {{.*}} rewritten to call gemm_opt_nest_3 [-Rpass=gemm]
  for (j = 0; j < n; ++j) {
    l = 0;
    while (l < k) {
      i__3 = m;
      for (i = 0; i < i__3; ++i) {
        c[i + j * m] += a[i + l * m] * b[l + j * k];
        rows[i] = rows[i] + 1.F;
      }
      l++;
    }
  }
}
// OUT: gemm_opt_nest_3(a, m, k, 1, m, b, k, n, 1, k, c, m, n, 1, m, 1, 1))) {
// OUT: } else {
// OUT-NEXT: #line [[@LINE-14]] "{{.*}}split-off.c"
// OUT-NEXT: for (j = 0; j < n; ++j) {
// OUT-NEXT:     l = 0;
// OUT-NEXT:     while (l < k) {
// OUT-NEXT:       i__3 = m;
// OUT-NEXT:       for (i = 0; i < i__3; ++i) {
// OUT-NEXT:         ;;
// OUT-NEXT:         rows[i] = rows[i] + 1.F;
// OUT-NEXT:       }
// OUT-NEXT:       l++;
// OUT-NEXT:     }
// OUT-NEXT:   }
// OUT-NEXT: }

// Near misses.
void rowsums(int m, int n, int k, const float *a, const float *b, float *c,
             float *rs) {
  // REMARK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = m x n x k; A row-major, B row-major, C row-major; into a temporary, alpha = 1, beta = 0; the product goes through a temporary of m x n elements, and the rest of the nest runs as written (the K loop at line [[@LINE+4]] reads it; where its stores may meet A or B, the loop runs), since as a whole the nest is no GEMM: 'c[i * n + j]' is written besides the accumulator and its store (only a zero-init or a scaling of the stored element may come before the sum); rewritten to call gemm_opt_nest_{{[0-9]+}} [-Rpass=gemm]
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      float s = 0;
      for (int p = 0; p < k; p++)
        s += a[i * k + p] * b[p * n + j];
      c[i * n + j] = s;
      rs[i] += s;
    }
}
void readsC(int m, int n, int k, const float *a, const float *b, float *c,
            float *cs) {
  // REMARK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = m x n x k; A row-major, B row-major, C row-major; into a temporary, alpha = 1, beta = 0; the product goes through a temporary of m x n elements, and the rest of the nest runs as written (the K loop at line [[@LINE+3]] reads it; where its stores may meet A or B, the loop runs), since as a whole the nest is no GEMM: 'cs[j]' is written besides the accumulation into C (only a zero-init, a scaling of C, a bias element or a step of the sum may be fused); rewritten to call gemm_opt_nest_{{[0-9]+}} [-Rpass=gemm]
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      for (int p = 0; p < k; p++)
        c[i * n + j] += a[i * k + p] * b[p * n + j];
      cs[j] += c[i * n + j];
    }
}
// The accumulator declared before the nest (C89): still the product's.
void partials(int m, int n, int k, const float *a, const float *b, float *c,
              float *ps) {
  float s;
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: 'ps[p]' is written besides the accumulator and its store (only a zero-init or a scaling of the stored element may come before the sum) [-Rpass-missed=gemm]
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      s = 0;
      for (int p = 0; p < k; p++) {
        ps[p] += s;
        s += a[i * k + p] * b[p * n + j];
      }
      c[i * n + j] = s;
    }
}
int count;
void counted(int m, int n, int k, const float *a, const float *b, float *c) {
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: 'count' is stepped in the nest ('count++'), an effect beside the product's that the launch would not have [-Rpass-missed=gemm]
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      float s = 0;
      for (int p = 0; p < k; p++)
        s += a[i * k + p] * b[p * n + j];
      c[i * n + j] = s;
      count++;
    }
}
