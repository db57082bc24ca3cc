/* Several branches in one nest whose conditions the nest never changes
 * (TinyTorch's gemmCpuImpl picks A's and B's element per iteration with
 * `transA ? .. : ..` and `transB ? .. : ..`) version the nest on every
 * combination of their arms: each combination is recognised on its own, the
 * rewrite tests the conditions in nested `if`s, the first choice outermost,
 * and a combination that is no GEMM keeps the original loops. A condition
 * that a loop index changes is the obstacle, and choices that would make
 * more than 16 versions are named.
 *
 * RUN: gemm-opt %s -o %t.c 2>&1 | FileCheck %s --implicit-check-not=remark:
 * RUN: FileCheck --check-prefix=OUT %s < %t.c
 */

/* Two flags, as `?:`s on the factors: four versions. */
void gemm2(float *c, const float *a, const float *b, int m, int k, int n,
           int transA, int transB) {
  // CHECK: :[[@LINE+1]]:3: remark: versioned on 'transA' and 'transB'; where 'transA' holds and 'transB' holds, GEMM recognised: f32, {{.*}}, rewritten to call gemm_opt_nest_0; where 'transA' holds and 'transB' does not, GEMM recognised: f32, {{.*}}, rewritten to call gemm_opt_nest_1; where 'transA' does not and 'transB' holds, GEMM recognised: f32, {{.*}}, rewritten to call gemm_opt_nest_2; where 'transA' does not and 'transB' does not, GEMM recognised: f32, {{.*}}, rewritten to call gemm_opt_nest_3 [-Rpass=gemm]
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      float sum = 0;
      for (int p = 0; p < k; p++) {
        float aVal = transA ? a[p * m + i] : a[i * k + p];
        float bVal = transB ? b[j * k + p] : b[p * n + j];
        sum += aVal * bVal;
      }
      c[i * n + j] = sum;
    }
}
// OUT: { if (!((m) > 0 && (n) > 0 && (k) > 0)) {
// OUT: } else if (transA) {
// OUT-NEXT: if (transB) {
// OUT-NEXT: if (!gemm_opt_nest_0(
// OUT: } else {
// OUT-NEXT: if (!gemm_opt_nest_1(
// OUT: } } else {
// OUT-NEXT: if (transB) {
// OUT-NEXT: if (!gemm_opt_nest_2(
// OUT: } else {
// OUT-NEXT: if (!gemm_opt_nest_3(

/* Three flags: A's and B's layouts and a ReLU, eight versions. */
float fmaxf(float, float);
void gemm3(double *c, const double *a, const double *b, int m, int k, int n,
           const int *flags) {
  // CHECK: :[[@LINE+1]]:3: remark: versioned on 'flags[0]', 'flags[1]' and 'flags[2]'; where 'flags[0]' holds, 'flags[1]' holds and 'flags[2]' holds, GEMM recognised: f64, {{.*}}, rewritten to call gemm_opt_nest_4; {{.*}}; where 'flags[0]' does not, 'flags[1]' does not and 'flags[2]' does not, GEMM recognised: f64, {{.*}} beta = 0, rewritten to call gemm_opt_nest_11 [-Rpass=gemm]
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      double sum = 0;
      for (int p = 0; p < k; p++)
        sum += (flags[0] ? a[p * m + i] : a[i * k + p]) *
               (flags[1] ? b[j * k + p] : b[p * n + j]);
      if (flags[2])
        sum = sum > 0 ? sum : 0;
      c[i * n + j] = sum;
    }
}
// OUT: } else if (flags[0]) {
// OUT-NEXT: if (flags[1]) {
// OUT-NEXT: if (flags[2]) {
// OUT-NEXT: if (!gemm_opt_nest_4(
// OUT: } else {
// OUT-NEXT: if (!gemm_opt_nest_5(
// OUT: if (!gemm_opt_nest_11(

/* The flags as `if`/`else` statements around the update; where both hold
 * the nest reads B as A, which is no GEMM: those loops run as written. */
void gemm_if(int M, int N, int K, const float *A, const float *B, float *C,
             int rowA, int rowB) {
  // CHECK: :[[@LINE+1]]:3: remark: versioned on 'rowA' and 'rowB'; where 'rowA' holds and 'rowB' holds, left as written: {{.*}}; where 'rowA' holds and 'rowB' does not, GEMM recognised: {{.*}}, rewritten to call gemm_opt_nest_12; where 'rowA' does not and 'rowB' holds, GEMM recognised: {{.*}}, rewritten to call gemm_opt_nest_13; where 'rowA' does not and 'rowB' does not, GEMM recognised: {{.*}}, rewritten to call gemm_opt_nest_14 [-Rpass=gemm]
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      for (int k = 0; k < K; ++k) {
        if (rowA) {
          if (rowB)
            C[i * N + j] += A[i * K + k] * A[i * K + k];
          else
            C[i * N + j] += A[i * K + k] * B[j * K + k];
        } else {
          if (rowB)
            C[i * N + j] += A[k * M + i] * B[k * N + j];
          else
            C[i * N + j] += A[k * M + i] * B[j * K + k];
        }
      }
}
// OUT: } else if (rowA) {
// OUT-NEXT: if (rowB) {
// OUT-NEXT: #line
// OUT-NEXT: for (int i = 0; i < M; ++i)
// OUT: if (!gemm_opt_nest_12(

