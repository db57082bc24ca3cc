//===- TuningDb.h - Measured kernels, kept per device -----------*- C++ -*-===//
//
// The tuning database (docs/tuning.md): one CSV row per kernel variant and K
// split timed on a GPU for one problem, with the keys that say which problem
// and the validators that say whether the row still describes the kernels
// this gemm-opt prints. gemm-select-schedule takes the fastest checked row
// for an op's static problem over the model's choice.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_OPT_TARGET_TUNINGDB_H
#define GEMM_OPT_TARGET_TUNINGDB_H

#include "gemm-opt/Target/CostModel.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace mlir::gemm {

/// The version of gemm-opt and the hash of the kernel templates
/// (runtime/include) that this build prints kernels with: a row made with
/// other kernels does not describe ours.
StringRef toolVersion();
StringRef templatesHash();

/// The problem a row measured: its element type, which stride of each of
/// A, B and C is 1, and its extents.
struct TuningKey {
  Precision precision;
  /// A's, B's and C's unit stride: 'r' along the row (the column stride is
  /// 1), 'c' along the column, 'g' neither; e.g. "rrr" for row-major.
  std::string layout;
  int64_t batch, m, n, k;

  bool operator==(const TuningKey &o) const {
    return precision == o.precision && layout == o.layout &&
           batch == o.batch && m == o.m && n == o.n && k == o.k;
  }
};

/// `problem`'s layout class (TuningKey::layout).
std::string layoutClass(const Problem &problem);

/// One row: a variant's time on one GPU.
struct TuningRecord {
  /// The CUDA device name, compute capability and SM count.
  std::string device;
  int64_t cc, sms;
  /// cudaDriverGetVersion and cudaRuntimeGetVersion, for the record.
  int64_t driver, cuda;
  std::string version, templates;
  TuningKey key;
  bool betaZero;
  Schedule schedule;
  int64_t splits;
  double microseconds, gflops, cublasGFlops;
  /// Whether the result matched the reference.
  bool checked;
  /// The row's line in its file, for remarks.
  unsigned line;
};

/// The fastest checked row for a problem on a target, and what was ignored.
struct TuningMatch {
  const TuningRecord *best = nullptr;
  /// Rows of the problem and the target's device that other kernels or
  /// another gemm-opt made, and the first one's reason.
  unsigned stale = 0;
  std::string staleReason;
};

class TuningDb {
public:
  /// Reads `path`; a malformed row is an error that names its line.
  static llvm::Expected<TuningDb> load(StringRef path);
  /// Parses `text` as the file `path`.
  static llvm::Expected<TuningDb> parse(StringRef text, StringRef path);

  TuningMatch find(const GpuTarget &target, const TuningKey &key) const;

  StringRef path() const { return file; }

private:
  std::string file;
  std::vector<TuningRecord> records;
};

} // namespace mlir::gemm

#endif // GEMM_OPT_TARGET_TUNINGDB_H
