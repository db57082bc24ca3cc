// Which precision a float nest is computed in: --precision for the file,
// `#pragma gemm_opt precision(...)` above a nest. A tf32 or 3xtf32 nest
// gets the runtime's TF32 tensor-core launch beside its FP32 kernels; the
// remark names the precision, or why it does not apply (an f64 product, a
// float product summed in double, a target without the kernel). A
// malformed pragma, or one that no nest follows, is a warning.
//
// RUN: gemm-opt %s -o %t.cu 2>&1 | FileCheck %s --implicit-check-not=remark:
// RUN: gemm-opt %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=WARN --implicit-check-not=warning:
// RUN: FileCheck %s --check-prefix=CODE < %t.cu
// RUN: %nvcc -std=c++17 -arch=sm_90 -I %gemm_runtime_include -c %t.cu -o %t.o
// RUN: gemm-opt %s -o %t.file.cu --precision=3xtf32 2>&1 | FileCheck %s --check-prefix=FILE
// RUN: gemm-opt %s -o %t.a100.cu --precision=tf32 --target=ampere-a100 2>&1 | FileCheck %s --check-prefix=A100
// RUN: not grep -q '^#include "gemm_tf32.h"' %t.a100.cu
// RUN: gemm-opt %s --emit=mlir -o - 2>/dev/null | FileCheck %s --check-prefix=MLIR
// RUN: not gemm-opt %s -o %t.bad.cu --precision=bf16 2>&1 | FileCheck %s --check-prefix=BAD

// CODE:      {{^}}#include "gemm_tf32.h"
// CODE:      static bool gemm_opt_nest_0(
// CODE:        // The runtime's TF32 tensor-core launch, for the calls it runs.
// CODE-NEXT:   {gemm_rt::launchTf32, 128, 256, 1, 376000.0, 1.000, 1.000, nullptr,
// CODE-NEXT:    gemm_rt::runsTf32},
// CODE-NEXT: };
// CODE:      gemm_rt::Plan{variants, [[N0:[0-9]+]],
// CODE:      static bool gemm_opt_nest_1(
// CODE:        {gemm_rt::launchTf32x3, 128, 128, 1, 116000.0,
// CODE:      static bool gemm_opt_nest_2(
// CODE-NOT:  launchTf32
// CODE:      static bool gemm_opt_nest_3(
// MLIR: gemm.matmul{{.*}}{gemm.precision = "tf32"}
// MLIR: gemm.matmul{{.*}}{gemm.precision = "3xtf32"}
// BAD: gemm-opt: error: --precision: 'bf16' is none of fp32, tf32 and 3xtf32
// BAD-NOT: remark

void tf32(const float *a, const float *b, float *c, int m, int n, int k) {
  // CHECK: :[[@LINE+3]]:3: remark: GEMM recognised: f32, {{.*}}; precision tf32 (TF32 tensor cores on sm_90 GPUs, 10-bit mantissas; FP32 kernels for calls with a bias, an activation or a batch, and on other GPUs); rewritten to call gemm_opt_nest_0 [-Rpass=gemm]
  // A100: :[[@LINE+2]]:3: remark: {{.*}}; precision tf32 asked, but the target ampere-a100 has no TF32 tensor-core kernel: FP32; rewritten
#pragma gemm_opt precision(tf32)
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      float s = 0;
      for (int p = 0; p < k; ++p)
        s += a[i * k + p] * b[p * n + j];
      c[i * n + j] = s;
    }
}

void split3(const float *a, const float *b, float *c, int m, int n, int k) {
  // CHECK: :[[@LINE+2]]:3: remark: GEMM recognised: f32, {{.*}}; precision 3xtf32 (three TF32 products on sm_90 GPUs' tensor cores, FP32-accurate; {{.*}}); rewritten to call gemm_opt_nest_1 [-Rpass=gemm]
#pragma gemm_opt precision(3xtf32)
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      float s = 0;
      for (int p = 0; p < k; ++p)
        s += a[i * k + p] * b[p * n + j];
      c[i * n + j] = s;
    }
}

// The pragma keeps one nest in FP32 whatever --precision says.
void fp32(const float *a, const float *b, float *c, int m, int n, int k) {
  // CHECK: :[[@LINE+3]]:3: remark: GEMM recognised: f32, {{.*}} beta = 0; rewritten to call gemm_opt_nest_2 [-Rpass=gemm]
  // FILE: :[[@LINE+2]]:3: remark: GEMM recognised: f32, {{.*}} beta = 0; rewritten to call gemm_opt_nest_2 [-Rpass=gemm]
#pragma gemm_opt precision(fp32)
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      float s = 0;
      for (int p = 0; p < k; ++p)
        s += a[i * k + p] * b[p * n + j];
      c[i * n + j] = s;
    }
}

// Without a pragma: the file's precision.
void plain(const float *a, const float *b, float *c, int m, int n, int k) {
  // CHECK: :[[@LINE+2]]:3: remark: GEMM recognised: f32, {{.*}} beta = 0; rewritten to call gemm_opt_nest_3 [-Rpass=gemm]
  // FILE: :[[@LINE+1]]:3: remark: GEMM recognised: f32, {{.*}}; precision 3xtf32 (three TF32 products
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      float s = 0;
      for (int p = 0; p < k; ++p)
        s += a[i * k + p] * b[p * n + j];
      c[i * n + j] = s;
    }
}

void f64(const double *a, const double *b, double *c, int m, int n, int k) {
  // CHECK: :[[@LINE+2]]:3: remark: GEMM recognised: f64, {{.*}}; precision tf32 does not apply to an f64 product; rewritten to call gemm_opt_nest_4 [-Rpass=gemm]
#pragma gemm_opt precision(tf32)
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      double s = 0;
      for (int p = 0; p < k; ++p)
        s += a[i * k + p] * b[p * n + j];
      c[i * n + j] = s;
    }
}

// Floats summed in double are computed in double.
void widened(const float *a, const float *b, float *c, int m, int n, int k) {
  // CHECK: :[[@LINE+2]]:3: remark: GEMM recognised: {{.*}}; precision 3xtf32 does not apply: the nest sums floats in double; rewritten to call gemm_opt_nest_5 [-Rpass=gemm]
#pragma gemm_opt precision(3xtf32)
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      double s = 0;
      for (int p = 0; p < k; ++p)
        s += a[i * k + p] * b[p * n + j];
      c[i * n + j] = float(s);
    }
}

// WARN: :[[@LINE+1]]:28: warning: '#pragma gemm_opt precision' takes (fp32), (tf32) or (3xtf32); the pragma is ignored
#pragma gemm_opt precision(fp16)
// WARN: :[[@LINE+1]]:32: warning: '#pragma gemm_opt precision' takes (fp32), (tf32) or (3xtf32); the pragma is ignored
#pragma gemm_opt precision(tf32
// WARN: :[[@LINE+1]]:1: warning: '#pragma gemm_opt precision(tf32)' has no effect: no loop nest that gemm-opt considers follows it
#pragma gemm_opt precision(tf32)
int unused;
