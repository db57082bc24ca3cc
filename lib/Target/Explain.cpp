//===- Explain.cpp - Print the cost model's reasoning ---------------------===//
//
// The --explain table (the target's facts, the search's counts, the ranked
// candidates with every bound and the limiting one) and the one-line forms
// of a schedule used by remarks and device scripts.
//
//===----------------------------------------------------------------------===//

#include "gemm-opt/Target/Explain.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::gemm;

namespace {

/// "72.7%".
std::string percent(double fraction) {
  return llvm::formatv("{0:F1}%", 100.0 * fraction).str();
}

/// "96x96x16".
std::string blockText(const Schedule &s) {
  return llvm::formatv("{0}x{1}x{2}", s.blockM, s.blockN, s.blockK).str();
}

/// "6x6".
std::string threadText(const Schedule &s) {
  return llvm::formatv("{0}x{1}", s.threadM, s.threadN).str();
}

/// The prefetch kind, with the stage count of a cp.async pipeline: "async3".
std::string prefetchText(const Schedule &s) {
  std::string kind = stringifyPrefetch(s.prefetch).str();
  return s.prefetch == Prefetch::Async ? kind + std::to_string(s.stages)
                                       : kind;
}

/// Where an input's tile is contiguous: "k", the x dimension or neither.
std::string stridesText(TileStrides t, StringRef x) {
  return t.xUnit ? x.str() : t.kUnit ? "k" : "neither";
}

/// "4096 x 4096, A contiguous along k, B along n".
std::string problemText(const Problem &p) {
  std::string size =
      p.m > 0 && p.n > 0
          ? llvm::formatv("C {0} x {1}", p.m, p.n).str() +
                (p.batch > 1 ? llvm::formatv(" x {0} batches", p.batch).str()
                             : "")
          : std::string("C of unknown size (no partial tiles or waves)");
  return size + ", A contiguous along " + stridesText(p.a, "m") + ", B along " +
         stridesText(p.b, "n");
}

} // namespace

std::string mlir::gemm::formatScheduleOptions(const Schedule &s) {
  return llvm::formatv("block={0},{1},{2} thread={3},{4} vector={5} "
                       "prefetch={6} stages={7} pad={8} compute={9} "
                       "transpose={10}",
                       s.blockM, s.blockN, s.blockK, s.threadM, s.threadN,
                       s.vector, stringifyPrefetch(s.prefetch), s.stages,
                       s.pad, stringifyCompute(s.compute), int(s.transpose))
             .str() +
         // One block per SM is the launch bounds' default.
         (s.occupancy > 1 ? " occupancy=" + std::to_string(s.occupancy) : "");
}

std::optional<Schedule> mlir::gemm::parseScheduleOptions(StringRef text) {
  Schedule s{};
  llvm::StringSet<> names;
  SmallVector<StringRef> words;
  text.split(words, ' ', -1, /*KeepEmpty=*/false);
  for (StringRef word : words) {
    auto [name, value] = word.split('=');
    SmallVector<StringRef, 3> parts;
    value.split(parts, ',');
    auto integers = [&](std::initializer_list<int64_t *> fields) {
      if (parts.size() != fields.size())
        return false;
      for (auto [field, part] : llvm::zip(fields, parts))
        if (part.getAsInteger(10, *field) || *field < 0)
          return false;
      return true;
    };
    bool ok = false;
    if (name == "block")
      ok = integers({&s.blockM, &s.blockN, &s.blockK});
    else if (name == "thread")
      ok = integers({&s.threadM, &s.threadN});
    else if (name == "vector")
      ok = integers({&s.vector});
    else if (name == "stages")
      ok = integers({&s.stages});
    else if (name == "pad")
      ok = integers({&s.pad});
    else if (name == "prefetch") {
      std::optional<Prefetch> prefetch = symbolizePrefetch(value);
      ok = prefetch.has_value();
      s.prefetch = prefetch.value_or(s.prefetch);
    } else if (name == "compute") {
      std::optional<Compute> compute = symbolizeCompute(value);
      ok = compute.has_value();
      s.compute = compute.value_or(s.compute);
    } else if (name == "transpose") {
      ok = value == "0" || value == "1";
      s.transpose = value == "1";
    } else if (name == "occupancy") {
      ok = integers({&s.occupancy}) && s.occupancy > 0;
    }
    if (!ok || !names.insert(name).second)
      return std::nullopt;
  }
  // Every field that formatScheduleOptions prints, occupancy where it does.
  if (names.size() != 8 + names.count("occupancy") || s.threadM == 0 ||
      s.threadN == 0)
    return std::nullopt;
  return s;
}

