// Nests whose text is in files that the main file #includes: a body stamped
// out per element type from one file under different macros (one copy per
// #include, each rewritten for its own expansion), a guarded header of
// inline kernels and a template (its copy keeps the guard, so the second
// inclusion through another header is still skipped), and a function body
// #included into the function. The output holds each copy in place of its
// #include line; it must print what the original prints.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %host_cxx -O1 -I %S/Inputs %s -o %t/orig && %t/orig > %t/expected
// RUN: gemm-opt %s --reference-kernel -o %t/out.cu -- -I %S/Inputs 2>&1 | FileCheck %s --implicit-check-not=remark:
// RUN: %nvcc %nvcc_flags -I %S/Inputs %t/out.cu -o %t/gpu && %t/gpu > %t/actual
// RUN: %python %S/compare.py %t/expected %t/actual
// RUN: env GEMM_OPT_DEVICE=cpu %t/gpu > %t/lifted
// RUN: %python %S/compare.py %t/expected %t/lifted
// The inputs are never modified, and the copies sit where their #include was.
// RUN: FileCheck --check-prefix=OUT %s < %t/out.cu
//
// CHECK-DAG: dense-kernels.h:9:3: remark: GEMM recognised: f64, {{.*}} [-Rpass=gemm]
// CHECK-DAG: dense-kernels.h:21:3: remark: GEMM recognised: f32, {{.*}}; and in the template's other 1 instantiation(s), one launcher overload each; rewritten to call {{.*}} [-Rpass=gemm]
// CHECK-DAG: stamped-gemm.inc:6:3: remark: GEMM recognised: f32, {{.*}} A row-major, B row-major, C row-major{{.*}} [-Rpass=gemm]
// CHECK-DAG: stamped-gemm.inc:6:3: remark: GEMM recognised: f64, {{.*}} A column-major, B column-major, C column-major{{.*}} [-Rpass=gemm]
// CHECK-DAG: scale-body.inc:3:3: remark: GEMM recognised: f32, {{.*}} [-Rpass=gemm]
//
// OUT: {{^}}// gemm-opt: #include "included/dense-kernels.h", its text with its nests rewritten
// OUT-NEXT: {{^}}#line 1 "{{.*}}Inputs/included/dense-kernels.h"
// OUT: {{^}}#line 39 "{{.*}}included-text.cpp"
// OUT-NEXT: {{^}}#include "included/uses-kernels.h"
// OUT: {{^}}// gemm-opt: #include "included/stamped-gemm.inc", its text with its nests rewritten
// OUT: {{^}}#line 45 "{{.*}}included-text.cpp"
// OUT: {{^}}// gemm-opt: #include "included/stamped-gemm.inc", its text with its nests rewritten
// OUT: {{^}}#line 53 "{{.*}}included-text.cpp"
// OUT: {{^}}// gemm-opt: #include "included/scale-body.inc", its text with its nests rewritten
#include "e2e_util.h"

#include <vector>

#include "included/dense-kernels.h"
#include "included/uses-kernels.h"

#define SCALAR float
#define GEMM_NAME sgemmRows
#define ELEMENT(p, ld, r, col) p[(r) * (ld) + (col)]
#include "included/stamped-gemm.inc"
#undef SCALAR
#undef GEMM_NAME
#undef ELEMENT

#define SCALAR double
#define GEMM_NAME dgemmColumns
#define ELEMENT(p, ld, r, col) p[(col) * (ld) + (r)]
#include "included/stamped-gemm.inc"
#undef SCALAR
#undef GEMM_NAME
#undef ELEMENT

// C -= A * B^T.
void subtractABt(int m, int n, int k, const float *a, int lda, const float *b,
                 int ldb, float *c, int ldc) {
#include "included/scale-body.inc"
}

template <class T> double norm(const std::vector<T> &v) {
  return frobenius(v.data(), long(v.size()));
}

int main() {
  const int m = 23, n = 19, k = 31, ld = 40;
  std::vector<float> af(k * ld), bf(k * ld), cf(ld * ld);
  std::vector<double> ad(k * ld), bd(k * ld), cd(ld * ld);
  fillRandom(af.data(), long(af.size()), 1);
  fillRandom(bf.data(), long(bf.size()), 2);
  fillRandom(ad.data(), long(ad.size()), 3);
  fillRandom(bd.data(), long(bd.size()), 4);

  fillRandom(cd.data(), long(cd.size()), 5);
  gemmAtB(m, n, k, ad.data(), ld, bd.data(), ld, cd.data(), ld);
  printMatrix("atb", k, norm(ad) * norm(bd), cd.data(), ld, ld, ld, 1);

  fillRandom(cd.data(), long(cd.size()), 6);
  squareAtB(ld / 2, ad.data(), cd.data());
  printMatrix("square", ld / 2, norm(ad) * norm(ad), cd.data(), ld, ld, ld, 1);

  fillRandom(cf.data(), long(cf.size()), 7);
  std::vector<float> c0 = cf;
  addProduct(m, n, k, af.data(), bf.data(), cf.data());
  printMatrix("add-f32", k, norm(af) * norm(bf) + norm(c0), cf.data(), ld, ld,
              ld, 1);
  fillRandom(cd.data(), long(cd.size()), 8);
  std::vector<double> d0 = cd;
  addProduct(m, n, k, ad.data(), bd.data(), cd.data());
  printMatrix("add-f64", k, norm(ad) * norm(bd) + norm(d0), cd.data(), ld, ld,
              ld, 1);

  fillRandom(cf.data(), long(cf.size()), 9);
  c0 = cf;
  sgemmRows(m, n, k, 1.5f, af.data(), ld, bf.data(), ld, cf.data(), ld);
  printMatrix("rows", k, 1.5 * norm(af) * norm(bf) + norm(c0), cf.data(), ld,
              ld, ld, 1);
  fillRandom(cd.data(), long(cd.size()), 10);
  d0 = cd;
  dgemmColumns(m, n, k, -0.5, ad.data(), ld, bd.data(), ld, cd.data(), ld);
  printMatrix("columns", k, 0.5 * norm(ad) * norm(bd) + norm(d0), cd.data(),
              ld, ld, ld, 1);

  fillRandom(cf.data(), long(cf.size()), 11);
  c0 = cf;
  subtractABt(m, n, k, af.data(), ld, bf.data(), ld, cf.data(), ld);
  printMatrix("abt", k, norm(af) * norm(bf) + norm(c0), cf.data(), ld, ld, ld,
              1);
  // The inputs are unchanged.
  printMatrix("a", 1, 0, af.data(), k, ld, ld, 1);
  printMatrix("b", 1, 0, bd.data(), k, ld, ld, 1);
  return 0;
}
