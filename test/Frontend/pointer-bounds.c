// Loops driven by a pointer compared with an end pointer: `for (; p != end;
// ++p)` where end is p's start plus n elements, set in the same
// declaration, a statement ahead or the loop's init; `<` with a step;
// `while` and `do` loops stepped in their bodies; steps by a variable.
// Each runs n / step times (PointerBounds.cpp) and its pointer is walked
// like any bumped pointer: the same GEMM as the indexed loop.
//
// RUN: gemm-opt %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --check-prefix=OUT
//
// OUT: #line 1 "{{.*}}pointer-bounds.c"

// out = x * y, rows padded to a multiple of 4: each row of out and of x walked with the
// rows counted down, out's columns and the dot product run to end pointers.
void product(double *out, const double *x, const double *y, unsigned m,
             unsigned k, unsigned n) {
  const unsigned ldx = (k + 3) & ~3u, ldy = (n + 3) & ~3u;
  double *orow = out;
  const double *xrow = x;
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f64, M x N x K = m x n x k; A row-major, B row-major, C row-major; accumulates in 'dot', alpha = 1, beta = 0; rewritten to call gemm_opt_nest_0 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_0(xrow + (-(long long)((k + 3) & ~3U) + (long long)((k + 3) & ~3U) * (long long)m), m, k, -(long long)((k + 3) & ~3U), 1, y, k, n, ((n + 3) & ~3U), 1, orow + (-(long long)((n + 3) & ~3U) + (long long)((n + 3) & ~3U) * (long long)m), m, n, -(long long)((n + 3) & ~3U), 1, 1, 0)) {
  for (unsigned i = m; i != 0; orow += ldy, xrow += ldx, --i) {
    double *o = orow;
    const double *ycol = y, *ycolEnd = y + n;
    for (; ycol != ycolEnd; ++o, ++ycol) {
      double dot = 0.0;
      const double *yy = ycol, *xx = xrow, *xxEnd = xrow + k;
      for (; xx != xxEnd; yy += ldy, ++xx)
        dot += (*xx) * (*yy);
      *o = dot;
    }
  }
}

// out = x^T * y: the outermost loop runs x's columns to an end declared
// ahead of the nest; the dot product counts down.
void productLeftT(double *out, const double *x, const double *y, unsigned m,
                  unsigned k, unsigned n) {
  const unsigned ldx = (m + 3) & ~3u, ldy = (n + 3) & ~3u;
  double *orow = out;
  const double *xcol = x, *xcolEnd = x + m;
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f64, M x N x K = m x n x k; A column-major, B row-major, C row-major; accumulates in 'dot', alpha = 1, beta = 0; rewritten to call gemm_opt_nest_1 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_1(xcol + (-(long long)((m + 3) & ~3U) + (long long)((m + 3) & ~3U) * (long long)k), m, k, 1, -(long long)((m + 3) & ~3U), y + (-(long long)((n + 3) & ~3U) + (long long)((n + 3) & ~3U) * (long long)k), k, n, -(long long)((n + 3) & ~3U), 1, orow, m, n, ((n + 3) & ~3U), 1, 1, 0)) {
  for (; xcol != xcolEnd; orow += ldy, ++xcol) {
    double *o = orow;
    const double *ycol = y, *ycolEnd = y + n;
    for (; ycol != ycolEnd; ++o, ++ycol) {
      double dot = 0.0;
      const double *xx = xcol, *yy = ycol;
      for (unsigned t = k; t != 0; xx += ldx, yy += ldy, --t)
        dot += (*xx) * (*yy);
      *o = dot;
    }
  }
}

// out = x * y^T: out's row pointer and its end declared in the loop's
// header, y's rows bumped beside it.
void productRightT(double *out, const double *x, const double *y, unsigned m,
                   unsigned k, unsigned n) {
  const unsigned ldx = (k + 3) & ~3u, ldo = (n + 3) & ~3u;
  double *orow = out;
  const double *xrow = x;
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f64, M x N x K = m x n x k; A row-major, B column-major, C row-major; accumulates in 'dot', alpha = 1, beta = 0; rewritten to call gemm_opt_nest_2 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_2(xrow + (-(long long)((k + 3) & ~3U) + (long long)((k + 3) & ~3U) * (long long)m), m, k, -(long long)((k + 3) & ~3U), 1, y, k, n, 1, ((k + 3) & ~3U), orow + (-(long long)((n + 3) & ~3U) + (long long)((n + 3) & ~3U) * (long long)m), m, n, -(long long)((n + 3) & ~3U), 1, 1, 0)) {
  for (unsigned i = m; i != 0; orow += ldo, xrow += ldx, --i) {
    const double *yrow = y;
    for (double *o = orow, *oEnd = orow + n; o != oEnd; yrow += ldx, ++o) {
      double dot = 0.0;
      const double *xx = xrow, *yy = yrow, *yyEnd = yrow + k;
      for (; yy != yyEnd; ++xx, ++yy)
        dot += (*xx) * (*yy);
      *o = dot;
    }
  }
}

