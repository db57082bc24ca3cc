//===- NestScope.h - What a candidate loop nest contains --------*- C++ -*-===//
//
// The front end reads a candidate nest in two steps. First a walk records the
// loops, the assignments and the local declarations (LoopNest.cpp); then the
// recogniser matches them against the GEMM forms (Recognizer.cpp), asking the
// scope which expressions are loop-invariant and how accesses linearise
// (Access.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_OPT_LIB_FRONTEND_NESTSCOPE_H
#define GEMM_OPT_LIB_FRONTEND_NESTSCOPE_H

#include "SymExpr.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseSet.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::gemm {

/// A `for` with a unit-step induction variable over [lower, upper).
struct Loop {
  const clang::ForStmt *stmt;
  const clang::VarDecl *iv;
  const clang::Expr *lower;
  const clang::Expr *upper;
  bool inclusive; ///< `<=`: the loop runs to upper itself.
};

/// An assignment in the nest: `lhs op rhs` inside the listed loops.
struct Write {
  const clang::Expr *lhs;
  const clang::Expr *rhs;
  clang::BinaryOperatorKind op; ///< BO_Assign, BO_AddAssign, ...
  std::vector<int> loops;       ///< Enclosing loops, outermost first.
  unsigned order;               ///< Position in program order.
};

/// The reference BLAS's scaling of C ahead of the update, `if (beta == 0)
/// C = 0; else if (beta != 1) C *= beta;`: the indices in NestScope::writes
/// of its two writes (`scale` absent without the else branch) and beta.
struct BetaBranch {
  size_t zero;
  std::optional<size_t> scale;
  const clang::Expr *beta;
};

/// A scalar declared inside the nest.
struct LocalDef {
  const clang::VarDecl *var;
  std::vector<int> loops;
  unsigned order;
};

/// A memory access `base[...]` as a linear index into one strided buffer,
/// or into one row of a table of separately allocated rows (`A[i][k]` of
/// `float **A` or of a vector of vectors).
struct Access {
  const clang::Expr *expr;
  std::string root;    ///< The buffer or table as printed, for identity checks.
  /// Address of element 0, or of a table's row 0, valid before the nest.
  std::string basePtr;
  AffineForm index; ///< Within the row, for a table.
  clang::QualType elementType;
  /// For a table: the row's index in it (the `i` of `A[i][k]`).
  std::optional<AffineForm> rowIndex;
  bool vectorRows = false; ///< The table's rows are std::vectors.

  /// True if loop `l`'s induction variable moves the access.
  bool movesWith(size_t l) const {
    return !index.ivCoeffs[l].isZero() ||
           (rowIndex && !rowIndex->ivCoeffs[l].isZero());
  }
};

/// Why a nest was not rewritten. `peelable` marks failures of the outermost
/// loop alone (it is no GEMM dimension, or holds several nests), after which
/// the nests inside it are tried on their own.
struct Rejection {
  std::string reason;
  bool peelable = false;
};

class NestScope {
public:
  NestScope(clang::ASTContext &ctx, const clang::ForStmt *outer)
      : ctx(ctx), outer(outer) {}

  clang::ASTContext &ctx;
  const clang::ForStmt *outer;
  std::vector<Loop> loops;
  std::vector<Write> writes;
  std::vector<LocalDef> locals;
  std::vector<BetaBranch> betaBranches;
  /// The factors of `if (factor != 0)` skips around the update.
  std::vector<std::string> zeroSkips;
  llvm::DenseSet<const clang::VarDecl *> written; ///< IVs and scalar targets.
  /// Every element the nest writes is floating-point, so by C's aliasing
  /// rule no write changes an integer read through a pointer (`*n`, f2c's
  /// bounds): such reads are invariant. Set once the walk is complete.
  bool integerReadsInvariant = false;
  /// No scalar that the nest assigns can be reached through a pointer (each
  /// is declared in the nest, or is a local of the function whose address
  /// is never taken), so a floating-point read through a pointer (`*alpha`,
  /// f2c style) changes only if the nest's stores to C reach it: such reads
  /// are invariant, and recorded in scalarReads for the launcher to check
  /// at run time. Set once the walk is complete.
  bool floatReadsChecked = false;
  /// Else the scalar that a pointer may reach, for messages.
  const clang::VarDecl *reachableScalar = nullptr;
  /// The `*p` reads that isInvariant took for invariant under
  /// floatReadsChecked, each once.
  mutable std::vector<const clang::UnaryOperator *> scalarReads;
  std::optional<Rejection> rejection;
  /// Values the nest was lifted with that the source spells as other than a
  /// literal (macros, enumerators, sizeof, array bounds): the spelling and
  /// the value. The rewrite asserts them, so a build with other -D values
  /// stops instead of computing with stale sizes.
  std::vector<std::pair<std::string, int64_t>> assumptions;

