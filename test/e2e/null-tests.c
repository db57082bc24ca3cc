/* Operand pointers tested for null before use, in Tengine's style: each
 * batch's B is picked by a switch on the number of its dimensions, and
 * the moved pointer is tested for null. `q + i` is null only where `q`
 * is, so the launcher runs where B is not null; with B null the loop runs
 * and returns before writing anything. Results (and the return values)
 * must match the original, C's guard cells keep their values; only the
 * two calls with B launch.
 *
 * RUN: rm -rf %t && mkdir -p %t
 * RUN: %host_cc -std=c99 -O1 -I %S/Inputs %s -lm -o %t/orig && %t/orig > %t/expected
 * RUN: gemm-opt %s -o %t/host.c --kernels=%t/kernels.cu -- -I %S/Inputs 2>&1 | FileCheck %s
 * RUN: %host_cc -std=c99 -Wall -Werror -O1 -I %S/Inputs -c %t/host.c -o %t/host.o
 * RUN: %nvcc -std=c++17 -arch=sm_%cuda_arch -I %gemm_runtime_include -c %t/kernels.cu -o %t/kernels.o
 * RUN: %nvcc -arch=sm_%cuda_arch %t/host.o %t/kernels.o %gemm_runtime_lib -o %t/split
 * RUN: %t/split > %t/actual && %python %S/compare.py %t/expected %t/actual
 * RUN: env GEMM_OPT_DEVICE=cpu GEMM_OPT_TRACE=1 %t/split > %t/lifted 2> %t/trace && %python %S/compare.py %t/expected %t/lifted
 * RUN: grep -c "ran on the CPU reference" %t/trace | grep -qx 2
 * CHECK: remark: versioned on the 'switch' on 'dims'; where it is 4, GEMM recognised: {{.*}}; the launcher runs only where (b) != 0 {{.*}}; where it is none of the values listed, left as written: early exit ('return') in the nest [-Rpass=gemm]
 */
#include "e2e_util_c.h"

static int matmul(int batch, int m, int n, int k, int dims, const float *a,
                  const float *b, float *out) {
  for (int i = 0; i < batch; ++i) {
    const float *x = a + i * m * k;
    const float *y = NULL;
    switch (dims) {
    case 4:
      y = b + i * k * n;
      break;
    default:
      return -1;
    }
    if (y == NULL) {
      return -2;
    }
    for (int r = 0; r < m; r++)
      for (int c = 0; c < n; c++) {
        float s = 0;
        for (int l = 0; l < k; l++)
          s += x[r * k + l] * y[l * n + c];
        *out = s;
        out++;
      }
  }
  return 0;
}

int main(void) {
  const int batch = 3, m = 17, n = 13, k = 11;
  float *a = malloc(sizeof(float) * batch * m * k);
  float *b = malloc(sizeof(float) * batch * k * n);
  float *c = malloc(sizeof(float) * (batch * m * n + 2 * GUARD));
  long i;
  for (i = 0; i < batch * m * n + 2 * GUARD; ++i)
    c[i] = -7.0f;
  fill_f(a, (long)batch * m * k, 3);
  fill_f(b, (long)batch * k * n, 5);
  double scale = norm_f(a, (long)batch * m * k) * norm_f(b, (long)batch * k * n);
  printf("null B returns %d\n", matmul(batch, m, n, k, 4, a, NULL, c + GUARD));
  printf("two dims return %d\n", matmul(batch, m, n, k, 2, a, b, c + GUARD));
  show_f("untouched", k, scale, c, (long)batch * m * n);
  printf("four dims return %d\n", matmul(batch, m, n, k, 4, a, b, c + GUARD));
  show_f("product", k, scale, c, (long)batch * m * n);
  printf("again %d\n", matmul(batch, m, n, k, 4, a, b, c + GUARD));
  show_f("again", k, scale, c, (long)batch * m * n);
  free(a);
  free(b);
  free(c);
  return 0;
}
