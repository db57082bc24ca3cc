//===- OpenTemplates.h - Templates the file never instantiates --*- C++ -*-===//
//
// A header of templates (a reference GEMM in a benchmark's `reference.h`)
// instantiates nothing itself; its users do, in other files. gemm-opt
// instantiates such a function template for float and for double, so that
// its nests are recognised like instantiated ones; the launchers then take
// the calls of every other instantiation too (Nest::openTemplate).
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

/// Instantiates, for float and for double in each of their type
/// parameters, the function templates outside system headers that have a
/// loop, only type parameters and no instantiation in the translation unit.
/// Diagnostics of the instantiations are not shown.
OpenInstances instantiateOpenTemplates(clang::Sema &sema);

} // namespace mlir::gemm

#endif // GEMM_OPT_LIB_FRONTEND_OPENTEMPLATES_H
