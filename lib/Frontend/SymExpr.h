//===- SymExpr.h - Loop-invariant integer expressions -----------*- C++ -*-===//
//
// Index arithmetic in a nest is linear in the induction variables with
// coefficients that are loop-invariant but often symbolic (`lda`, `n * m`).
// SymExpr keeps such a coefficient as a polynomial over opaque source texts,
// so that `i*lda + k` and `k + lda*i` compare equal and constants fold.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_OPT_LIB_FRONTEND_SYMEXPR_H
#define GEMM_OPT_LIB_FRONTEND_SYMEXPR_H

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mlir::gemm {

/// Wraps a printed expression in parentheses unless it is a name, member
/// access or call, so that it can be an operand of `*`.
std::string parenthesize(const std::string &text);

/// Marks a symbol whose source type is a 32-bit (or wider, but narrower
/// than 64-bit) unsigned integer. The launcher's offsets, strides and sizes
/// are long long, so str() widens it where a term negates, scales or
/// multiplies it (`-n` would be 2^32 - n, and a product could wrap where
/// the loop's own walk does not).
inline constexpr const char *kNarrowUnsigned = "\x01";

/// A sum of integer-weighted products of symbols (invariant source texts).
class SymExpr {
public:
  SymExpr() = default;
  static SymExpr constant(int64_t value);
  static SymExpr symbol(const std::string &text);

  SymExpr operator+(const SymExpr &other) const;
  SymExpr operator-(const SymExpr &other) const;
  SymExpr operator*(const SymExpr &other) const;
  bool operator==(const SymExpr &other) const { return terms == other.terms; }

  bool isZero() const { return terms.empty(); }
  std::optional<int64_t> getConstant() const;
  /// A C++ expression with the same value, valid where the symbols are.
  std::string str() const;

private:
  /// Sorted symbol list -> coefficient; zero coefficients are never stored.
  std::map<std::vector<std::string>, int64_t> terms;
  void add(const std::vector<std::string> &monomial, int64_t coefficient);
};

/// An index expression: sum over loops of coefficient * iv, plus a constant.
struct AffineForm {
  std::vector<SymExpr> ivCoeffs; ///< One per loop of the nest.
  SymExpr constant;

  explicit AffineForm(size_t numLoops) : ivCoeffs(numLoops) {}
  AffineForm operator+(const AffineForm &other) const;
  AffineForm scaled(const SymExpr &factor) const;
  bool isInvariant() const;
};

} // namespace mlir::gemm

#endif // GEMM_OPT_LIB_FRONTEND_SYMEXPR_H
