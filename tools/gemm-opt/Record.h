//===- Record.h - The optimisation record -----------------------*- C++ -*-===//
//
// -fsave-optimization-record: every candidate nest as an LLVM remark of pass
// "gemm", in the YAML or bitstream format of clang's records, so that
// opt-viewer, opt-stats and llvm-remarkutil read it. A rewritten nest also
// gets an analysis remark per launcher (element type, shape, layouts) and
// one per schedule (target, schedule, predicted rate).
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_OPT_TOOLS_RECORD_H
#define GEMM_OPT_TOOLS_RECORD_H

#include "Remarks.h"

#include "gemm-opt/Frontend/Nest.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Remarks/RemarkFormat.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace gemm_opt {

/// The format that -fsave-optimization-record=<value> names: yaml (or no
/// value) or bitstream.
llvm::Expected<llvm::remarks::Format> parseRecordFormat(llvm::StringRef value);

/// What clang appends to the output's name for a record in `format`:
/// ".opt.yaml" or ".opt.bitstream".
std::string recordSuffix(llvm::remarks::Format format);

/// Prints the record of `remarks` in `format` (a parseRecordFormat result),
/// with what `module` holds for the nests of `result` (schedules once
/// selected).
void printRecord(llvm::raw_ostream &os, llvm::remarks::Format format,
                 llvm::ArrayRef<RemarkRecord> remarks,
                 const mlir::gemm::FrontendResult &result,
                 mlir::ModuleOp module);

} // namespace gemm_opt

#endif // GEMM_OPT_TOOLS_RECORD_H
