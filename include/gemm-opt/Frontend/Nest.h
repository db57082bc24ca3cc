//===- Nest.h - A recognised GEMM loop nest ---------------------*- C++ -*-===//
//
// What the front end hands to the rest of the pipeline for each nest it
// rewrites: the GEMM's operands as C++ expressions that are valid at the
// nest's position, and where the nest sits in the main file. It holds no AST
// pointers, so it outlives the clang front end run.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_OPT_FRONTEND_NEST_H
#define GEMM_OPT_FRONTEND_NEST_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlir::gemm {

/// An operand whose rows are separate allocations: a table of row
/// pointers (`T **`, `T *rows[]`, `std::vector<T *>`) or a vector of
/// vectors. Each row holds the operand's extent along it, contiguously.
struct RowTableBinding {
  bool vectors = false; ///< A vector of vectors, else row pointers.
  /// Row pointers that the call makes of a table of valarrays.
  bool made = false;
  /// The table runs along the operand's columns (`B[j][k]`), else along
  /// its rows.
  bool columns = false;
  /// The table's first row the nest reads (`A + i0`, `A.data() + i0`), and
  /// the index of the first element it reads in each row.
  std::string table, offset;
};

/// One operand as a strided view: dimensions are [batch,] rows, cols. A
/// table of rows has no strides of its own (`strides` is empty): its static
/// strides describe the contiguous copy the runtime gathers it into.
struct OperandBinding {
  std::string ptr; ///< Address of element (0, 0[, 0]); empty for a table.
  std::optional<RowTableBinding> rows;
  llvm::SmallVector<std::string, 3> sizes;
  llvm::SmallVector<std::string, 3> strides;
  /// Compile-time values of the sizes and strides where the front end can
  /// fold them; they become static dimensions in the memref type.
  llvm::SmallVector<std::optional<int64_t>, 3> staticSizes;
  llvm::SmallVector<std::optional<int64_t>, 3> staticStrides;
};

/// "row-major", "column-major" or "strided": which of the operand's row
/// and column strides is statically 1; for a table of rows, "row pointers",
/// "column pointers", "row vectors" or "column vectors".
std::string layoutName(const OperandBinding &operand);

/// One step of a nest's activation (gemm_rt::Step, #gemm.clamp or
/// #gemm.fn), with its params (a clamp's bound, a GELU's constants) as C++
/// expressions valid before the nest.
struct StepBinding {
  enum class Kind { Lower, Upper, Tanh, Sigmoid, GeluTanh, GeluErf };
  Kind kind;
  bool nanToBound = false; ///< A clamp: a NaN x becomes the bound.
  std::vector<std::string> params;
};

/// A floating-point scalar that the nest reads through a pointer (`*alpha`):
/// the launcher gets its value (in alpha, beta or a param) and the pointer,
/// and runs the loop where C holds it.
struct ScalarReadBinding {
  std::string ptr; ///< The pointer, valid before the nest.
  bool isDouble = false;
};

/// A loop-invariant branch or `switch` that a nest is versioned on
/// (Unswitch.cpp), as the rewrite tests it.
struct VersionChoice {
  std::string condition; ///< Valid before the nest.
  /// A switch's: for each way into its body, the labels that the rewrite's
  /// own `switch ((long long)(condition))` gives it (`case 1LL: default: `).
  /// Empty for a branch, whose ways are 0 where it holds and 1 where not.
  std::vector<std::string> cases;
};

/// The name of a nest's temporary (Nest::temporaryType), local to the
/// block of its guard.
inline constexpr llvm::StringLiteral temporaryName = "gemm_opt_temporary";

