//===- Rewrite.h - Rewrite one input file -----------------------*- C++ -*-===//
//
// The source mode's work for one input: parse it with clang, lift its nests,
// select their schedules and write what --emit asks for.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_OPT_TOOLS_REWRITE_H
#define GEMM_OPT_TOOLS_REWRITE_H

#include "Remarks.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "mlir/IR/DialectRegistry.h"
#include "llvm/Remarks/RemarkFormat.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <string>
#include <vector>

namespace gemm_opt {

enum class Emit { Source, Mlir, Cuda, Schedules, Tune };
enum class Language { FromName, C, Cxx };

/// What applies to every input of one call.
struct RewriteOptions {
  Emit emit = Emit::Source;
  bool explain = false;
  unsigned candidates = 10;
  std::string schedule, target;
  /// The tuning database's path, or empty for none.
  std::string tuningDb;
  /// --emit=tune: the problems of nests with dynamic extents, and the
  /// schedules timed per problem: the model's first, and its best of as
  /// many further tile shapes.
  std::vector<std::string> tuneProblems;
  unsigned tuneTop = 16, tuneShapes = 0;
  bool referenceKernel = false;
  /// --stream-k: every kernel's stream-K form, not only the measured ones.
  bool streamK = false;
  /// --precision: what float nests without a pragma are computed in
  /// (fp32, tf32 or 3xtf32).
  std::string precision = "fp32";
  /// --kernel-dir, absolute; empty: the kernels stay in each output.
  std::string kernelDir;
  Language language = Language::FromName;
  RemarkSelection remarks;
};

/// One input and the files it is written to; an empty path is not written.
struct RewriteJob {
  /// The file to parse, as the command line names it; for stdin, the
  /// absolute path that clang's tooling maps `stdinText` at.
  std::string input;
  const llvm::MemoryBuffer *stdinText = nullptr;
  std::string output;      ///< "-" for stdout.
  std::string kernels;     ///< --kernels: the launchers and kernels apart.
  std::string depfile;     ///< -MD / -MF.
  std::string record;      ///< -fsave-optimization-record.
  llvm::remarks::Format recordFormat = llvm::remarks::Format::YAML;
};

/// The dialects that gemm-opt's IR uses.
void registerGemmOptDialects(mlir::DialectRegistry &registry);

/// What is wrong with the options that apply to every input (the target,
/// the schedule options, the tuning database), told before any input is
/// parsed.
llvm::Error checkRewriteOptions(const RewriteOptions &options);

/// Rewrites one input; returns the exit status (diagnostics are printed).
int rewriteFile(const RewriteOptions &options, const RewriteJob &job,
                const clang::tooling::CompilationDatabase &compilations);

} // namespace gemm_opt

#endif // GEMM_OPT_TOOLS_REWRITE_H
