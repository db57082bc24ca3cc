// Pointers declared at the top of the function (C89) that the nest sets
// under a branch before every use and nobody reads after it are the nest's
// own locals (NestLocals.cpp): a bias pointer set in the bias branch (an
// ONNX runtime's Gemm); a column pointer set from an inline accessor in
// each column, followed as a pointer walk (the accessor is what it
// returns); a
// batch loop whose operands come through a broadcast's `at % size` leaves
// its inner product to be rewritten alone. Near misses: a pointer read
// before its set, one read after the nest, and a helper without a body
// that takes two arrays (it gets a remark, not silence).
//
// RUN: gemm-opt %s -o %t.c --kernels=%t.cu 2>&1 | FileCheck %s --implicit-check-not=remark:

struct tens { float *data; long size; };
static inline float *at_of(struct tens *t, long at) { return t->data + (at % t->size); }
struct mat { int rows, cols; const float *data; };
static inline const float *column(const struct mat *m, int j) { return m->data + j; }
static inline int width(const struct mat *m) { return m->cols; }
void row_axpy(double *dst, const double *src, double s, int len);

void gemm_bias(int m, int n, int k, float alpha, float beta, const float *a,
               const float *b, struct tens *bias, float *y) {
  float *q, acc;
  // CHECK: :[[@LINE+1]]:3: remark: versioned on 'bias'; where it holds, left as written: unsupported store of accumulator 'acc'{{.*}}; where it does not, GEMM recognised: f32, M x N x K = m x n x k; A row-major, B row-major, C row-major; accumulates in 'acc', alpha = alpha, beta = 0, rewritten
  for (int r = 0; r < m; r++)
    for (int s = 0; s < n; s++) {
      acc = 0;
      for (int t = 0; t < k; t++)
        acc += a[r * k + t] * b[t * n + s];
      if (bias) {
        q = at_of(bias, (long)r * n + s);
        y[r * n + s] = alpha * acc + beta * (*q);
      } else
        y[r * n + s] = alpha * acc;
    }
}

void by_columns(float *d, const struct mat *a, const struct mat *b) {
  int r, s, t;
  const float *ap, *bp;
  float acc;
  ap = a->data;
  // CHECK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = a->rows x b->cols x width(a); A row-major, B row-major, C row-major; accumulates in 'acc', alpha = 1, beta = 0; rewritten
  for (r = 0; r < a->rows; r++) {
    for (s = 0; s < b->cols; s++) {
      bp = column(b, s);
      acc = 0;
      for (t = 0; t < width(a); t++) {
        acc += ap[t] * bp[0];
        bp += b->cols;
      }
      *d++ = acc;
    }
    ap += width(a);
  }
}

void batched(struct tens *ta, struct tens *tb, float *out, long total, int m,
             int n, int k) {
  float *x, *w, acc;
  for (long at = 0; at < total; at += (long)m * n) {
    x = at_of(ta, at);
    w = at_of(tb, at);
    // CHECK: :[[@LINE+1]]:5: remark: GEMM recognised: f32, M x N x K = m x n x k; A row-major, B row-major, C row-major; accumulates in 'acc', alpha = 1, beta = 0; rewritten
    for (int r = 0; r < m; r++)
      for (int s = 0; s < n; s++) {
        acc = 0;
        for (int t = 0; t < k; t++)
          acc += x[r * k + t] * w[t * n + s];
        out[at + r * n + s] = acc;
      }
  }
}

// The column pointer is read before each column sets it: it carries what
// the last column left.
float read_before_set(float *d, const struct mat *a, const struct mat *b) {
  int r, s, t;
  const float *bp = b->data;
  float acc;
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: pointer 'bp' is read before the statement that sets it in each iteration of the loop over 's'
  for (r = 0; r < a->rows; r++)
    for (s = 0; s < b->cols; s++) {
      acc = bp[0];
      bp = column(b, s);
      for (t = 0; t < a->cols; t++) {
        acc += a->data[r * a->cols + t] * bp[0];
        bp += b->cols;
      }
      d[r * b->cols + s] = acc;
    }
  return acc;
}

// The column pointer is read after the nest, where it holds the last
// column's end.
const float *read_after(float *d, const struct mat *a, const struct mat *b) {
  int r, s, t;
  const float *bp;
  float acc;
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: pointer 'bp' is read after the loop (line [[@LINE+11]]), where it holds the value the loop moved it to; the rewrite would not set it
  for (r = 0; r < a->rows; r++)
    for (s = 0; s < b->cols; s++) {
      bp = column(b, s);
      acc = 0;
      for (t = 0; t < a->cols; t++) {
        acc += a->data[r * a->cols + t] * bp[0];
        bp += b->cols;
      }
      d[r * b->cols + s] = acc;
    }
  return bp;
}

// Index locals declared at the top and set from the loop indices in each
// iteration (a benchmark suite's HLS reference, with loop labels).
void index_locals(const double *m1, const double *m2, double *prod, int n) {
  int i, j, k, i_col, k_col;
  double mult;
  // CHECK: :[[@LINE+1]]:7: remark: GEMM recognised: f64, M x N x K = n x n x n; A row-major, B row-major, C row-major; accumulates in 'sum', alpha = 1, beta = 0; rewritten
outer:for (i = 0; i < n; i++) {
  middle:
    for (j = 0; j < n; j++) {
      i_col = i * n;
      double sum = 0;
    inner:
      for (k = 0; k < n; k++) {
        k_col = k * n;
        mult = m1[i_col + k] * m2[k_col + j];
        sum += mult;
      }
      prod[i_col + j] = sum;
    }
  }
}

// The index local is read before the iteration sets it: it holds the
// last row's.
int index_read_before(const double *m1, const double *m2, double *prod,
                      int n) {
  int i, j, k, i_col = 0;
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: 'i_col' is written besides the accumulator and its store
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) {
      double sum = 0;
      for (k = 0; k < n; k++)
        sum += m1[i_col + k] * m2[k * n + j];
      i_col = i * n;
      prod[i_col + j] = sum;
    }
  return i_col;
}

// C = A * B through an axpy defined in another file.
void through_axpy(double **out, double **a, double **b, int m, int n, int p) {
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: 'row_axpy' has no body in this translation unit, so its effects are unknown
  for (int r = 0; r < m; r++)
    for (int t = 0; t < n; t++)
      row_axpy(out[r], b[t], a[r][t], p);
}
