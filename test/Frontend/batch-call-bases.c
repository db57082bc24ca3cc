// A batch loop whose operands come from a call that is not inlined (a
// broadcast helper with loops and a variable-length array, or one without
// a body): the call runs in each batch step as written, and the product
// inside, which reads the pointers unchanged, is rewritten alone. The
// products inside stand for the batch loop, which gets no remark of its
// own, however it counts (`at += m * n` or `b++`). Near misses: a pointer
// set inside the product's loops, one the product moves by a call, and a
// batch loop with no whole product inside (a matrix-vector product).
//
// RUN: gemm-opt %s -o %t.c --kernels=%t.cu 2>&1 | FileCheck %s --implicit-check-not=remark:

struct tens { float *data; long size; int ndim; int dims[4]; };

static inline float *broadcast_at(const struct tens *t, const struct tens *y,
                                  long at) {
  int ix[y->ndim];
  long off = 0;
  for (int d = y->ndim - 1; d >= 0; d--) {
    ix[d] = at % y->dims[d];
    at /= y->dims[d];
  }
  for (int d = 0; d < t->ndim; d++)
    off = off * t->dims[d] + (t->dims[d] > 1 ? ix[d + y->ndim - t->ndim] : 0);
  return t->data + off;
}
const float *slice_of(const void *t, long b);
long offset_of(const void *t, long b);
const float *next_rows(const float *p);

void set_at_top(const struct tens *a, const struct tens *b, struct tens *y,
                int m, int n, int k) {
  float *py = y->data;
  float *pa;
  float *pb;
  float sum;
  for (long i = 0, l = y->size; i < l; i += m * n) {
    pa = broadcast_at(a, y, i);
    pb = broadcast_at(b, y, i);
    // CHECK: :[[@LINE+1]]:5: remark: GEMM recognised: f32, M x N x K = m x n x k; A row-major, B row-major, C row-major; accumulates in 'sum', alpha = 1, beta = 0; rewritten
    for (int u = 0; u < m; u++)
      for (int v = 0; v < n; v++) {
        sum = 0;
        for (int w = 0; w < k; w++)
          sum += pa[u * k + w] * pb[w * n + v];
        py[i + u * n + v] = sum;
      }
  }
}

void declared_in_batch(const struct tens *a, const struct tens *b,
                       struct tens *y, int m, int n, int k) {
  for (long i = 0; i < y->size; i += m * n) {
    const float *pa = broadcast_at(a, y, i);
    const float *pb = broadcast_at(b, y, i);
    // CHECK: :[[@LINE+1]]:5: remark: GEMM recognised: f32, M x N x K = m x n x k; A row-major, B row-major, C row-major; accumulates in 'sum', alpha = 1, beta = 0; rewritten
    for (int u = 0; u < m; u++)
      for (int v = 0; v < n; v++) {
        float sum = 0;
        for (int w = 0; w < k; w++)
          sum += pa[u * k + w] * pb[w * n + v];
        y->data[i + u * n + v] = sum;
      }
  }
}

void without_body(const void *ta, const void *tb, float *out, int batch,
                  int m, int n, int k) {
  const float *x, *w;
  int b, r, s, t;
  for (b = 0; b < batch; b++) {
    x = slice_of(ta, b);
    w = slice_of(tb, b);
    // CHECK: :[[@LINE+1]]:5: remark: GEMM recognised: f32, M x N x K = m x n x k; A row-major, B row-major, C row-major; accumulates in 'acc', alpha = 1, beta = 0; rewritten
    for (r = 0; r < m; r++)
      for (s = 0; s < n; s++) {
        float acc = 0;
        for (t = 0; t < k; t++)
          acc += x[r * k + t] * w[t * n + s];
        out[(long)b * m * n + r * n + s] = acc;
      }
  }
}

// The offsets, not the pointers, come from the call.
void offsets_from_call(const float *A, const float *B, float *out, int batch,
                       int m, int n, int k) {
  long oa, ob;
  for (int b = 0; b < batch; b++) {
    oa = offset_of(A, b);
    ob = offset_of(B, b);
    // CHECK: :[[@LINE+1]]:5: remark: GEMM recognised: f32, M x N x K = m x n x k; A row-major, B row-major, C row-major; accumulates in 'acc', alpha = 1, beta = 0; rewritten
    for (int r = 0; r < m; r++)
      for (int s = 0; s < n; s++) {
        float acc = 0;
        for (int t = 0; t < k; t++)
          acc += A[oa + r * k + t] * B[ob + t * n + s];
        out[(long)b * m * n + r * n + s] = acc;
      }
  }
}

// The pointer for the next batch step is set after the product: each step's
// product still reads one pointer throughout.
void set_after(const void *ta, const float *first, const float *w, float *out,
               int batch, int m, int n, int k) {
  const float *x = first;
  for (int b = 0; b < batch; b++) {
    // CHECK: :[[@LINE+1]]:5: remark: GEMM recognised: f32, M x N x K = m x n x k; A row-major, B row-major, C row-major; accumulates in 'acc', alpha = 1, beta = 0; rewritten
    for (int r = 0; r < m; r++)
      for (int s = 0; s < n; s++) {
        float acc = 0;
        for (int t = 0; t < k; t++)
          acc += x[r * k + t] * w[t * n + s];
        out[(long)b * m * n + r * n + s] = acc;
      }
    x = slice_of(ta, b + 1);
  }
}

// Near miss: each row of A comes from the call, inside the product.
void set_per_row(const void *ta, const void *tb, float *out, int batch, int m,
                 int n, int k) {
  const float *x, *w;
  for (int b = 0; b < batch; b++) {
    w = slice_of(tb, b);
    // CHECK: :[[@LINE+1]]:5: remark: loop nest not rewritten: pointer 'x' is set to 'slice_of(ta, b * m + r)', which depends on the call 'slice_of(ta, b * m + r)': its offset is not a function of the loop indices
    for (int r = 0; r < m; r++) {
      x = slice_of(ta, b * m + r);
      for (int s = 0; s < n; s++) {
        float acc = 0;
        for (int t = 0; t < k; t++)
          acc += x[t] * w[t * n + s];
        out[(long)b * m * n + r * n + s] = acc;
      }
    }
  }
}

// Near miss: the product itself moves the pointer by a call.
void moved_inside(const void *ta, const float *w, float *out, int batch, int m,
                  int n, int k) {
  const float *x;
  for (int b = 0; b < batch; b++) {
    x = slice_of(ta, b);
    // CHECK: :[[@LINE+1]]:5: remark: loop nest not rewritten: pointer 'x' is set to 'next_rows(x)', which depends on the call 'next_rows(x)': its offset is not a function of the loop indices
    for (int r = 0; r < m; r++) {
      for (int s = 0; s < n; s++) {
        float acc = 0;
        for (int t = 0; t < k; t++)
          acc += x[t] * w[t * n + s];
        out[(long)b * m * n + r * n + s] = acc;
      }
      x = next_rows(x);
    }
  }
}

// Near miss: a matrix-vector product per batch step: no whole product
// inside stands for the batch loop.
void gemv_per_batch(const void *ta, const float *v, float *out, int batch,
                    int m, int k) {
  const float *x;
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: pointer 'x' is set to 'slice_of(ta, b)', which depends on the call 'slice_of(ta, b)': its offset is not a function of the loop indices
  for (int b = 0; b < batch; b++) {
    x = slice_of(ta, b);
    for (int r = 0; r < m; r++) {
      float acc = 0;
      for (int t = 0; t < k; t++)
        acc += x[r * k + t] * v[t];
      out[(long)b * m + r] = acc;
    }
  }
}