  /// Records the first reason the nest cannot be rewritten; returns nullopt so
  /// callers can `return scope.reject(...)`.
  std::nullopt_t reject(const std::string &reason, bool peelable = false);
  bool failed() const { return rejection.has_value(); }

  /// The loop of an induction variable (innermost active one), or -1.
  int ivIndex(const clang::VarDecl *var) const;
  const LocalDef *findLocal(const clang::VarDecl *var) const;
  std::string print(const clang::Expr *e) const;

  /// True if `e` has the same value everywhere in the nest: no induction
  /// variables, no variables written or declared inside, no memory reads,
  /// no side effects.
  bool isInvariant(const clang::Expr *e) const;
  /// The first variable of `e` that makes it vary, for messages.
  const clang::VarDecl *findVaryingVar(const clang::Expr *e) const;
  /// What makes `var` (a findVaryingVar) vary, for messages: "the loop
  /// index 'b'", "'x', which is assigned inside the nest", ...
  std::string describeVarying(const clang::VarDecl *var) const;

  /// The initialiser that a local declared in the nest and never assigned
  /// stands for (forward substitution): a pointer's, or an integer's that
  /// the integer holds exactly; null otherwise.
  const clang::Expr *substitutableInit(const clang::VarDecl *var) const;
  /// How the source spells the constant `e` where that is not a literal
  /// (for `assumptions`), or nullopt.
  std::optional<std::string> spelledValue(const clang::Expr *e) const;
  /// Whether the array variable or member `array` is declared with every
  /// bound a literal, so that its rows' sizes need no assertion.
  bool boundsSpelledAsLiterals(const clang::Expr *array) const;
  /// `e` as an affine function of the induction variables.
  std::optional<AffineForm> linearize(const clang::Expr *e);
  /// An invariant integer expression as a SymExpr.
  std::optional<SymExpr> symbolic(const clang::Expr *e);
  /// `e` as an element of a strided float/double buffer, for an access
  /// inside the `context` loops (sibling loops may share an induction
  /// variable).
  std::optional<Access> decomposeAccess(const clang::Expr *e,
                                        const std::vector<int> &context);

private:
  /// Loops around the access being decomposed; induction variables resolve
  /// to the innermost of them.
  const std::vector<int> *activeLoops = nullptr;
};

/// Strips parentheses, implicit casts and value-preserving explicit casts.
const clang::Expr *stripCasts(const clang::Expr *e);

/// The variable `e` names (through casts and parentheses), or null.
const clang::VarDecl *referencedVar(const clang::Expr *e);

/// True if `e` is an integer or floating literal of the given value (`0`,
/// `1.0f`, `0.5`), through casts.
bool isLiteral(const clang::Expr *e, double value);

/// True if `e` looks like a memory access (subscript or vector operator[]).
bool isMemoryAccess(const clang::Expr *e);

/// A call of fmaxf, fminf, fmax, fmin, fmaxl or fminl (C's or std::'s), or
/// of std::max or std::min with two arguments: pure, so a nest may hold it
/// (as an activation).
struct MinMaxCall {
  bool upper;      ///< A min.
  bool keepsFirst; ///< std::max/min: a NaN first argument is the result.
  const clang::Expr *lhs, *rhs;
};
std::optional<MinMaxCall> asMinMaxCall(const clang::Expr *e);

/// A call of a libm function of one argument that activations and their
/// constants use (tanh, exp, erf, sqrt; C's float, double and long double
/// names or std::'s): pure, so a nest may hold it.
struct MathCall {
  llvm::StringRef name; ///< "tanh", "exp", "erf" or "sqrt", whatever type.
  const clang::Expr *arg;
  const clang::CallExpr *call;
};
std::optional<MathCall> asMathCall(const clang::Expr *e);

/// The statement an OpenMP directive or loop attribute applies to, or `s`.
const clang::Stmt *unwrapLoopWrappers(const clang::Stmt *s);

/// Where `s` ends in the source. Unlike getEndLoc(), this sees through the
/// OpenMP directives on inner loops, whose own range is the pragma line.
clang::SourceLocation endOfStmt(const clang::Stmt *s);

/// Walks the nest rooted at scope.outer, filling loops, writes and locals.
/// Returns false (with scope.rejection set) on statements no GEMM contains.
bool walkNest(NestScope &scope);

} // namespace mlir::gemm

#endif // GEMM_OPT_LIB_FRONTEND_NESTSCOPE_H
