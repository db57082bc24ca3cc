/* What C allows to be asserted: a macro that is a whole expression (N),
 * not a literal that is part of a larger macro (the 16 of IX(i, j, 16)),
 * and not a const variable, which C does not count as a constant
 * expression. The host file builds as C99 with warnings as errors.
 *
 * RUN: gemm-opt %s -o %t.c --kernels=%t.cu --reference-kernel 2>/dev/null
 * RUN: FileCheck %s < %t.c
 * RUN: %host_cc -std=c99 -Wall -Werror -c %t.c -o %t.o
 */
#define N 16
#define IX(r, c, ld) ((r) * (ld) + (c))
static const int inner = 8;

void product(const float *a, const float *b, float *c) {
  int i, j, k;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      for (k = 0; k < inner; k++)
        c[IX(i, j, 16)] += a[IX(i, k, 8)] * b[IX(k, j, 16)];
}
/* CHECK:      if (!gemm_opt_{{.*}}_nest_0(
 * CHECK-NEXT: #line 16
 * CHECK-NEXT: {{^ *_Static_assert\(\(N\) == 16, "gemm-opt lifted this nest with N == 16; run gemm-opt again"\);$}}
 * CHECK-NEXT: #line 16
 */
