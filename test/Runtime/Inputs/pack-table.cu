//===- pack-table.cu - Dense copies of tables of rows ---------------------===//
//
// Packs part of a table the way a staged panel does (pack.h's Table: rows
// cut by moving the start along the table, columns by the skip across it),
// for a table of rows and one of columns. Prints the dense copy as the
// kernel reads it, then scatters changed values back and prints every row
// whole: only the panel's elements may change, the rest of each row (the
// guard cells around the panel) must keep its value. Host code: no GPU.
//
//===----------------------------------------------------------------------===//
#include "host/gather.h"

#include <cstdio>
#include <vector>

using namespace gemm_rt::detail;
using gemm_rt::Operand;

namespace {
/// Element (r, c) of the copy as a kernel reads it through `op`.
float read(const Operand &op, int64_t r, int64_t c) {
  return static_cast<const float *>(op.ptr)[r * op.sr + c * op.sc];
}

void run(const char *what, bool columns) {
  // Five separate rows of seven elements, element (r, t) = 10 r + t.
  std::vector<std::vector<float>> rows(5, std::vector<float>(7));
  std::vector<const void *> starts;
  for (int r = 0; r < 5; ++r) {
    for (int t = 0; t < 7; ++t)
      rows[r][t] = float(10 * r + t);
    starts.push_back(rows[r].data());
  }
  // The panel: table entries 1..3, elements 2..5 of each. For a table of
  // columns the operand's rows run along the entries' elements.
  const Table table{starts.data() + 1, 2, columns};
  const Extents extents = columns ? Extents{1, 4, 3} : Extents{1, 3, 4};
  const HostGather packing({nullptr, 0, 0, 0}, extents, sizeof(float), table);
  std::vector<float> dense(packing.bytes() / sizeof(float), -1.0f);
  packing.gather(dense.data(), 0, packing.runCount());
  const Operand op = packing.dense(dense.data());
  std::printf("%s: %lld runs, %zu bytes\n", what,
              (long long)packing.runCount(), packing.bytes());
  for (int64_t r = 0; r < extents.rows; ++r) {
    std::printf(" ");
    for (int64_t c = 0; c < extents.cols; ++c) {
      std::printf(" %g", read(op, r, c));
      static_cast<float *>(const_cast<void *>(op.ptr))[r * op.sr + c * op.sc] =
          -read(op, r, c);
    }
    std::printf("\n");
  }
  packing.scatter(dense.data(), 0, packing.runCount());
  std::printf("  after scatter:\n");
  for (const std::vector<float> &row : rows) {
    std::printf("   ");
    for (float x : row)
      std::printf(" %g", x);
    std::printf("\n");
  }
}
} // namespace

int main() {
  run("table of rows", false);
  run("table of columns", true);
  return 0;
}
