//===- TuningDb.cpp - Measured kernels, kept per device -------------------===//
//
// Reads the CSV of docs/tuning.md and finds a problem's fastest row. The
// header must be the one this gemm-opt writes, so that a file of another
// format is refused rather than misread; files appended to each other
// repeat it, which is accepted.
//
//===----------------------------------------------------------------------===//

#include "gemm-opt/Target/TuningDb.h"

#include "gemm-opt/Target/Explain.h"
#include "gemm-opt-abi/TuningFormat.h"
#include "gemm-opt-abi/Version.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cerrno>

#include <sys/file.h>

using namespace mlir;
using namespace mlir::gemm;

namespace {

using gemm_tuning::kHeader;

/// The record of one data line, or the reason it is malformed.
llvm::Expected<TuningRecord> parseRecord(ArrayRef<std::string> f,
                                         unsigned line) {
  namespace col = gemm_tuning::column;
  auto fail = [](const Twine &why) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), why);
  };
  if (f.size() != col::Count)
    return fail("expected " + Twine(int(col::Count)) + " fields, found " +
                Twine(f.size()));
  TuningRecord r{};
  r.line = line;
  r.device = f[col::Device];
  r.version = f[col::GemmOpt];
  r.templates = f[col::Templates];
  const std::pair<int64_t *, int> integers[] = {
      {&r.cc, col::Cc},     {&r.sms, col::Sms},         {&r.driver, col::Driver},
      {&r.cuda, col::Cuda}, {&r.key.batch, col::Batch}, {&r.key.m, col::M},
      {&r.key.n, col::N},   {&r.key.k, col::K},         {&r.splits, col::Splits}};
  for (auto [field, index] : integers)
    if (!llvm::to_integer(f[index], *field, 10))
      return fail("field " + Twine(index + 1) + " is not an integer: '" +
                  f[index] + "'");
  const std::pair<double *, int> reals[] = {
      {&r.microseconds, col::Us}, {&r.gflops, col::Gflops},
      {&r.cublasGFlops, col::CublasGflops}};
  for (auto [field, index] : reals)
    if (!llvm::to_float(f[index], *field))
      return fail("field " + Twine(index + 1) + " is not a number: '" +
                  f[index] + "'");
  if (f[col::Dtype] != "f32" && f[col::Dtype] != "f64")
    return fail("dtype must be f32 or f64, found '" + f[col::Dtype] + "'");
  r.key.precision = f[col::Dtype] == "f32" ? Precision::F32 : Precision::F64;
  r.key.layout = f[col::Layout];
  if (r.key.layout.size() != 3 ||
      StringRef(r.key.layout).find_first_not_of("rcg") != StringRef::npos)
    return fail("layout must be three of r, c and g, found '" +
                f[col::Layout] + "'");
  if ((f[col::BetaZero] != "0" && f[col::BetaZero] != "1") ||
      (f[col::Check] != "pass" && f[col::Check] != "fail"))
    return fail("beta_zero must be 0 or 1 and check pass or fail");
  r.betaZero = f[col::BetaZero] == "1";
  r.checked = f[col::Check] == "pass";
  std::optional<Schedule> schedule = parseScheduleOptions(f[col::Schedule]);
  if (!schedule)
    return fail("not a schedule: '" + f[col::Schedule] + "'");
  r.schedule = *schedule;
  return r;
}

} // namespace

StringRef mlir::gemm::toolVersion() { return gemm_abi::kVersion; }
StringRef mlir::gemm::templatesHash() { return gemm_abi::kTemplates; }

std::string mlir::gemm::layoutClass(const Problem &p) {
  // A is M x K and B is K x N: a row of A runs along K, a row of B along N.
  using gemm_tuning::unitClass;
  return {unitClass(p.a.kUnit, p.a.xUnit), unitClass(p.b.xUnit, p.b.kUnit),
          unitClass(p.cUnitColumns, p.cUnitRows)};
}

llvm::Expected<TuningDb> TuningDb::load(StringRef path) {
  auto cannot = [&](std::error_code ec) {
    return llvm::createStringError(ec, "cannot read the tuning database '" +
                                           path + "': " + ec.message());
  };
  llvm::Expected<llvm::sys::fs::file_t> file =
      llvm::sys::fs::openNativeFileForRead(path);
  if (!file)
    return cannot(llvm::errorToErrorCode(file.takeError()));
  // Shared: writers (the runtime's appendRows) hold the file's lock while
  // they append, so no row is read half written. A file system without
  // locks is read as it is.
  while (::flock(*file, LOCK_SH) != 0 && errno == EINTR) {
  }
  // Read, not mapped: the copy is whole when the lock goes.
  auto buffer = llvm::MemoryBuffer::getOpenFile(
      *file, path, /*FileSize=*/-1, /*RequiresNullTerminator=*/false,
      /*IsVolatile=*/true);
  llvm::sys::fs::closeFile(*file);
  if (!buffer)
    return cannot(buffer.getError());
  return parse((*buffer)->getBuffer(), path);
}

llvm::Expected<TuningDb> TuningDb::parse(StringRef text, StringRef path) {
  TuningDb db;
  db.file = path.str();
  bool header = false;
  unsigned number = 0;
  SmallVector<StringRef> lines;
  text.split(lines, '\n');
  for (StringRef line : lines) {
    ++number;
    line = line.trim();
    if (line.empty() || line.starts_with("#"))
      continue;
    // The first line, or one that files appended to each other repeat.
    if (line == kHeader) {
      header = true;
      continue;
    }
    auto fail = [&](const Twine &why) {
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     path + ":" + Twine(number) + ": " + why);
    };
    if (!header)
      return fail("the header must be '" + Twine(kHeader) + "'");
    std::optional<std::vector<std::string>> fields =
        gemm_tuning::splitFields(line.str());
    if (!fields)
      return fail("unterminated quote");
    llvm::Expected<TuningRecord> record = parseRecord(*fields, number);
    if (!record)
      return fail(llvm::toString(record.takeError()));
    db.records.push_back(std::move(*record));
  }
  // A file of no lines but comments holds no rows: a writer creates the
  // file before it takes the lock to write the header.
  return db;
}

TuningMatch
TuningDb::find(const GpuTarget &target,
               llvm::function_ref<bool(const TuningKey &)> accepts) const {
  TuningMatch match;
  for (const TuningRecord &r : records) {
    // Another GPU's rows say nothing of this one.
    if (target.deviceName.empty() ||
        !StringRef(r.device).starts_with(target.deviceName) ||
        !accepts(r.key))
      continue;
    std::string stale;
    if (r.templates != templatesHash())
      stale = llvm::formatv("line {0} timed kernel templates {1}, these are "
                            "{2}",
                            r.line, r.templates, templatesHash());
    else if (r.version != toolVersion())
      stale = llvm::formatv("line {0} was made by gemm-opt {1}, this is {2}",
                            r.line, r.version, toolVersion());
    if (!stale.empty()) {
      if (match.stale++ == 0)
        match.staleReason = stale;
      continue;
    }
    if (!r.checked)
      continue;
    auto same = llvm::find_if(match.best, [&](const TuningRecord *b) {
      return b->key == r.key;
    });
    if (same == match.best.end())
      match.best.push_back(&r);
    else if (r.gflops > (*same)->gflops)
      *same = &r;
  }
  return match;
}
