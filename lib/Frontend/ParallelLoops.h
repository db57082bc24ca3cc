//===- ParallelLoops.h - Nests in the body of an OpenMP loop ----*- C++ -*-===//
//
// A worksharing or task loop (`parallel for`, `for`, `taskloop`) runs each
// of its iterations once, on one thread. A nest in the body of its loop
// that reads the loop's index (a product per attention head, in ncnn's
// style) is then one product per iteration, and the thread that runs the
// iteration launches it, as it would have run the nest; the runtime takes
// one call at a time. A nest that reads none of the indices would be the
// same product in every iteration (the iterations racing on its C), and a
// simd or device loop runs iterations in lanes: those stay as written.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_OPT_LIB_FRONTEND_PARALLELLOOPS_H
#define GEMM_OPT_LIB_FRONTEND_PARALLELLOOPS_H

#include "clang/AST/Stmt.h"
#include "llvm/ADT/StringRef.h"

namespace mlir::gemm {

/// The loops that an OpenMP pragma line associates: its `collapse(n)`, else 1.
unsigned collapsedLoops(llvm::StringRef pragmaLine);

/// Whether the OpenMP loop directive `directive` ("parallel for") on the
/// `loops` loops from `outer` down runs `nest` once per iteration: `nest`
/// lies in the body of the innermost of them and that body reads one of
/// their indices.
bool launchedPerIteration(llvm::StringRef directive, unsigned loops,
                          const clang::Stmt *outer, const clang::Stmt *nest);

} // namespace mlir::gemm

#endif // GEMM_OPT_LIB_FRONTEND_PARALLELLOOPS_H
