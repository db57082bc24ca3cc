/* A file with OpenACC directives, parsed with and without -fopenacc (clang
 * drops `#pragma acc` without it). An OpenACC compiler keeps device copies
 * of arrays, in data regions and across functions (`enter data`), and runs
 * compute regions on the device: a launcher on the host copies would be
 * overwritten by the device's at `copyout`, and one inside a compute region
 * cannot run. Every nest of such a file is left as written, with a remark,
 * and the output is the input.
 *
 * RUN: gemm-opt %s -o %t.c --kernels=%t.cu 2>&1 | FileCheck %s --implicit-check-not=remark:
 * RUN: gemm-opt %s -o %t.acc.c --kernels=%t.acc.cu -- -fopenacc 2>&1 | FileCheck %s --implicit-check-not=remark:
 * RUN: not grep -E '^ *if \(!gemm_opt' %t.c %t.acc.c
 */

void gemm_acc(int ni, int nj, int nk, double alpha, double beta,
              double C[ni][nj], double A[ni][nk], double B[nk][nj]) {
  int i, j, k;
#pragma acc data copyin(A, B) copy(C)
  {
#pragma acc parallel
    {
#pragma acc loop
      // CHECK: :[[@LINE+1]]:7: remark: loop nest not rewritten: its file holds an OpenACC directive (line 17): an OpenACC compiler keeps device copies of arrays and runs compute regions on the device, which a launcher would neither see nor run in [-Rpass-missed=gemm]
      for (i = 0; i < ni; i++)
        for (j = 0; j < nj; j++) {
          C[i][j] *= beta;
          for (k = 0; k < nk; ++k)
            C[i][j] += alpha * A[i][k] * B[k][j];
        }
    }
  }
}

/* On the host, but C may be present on the device (`enter data` above). */
void host(int n, const float *A, const float *B, float *C) {
  // CHECK: :[[@LINE+1]]:3: remark: loop nest not rewritten: its file holds an OpenACC directive (line 17)
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
        C[i * n + j] += A[i * n + k] * B[k * n + j];
}
