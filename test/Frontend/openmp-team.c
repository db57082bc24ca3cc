// A nest whose own loop carries `omp for` inside a `parallel` region with
// other statements (ParRes's repeat loop, a timer, the tiled branch beside
// it): every thread of the team meets the loop, so one of them launches
// (`omp single`) and tells the others by copyprivate whether it did; where
// it did not, the team shares the loop as written. The same with -fopenmp
// and without. Near misses: a `for` with a reduction or lastprivate, and
// operands private to each thread (declared in the region, or named by
// its private or firstprivate clause).
//
// RUN: gemm-opt %s -o %t.cu 2>&1 | FileCheck %s --implicit-check-not=remark:
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --check-prefix=OUT
// RUN: gemm-opt %s -o %t.omp.cu -- -fopenmp 2>&1 | FileCheck %s --implicit-check-not=remark:
// RUN: grep -v '^ *//' %t.omp.cu | FileCheck %s --check-prefix=OUT
#define A_arr(i, j) A[(i) + order * (j)]
#define B_arr(i, j) B[(i) + order * (j)]
#define C_arr(i, j) C[(i) + order * (j)]

double now(void);

void repeated(long order, int iterations, int block, const double *A,
              const double *B, double *C, double *elapsed) {
  long i, j, k, ig, jg, kg;
  int iter;
  double start = 0;
#pragma omp parallel private(i, j, k, ig, jg, kg, iter)
  {
    for (iter = 0; iter <= iterations; iter++) {
      if (iter == 1) {
#pragma omp barrier
#pragma omp master
        { start = now(); }
      }
      if (block > 0) {
        /* The indices set first by comma lists: dead after the nest. */
#pragma omp for
        for (jg = 0; jg < order; jg++)
          for (ig = 0, i = 0; ig < order; ig++, i++)
            C_arr(ig, jg) += i;
      } else {
        // CHECK: :[[@LINE+2]]:9: remark: GEMM recognised: f64, M x N x K = order x order x order; A column-major, B column-major, C column-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_nest_0 [-Rpass=gemm]
#pragma omp for
        for (jg = 0; jg < order; jg++)
          for (kg = 0; kg < order; kg++)
            for (ig = 0; ig < order; ig++)
              C_arr(ig, jg) += A_arr(ig, kg) * B_arr(kg, jg);
        // OUT: { int gemm_opt_launched = 0;
        // OUT-NEXT: #pragma omp single copyprivate(gemm_opt_launched)
        // OUT-NEXT: gemm_opt_launched = gemm_opt_nest_0(
        // OUT-NEXT: if (!gemm_opt_launched) {
        // OUT-NEXT: #line 41 "{{.*}}openmp-team.c"
        // OUT-NEXT: #pragma omp for
      }
    }
#pragma omp barrier
#pragma omp master
    { *elapsed = now() - start; }
  }
}

void nowaitAndCounter(int n, const float *A, const float *B, float *C,
                      int *count) {
#pragma omp parallel
  {
    // CHECK: :[[@LINE+2]]:5: remark: GEMM recognised: f32, {{.*}}rewritten to call gemm_opt_nest_1 [-Rpass=gemm]
#pragma omp for nowait
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        for (int k = 0; k < n; ++k)
          C[i * n + j] += A[i * n + k] * B[k * n + j];
#pragma omp atomic
    (*count)++;
  }
}

void nearMisses(int n, const float *A, const float *B, float *C, float *D) {
  float sum = 0;
  int last = 0;
#pragma omp parallel firstprivate(D)
  {
    const float *mine = A;
    // CHECK: :[[@LINE+2]]:5: remark: loop nest not rewritten: its OpenMP 'for' has a 'reduction' clause, which acts on the team's shares of the loop, and one thread's launch for the team would not [-Rpass-missed=gemm]
#pragma omp for reduction(+ : sum)
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        for (int k = 0; k < n; ++k)
          C[i * n + j] += A[i * n + k] * B[k * n + j];
        sum += 1;
      }
    // CHECK: :[[@LINE+2]]:5: remark: loop nest not rewritten: its OpenMP 'for' has a 'lastprivate' clause, which acts on the team's shares of the loop, and one thread's launch for the team would not [-Rpass-missed=gemm]
#pragma omp for lastprivate(last)
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        for (int k = 0; k < n; ++k)
          C[i * n + j] += A[i * n + k] * B[k * n + j];
        last = i;
      }
    // CHECK: :[[@LINE+2]]:5: remark: loop nest not rewritten: 'mine', which the nest reads, is private to each thread of the OpenMP 'parallel' region (line [[@LINE-19]]), so one thread's launch would not compute what each thread's share of the loop did [-Rpass-missed=gemm]
#pragma omp for
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        for (int k = 0; k < n; ++k)
          C[i * n + j] += mine[i * n + k] * B[k * n + j];
    // CHECK: :[[@LINE+2]]:5: remark: loop nest not rewritten: 'D', which the nest reads, is private to each thread of the OpenMP 'parallel' region (line [[@LINE-25]]), so one thread's launch would not compute what each thread's share of the loop did [-Rpass-missed=gemm]
#pragma omp for
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        for (int k = 0; k < n; ++k)
          D[i * n + j] += A[i * n + k] * B[k * n + j];
  }
}
