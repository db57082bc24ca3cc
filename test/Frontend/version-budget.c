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
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: versioned on sets of its 24 run-time choices, none of the {{[0-9]+}} versions tried is a GEMM (the search stops there)
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      for (int k = 0; k < n; k++) {
        double x = a[i * n + k], y = b[k * n + j];
        STEP(f[0], 1) STEP(f[1], 2) STEP(f[2], 3) STEP(f[3], 4)
        STEP(f[4], 5) STEP(f[5], 6) STEP(f[6], 7) STEP(f[7], 8)
        STEP(f[8], 9) STEP(f[9], 10) STEP(f[10], 11) STEP(f[11], 12)
        STEP(f[12], 13) STEP(f[13], 14) STEP(f[14], 15) STEP(f[15], 16)
        STEP(f[16], 17) STEP(f[17], 18) STEP(f[18], 19) STEP(f[19], 20)
        STEP(f[20], 21) STEP(f[21], 22) STEP(f[22], 23) STEP(f[23], 24)
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
