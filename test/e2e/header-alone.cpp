// A header run through gemm-opt on its own, as the remark on a nest in a
// header that the main file does not include itself advises: its output is
// a header that replaces it. Its launchers have names of their own and a
// guard of their own, so a translation unit may include it twice (its own
// include guard comes after them) and beside other rewritten headers. Its
// template, which the header never instantiates, is rewritten for float
// and double (gemm-opt instantiates it); an instantiation for int calls the
// overload that takes anything and runs the nest as written.
//
// RUN: rm -rf %t && mkdir -p %t/included
// RUN: %host_cxx -O1 -I %S/Inputs %s -o %t/orig && %t/orig > %t/expected
// RUN: gemm-opt -x c++ %S/Inputs/included/dense-kernels.h --reference-kernel -o %t/included/dense-kernels.h 2>&1 | FileCheck %s --implicit-check-not=remark:
// RUN: cp %s %t/main.cu && %nvcc %nvcc_flags -I %t -I %S/Inputs %t/main.cu -o %t/gpu && %t/gpu > %t/actual
// RUN: %python %S/compare.py %t/expected %t/actual
// RUN: env GEMM_OPT_DEVICE=cpu %t/gpu > %t/lifted
// RUN: %python %S/compare.py %t/expected %t/lifted
// RUN: FileCheck --check-prefix=OUT %s < %t/included/dense-kernels.h
//
// CHECK: dense-kernels.h:9:3: remark: GEMM recognised: f64, {{.*}}; rewritten to call gemm_opt_dense_kernels_{{[0-9a-f]+}}_nest_0 [-Rpass=gemm]
// CHECK: dense-kernels.h:21:3: remark: GEMM recognised: f32, {{.*}} (gemm-opt instantiated it for float and double, which the file does not; instantiations of other types run the nest as written); rewritten to call gemm_opt_dense_kernels_{{[0-9a-f]+}}_nest_1 [-Rpass=gemm]
//
// OUT: {{^}}#ifndef GEMM_OPT_DENSE_KERNELS_{{[0-9A-F]+}}_LAUNCHERS
// OUT: {{^}}static bool gemm_opt_dense_kernels_{{[0-9a-f]+}}_nest_1(const float *a
// OUT: {{^}}static bool gemm_opt_dense_kernels_{{[0-9a-f]+}}_nest_1(const double *a
// OUT: {{^}}static bool gemm_opt_dense_kernels_{{[0-9a-f]+}}_nest_1(...) { return false; }
// OUT: {{^}}#endif
// OUT-NEXT: {{^}}#line 1 "{{.*}}dense-kernels.h"
// OUT-NEXT: {{^}}// A header of inline GEMM kernels
#include "e2e_util.h"

#include <vector>

#include "included/dense-kernels.h"
#include "included/dense-kernels.h"

int main() {
  const int m = 23, n = 19, k = 31, ld = 40;
  std::vector<double> a(k * ld), b(k * ld), c(ld * ld);
  fillRandom(a.data(), long(a.size()), 1);
  fillRandom(b.data(), long(b.size()), 2);
  fillRandom(c.data(), long(c.size()), 3);
  gemmAtB(m, n, k, a.data(), ld, b.data(), ld, c.data(), ld);
  printMatrix("atb", k,
              frobenius(a.data(), long(a.size())) *
                  frobenius(b.data(), long(b.size())),
              c.data(), ld, ld, ld, 1);
  std::vector<float> af(m * k), bf(k * n), cf(m * n);
  fillRandom(af.data(), long(af.size()), 4);
  fillRandom(bf.data(), long(bf.size()), 5);
  addProduct(m, n, k, af.data(), bf.data(), cf.data());
  printMatrix("add", k,
              frobenius(af.data(), long(af.size())) *
                  frobenius(bf.data(), long(bf.size())),
              cf.data(), m, n, n, 1);
  std::vector<double> ad(m * k), bd(k * n), cd(m * n);
  fillRandom(ad.data(), long(ad.size()), 6);
  fillRandom(bd.data(), long(bd.size()), 7);
  fillRandom(cd.data(), long(cd.size()), 8);
  addProduct(m, n, k, ad.data(), bd.data(), cd.data());
  printMatrix("add-f64", k,
              frobenius(ad.data(), long(ad.size())) *
                      frobenius(bd.data(), long(bd.size())) +
                  frobenius(cd.data(), long(cd.size())),
              cd.data(), m, n, n, 1);
  // Exact, as integers are: every element printed.
  std::vector<int> ai(m * k), bi(k * n), ci(m * n, 1);
  for (int e = 0; e < m * k; ++e)
    ai[e] = e % 7 - 3;
  for (int e = 0; e < k * n; ++e)
    bi[e] = e % 5 - 2;
  addProduct(m, n, k, ai.data(), bi.data(), ci.data());
  std::printf("ints");
  for (int v : ci)
    std::printf(" %d", v);
  std::printf("\n");
  return 0;
}
