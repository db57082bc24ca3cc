//===- layout.cu - Address arithmetic on strided operands -----------------===//
//
// Implements the slices, spans and injectivity tests declared in layout.h.
//
//===----------------------------------------------------------------------===//
#include "launch/layout.h"

#include <algorithm>
#include <array>

namespace gemm_rt::detail {

size_t elementSize(DType dtype) {
  return dtype == DType::F32 ? sizeof(float) : sizeof(double);
}

namespace {
struct Dim {
  int64_t extent, stride;
};

std::array<Dim, 3> dimsOf(const Operand &op, const Extents &e) {
  return {{{e.batch, op.sb}, {e.rows, op.sr}, {e.cols, op.sc}}};
}

uint64_t magnitude(int64_t x) {
  // Negating in unsigned arithmetic is defined even for INT64_MIN.
  return x < 0 ? 0 - static_cast<uint64_t>(x) : static_cast<uint64_t>(x);
}
} // namespace

Operand operandAt(const Operand &op, int64_t b0, int64_t r0, int64_t c0,
                  size_t elementSize) {
  const int64_t offset =
      (b0 * op.sb + r0 * op.sr + c0 * op.sc) * int64_t(elementSize);
  // Unsigned wrap-around makes adding a negative offset exact.
  return {reinterpret_cast<const void *>(reinterpret_cast<uintptr_t>(op.ptr) +
                                         static_cast<uintptr_t>(offset)),
          op.sb, op.sr, op.sc};
}

Problem rowSlice(const Problem &p, int64_t row0, int64_t rows) {
  const size_t element = elementSize(p.dtype);
  Problem slice = p;
  slice.m = rows;
  slice.a = operandAt(p.a, 0, row0, 0, element);
  slice.c = operandAt(p.c, 0, row0, 0, element);
  if (p.epilogue.bias.ptr)
    slice.epilogue.bias = operandAt(p.epilogue.bias, 0, row0, 0, element);
  return slice;
}

Span spanOf(const Operand &op, const Extents &e, size_t elementSize) {
  int64_t low = 0, high = 0;
  for (const Dim &d : dimsOf(op, e)) {
    int64_t reach = d.stride * (d.extent - 1);
    (reach < 0 ? low : high) += reach;
  }
  // Unsigned wrap-around makes adding a negative offset exact.
  auto base = reinterpret_cast<uintptr_t>(op.ptr);
  auto bytes = static_cast<int64_t>(elementSize);
  return {base + static_cast<uintptr_t>(low * bytes),
          base + static_cast<uintptr_t>((high + 1) * bytes)};
}

bool isOneToOne(const Operand &op, const Extents &e) {
  struct Step {
    uint64_t stride, extent;
  };
  // Unused slots sort last; sorting all three keeps GCC's -Warray-bounds
  // quiet, which misreads a sort over a prefix.
  std::array<Step, 3> steps;
  steps.fill({UINT64_MAX, 1});
  size_t count = 0;
  for (const Dim &d : dimsOf(op, e)) {
    if (d.extent <= 1)
      continue;
    if (d.stride == 0)
      return false;
    steps[count++] = {magnitude(d.stride), static_cast<uint64_t>(d.extent)};
  }
  std::sort(steps.begin(), steps.end(),
            [](const Step &x, const Step &y) { return x.stride < y.stride; });
  // How far, in elements, the dimensions seen so far reach from one element.
  uint64_t reach = 0;
  for (size_t i = 0; i < count; ++i) {
    if (steps[i].stride <= reach)
      return false;
    reach += steps[i].stride * (steps[i].extent - 1);
  }
  return true;
}

const char *holdsRead(const std::vector<Span> &c, const ScalarReads &reads) {
  for (int r = 0; r < reads.count; ++r) {
    const uintptr_t at = reinterpret_cast<uintptr_t>(reads.read[r].ptr);
    const Span read{at, at + uintptr_t(reads.read[r].bytes)};
    for (const Span &span : c)
      if (span.overlaps(read))
        return "C holds a scalar that the nest reads through a pointer";
  }
  return nullptr;
}

} // namespace gemm_rt::detail
