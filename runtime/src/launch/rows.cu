//===- rows.cu - Operands whose rows are separate allocations -------------===//
//
// Implements the overlap test declared in rows.h.
//
//===----------------------------------------------------------------------===//
#include "launch/rows.h"

#include <algorithm>
#include <cstring>
#include <vector>

namespace gemm_rt::detail {

namespace {
/// The bytes of an operand's elements: one span per row of a table, else
/// the strided operand's span.
std::vector<Span> spansOf(const Operand &op, const Rows &rows,
                          const Extents &e, size_t element) {
  if (!rows.start)
    return {spanOf(op, e, element)};
  const int64_t count = rows.columns ? e.cols : e.rows;
  const size_t bytes = size_t(rows.columns ? e.rows : e.cols) * element;
  std::vector<Span> spans(static_cast<size_t>(count));
  for (int64_t r = 0; r < count; ++r) {
    const auto begin = reinterpret_cast<uintptr_t>(rows.start[r]);
    spans[size_t(r)] = {begin, begin + bytes};
  }
  return spans;
}

void sortByBegin(std::vector<Span> &spans) {
  std::sort(spans.begin(), spans.end(), [](const Span &x, const Span &y) {
    return x.begin < y.begin;
  });
}

/// True if two of `spans`, sorted by begin, overlap: then two neighbours do.
bool overlapEachOther(const std::vector<Span> &spans) {
  for (size_t i = 1; i < spans.size(); ++i)
    if (spans[i - 1].overlaps(spans[i]))
      return true;
  return false;
}

/// `spans` merged where they overlap, sorted; the inputs' rows may share
/// memory (A[0] == A[1] is a valid table).
std::vector<Span> merged(std::vector<Span> spans) {
  sortByBegin(spans);
  std::vector<Span> out;
  for (const Span &s : spans)
    if (!out.empty() && s.begin < out.back().end)
      out.back().end = std::max(out.back().end, s.end);
    else
      out.push_back(s);
  return out;
}

/// True if a span of `x` overlaps one of `y`, both sorted and disjoint.
bool overlapAny(const std::vector<Span> &x, const std::vector<Span> &y) {
  size_t i = 0, j = 0;
  while (i < x.size() && j < y.size()) {
    if (x[i].overlaps(y[j]))
      return true;
    x[i].end <= y[j].end ? ++i : ++j;
  }
  return false;
}
} // namespace

const char *rowOverlap(const Problem &p, const RowOperands &rows) {
  const size_t element = elementSize(p.dtype);
  const Extents cExtents{p.batch, p.m, p.n};
  std::vector<Span> c = spansOf(p.c, rows.c, cExtents, element);
  sortByBegin(c);
  if (overlapEachOther(c))
    return "rows of C overlap each other";
  if (overlapAny(c, merged(spansOf(p.a, rows.a, {p.batch, p.m, p.k},
                                   element))))
    return "C overlaps A";
  if (overlapAny(c, merged(spansOf(p.b, rows.b, {p.batch, p.k, p.n},
                                   element))))
    return "C overlaps B";
  if (p.epilogue.bias.ptr &&
      overlapAny(c, {spanOf(p.epilogue.bias, cExtents, element)}))
    return "C overlaps the bias";
  if (!rows.c.start && !isOneToOne(p.c, cExtents))
    return "C's layout is not one-to-one";
  return holdsRead(c, p.reads);
}

} // namespace gemm_rt::detail