/* A flag and a switch on a layout code, whose values no label lists update
 * nothing. */
void gemm_switch(int M, int N, int K, const float *A, const float *B,
                 float *C, int transA, int layoutB) {
  // CHECK: :[[@LINE+1]]:3: remark: versioned on 'transA' and the 'switch' on 'layoutB'; where 'transA' holds and 'layoutB' is 0, GEMM recognised: {{.*}}, rewritten to call gemm_opt_nest_15; where 'transA' holds and 'layoutB' is 1, GEMM recognised: {{.*}}, rewritten to call gemm_opt_nest_16; where 'transA' holds and 'layoutB' is none of the values listed, left as written: {{.*}}; where 'transA' does not and 'layoutB' is 0, {{.*}}gemm_opt_nest_17; where 'transA' does not and 'layoutB' is 1, {{.*}}gemm_opt_nest_18; where 'transA' does not and 'layoutB' is none of the values listed, left as written: {{.*}} [-Rpass=gemm]
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float s = 0;
      for (int k = 0; k < K; ++k) {
        float a = transA ? A[k * M + i] : A[i * K + k];
        switch (layoutB) {
        case 0:
          s += a * B[k * N + j];
          break;
        case 1:
          s += a * B[j * K + k];
          break;
        }
      }
      C[i * N + j] = s;
    }
}
// OUT: } else if (transA) {
// OUT-NEXT: switch ((long long)(layoutB)) {
// OUT-NEXT: case 0LL: {
// OUT-NEXT: if (!gemm_opt_nest_15(
// OUT: } break;
// OUT-NEXT: case 1LL: {
// OUT-NEXT: if (!gemm_opt_nest_16(
// OUT: } break;
// OUT-NEXT: default: {
// OUT-NEXT: #line

/* Near miss: the second branch depends on the loop index. */
void split_on_index(int M, int N, int K, const float *A, const float *B,
                    const float *B2, float *C, int transA) {
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: the branch on 'k < K / 2' depends on the loop index 'k' [-Rpass-missed=gemm]
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      for (int k = 0; k < K; ++k) {
        float a = transA ? A[k * M + i] : A[i * K + k];
        if (k < K / 2)
          C[i * N + j] += a * B[k * N + j];
        else
          C[i * N + j] += a * B2[k * N + j];
      }
}

/* Five flags would make 32 versions: A's and B's layouts, the order of the
 * factors, a ReLU and a clamp at 6. */
float fminf(float, float);
void five(int M, int N, int K, const float *A, const float *B, float *C,
          int f0, int f1, int f2, int f3, int f4) {
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: versioning it on 'f0', 'f1', 'f2', 'f3' and 'f4' would make 32 versions, more than the 16 that one nest may have, and no version on fewer of them is a GEMM [-Rpass-missed=gemm]
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float s = 0;
      for (int k = 0; k < K; ++k) {
        float x = f0 ? A[k * M + i] : A[i * K + k];
        float y = f1 ? B[j * K + k] : B[k * N + j];
        s += (f2 ? x : y) * (f2 ? y : x);
      }
      if (f3)
        s = fmaxf(s, 0.0f);
      if (f4)
        s = fminf(s, 6.0f);
      C[i * N + j] = s;
    }
}

/* The same switch in both arms of a branch is one choice. */
void switch_in_arms(int M, int N, int K, const float *A, const float *B,
                    float *C, int transA, int layoutB) {
  // CHECK: :[[@LINE+1]]:3: remark: versioned on 'transA' and the 'switch' on 'layoutB'; where 'transA' holds and 'layoutB' is 0, {{.*}}gemm_opt_nest_19; where 'transA' holds and 'layoutB' is none of the values listed, {{.*}}gemm_opt_nest_20; where 'transA' does not and 'layoutB' is 0, {{.*}}gemm_opt_nest_21; where 'transA' does not and 'layoutB' is none of the values listed, {{.*}}gemm_opt_nest_22 [-Rpass=gemm]
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      for (int k = 0; k < K; ++k) {
        if (transA) {
          switch (layoutB) {
          case 0:
            C[i * N + j] += A[k * M + i] * B[k * N + j];
            break;
          default:
            C[i * N + j] += A[k * M + i] * B[j * K + k];
          }
        } else {
          switch (layoutB) {
          case 0:
            C[i * N + j] += A[i * K + k] * B[k * N + j];
            break;
          default:
            C[i * N + j] += A[i * K + k] * B[j * K + k];
          }
        }
      }
}
