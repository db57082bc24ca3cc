// Products beside other code that stops the loops around them: each
// product still gets a remark of its own, at its own outermost loop.
//
// RUN: gemm-opt %s -o %t.c --kernels=%t.cu 2>&1 | FileCheck %s --implicit-check-not=remark:
// RUN: gemm-opt %s -o %t.omp.c --kernels=%t.omp.cu -- -fopenmp 2>&1 | FileCheck %s --implicit-check-not=remark:

#define MINV(a, b) ((a) < (b) ? (a) : (b))

// A repeat loop whose body picks a tiled copy (loops that step two
// counters, `for (ql = 0, q = qq; ...; q++, ql++)`, moved under a
// conditional bound) or the plain product: the walk of the tiled branch
// stops the repeat loop, and the plain product beside it is tried alone.
// The counters it shares with the tiled branch are set by that branch's
// loops before they are read, so they are dead after the product.
void timed(int n, int reps, int tile, const double *x, const double *y,
           double *z, double *tmp) {
  int r, p, q, s, pp, qq, pl, ql;
  for (r = 0; r < reps; r++) {
    if (tile > 0) {
      for (qq = 0; qq < n; qq += tile)
        for (pp = 0; pp < n; pp += tile)
          for (ql = 0, q = qq; q < MINV(qq + tile, n); q++, ql++)
            for (pl = 0, p = pp; p < MINV(pp + tile, n); p++, pl++)
              tmp[pl + ql * tile] = z[p + q * n];
    } else {
      // CHECK: :[[@LINE+1]]:7: remark: GEMM recognised: f64, M x N x K = n x n x n; A column-major, B column-major, C column-major; accumulates into C, alpha = 1, beta = 1; rewritten to call {{.*}} [-Rpass=gemm]
      for (q = 0; q < n; q++)
        for (s = 0; s < n; s++)
          for (p = 0; p < n; p++)
            z[p + q * n] += x[p + s * n] * y[s + q * n];
    }
  }
}

// A repeat loop in a parallel region, each repetition an `omp for`
// product: every thread runs the repeat loop, and one thread of the team
// launches each repetition's product (TeamSingle.h), with its own remark
// (in place of the repeat loop's).
void shared(int n, int reps, const double *x, const double *y, double *z) {
  int p, q, s, r;
#pragma omp parallel private(p, q, s, r)
  {
    for (r = 0; r < reps; r++) {
#pragma omp for
      // CHECK: :[[@LINE+1]]:7: remark: GEMM recognised: f64, M x N x K = n x n x n; A column-major, B column-major, C column-major; accumulates into C, alpha = 1, beta = 1; rewritten to call gemm_opt_{{.*}}_nest_1 [-Rpass=gemm]
      for (q = 0; q < n; q++)
        for (s = 0; s < n; s++)
          for (p = 0; p < n; p++)
            z[p + q * n] += x[p + s * n] * y[s + q * n];
    }
  }
}
