//===- pack.h - Dense copies of strided host operands -----------*- C++ -*-===//
//
// Host operands reach the GPU as dense copies: only the elements travel,
// never the gaps between rows, so padding inside C's span stays untouched
// and C need not be copied in when beta == 0. The host side of each copy
// (gathering into pinned memory, scattering C back) runs on several threads,
// since one core copies slower than the link.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_RUNTIME_PACK_H
#define GEMM_RUNTIME_PACK_H

#include "launch/layout.h"

#include <cstddef>
#include <cstdint>

namespace gemm_rt::detail {

/// A table of rows (gemm_runtime.h's Rows) as a host operand's source:
/// element (i, j) at start[i] + skip + j, or with `columns` at start[j] +
/// skip + i, counted in elements. Panels cut a table by moving `start` along
/// it, or `skip` across it.
struct Table {
  const void *const *start = nullptr;
  int64_t skip = 0;
  bool columns = false;
};

/// How a strided operand lies in a dense copy: as `runs` runs of `length`
/// elements, `ld` apart. A run follows the dimension of the smallest stride;
/// its copy keeps that stride's sign when it is +-1 (a kernel may assume a
/// unit stride at compile time), the other dimensions are dense behind it.
/// A dimension of extent 1 keeps its stride and a broadcast one (stride 0)
/// stays broadcast, copied once. A table's runs are its rows, whatever
/// the extents.
class HostGather {
public:
  HostGather(const Operand &host, const Extents &extents, size_t elementSize,
          const Table &table = {});

  /// The bytes the dense copy takes.
  size_t bytes() const { return size_t(runs * ld) * element; }
  /// The bytes of the operand's elements the dense copy holds.
  size_t payload() const { return size_t(runs * length) * element; }
  /// The number of runs, and the bytes between consecutive runs' starts.
  int64_t runCount() const { return runs; }
  size_t runBytes() const { return size_t(ld) * element; }

  /// The operand as a kernel reads the dense copy at `base`.
  Operand dense(const void *base) const;

  /// Copies runs [first, last) of the host operand to `dense`, which points
  /// at run `first` of a dense copy; scatter copies them back.
  void gather(void *dense, int64_t first, int64_t last) const;
  void scatter(const void *dense, int64_t first, int64_t last) const;

private:
  template <bool toDense>
  void copy(unsigned char *dense, int64_t first, int64_t last) const;
  /// Elements from the run's base (the table's row, else the operand's
  /// pointer) to its first element.
  int64_t runOffset(int64_t run) const;

  Operand host;
  Extents extents;
  size_t element;
  Table table;
  /// The dimension a run follows (0 batch, 1 rows, 2 columns), or -1 when
  /// the operand holds one element.
  int inner = -1;
  /// Up to two dimensions behind it, the outer one first, and how many.
  int outer[2] = {0, 0};
  int outers = 0;
  int64_t length = 1, runs = 1, ld = 1;
};

/// Runs body(begin, end) over [0, count) split across the copy threads;
/// pieces smaller than `grain` stay together. Returns when all are done.
void parallelFor(int64_t count, int64_t grain,
                 void (*body)(const void *context, int64_t begin, int64_t end),
                 const void *context);

} // namespace gemm_rt::detail

#endif // GEMM_RUNTIME_PACK_H
