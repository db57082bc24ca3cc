//===- TuningFormat.h - The tuning database's columns -----------*- C++ -*-===//
//
// The rows of a tuning database (docs/tuning.md) as the programs that time
// kernels on a GPU write them (bench/bench.cu, the runtime's tuneMain), the
// header line that gemm-opt's reader (TuningDb.h) requires, layout classes,
// and where the database lies by default. Plain C++, so that device
// programs can include it; part of the contract between compiler and
// runtime (abi/CMakeLists.txt).
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_OPT_ABI_TUNINGFORMAT_H
#define GEMM_OPT_ABI_TUNINGFORMAT_H

#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

namespace gemm_tuning {

constexpr const char *kHeader =
    "device,cc,sms,driver,cuda,gemm_opt,templates,dtype,layout,batch,m,n,k,"
    "beta_zero,splits,schedule,us,gflops,cublas_gflops,check";

/// The database used when none is named: $GEMM_OPT_TUNING_DB, else the
/// user's cache file, $XDG_CACHE_HOME/gemm-opt/tuning.csv or
/// $HOME/.cache/gemm-opt/tuning.csv (an empty variable counts as unset).
/// "" for none: GEMM_OPT_TUNING_DB=none, or no home known. The file and its
/// directory may not exist yet.
inline std::string defaultPath() {
  auto env = [](const char *name) {
    const char *value = std::getenv(name);
    return std::string(value ? value : "");
  };
  if (const std::string db = env("GEMM_OPT_TUNING_DB"); !db.empty())
    return db == "none" ? "" : db;
  if (const std::string cache = env("XDG_CACHE_HOME"); !cache.empty())
    return cache + "/gemm-opt/tuning.csv";
  if (const std::string home = env("HOME"); !home.empty())
    return home + "/.cache/gemm-opt/tuning.csv";
  return "";
}

/// One row: the columns of kHeader (docs/tuning.md).
struct Record {
  const char *device;
  int cc, sms, driver, cuda;
  const char *version, *templates, *dtype, *layout;
  long long batch, m, n, k;
  bool betaZero;
  long long splits;
  const char *schedule;
  double microseconds, gflops, cublasGFlops;
  bool passed;
};

/// Appends `r` to `file` as one line; the device name and the schedule are
/// quoted, since they may hold commas.
inline void writeRecord(std::FILE *file, const Record &r) {
  std::fprintf(file,
               "\"%s\",%d,%d,%d,%d,%s,%s,%s,%s,%lld,%lld,%lld,%lld,%d,%lld,"
               "\"%s\",%.3f,%.1f,%.1f,%s\n",
               r.device, r.cc, r.sms, r.driver, r.cuda, r.version,
               r.templates, r.dtype, r.layout, r.batch, r.m, r.n, r.k,
               r.betaZero ? 1 : 0, r.splits, r.schedule, r.microseconds,
               r.gflops, r.cublasGFlops, r.passed ? "pass" : "fail");
}

/// An operand's letter in a layout class ("rrr" for row-major A, B and C):
/// 'r' where its unit stride runs along its rows, 'c' along its columns,
/// 'g' neither. The compiler names a nest's class from its strides, the
/// runtime a call's, and both read and write rows by it.
inline char unitClass(bool alongRow, bool alongColumn) {
  return alongRow ? 'r' : alongColumn ? 'c' : 'g';
}

/// The columns of kHeader, by index, and their count.
namespace column {
enum Index : size_t {
  Device, Cc, Sms, Driver, Cuda, GemmOpt, Templates, Dtype, Layout, Batch,
  M, N, K, BetaZero, Splits, Schedule, Us, Gflops, CublasGflops, Check,
  Count
};
} // namespace column

/// The fields of one line: commas separate them, and a field in double
/// quotes may hold commas ("" is a quote); nullopt for an unterminated
/// quote.
inline std::optional<std::vector<std::string>>
splitFields(const std::string &line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char ch = line[i];
    if (quoted && ch == '"' && i + 1 < line.size() && line[i + 1] == '"') {
      fields.back() += '"';
      ++i;
    } else if (ch == '"') {
      quoted = !quoted;
    } else if (ch == ',' && !quoted) {
      fields.emplace_back();
    } else {
      fields.back() += ch;
    }
  }
  if (quoted)
    return std::nullopt;
  return fields;
}

} // namespace gemm_tuning

#endif // GEMM_OPT_ABI_TUNINGFORMAT_H
