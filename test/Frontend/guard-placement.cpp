// Where the guard goes and what it keeps: on its own line above a nest that
// starts a line, inline before one that does not, braced when an `else`
// follows (so that the `else` keeps its own `if`), with the original text,
// comments included, as the fallback. A nest written by a function-like
// macro, or passed to one, is left alone (test/e2e/macro-text.c has the
// object-like macros that are copied).
//
// RUN: gemm-opt %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --check-prefix=OUT

#define NEST(n)                                                                \
  for (int i = 0; i < n; ++i)                                                  \
    for (int j = 0; j < n; ++j)                                                \
      for (int k = 0; k < n; ++k)                                              \
        C[i * n + j] += A[i * n + k] * B[k * n + j]
#define WRAP(x) x

// OUT: #line 1 "{{.*}}guard-placement.cpp"

void inlineNest(int n, const double *A, const double *B, double *C) {
  // REMARK: :[[@LINE+2]]:16: remark: GEMM recognised: f64, M x N x K = n x n x n; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_0 [-Rpass=gemm]
  // OUT: {{^}}  if (n > 0) { if (!gemm_opt_nest_0(A, n, n, n, 1, B, n, n, n, 1, C, n, n, n, 1, 1, 1)) { for (int i = 0; i < n; ++i) for (int j = 0; j < n; ++j) for (int k = 0; k < n; ++k) C[i * n + j] += A[i * n + k] * B[k * n + j]; } }
  if (n > 0) { for (int i = 0; i < n; ++i) for (int j = 0; j < n; ++j) for (int k = 0; k < n; ++k) C[i * n + j] += A[i * n + k] * B[k * n + j]; }
}

void danglingElse(int n, const double *A, const double *B, double *C) {
  // OUT:      {{^}}  if (n > 1)
  // OUT-NEXT: {{^}}    { if (!gemm_opt_nest_1(A, n, n, n, 1, B, n, n, n, 1, C, n, n, n, 1, 1, 1)) {
  // OUT-NEXT: {{^}}#line [[@LINE+3]] "{{.*}}guard-placement.cpp"
  if (n > 1)
    // REMARK: :[[@LINE+1]]:5: remark: GEMM recognised: f64, M x N x K = n x n x n; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_1 [-Rpass=gemm]
    for (int i = 0; i < n; ++i) // rows of C
      for (int j = 0; j < n; ++j) /* columns */
        for (int k = 0; k < n; ++k)
          C[i * n + j] += A[i * n + k] * B[k * n + j];
  /* n <= 1 */ else
    C[0] = 0;
  // OUT-NEXT: {{^}}    for (int i = 0; i < n; ++i) // rows of C
  // OUT-NEXT: {{^}}      for (int j = 0; j < n; ++j) /* columns */
  // OUT-NEXT: {{^}}        for (int k = 0; k < n; ++k)
  // OUT-NEXT: {{^}}          C[i * n + j] += A[i * n + k] * B[k * n + j]; } }
  // OUT-NEXT: {{^}}  /* n <= 1 */ else
  // OUT-NEXT: {{^}}    C[0] = 0;
}

// A braced body followed by `else` on the same line.
void elseAfterBrace(int n, const double *A, const double *B, double *C) {
  // REMARK: :[[@LINE+2]]:14: remark: GEMM recognised: f64, M x N x K = n x n x n; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_2 [-Rpass=gemm]
  // OUT: {{^}}  if (n > 1) { if (!gemm_opt_nest_2(A, n, n, n, 1, B, n, n, n, 1, C, n, n, n, 1, 1, 1)) { for (int i = 0; i < n; ++i) {
  if (n > 1) for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
        C[i * n + j] += A[i * n + k] * B[k * n + j];
  } else C[0] = 0;
  // OUT: {{^}}  } } } else C[0] = 0;
}

// An `elsewhere` is no `else`.
void notElse(int n, const double *A, const double *B, double *C) {
  int elsewhere = 0;
  // REMARK: :[[@LINE+2]]:3: remark: GEMM recognised: f64, M x N x K = n x n x n; A row-major, B row-major, C row-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_3 [-Rpass=gemm]
  // OUT: {{^}}  if (!gemm_opt_nest_3(A, n, n, n, 1, B, n, n, n, 1, C, n, n, n, 1, 1, 1)) {
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
        C[i * n + j] += A[i * n + k] * B[k * n + j];
  elsewhere = 1;
  // OUT: {{^}}        C[i * n + j] += A[i * n + k] * B[k * n + j]; }
  // OUT-NEXT: {{^}}  elsewhere = 1;
  (void)elsewhere;
}

// OUT-NOT: gemm_opt_nest_{{[4-9]}}

void macros(int n, const double *A, const double *B, double *C) {
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: it is written in the function-like macro 'NEST', whose text copied to its use would not have its arguments [-Rpass-missed=gemm]
  NEST(n);
  // REMARK: :[[@LINE+1]]:8: remark: loop nest not rewritten: it is written as an argument of the macro 'WRAP', which places it in the macro's text; only a macro's own text is copied to where it is used [-Rpass-missed=gemm]
  WRAP(for (int i = 0; i < n; ++i) for (int j = 0; j < n; ++j) for (int k = 0; k < n; ++k) C[i * n + j] += A[i * n + k] * B[k * n + j];)
}