// `<` with a step of 2: every other element of a row twice as long, set
// in the loop's init and tested against the row's end; `!=` with a step of
// 3 over a distance of 3 * k.
void strided(int m, int k, int n, const float *x, const float *y, float *out,
             float *out3) {
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f32, M x N x K = m x n x k; A strided, B row-major, C row-major; accumulates in 's', alpha = 1, beta = 0; rewritten to call gemm_opt_nest_3 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_3(x, m, k, 2 * k, 2, y, k, n, n, 1, out, m, n, n, 1, 1, 0)) {
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      float s = 0;
      const float *yy = y + j;
      const float *xx;
      for (xx = x + 2 * i * k; xx < x + 2 * i * k + 2 * k; xx += 2) {
        s += *xx * *yy;
        yy += n;
      }
      out[i * n + j] = s;
    }
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f32, M x N x K = m x n x k; A strided, B row-major, C row-major; accumulates in 's', alpha = 1, beta = 0; rewritten to call gemm_opt_nest_4 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_4(x, m, k, 3 * k, 3, y, k, n, n, 1, out3, m, n, n, 1, 1, 0)) {
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      float s = 0;
      const float *yy = y + j;
      for (const float *xx = x + 3 * i * k, *end = xx + 3 * k; xx != end;
           xx += 3, yy += n)
        s += *xx * *yy;
      out3[i * n + j] = s;
    }
}

// `<` with a step that need not divide the row: ceil(k / 3) products.
void ceilSteps(int m, int k, int n, const float *x, const float *y,
               float *out) {
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f32, M x N x K = m x n x ((2L + k) / 3L); A strided, B row-major, C row-major; accumulates in 's', alpha = 1, beta = 0; rewritten to call gemm_opt_nest_5 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_5(x, m, ((2L + k) / 3L), k, 3, y, ((2L + k) / 3L), n, n, 1, out, m, n, n, 1, 1, 0)) {
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      float s = 0;
      const float *yy = y + j;
      const float *row = x + i * k;
      for (const float *xx = row; xx < row + k; xx += 3, yy += n)
        s += *xx * *yy;
      out[i * n + j] = s;
    }
}

// A `while` loop over out's row stepped at the end of its body, and a `do`
// loop whose dot product reads x with a post-increment: it runs once where
// k <= 0, so the launcher runs where k > 0.
void bodySteps(int m, int k, int n, const float *x, const float *y,
               float *out, float *out2) {
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f32, M x N x K = m x n x k; A row-major, B row-major, C row-major; accumulates in 's', alpha = 1, beta = 0; rewritten to call gemm_opt_nest_6 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_6(x, m, k, k, 1, y, k, n, n, 1, out, m, n, n, 1, 1, 0)) {
  for (int i = 0; i < m; i++) {
    float *o = out + i * n;
    const float *oEnd = o + n;
    const float *ycol = y;
    while (o != oEnd) {
      float s = 0;
      const float *yy = ycol;
      for (int t = 0; t < k; t++) {
        s += x[i * k + t] * *yy;
        yy += n;
      }
      *o = s;
      ++ycol;
      ++o;
    }
  }
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f32, M x N x K = m x n x k; A row-major, B row-major, C row-major; accumulates in 's', alpha = 1, beta = 0; the launcher runs only where k > 0 (there the loops cover exactly this domain; elsewhere the loop runs); rewritten to call gemm_opt_nest_7 [-Rpass=gemm]
  // OUT: {{^}}  if (!((k > 0) && gemm_opt_nest_7(x, m, k, k, 1, y, k, n, n, 1, out2, m, n, n, 1, 1, 0))) {
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      float s = 0;
      const float *yy = y + j;
      const float *xx = x + i * k, *xxEnd = xx + k;
      do {
        s += *xx++ * *yy;
        yy += n;
      } while (xx != xxEnd);
      out2[i * n + j] = s;
    }
}

// Steps by a variable: a column of x walked by ld to k * ld past its top,
// out's rows walked by ldo to m * ldo past the first. Each runs k (m)
// times where its step is positive, the launcher's precondition.
void variableSteps(int m, int k, int n, int ld, int ldo, const float *x,
                   const float *y, float *out) {
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f32, M x N x K = m x n x k; A column-major, B row-major, C row-major; accumulates in 's', alpha = 1, beta = 0; the launcher runs only where ld > 0 (there the loops cover exactly this domain; elsewhere the loop runs); rewritten to call gemm_opt_nest_8 [-Rpass=gemm]
  // OUT: {{^}}  if (!((ld > 0) && gemm_opt_nest_8(x, m, k, 1, ld, y, k, n, n, 1, out, m, n, ldo, 1, 1, 0))) {
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      float s = 0;
      const float *yy = y + j;
      const float *xx = x + i, *xxEnd = x + i + k * ld;
      for (; xx < xxEnd; xx += ld, yy += n)
        s += *xx * *yy;
      out[i * ldo + j] = s;
    }
  const float *xr = x;
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f32, M x N x K = m x n x k; A row-major, B row-major, C row-major; accumulates in 's', alpha = 1, beta = 0; the launcher runs only where ldo > 0 (there the loops cover exactly this domain; elsewhere the loop runs); rewritten to call gemm_opt_nest_9 [-Rpass=gemm]
  // OUT: {{^}}  if (!((ldo > 0) && gemm_opt_nest_9(xr, m, k, k, 1, y, k, n, n, 1, out, m, n, ldo, 1, 1, 0))) {
  for (float *o = out, *oEnd = out + m * ldo; o != oEnd; o += ldo, xr += k)
    for (int j = 0; j < n; j++) {
      float s = 0;
      for (int t = 0; t < k; t++)
        s += xr[t] * y[t * n + j];
      o[j] = s;
    }
}
