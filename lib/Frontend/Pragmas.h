//===- Pragmas.h - The pragmas that decide whether a nest is rewritten ----===//
//
// `#pragma gemm_opt` directives, recorded as the preprocessor meets them, and
// OpenMP directives read from their text, which is there whether or not the
// file was parsed with -fopenmp.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_OPT_LIB_FRONTEND_PRAGMAS_H
#define GEMM_OPT_LIB_FRONTEND_PRAGMAS_H

#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace clang {
class Preprocessor;
} // namespace clang

namespace mlir::gemm {

/// A `#pragma gemm_opt` for the next nest, `off` or `precision(<p>)`, and
/// whether a nest took it.
struct NestPragma {
  clang::SourceLocation loc; ///< Of the `#` (or `_Pragma`).
  /// `precision`'s word (fp32, tf32 or 3xtf32); empty for `off`.
  std::string precision;
  bool used = false;
};

/// Installs the `gemm_opt` pragma handler on `pp`: `off` and
/// `precision(...)` are recorded in `pragmas`, `on` (the default)
/// accepted, anything else warned about at its location and ignored.
void addGemmOptPragmaHandler(clang::Preprocessor &pp,
                             std::vector<NestPragma> &pragmas);

/// The directive name of an OpenMP pragma line (`#pragma omp parallel for
/// collapse(2)` gives "parallel for"), or nullopt for another pragma.
std::optional<std::string> openmpDirective(llvm::StringRef pragmaLine);

/// What an OpenMP directive on a loop of a nest, or in it, does to the
/// product that one launch would compute in its place.
enum class LoopDirective {
  /// The thread that meets the loop computes the whole product, alone or
  /// with threads or lanes the directive starts: `parallel for`, `parallel
  /// loop`, `simd`, `taskloop`, `tile`, `unroll`.
  Alone,
  /// The loop is shared with the team of an enclosing region, perhaps a
  /// caller's: `for`, `for simd`, `loop`, `distribute`; every thread of the
  /// team would launch the whole product.
  Shared,
  /// Anything else: a `parallel` region, a task, `single`, `atomic` ...
  Other,
};
LoopDirective classifyLoopDirective(llvm::StringRef directive);

/// Whether one thread runs the block of an OpenMP `directive` once each
/// time a thread meets it (`task`, `single`, `master`, `masked`,
/// `section`): a nest inside is then one product per run, as written,
/// whatever team runs around it.
bool runsOnce(llvm::StringRef directive);

} // namespace mlir::gemm

#endif // GEMM_OPT_LIB_FRONTEND_PRAGMAS_H
