//===- rows.cu - run() with tables of rows --------------------------------===//
//
// C = A * B with A, B and C given as tables of rows, B read along its
// columns, each row longer than the extent and poisoned past it; then C
// rows that overlap each other, a C row that overlaps a row of A, and a C
// row inside the span of a strided B. Prints C, whether the poison was
// kept, and what run() answered.
//
//===----------------------------------------------------------------------===//
#include "gemm_runtime.h"

#include <cstdio>

int main() {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  const float poison = -999;
  // A = {{1, 2, 3}, {4, 5, 6}}: rows of 3 with one poisoned element after.
  float a0[4] = {1, 2, 3, poison}, a1[4] = {4, 5, 6, poison};
  // B = {{1, 0}, {0, 1}, {1, 1}} read along its columns: Bt's rows.
  float bt0[4] = {1, 0, 1, poison}, bt1[4] = {0, 1, 1, poison};
  // C's rows: one poisoned element before the first one read and one after.
  float c0[4] = {poison, 10, 10, poison}, c1[4] = {poison, 10, 10, poison};
  const float *a[] = {a0, a1}, *bt[] = {bt0, bt1};
  float *c[] = {c0, c1};

  const gemm_rt::Problem p{"rows.cu:31:3", gemm_rt::DType::F32, 1, 2, 2, 3,
                           {}, {}, {}, 1.0, 1.0};
  const std::vector<const void *> aRows = gemm_rt::rowStarts(a, 2, 0);
  const std::vector<const void *> bRows = gemm_rt::rowStarts(bt, 2, 0);
  const std::vector<const void *> cRows = gemm_rt::rowStarts(c, 2, 1);
  gemm_rt::RowOperands rows{{aRows.data(), false}, {bRows.data(), true},
                            {cRows.data(), false}};
  bool ran = gemm_rt::run(p, rows, gemm_rt::launchReference);
  std::printf("ran %d: C = %g %g / %g %g\n", ran, c0[1], c0[2], c1[1], c1[2]);
  bool kept = a0[3] == poison && a1[3] == poison && bt0[3] == poison &&
              bt1[3] == poison && c0[0] == poison && c0[3] == poison &&
              c1[0] == poison && c1[3] == poison;
  std::printf("poison %s\n", kept ? "kept" : "CHANGED");

  // C's second row starts inside its first.
  const void *overlapping[] = {c0 + 1, c0 + 2};
  rows.c.start = overlapping;
  std::printf("rows of C overlap: ran %d\n",
              gemm_rt::run(p, rows, gemm_rt::launchReference));

  // C's second row is A's first.
  const void *shared[] = {c1 + 1, a0};
  rows.c.start = shared;
  std::printf("C row is A row: ran %d\n",
              gemm_rt::run(p, rows, gemm_rt::launchReference));

  // B strided; C's first row lies inside B's span.
  float b[3][2] = {{1, 0}, {0, 1}, {1, 1}};
  gemm_rt::Problem strided = p;
  strided.b = {&b[0][0], 0, 2, 1};
  const void *insideB[] = {&b[1][0], c1 + 1};
  rows.b.start = nullptr;
  rows.c.start = insideB;
  std::printf("C row in B's span: ran %d\n",
              gemm_rt::run(strided, rows, gemm_rt::launchReference));
  return 0;
}