std::string mlir::gemm::summarize(const GpuTarget &target, Precision precision,
                                  const Schedule &s, const Prediction &p) {
  double peak = p.peakGFlops;
  return llvm::formatv(
             "{0} {1}: block {2}, thread {3} ({4} threads), vector {5}, "
             "prefetch {6}, compute {14}{16}: predicted {7:F0} GFLOP/s, {8} of the {9:F0} "
             "GFLOP/s peak, bound: {10} (memory {11}, issue {12}, latency "
             "{13}, fill {15})",
             target.name, stringifyPrecision(precision), blockText(s),
             threadText(s), s.threads(), s.vector, prefetchText(s),
             p.efficiency() * peak,
             percent(p.efficiency()), peak, stringifyBound(p.limiter()),
             percent(p.memory), percent(p.issue), percent(p.latency),
             stringifyCompute(s.compute), percent(p.fill),
             s.transpose ? ", transposed (C^T = B^T A^T)" : "")
      .str();
}

void mlir::gemm::printCandidateTable(llvm::raw_ostream &os,
                                     const GpuTarget &target,
                                     Precision precision, StringRef what,
                                     const CandidateSet &set, size_t rows) {
  const SearchGuidelines &g = target.pipe(precision).guidelines;
  os << llvm::formatv("gemm-select-schedule: @{0} ({1}) on {2}, {3}\n", what,
                      stringifyPrecision(precision), target.name,
                      target.description);
  os << llvm::formatv(
      "  peak {0:F1} GFLOP/s, DRAM {1:F1} GB/s, shared memory {2:F1} GB/s; "
      "per clock and SM: {3:F0} thread instructions issued, LDS/.64/.128 "
      "{4:F0}/{5:F0}/{6:F0}\n",
      target.peakGFlops(precision), target.dramGBs, target.sharedGBs(),
      target.issuePerClock(precision), target.sharedAccessesPerClock(4),
      target.sharedAccessesPerClock(8), target.sharedAccessesPerClock(16));
  size_t squeezed = llvm::count_if(
      set.ranked, [](const Candidate &c) { return c.squeezed(); });
  size_t ruled = llvm::count_if(
      set.ranked, [](const Candidate &c) { return !c.rule.empty(); });
  os << llvm::formatv("  search: {0} feasible schedules, {1} kept by the "
                      "guidelines (>= {2} threads and {3} blocks per SM, "
                      "register reuse >= {4:F1}), of which {5} break a "
                      "measured rule, and {6} squeezed twins; those two "
                      "only for tuning\n",
                      set.feasible, set.ranked.size() - squeezed,
                      g.minThreadsPerSM, g.minBlocksPerSM, g.minRegisterReuse,
                      ruled, squeezed);
  os << "  problem: " << problemText(set.problem) << "\n";
  os << llvm::formatv("{0,4} {1,-10} {2,-6} {3,4} {4,3} {5,-8} {6,4} {7,6} "
                      "{8,6} {9,6} {10,6} {11,7} {12,6} {13,7} {14,6} {15,9} "
                      "{16,6} {17,-7} {18}\n",
                      "rank", "block", "thread", "thr", "vec", "prefetch",
                      "regs", "smem", "blk/SM", "thr/SM", "mix", "memory",
                      "issue", "latency", "fill", "GFLOP/s", "peak", "bound",
                      "schedule");
  for (auto [index, c] :
       llvm::enumerate(ArrayRef(set.ranked).take_front(rows))) {
    const Schedule &s = c.schedule;
    const Prediction &p = c.prediction;
    const Footprint &f = p.footprint;
    os << llvm::formatv("{0,4} {1,-10} {2,-6} {3,4} {4,3} {5,-8} {6,4} {7,6} "
                        "{8,6} {9,6} {10,6} {11,7} {12,6} {13,7} {14,6} "
                        "{15,9:F1} {16,6} {17,-7} {18}\n",
                        index + 1, blockText(s), threadText(s), s.threads(),
                        s.vector, prefetchText(s), f.registers,
                        f.sharedBytes, f.blocksPerSM, f.threadsPerSM,
                        percent(p.fmaMix), percent(p.memory), percent(p.issue),
                        percent(p.latency), percent(p.fill), p.gflops(),
                        percent(p.efficiency()), stringifyBound(p.limiter()),
                        formatScheduleOptions(s));
    if (!c.rule.empty())
      os << "       (tuning only: " << c.rule << ")\n";
  }
}

void mlir::gemm::printCandidateSchedules(llvm::raw_ostream &os,
                                         const GpuTarget &target,
                                         Precision precision, StringRef what,
                                         const CandidateSet &set, size_t rows) {
  os << llvm::formatv("# @{0} ({1}) on {2}\n", what,
                      stringifyPrecision(precision), target.name);
  for (const Candidate &c : ArrayRef(set.ranked).take_front(rows))
    os << formatScheduleOptions(c.schedule) << "\n";
}
