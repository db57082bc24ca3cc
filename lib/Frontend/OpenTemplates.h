//===- OpenTemplates.h - Instantiations that the file lacks -----*- C++ -*-===//
//
// A header of templates (a reference GEMM in a benchmark's `reference.h`)
// instantiates nothing itself; its users do, in other files, and a file may
// instantiate a template for int beside float. The launchers of a template
// of one type parameter take the calls of every instantiation: those of
// other types than float and double go to an overload that runs the nest as
// written (Nest::openTemplate). That holds only where each launcher's
// element type is the type argument, which the float and the double
// instantiations together show (Action.cpp); gemm-opt makes the one the
// file lacks.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_OPT_LIB_FRONTEND_OPENTEMPLATES_H
#define GEMM_OPT_LIB_FRONTEND_OPENTEMPLATES_H

#include "llvm/ADT/DenseMap.h"

namespace clang {
class FunctionDecl;
class Sema;
} // namespace clang

namespace mlir::gemm {

/// The instantiations made, each with whether it instantiated without an
/// error (one that did not, say `static_assert(is_integral<T>)`, is no
/// instantiation of the file's and is not looked at).
using OpenInstances = llvm::DenseMap<const clang::FunctionDecl *, bool>;

/// Instantiates for float and for double, where the translation unit does
/// not, the function templates in the main file or a file it includes
/// itself (not a system header) that have a loop and one template
/// parameter, a type, and that the translation unit instantiates for float
/// or double, or not at all. Diagnostics of the
/// instantiations are not shown.
OpenInstances instantiateOpenTemplates(clang::Sema &sema);

} // namespace mlir::gemm

#endif // GEMM_OPT_LIB_FRONTEND_OPENTEMPLATES_H
