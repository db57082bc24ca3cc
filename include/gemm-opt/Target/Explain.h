//===- Explain.h - Print the cost model's reasoning -------------*- C++ -*-===//
//
// The text that shows why a schedule won: the --explain table of ranked
// candidates with every bound, and the one-line summaries of a schedule that
// the remarks and device scripts use.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_OPT_TARGET_EXPLAIN_H
#define GEMM_OPT_TARGET_EXPLAIN_H

#include "gemm-opt/Target/Candidates.h"

#include "llvm/Support/raw_ostream.h"

namespace mlir::gemm {

/// The schedule as gemm-select-schedule options, e.g.
/// `block=96,96,16 thread=6,6 vector=2 prefetch=regs pad=2`: what --schedule
/// takes to build exactly this kernel.
std::string formatScheduleOptions(const Schedule &schedule);

/// The schedule that formatScheduleOptions printed as `text`, or nullopt.
std::optional<Schedule> parseScheduleOptions(StringRef text);

/// The schedule and its prediction in one line, for remarks.
std::string summarize(const GpuTarget &target, Precision precision,
                      const Schedule &schedule, const Prediction &prediction);

/// The target's facts, the search's counts and the top `rows` candidates of
/// `set` with every bound; `what` names the op.
void printCandidateTable(llvm::raw_ostream &os, const GpuTarget &target,
                         Precision precision, StringRef what,
                         const CandidateSet &set, size_t rows);

/// A `# @what (precision) on target` line, then the top `rows` candidates
/// of `set`, one --schedule string per line.
void printCandidateSchedules(llvm::raw_ostream &os, const GpuTarget &target,
                             Precision precision, StringRef what,
                             const CandidateSet &set, size_t rows);

} // namespace mlir::gemm

#endif // GEMM_OPT_TARGET_EXPLAIN_H
