/* One body stamped out per element type through headers that include it
 * (torch7's THBlas.c: `#include "generic/THBlas.c"` then
 * `#include "THGenerateAllTypes.h"`, which includes the body again per type
 * with its own `real`). The float and double inclusions are rewritten in
 * copies of every file on the way from the main file to the body, the int
 * one stays as written; the program must print what the original prints.
 *
 * RUN: rm -rf %t && mkdir -p %t
 * RUN: %host_cc -std=c99 -O1 -I %S/Inputs %s -lm -o %t/orig && %t/orig > %t/expected
 * RUN: gemm-opt %s -o %t/host.c --kernels=%t/kernels.cu -- -I %S/Inputs 2>&1 | FileCheck %s
 * RUN: %host_cc -std=c99 -Wall -Werror -O1 -I %S/Inputs -c %t/host.c -o %t/host.o
 * RUN: %nvcc -std=c++17 -arch=sm_%cuda_arch -I %gemm_runtime_include -c %t/kernels.cu -o %t/kernels.o
 * RUN: %nvcc -arch=sm_%cuda_arch %t/host.o %t/kernels.o %gemm_runtime_lib -o %t/split
 * RUN: %t/split > %t/actual && %python %S/compare.py %t/expected %t/actual
 * RUN: env GEMM_OPT_DEVICE=cpu %t/split > %t/lifted && %python %S/compare.py %t/expected %t/lifted
 * The int inclusion stays an #include, named by the path its includer was
 * found by.
 * RUN: FileCheck --check-prefix=HOST %s < %t/host.c
 * HOST: #include "generic/generate-int.h"
 *
 * CHECK: body/gemm.c:6:3: remark: GEMM recognised: f32, {{.*}} [-Rpass=gemm]
 * CHECK: body/gemm.c:6:3: remark: GEMM recognised: f64, {{.*}} [-Rpass=gemm]
 * CHECK: body/gemm.c:6:3: remark: loop nest not rewritten: element type 'int' {{.*}} [-Rpass-missed=gemm]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "generic/body/gemm.c"
#include "generic/generate-real.h"

static double next(unsigned long long *state) {
  *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
  return 2.0 * ((double)(*state >> 11) / 9007199254740992.0) - 1.0;
}

int main(void) {
  const int m = 37, n = 29, k = 45;
  float *af = malloc(sizeof(float) * m * k), *bf = malloc(sizeof(float) * k * n),
        *cf = malloc(sizeof(float) * m * n);
  double *ad = malloc(sizeof(double) * m * k),
         *bd = malloc(sizeof(double) * k * n),
         *cd = malloc(sizeof(double) * m * n);
  int *ai = malloc(sizeof(int) * m * k), *bi = malloc(sizeof(int) * k * n),
      *ci = malloc(sizeof(int) * m * n);
  unsigned long long state = 7;
  double na = 0, nb = 0;
  long i;
  for (i = 0; i < (long)m * k; ++i) {
    ad[i] = next(&state);
    af[i] = (float)ad[i];
    ai[i] = (int)(8 * ad[i]);
    na += ad[i] * ad[i];
  }
  for (i = 0; i < (long)k * n; ++i) {
    bd[i] = next(&state);
    bf[i] = (float)bd[i];
    bi[i] = (int)(8 * bd[i]);
    nb += bd[i] * bd[i];
  }
  gemm_float(m, n, k, af, bf, cf);
  gemm_double(m, n, k, ad, bd, cd);
  gemm_int(m, n, k, ai, bi, ci);
  printf("matrix float f32 %d %.17g %d", k, sqrt(na) * sqrt(nb), m * n);
  for (i = 0; i < (long)m * n; ++i)
    printf(" %.17g", (double)cf[i]);
  printf("\nmatrix double f64 %d %.17g %d", k, sqrt(na) * sqrt(nb), m * n);
  for (i = 0; i < (long)m * n; ++i)
    printf(" %.17g", cd[i]);
  printf("\nmatrix int f64 %d 1 %d", k, m * n);
  for (i = 0; i < (long)m * n; ++i)
    printf(" %d", ci[i]);
  printf("\n");
  free(af); free(bf); free(cf); free(ad); free(bd); free(cd);
  free(ai); free(bi); free(ci);
  return 0;
}
