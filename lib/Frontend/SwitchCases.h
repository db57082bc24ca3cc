//===- SwitchCases.h - A `switch` read as its cases -------------*- C++ -*-===//
//
// A `switch` runs, for each value of its condition, the body's statements
// from that value's label (or the `default:` label) to the first `break`,
// falling past later labels. Where every label and every `break` of the
// switch stands at the top of its body or of a case's braces and the body
// declares nothing there that its cases would share, each way in is one
// list of statements: the nest can be versioned on it, one version per way
// in (Unswitch.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_OPT_LIB_FRONTEND_SWITCHCASES_H
#define GEMM_OPT_LIB_FRONTEND_SWITCHCASES_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::gemm {

/// One way into a switch's body: the values that enter at one statement.
struct SwitchEntry {
  std::vector<const clang::CaseStmt *> labels; ///< In source order.
  /// The values no label lists enter here: at the `default:` label, or,
  /// without one, past the body (an empty run).
  bool others = false;
  /// The statements that run, labels and braces stripped, up to the
  /// `break`, or up to and with a `return`.
  std::vector<const clang::Stmt *> run;
};

/// The ways into `s`, in source order but for the one of the values no
/// label lists, which is last; nullopt, with `why` set, where `s` is no
/// plain list of cases.
std::optional<std::vector<SwitchEntry>>
switchEntries(const clang::SwitchStmt *s, const clang::ASTContext &ctx,
              std::string &why);

/// `value`, a value of the condition of a switch that switchEntries
/// accepted, as `(long long)` of the condition gives it.
int64_t asLongLong(const llvm::APSInt &value);

/// The value of `label`, a case of `s`, as `(long long)` of `s`'s
/// condition gives it.
int64_t caseValue(const clang::CaseStmt *label, const clang::SwitchStmt *s,
                  const clang::ASTContext &ctx);

} // namespace mlir::gemm

#endif // GEMM_OPT_LIB_FRONTEND_SWITCHCASES_H
