//===- Contraction.h - The statement forms of a GEMM nest -------*- C++ -*-===//
//
// Reduces the assignments of a walked nest to one multiply-accumulate into
// C, folding the forms real code uses: a scalar accumulator and its store,
// a hoisted `t = alpha*A[i][k]`, alpha inside the product, a fused
// zero-init or beta scaling of C, and an epilogue of a bias and an
// activation (clamps, tanh, sigmoid, GELU) around the accumulator's store.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_OPT_LIB_FRONTEND_CONTRACTION_H
#define GEMM_OPT_LIB_FRONTEND_CONTRACTION_H

#include "NestScope.h"
#include "gemm-opt/Frontend/Nest.h"

namespace mlir::gemm {

/// One step of the activation (gemm_rt::Step), as written: a clamp or a
/// function.
struct ActivationStep {
  StepBinding::Kind kind;
  bool nanToBound = false; ///< A clamp's.
  /// A clamp's bound, a GELU's constants: C++ valid before the nest.
  std::vector<std::string> params;
  /// The call or conditional that computes the step, whose type it computes
  /// in (a function's libm call); for messages.
  const clang::Expr *expr;
  bool isClamp() const {
    return kind == StepBinding::Kind::Lower || kind == StepBinding::Kind::Upper;
  }
};

/// The sum's step that the source computes ahead of its loop, as a plain
/// product (`C[i][j] = A[i][0] * B[0][j];` or `double s = a[i*q] * b[j];`
/// before `for (k = 1; ...)`): its factors and the loops it runs in. The
/// recogniser checks which step it is (PeeledStep.h).
struct PeeledStep {
  const clang::Expr *lhs, *rhs;
  std::vector<int> loops;
  const clang::Expr *value; ///< For the remark.
  /// The assignments of scalars that its value reads (`xx = *C;` ahead of
  /// `*ap = xx * *bp;`): no statements of their own.
  std::vector<const Write *> substituted;
};

struct Contraction {
  const clang::Expr *c = nullptr;    ///< The element of C that is written.
  const clang::Expr *lhs = nullptr;  ///< First array factor of the product.
  const clang::Expr *rhs = nullptr;  ///< Second array factor.
  std::vector<int> macLoops;         ///< Loops around the multiply-accumulate.
  std::vector<int> cLoops;           ///< Loops around the final write of C.
  /// The scalar that sums the products, if the nest has one.
  const clang::VarDecl *accumulator = nullptr;
  std::string alpha = "1", beta = "1";
  /// A fused init of C (`C = 0`, `C *= beta`), checked against the
  /// accumulation's loops by the recogniser.
  const Write *init = nullptr;
  /// The `C = 0` branch of the reference BLAS's beta branches, whose other
  /// branch is `init` (NestScope::betaBranches); checked like it.
  const Write *zeroInit = nullptr;
  std::string form; ///< How the nest accumulates, for the remark.
  /// The bias element added to each element of C: the accumulator's start
  /// (`float v = bias[o];`) or a term of the store (`C = s + bias[j]`).
  const clang::Expr *bias = nullptr;
  /// The pointer that `bias ? bias[o] : 0` checks for null, if any.
  const clang::Expr *biasGuard = nullptr;
  /// The activation around the store's value, innermost step first.
  std::vector<ActivationStep> activation;
  std::optional<PeeledStep> peeled;
};

std::optional<Contraction> matchContraction(NestScope &scope);

/// The multiply-accumulate alone, for a product that goes through a
/// temporary (Temporary.cpp): its factors, loops and alpha, with beta 0;
/// the nest's other writes are not the contraction's.
std::optional<Contraction> matchProduct(NestScope &scope);

} // namespace mlir::gemm

#endif // GEMM_OPT_LIB_FRONTEND_CONTRACTION_H
