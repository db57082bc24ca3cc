//===- OffsetPolynomial.h - Element offsets as polynomials ------*- C++ -*-===//
//
// Pointer walks (PointerWalk.cpp) and pointer bounds (PointerBounds.cpp)
// compare addresses the source spells in different ways (`p + ld`, `&p[ld]`,
// a bump of `ld` before a read of `p`): each address is a root plus an
// offset in elements, a polynomial whose terms are products of invariant
// factors, so that equal products add up and opposite ones cancel however
// they are written.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_OPT_LIB_FRONTEND_OFFSETPOLYNOMIAL_H
#define GEMM_OPT_LIB_FRONTEND_OFFSETPOLYNOMIAL_H

#include "NestScope.h"
#include "OffsetBuilder.h"

#include <map>

namespace mlir::gemm {

/// coeff * factors, the factors integer expressions that are no sums,
/// products or constants (a variable, a member, a quotient).
struct Term {
  int64_t coeff = 0;
  std::vector<const clang::Expr *> factors;
};

/// An offset in elements: terms keyed by their printed factors. `counted`
/// holds the loops whose trip counts a walk computed it from: their
/// preconditions hold for it even where those terms cancel.
struct Offset {
  std::map<std::string, Term> terms;
  std::vector<const clang::Stmt *> counted;
};

/// An address as a root and an offset from it: `P + e`, `e + P`, `P - e`
/// and `&P[e]` add e to P's offset; an integer is all offset (no root).
struct Rooted {
  const clang::Expr *root = nullptr;
  Offset offset;
};

class OffsetAlgebra : public OffsetBuilder {
public:
  explicit OffsetAlgebra(NestScope &scope)
      : OffsetBuilder(scope.ctx), scope(scope) {}

  void add(Offset &into, const Term &term) const;
  void add(Offset &into, const Offset &more) const;
  static void count(Offset &into, llvm::ArrayRef<const clang::Stmt *> loops);
  Offset constant(int64_t value) const;
  Offset times(const Offset &lhs, const Offset &rhs) const;
  /// `dividend / divisor` where `divisor` divides each term (its
  /// coefficient the term's, its factors among the term's: `m * ld` by
  /// `ld`); else nullopt.
  std::optional<Offset> divide(const Offset &dividend,
                               const Term &divisor) const;
  /// `e`, an integer expression, as a polynomial: by its meaning, so that a
  /// trip count less a width in bytes over the element size (`n - 1 + 1 -
  /// nBytes / 8` with `PTR nBytes = n << 3;`) is 0. Sums, differences,
  /// products and shifts by constants expand; a quotient by a constant
  /// that divides each coefficient divides; a local that holds its
  /// initialiser wherever the nest reads it is that initialiser. The rest
  /// are factors.
  Offset expand(const clang::Expr *e);
  Rooted rooted(const clang::Expr *e);
  /// `offset` as a ptrdiff_t expression.
  clang::Expr *build(const Offset &offset);
  /// An offset for a message; a constant as a number.
  std::string show(const Offset &offset);
  /// The rvalue of `var` at `loc` (a loop's induction variable).
  clang::Expr *readOf(const clang::VarDecl *var, clang::SourceLocation loc);

protected:
  NestScope &scope;
};

} // namespace mlir::gemm

#endif // GEMM_OPT_LIB_FRONTEND_OFFSETPOLYNOMIAL_H
