//===- Record.h - The optimisation record -----------------------*- C++ -*-===//
//
// -fsave-optimization-record: every candidate nest as a YAML document, in
// the style of clang's records. A rewritten nest also carries its launchers
// with the element type, shape, layouts, schedules and predicted rates.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_OPT_TOOLS_RECORD_H
#define GEMM_OPT_TOOLS_RECORD_H

#include "Remarks.h"

#include "gemm-opt/Frontend/Nest.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/raw_ostream.h"

namespace gemm_opt {

/// Prints the record of `remarks`, with what `module` holds for the nests of
/// `result` (schedules once selected).
void printRecord(llvm::raw_ostream &os, llvm::ArrayRef<RemarkRecord> remarks,
                 const mlir::gemm::FrontendResult &result,
                 mlir::ModuleOp module);

} // namespace gemm_opt

#endif // GEMM_OPT_TOOLS_RECORD_H
