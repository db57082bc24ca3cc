// Pointers walked instead of indexed: bumped once per iteration (`p += ld;`,
// `p++`, in the loop's increment), read with a post-increment (`*out++ =
// s;`, `*a++ * *b++`), reset per outer iteration or walking on across it,
// driven by down-counting `while` and `do` loops. Each read is the
// pointer's base plus the bumps before it, counted from the trip counts
// (PointerWalk.cpp): the same GEMM as the indexed loop, with its strides.
//
// RUN: gemm-opt %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --check-prefix=OUT
//
// OUT: #line 1 "{{.*}}pointer-walks.c"

// C += A * B^T, column-major, k outermost: the column of C reset per k and
// bumped by its height per j; A's and B's columns bumped per k.
void addMultABt(int ah, int bh, int aw, const double *ad, const double *bd,
                double *cd) {
  int i, j, k;
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f64, M x N x K = ah x bh x aw; A column-major, B row-major, C column-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_0 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_0(ad, ah, aw, 1, ah, bd, aw, bh, bh, 1, cd, ah, bh, 1, ah, 1, 1)) {
  for (k = 0; k < aw; k++) {
    double *cp = cd;
    for (j = 0; j < bh; j++) {
      const double bjk = bd[j];
      for (i = 0; i < ah; i++)
        cp[i] += ad[i] * bjk;
      cp += ah;
    }
    ad += ah;
    bd = bd + bh;
  }
}

// C = A^T * B: C stored through `*(cd++)`, walking across both loops.
void multAtB(int ah, int aw, int bw, const double *ad, const double *bd,
             double *cd) {
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f64, M x N x K = aw x bw x ah; A row-major, B column-major, C column-major; accumulates in 'd', alpha = 1, beta = 0; rewritten to call gemm_opt_nest_1 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_1(ad, aw, ah, ah, 1, bd, ah, bw, 1, ah, cd, aw, bw, 1, aw, 1, 0)) {
  for (int j = 0; j < bw; j++) {
    const double *ap = ad;
    for (int i = 0; i < aw; i++) {
      double d = 0.0;
      for (int k = 0; k < ah; k++)
        d += ap[k] * bd[k];
      *(cd++) = d;
      ap += ah;
    }
    bd += ah;
  }
}

// Row pointers reset per i, the output row written with `*out++ = sum`.
void matmulTransB(int M, int N, int K, const float *pA, const float *pB,
                  float *pOut) {
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f32, M x N x K = M x N x K; A row-major, B column-major, C row-major; accumulates in 'sum', alpha = 1, beta = 0; rewritten to call gemm_opt_nest_2 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_2(pA, M, K, K, 1, pB, K, N, 1, K, pOut, M, N, N, 1, 1, 0)) {
  for (int i = 0; i < M; i++) {
    const float *rowA = pA + i * K;
    float *out = pOut + i * N;
    for (int j = 0; j < N; j++) {
      const float *rowB = pB + j * K;
      float sum = 0.f;
      for (int k = 0; k < K; k++)
        sum += rowA[k] * rowB[k];
      *out++ = sum;
    }
  }
}

// Both factors read with post-increments, the output bumped with `++o`.
void affine(int batch, int outs, int ins, const float *x, const float *w,
            float *y) {
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f32, M x N x K = batch x outs x ins; A row-major, B column-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_3 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_3(x, batch, ins, ins, 1, w, ins, outs, 1, ins, y, batch, outs, outs, 1, 1, 1)) {
  for (int b = 0; b < batch; b++) {
    float *o = y + b * outs;
    for (int j = 0; j < outs; ++j) {
      const float *xi = x + b * ins;
      const float *wj = w + j * ins;
      for (int i = 0; i < ins; ++i)
        *o += (*xi++) * (*wj++);
      ++o;
    }
  }
}

// A bumped in the loop's increment, C walking on across i without reset:
// its offset counts N stores per row.
void acrossRows(int M, int N, int K, const float *a, const float *b,
                float *c) {
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f32, M x N x K = M x N x K; A row-major, B row-major, C row-major; accumulates in 's', alpha = 1, beta = 0; rewritten to call gemm_opt_nest_4 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_4(a, M, K, K, 1, b, K, N, N, 1, c, M, N, N, 1, 1, 0)) {
  for (int i = 0; i < M; i++, a += K)
    for (int j = 0; j < N; j++) {
      float s = 0;
      for (int k = 0; k < K; k++)
        s += a[k] * b[k * N + j];
      *c++ = s;
    }
}

