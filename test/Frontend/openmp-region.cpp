// OpenMP constructs other than pragmas on the nest's loops, with -fopenmp. A
// nest inside an `omp parallel` region would call its launcher from every
// thread, so it is reported and left alone, whether the region is a block or
// a directive stacked on the loop; other directives inside a nest's body are
// statements a GEMM cannot contain.
//
// RUN: gemm-opt %s -o %t.cu -- -fopenmp 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --check-prefix=OUT
//
// OUT-NOT: gemm_opt_nest

void region(int n, const double *A, const double *B, double *C) {
#pragma omp parallel
  {
#pragma omp for
    // REMARK: :[[@LINE+1]]:5: remark: loop nest not rewritten: it is inside an OpenMP 'parallel' region; only OpenMP pragmas on the nest's own loops are supported [-Rpass-missed=gemm]
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        for (int k = 0; k < n; ++k)
          C[i * n + j] += A[i * n + k] * B[k * n + j];
  }
}

void stackedRegion(int n, const double *A, const double *B, double *C) {
#pragma omp parallel
#pragma omp for
  // REMARK: :[[@LINE+1]]:3: remark: loop nest not rewritten: it is inside an OpenMP 'parallel' region; only OpenMP pragmas on the nest's own loops are supported [-Rpass-missed=gemm]
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
        C[i * n + j] += A[i * n + k] * B[k * n + j];
}

void atomicUpdate(int n, const double *A, const double *B, double *C) {
  // REMARK: :[[@LINE+2]]:3: remark: loop nest not rewritten: unsupported statement 'OMPAtomicDirective' in the nest [-Rpass-missed=gemm]
  #pragma omp parallel for
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k) {
        #pragma omp atomic
        C[i * n + j] += A[i * n + k] * B[k * n + j];
      }
}
