//===- OpenTemplates.h - Instantiations that the file lacks -----*- C++ -*-===//
//
// A header of templates (a reference GEMM in a benchmark's `reference.h`)
// instantiates nothing itself; its users do, in other files, and a file may
// instantiate a template for int beside float. The launchers of a template
// whose parameters are types take the calls of every instantiation: those
// of other types than all float or all double go to an overload that runs
// the nest as written (Nest::openTemplate). That holds only where the
// launchers' element types are the type arguments, which the float and the
// double instantiations together show (Action.cpp); gemm-opt makes the one
// the file lacks.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_OPT_LIB_FRONTEND_OPENTEMPLATES_H
#define GEMM_OPT_LIB_FRONTEND_OPENTEMPLATES_H

#include "llvm/ADT/DenseMap.h"

#include <optional>

namespace clang {
class FunctionDecl;
class Sema;
class Type;
} // namespace clang

namespace mlir::gemm {

/// The instantiations made, each with whether it instantiated without an
/// error (one that did not, say `static_assert(is_integral<T>)`, is no
/// instantiation of the file's and is not looked at).
using OpenInstances = llvm::DenseMap<const clang::FunctionDecl *, bool>;

/// Where `instance` is a function template's instantiation whose
/// arguments are all types: the canonical type they all are, or null where
/// they differ (`<int8_t, int8_t, int32_t>`); else nullopt.
std::optional<const clang::Type *>
typeArgument(const clang::FunctionDecl *instance);
/// Whether a type argument of `instance` is float or double, or a class
/// template's specialisation for one (`<float, wBias<float>>`).
bool floatingArgument(const clang::FunctionDecl *instance);

/// Instantiates with every parameter float and with every one double,
/// where the translation unit does not, the function templates in the main
/// file or a file it includes itself (not a system header) that have a
/// loop and only type parameters (no pack), and that the translation unit
/// instantiates so (`<float, float, float>`), or not at all. Diagnostics
/// of the instantiations are not shown.
OpenInstances instantiateOpenTemplates(clang::Sema &sema);

} // namespace mlir::gemm

#endif // GEMM_OPT_LIB_FRONTEND_OPENTEMPLATES_H