// Signal-processing style: counters set before `do` and `while` loops and
// counted down to 0, every operand walked. The `do` loop runs once where
// M <= 0, so the launcher runs where M > 0.
void countedDown(int M, int N, int K, const float *A, const float *B,
                 float *C) {
  const float *pa = A;
  float *pc = C;
  int row = M;
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f32, M x N x K = M x N x K; {{.*}}; accumulates in 'sum', alpha = 1, beta = 0; the launcher runs only where M > 0 (there the loops cover exactly this domain; elsewhere the loop runs); rewritten to call gemm_opt_nest_5 [-Rpass=gemm]
  // OUT: {{^}}  if (!((M > 0) && gemm_opt_nest_5(pa + (-1 + K * M), M, K, -K, -1, B + (-1 + K * N), K, N, -N, -1, pc + (-1 + M * N), M, N, -N, -1, 1, 0))) {
  do {
    const float *pb = B;
    int col = N;
    while (col > 0) {
      const float *pk = pb;
      const float *pr = pa;
      float sum = 0.0f;
      int cnt = K;
      while (cnt > 0) {
        sum += *pr++ * *pk;
        pk += N;
        cnt--;
      }
      *pc++ = sum;
      pb++;
      col--;
    }
    pa += K;
    row--;
  } while (row > 0);
}

// C89: the pointer declared first and set in the loop.
void declaredFirst(int M, int N, int K, const double *A, const double *B,
                   double *C) {
  int i, j, k;
  double *crow;
  const double *arow;
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f64, M x N x K = M x N x K; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_6 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_6(A, M, K, K, 1, B, K, N, N, 1, C, M, N, N, 1, 1, 1)) {
  for (i = 0; i < M; i++) {
    crow = C + i * N;
    arow = A + i * K;
    for (k = 0; k < K; k++)
      for (j = 0; j < N; j++)
        crow[j] += arow[k] * B[k * N + j];
  }
}

// Walks inside inlined helpers: a dot product that moves its parameters,
// and one that walks a local pointer down B's column by its own statement.
static double dotWalk(int k, const double *x, const double *y, int incy) {
  double s = 0;
  for (int p = 0; p < k; p++) {
    s += *x++ * *y;
    y += incy;
  }
  return s;
}
void helperWalks(int M, int N, int K, const double *A, const double *B,
                 double *C) {
  // REMARK: :[[@LINE+1]]:3: remark: GEMM recognised: f64, M x N x K = M x N x K; A row-major, B row-major, C row-major; accumulates in 's', alpha = 1, beta = 1; rewritten to call gemm_opt_nest_7 [-Rpass=gemm]
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++)
      C[i * N + j] += dotWalk(K, &A[i * K], &B[j], N);
}
static void columnWalk(int k, const float *a, const float *b, int n,
                       float *c) {
  const float *bp = b;
  float s = 0;
  for (int p = 0; p < k; p++) {
    float bv = *bp;
    bp += n;
    s += a[p] * bv;
  }
  *c += s;
}
void helperColumnWalks(int M, int N, int K, const float *A, const float *B,
                       float *C) {
  // REMARK: :[[@LINE+1]]:3: remark: GEMM recognised: f32, M x N x K = M x N x K; A row-major, B row-major, C row-major; accumulates in 's', alpha = 1, beta = 1; rewritten to call gemm_opt_nest_8 [-Rpass=gemm]
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++)
      columnWalk(K, &A[i * K], &B[j], N, &C[i * N + j]);
}

// CMSIS-DSP's counters: declared with the function's other locals, the
// do-while nest inside the else-block of a size check; the statements
// between name neither the counters nor their values.
struct matrix {
  unsigned rows, cols;
  float *data;
};
int blockedCounters(const struct matrix *a, const struct matrix *b,
                    struct matrix *c) {
  const float *pa = a->data, *pb = b->data;
  float *out = c->data;
  unsigned rowsA = a->rows, colsB = b->cols, colsA = a->cols;
  unsigned col, i = 0U, row = rowsA, cnt;
  int status;
  if (colsA != b->rows) {
    status = -1;
  } else {
    // REMARK: :[[@LINE+1]]:5: remark: GEMM recognised: f32, M x N x K = a->rows x b->cols x a->cols; {{.*}}; accumulates in 'sum', alpha = 1, beta = 0; the launcher runs only where a->rows > 0 and b->cols > 0 (there the loops cover exactly this domain; elsewhere the loop runs); rewritten to call gemm_opt_nest_9 [-Rpass=gemm]
    do {
      float *px = out + i;
      const float *p2 = pb;
      col = colsB;
      do {
        const float *p1 = pa;
        float sum = 0.0f;
        cnt = colsA;
        while (cnt > 0U) {
          sum += *p1++ * *p2;
          p2 += colsB;
          cnt--;
        }
        *px++ = sum;
        col--;
        p2 = pb + (colsB - col);
      } while (col > 0U);
      i = i + colsB;
      pa = pa + colsA;
      row--;
    } while (row > 0U);
    status = 0;
  }
  return status;
}