/// A nest proven to compute C = act(alpha * A * B + beta * C + bias).
struct Nest {
  std::string name; ///< Launcher function name, unique in the file.
  /// The lifted func's symbol: the name, or for one instantiation of a
  /// function template (whose launchers overload the name) the name and
  /// its element type.
  std::string symbol;
  /// The nest of one instantiation of a template with non-type template
  /// parameters: each parameter as spelled and its value here, the
  /// launcher's instantiation tag (LauncherSignature.h).
  std::vector<std::pair<std::string, int64_t>> instance;
  /// Lifted from an instantiation that gemm-opt made of a template that the
  /// file never instantiates: instantiations of other types, in other
  /// files, call the launcher's name too (GemmDialect's open_template).
  bool openTemplate = false;
  std::string file;
  unsigned line = 0, column = 0; ///< Of the outermost `for`.
  /// Byte range of the nest in the main file (leading pragmas included),
  /// or in the text of its included copy.
  unsigned beginOffset = 0, endOffset = 0;
  /// 0 where the nest is in the main file; else 1 + its included copy's
  /// index in FrontendResult::copies.
  unsigned copy = 0;
  bool isDouble = false; ///< A, B and C are double (else float).
  /// Float matrices summed in a double accumulator: the product is computed
  /// in double, as the loop computes it.
  bool sumsInDouble = false;
  bool batched = false;
  OperandBinding a, b, c;
  std::string alpha, beta;
  /// Values the lifted nest takes for granted, as the source spells them
  /// (not as literals), with the value: the rewrite asserts them.
  std::vector<std::pair<std::string, int64_t>> assumptions;
  /// Conditions, C++ valid before the nest, under which the lifted problem is
  /// exactly what the loops compute (`n % 8 == 0` for tiles that are not
  /// clipped at n): the guard runs the original loop where one fails.
  std::vector<std::string> preconditions;
  /// The bias as a view of C's shape, with zero strides along the
  /// dimensions it is broadcast over. Its ptr is `cond ? ptr : 0` where the
  /// source checks the pointer for null: a null bias is no bias.
  std::optional<OperandBinding> bias;
  std::vector<StepBinding> activation; ///< Applied in order.
  std::vector<ScalarReadBinding> scalarReads;
  /// A nest versioned on loop-invariant branches and `switch`es
  /// (Unswitch.cpp): the choices, and the way this version takes at each.
  /// The versions of one nest follow one another, each with all the
  /// choices; a combination of ways that is no GEMM has no Nest and runs
  /// the original loops.
  std::vector<VersionChoice> versionChoices;
  std::vector<size_t> versionWays;
  /// A statement beside the product, split off (SplitOff.cpp): the nest's
  /// text with only that statement and what it reads, which runs after the
  /// launcher, and the conditions, C++ valid before the nest, that its
  /// memory and the product's do not overlap (else the loop runs).
  std::string sideText;
  /// The `#pragma omp parallel` line of a region whose block only shares
  /// out loops, this nest one of them: the rewrite ends the region before
  /// the guard, runs the loop as written in a region of its own, and opens
  /// the region again after it.
  std::string openmpRegion;
  /// The nest's loop carries an orphaned `omp for`, whose team may be a
  /// caller's: the launcher runs only where no parallel region is active
  /// (the runtime's gemm_opt_in_parallel()); in one, every thread meets
  /// the guard alike and the team shares the loop as written.
  bool outsideParallel = false;
  /// The nest's loop carries an `omp for` of an enclosing `parallel`
  /// region's team: one thread of it launches (`omp single`) and tells the
  /// others, which share the loop as written where it did not
  /// (TeamSingle.h).
  bool teamSingle = false;
  /// The nest's translation unit holds OpenACC directives: the rewrite is
  /// compiled only where `_OPENACC` is not defined (a build that ignores
  /// the directives, whose data regions are no-ops); a build with OpenACC
  /// compiles the nest as written, with the directives on and in it, so
  /// that no device copy overwrites the launcher's result.
  bool openaccFile = false;
  /// A float product's precision where its user asked for tensor cores
  /// (`tf32` or `3xtf32`: --precision, #pragma gemm_opt precision); empty
  /// for FP32.
  std::string precision;
  unsigned sideLine = 0; ///< Where sideText starts.
  std::vector<std::string> sideChecks;
  /// A product that goes through a temporary (Temporary.cpp): C is T,
  /// `temporaryName`, host memory that the guard allocates (malloc) with
  /// temporarySize elements of temporaryType (`float`, `double`) and frees
  /// after the nest; sideText is the nest with its K loop reading T. Empty
  /// otherwise.
  std::string temporaryType, temporarySize;
  /// Declarations at namespace scope that the launcher call needs (reads of
  /// private members, PrivateMembers.h), one per line, and the offset in the
  /// nest's text of the declaration around the nest's function, which they
  /// go before.
  std::string declarations;
  unsigned declarationsOffset = 0;

  /// The params of every activation step, in order: the launcher's last
  /// arguments.
  std::vector<std::string> activationParams() const {
    std::vector<std::string> params;
    for (const StepBinding &step : activation)
      params.insert(params.end(), step.params.begin(), step.params.end());
    return params;
  }
};

/// A user file that the main file #includes, or an object-like macro's
/// text where the main file uses it, that holds rewritten nests: the output
/// has the text, rewritten, in place of the #include line or of the macro's
/// name (IncludedText.cpp).
struct IncludedCopy {
  std::string fileName; ///< For #line directives.
  /// As read, `#pragma once` blanked out; a macro's, from its first token to
  /// its last, with its line continuations blanked out.
  std::string text;
  /// What it replaces in the main file or in its parent: the #include line
  /// (with its newline) or the macro's name; the byte range and the number
  /// of the line it starts on.
  unsigned lineBegin = 0, lineEnd = 0, line = 0;
  unsigned firstLine = 1; ///< The number in `fileName` of the text's line 1.
  bool macro = false;
  /// The copy whose text holds the #include line (1-based), 0 for the main
  /// file: a file that an included file includes is copied into its copy.
  unsigned parent = 0;
  /// The quoted names in its #include lines of files found beside it, by
  /// their byte ranges in `text`, with the name that finds them from the
  /// main file's directory.
  std::vector<std::pair<std::pair<unsigned, unsigned>, std::string>> renamed;
};

/// The precisions a float nest may be computed in (--precision, #pragma
/// gemm_opt precision).
inline bool isPrecisionName(llvm::StringRef word) {
  return word == "fp32" || word == "tf32" || word == "3xtf32";
}

/// What the front end learned from one translation unit.
struct FrontendResult {
  /// Given by the caller: launchers are named <prefix>nest_<n>. Launchers
  /// with external linkage need a prefix that is unique in the program.
  std::string launcherPrefix = "gemm_opt_";
  /// Given by the caller: the input as the command line names it, for
  /// #line directives.
  std::string fileName;
  std::string source; ///< The main file's text as read.
  bool isC = false;   ///< Whether the main file is C (not C++).
  /// Given by the caller: the precision of float nests without a pragma
  /// (--precision: fp32, tf32 or 3xtf32), and the target, whose tensor-core
  /// kernels a tf32 or 3xtf32 nest needs (GpuTarget::tf32Gflops).
  std::string precision = "fp32";
  std::string targetName;
  bool targetHasTf32 = false;
  std::vector<Nest> nests; ///< In source order.
  std::vector<IncludedCopy> copies; ///< In the order they were met.
};

} // namespace mlir::gemm

#endif // GEMM_OPT_FRONTEND_NEST_H
