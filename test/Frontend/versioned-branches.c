/* A branch in the nest whose condition the nest never changes (a layout
 * flag, a broadcast mode) versions the nest: each arm is recognised with the
 * condition's truth value substituted, the condition is tested once, and an
 * arm that is no GEMM keeps the original loops. A condition that a loop
 * index or the nest's own writes change is the obstacle.
 *
 * RUN: gemm-opt %s -o %t.c 2>&1 | FileCheck %s --implicit-check-not=remark:
 * RUN: FileCheck --check-prefix=OUT %s < %t.c
 */
struct layer {
  int transposed;
  int rows, cols, depth;
};

/* A fully connected layer whose weights are stored either way round, with
 * an optional bias. */
void dense(const float *in, const float *w, const float *bias, float *out,
           const struct layer *p) {
  int n, i, j;
  // CHECK: :[[@LINE+1]]:3: remark: versioned on 'p->transposed == 0'; where it holds, GEMM recognised: f32, {{.*}}, rewritten to call gemm_opt_nest_0; where it does not, GEMM recognised: f32, {{.*}}, rewritten to call gemm_opt_nest_1 [-Rpass=gemm]
  for (n = 0; n < p->rows; n++)
    for (i = 0; i < p->cols; i++) {
      float tmp = bias ? bias[i] : 0.f;
      for (j = 0; j < p->depth; j++) {
        if (p->transposed == 0)
          tmp += in[n * p->depth + j] * w[i * p->depth + j];
        else
          tmp += in[n * p->depth + j] * w[i + j * p->cols];
      }
      out[n * p->cols + i] = tmp;
    }
}
// OUT: { if (p->transposed == 0) {
// OUT-NEXT: if (!gemm_opt_nest_0(
// OUT: } else {
// OUT-NEXT: if (!gemm_opt_nest_1(

/* The choice as a `?:` on a factor. */
void gemm_flag(int transB, int M, int N, int K, const double *A,
               const double *B, double *C) {
  // CHECK: :[[@LINE+1]]:3: remark: versioned on 'transB'; where it holds, GEMM recognised: f64, {{.*}}, rewritten to call gemm_opt_nest_2; where it does not, GEMM recognised: f64, {{.*}}, rewritten to call gemm_opt_nest_3 [-Rpass=gemm]
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double acc = 0;
      for (int k = 0; k < K; ++k)
        acc += A[i * K + k] * (transB ? B[j * K + k] : B[k * N + j]);
      C[i * N + j] = acc;
    }
}

/* One arm is no GEMM: it keeps the original loops under its condition. */
void square_or_product(int square, int M, int N, int K, const float *A,
                       const float *B, float *C) {
  // CHECK: :[[@LINE+1]]:3: remark: versioned on 'square'; where it holds, left as written: {{.*}}; where it does not, GEMM recognised: f32, {{.*}}, rewritten to call gemm_opt_nest_4 [-Rpass=gemm]
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      for (int k = 0; k < K; ++k) {
        if (square)
          C[i * N + j] += A[i * K + k] * A[i * K + k];
        else
          C[i * N + j] += A[i * K + k] * B[k * N + j];
      }
}
// OUT: { if (square) {
// OUT-NEXT: #line
// OUT-NEXT: for (int i = 0; i < M; ++i)
// OUT: } else {
// OUT-NEXT: if (!gemm_opt_nest_4(

/* Near misses: the condition changes inside the nest. */
void split_on_index(int M, int N, int K, const float *A, const float *B,
                    const float *B2, float *C) {
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the branch on 'k < K / 2' depends on the loop index 'k' [-Rpass-missed=gemm]
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      for (int k = 0; k < K; ++k) {
        if (k < K / 2)
          C[i * N + j] += A[i * K + k] * B[k * N + j];
        else
          C[i * N + j] += A[i * K + k] * B2[k * N + j];
      }
}

void flag_written(int M, int N, int K, const float *A, const float *B,
                  float *C) {
  int flip = 0;
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the branch on 'flip' depends on the loop index 'j' [-Rpass-missed=gemm]
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      flip = j;
      for (int k = 0; k < K; ++k) {
        if (flip)
          C[i * N + j] += A[i * K + k] * B[k * N + j];
        else
          C[i * N + j] += A[i * K + k] * B[j * K + k];
      }
    }
}

void flag_in_c(int M, int N, int K, const float *A, const float *B, float *C) {
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the branch on 'C[0] > 0' depends on memory that the nest may write [-Rpass-missed=gemm]
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      for (int k = 0; k < K; ++k) {
        if (C[0] > 0)
          C[i * N + j] += A[i * K + k] * B[k * N + j];
        else
          C[i * N + j] += A[i * K + k] * B[j * K + k];
      }
}

/* A null check of a pointer other than the bias's is a branch too: one
 * version adds the bias, the other none. */
void other_pointer(const float *A, const float *B, const float *p,
                   const float *q, float *C) {
  // CHECK: :[[@LINE+1]]:3: remark: versioned on 'q'; where it holds, {{.*}} epilogue: + 'p[j]', rewritten to call gemm_opt_nest_5; where it does not, {{.*}} beta = 0, rewritten to call gemm_opt_nest_6 [-Rpass=gemm]
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 32; ++j) {
      float s = q ? p[j] : 0.0f;
      for (int k = 0; k < 16; ++k)
        s += A[i * 16 + k] * B[k * 32 + j];
      C[i * 32 + j] = s;
    }
}

/* An early exit under a varying branch is the exit's obstacle. */
void exit_early(int M, int N, int K, const float *A, const float *B,
                float *C) {
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: conditional control flow in the nest body [-Rpass-missed=gemm]
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      for (int k = 0; k < K; ++k) {
        if (A[i * K + k] == 0)
          break;
        C[i * N + j] += A[i * K + k] * B[k * N + j];
      }
}

/* An activation chosen at run time: one version clamps, the other not. */
float fmaxf(float, float);
void maybe_relu(int relu, const float *A, const float *B, float *C) {
  // CHECK: :[[@LINE+1]]:3: remark: versioned on 'relu'; where it holds, {{.*}} epilogue: max with '0.F', rewritten to call gemm_opt_nest_7; where it does not, {{.*}} beta = 0, rewritten to call gemm_opt_nest_8 [-Rpass=gemm]
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 32; ++j) {
      float v = 0;
      for (int k = 0; k < 16; ++k)
        v += A[i * 16 + k] * B[k * 32 + j];
      if (relu)
        v = fmaxf(v, 0.0f);
      C[i * 32 + j] = v;
    }
}
