// A nest with many run-time choices is tried in a bounded number of
// versions (Unswitch.cpp, maxVersionTrials): the search grows sets of
// choices combinatorially, and a helper inlined a dozen times would
// otherwise keep gemm-opt busy for minutes. A test that reads values the
// nest computes (a screening test) is no choice.
//
// RUN: gemm-opt %s -o %t.c --kernels=%t.cu 2>&1 | FileCheck %s --implicit-check-not=remark:

#define STEP(f, v) if (f) x += v; else y += v;

void many_flags(int n, const int *f, const double *a, const double *b,
                double *c) {
  int f0 = f[0], f1 = f[1], f2 = f[2], f3 = f[3], f4 = f[4], f5 = f[5];
  int f6 = f[6], f7 = f[7], f8 = f[8], f9 = f[9], f10 = f[10], f11 = f[11];
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: versioned on sets of its 12 run-time choices, none of the {{[0-9]+}} versions tried is a GEMM (the search stops there)
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      for (int k = 0; k < n; k++) {
        double x = a[i * n + k], y = b[k * n + j];
        STEP(f0, 1) STEP(f1, 2) STEP(f2, 3) STEP(f3, 4) STEP(f4, 5)
        STEP(f5, 6) STEP(f6, 7) STEP(f7, 8) STEP(f8, 9) STEP(f9, 10)
        STEP(f10, 11) STEP(f11, 12)
        c[i * n + j] += x * y;
      }
}

void screened(int n, double cut, const double *a, const double *b,
              double *c) {
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: conditional control flow in the nest body
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      for (int k = 0; k < n; k++) {
        double t = a[i * n + k] * b[k * n + j];
        if (t > cut || t < -cut)
          c[i * n + j] += t;
      }
}
