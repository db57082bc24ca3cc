//===- TuningDb.cpp - Measured kernels, kept per device -------------------===//
//
// Reads the CSV of docs/tuning.md and finds a problem's fastest row. The
// header must be the one this gemm-opt writes, so that a file of another
// format is refused rather than misread.
//
//===----------------------------------------------------------------------===//

#include "gemm-opt/Target/TuningDb.h"

#include "gemm-opt/Target/Explain.h"
#include "gemm-opt/Target/TuningFormat.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace mlir;
using namespace mlir::gemm;

namespace {

using gemm_tuning::kHeader;

/// The fields of one line: commas separate them, and a field in double
/// quotes may hold commas ("" is a quote).
std::optional<SmallVector<std::string>> splitFields(StringRef line) {
  SmallVector<std::string> fields(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    char ch = line[i];
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

/// The record of one data line, or the reason it is malformed.
llvm::Expected<TuningRecord> parseRecord(ArrayRef<std::string> f,
                                         unsigned line) {
  auto fail = [](const Twine &why) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), why);
  };
  size_t columns = StringRef(kHeader).count(',') + 1;
  if (f.size() != columns)
    return fail("expected " + Twine(columns) + " fields, found " +
                Twine(f.size()));
  TuningRecord r{};
  r.line = line;
  r.device = f[0];
  r.version = f[5];
  r.templates = f[6];
  const std::pair<int64_t *, int> integers[] = {
      {&r.cc, 1},        {&r.sms, 2},   {&r.driver, 3}, {&r.cuda, 4},
      {&r.key.batch, 9}, {&r.key.m, 10}, {&r.key.n, 11}, {&r.key.k, 12},
      {&r.splits, 14}};
  for (auto [field, index] : integers)
    if (!llvm::to_integer(f[index], *field, 10))
      return fail("field " + Twine(index + 1) + " is not an integer: '" +
                  f[index] + "'");
  const std::pair<double *, int> reals[] = {
      {&r.microseconds, 16}, {&r.gflops, 17}, {&r.cublasGFlops, 18}};
  for (auto [field, index] : reals)
    if (!llvm::to_float(f[index], *field))
      return fail("field " + Twine(index + 1) + " is not a number: '" +
                  f[index] + "'");
  if (f[7] != "f32" && f[7] != "f64")
    return fail("dtype must be f32 or f64, found '" + f[7] + "'");
  r.key.precision = f[7] == "f32" ? Precision::F32 : Precision::F64;
  r.key.layout = f[8];
  if (r.key.layout.size() != 3 ||
      StringRef(r.key.layout).find_first_not_of("rcg") != StringRef::npos)
    return fail("layout must be three of r, c and g, found '" + f[8] + "'");
  if ((f[13] != "0" && f[13] != "1") || (f[19] != "pass" && f[19] != "fail"))
    return fail("beta_zero must be 0 or 1 and check pass or fail");
  r.betaZero = f[13] == "1";
  r.checked = f[19] == "pass";
  std::optional<Schedule> schedule = parseScheduleOptions(f[15]);
  if (!schedule)
    return fail("not a schedule: '" + f[15] + "'");
  r.schedule = *schedule;
  return r;
}

} // namespace

StringRef mlir::gemm::toolVersion() { return GEMM_OPT_VERSION; }
StringRef mlir::gemm::templatesHash() { return GEMM_OPT_TEMPLATES; }

std::string mlir::gemm::layoutClass(const Problem &p) {
  // A is M x K and B is K x N: a row of A runs along K, a row of B along N.
  auto of = [](bool alongRow, bool alongColumn) {
    return alongRow ? 'r' : alongColumn ? 'c' : 'g';
  };
  return {of(p.a.kUnit, p.a.xUnit), of(p.b.xUnit, p.b.kUnit),
          of(p.cUnitColumns, p.cUnitRows)};
}

llvm::Expected<TuningDb> TuningDb::load(StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer)
    return llvm::createStringError(buffer.getError(),
                                   "cannot read the tuning database '" + path +
                                       "': " + buffer.getError().message());
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
    auto fail = [&](const Twine &why) {
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     path + ":" + Twine(number) + ": " + why);
    };
    if (!header) {
      if (line != kHeader)
        return fail("the header must be '" + Twine(kHeader) + "'");
      header = true;
      continue;
    }
    std::optional<SmallVector<std::string>> fields = splitFields(line);
    if (!fields)
      return fail("unterminated quote");
    llvm::Expected<TuningRecord> record = parseRecord(*fields, number);
    if (!record)
      return fail(llvm::toString(record.takeError()));
    db.records.push_back(std::move(*record));
  }
  if (!header)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   path + ": no header line");
  return db;
}

TuningMatch TuningDb::find(const GpuTarget &target,
                           const TuningKey &key) const {
  TuningMatch match;
  for (const TuningRecord &r : records) {
    // Another GPU's rows say nothing of this one.
    if (!(r.key == key) || target.deviceName.empty() ||
        !StringRef(r.device).starts_with(target.deviceName))
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
    if (r.checked && (!match.best || r.gflops > match.best->gflops))
      match.best = &r;
  }
  return match;
}
