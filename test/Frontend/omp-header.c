// A C source that includes <omp.h>, in the old C style that OpenMP codes
// keep (a K&R definition, induction variables declared at the top and named
// in `private`), parses with and without -fopenmp (clang's own omp.h, from
// libomp-19-dev) and gets the same verdict either way.
//
// RUN: gemm-opt %s -o %t.c --kernels=%t.cu 2>&1 | FileCheck %s --implicit-check-not=remark:
// RUN: gemm-opt %s -o %t.omp.c --kernels=%t.omp.cu -- -fopenmp 2>&1 | FileCheck %s --implicit-check-not=remark:
#include <omp.h>

void mm(n, A, B, C)
int n; const double *A, *B; double *C;
{
  int i, j, k;
  // CHECK: :[[@LINE+2]]:3: remark: GEMM recognised: f64, {{.*}} [-Rpass=gemm]
#pragma omp parallel for private(j, k)
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      for (k = 0; k < n; k++)
        C[i * n + j] += A[i * n + k] * B[k * n + j];
}

int threads(void) { return omp_get_max_threads(); }
