//===- Action.h - The clang front end action of gemm-opt --------*- C++ -*-===//
#ifndef GEMM_OPT_FRONTEND_ACTION_H
#define GEMM_OPT_FRONTEND_ACTION_H

#include "gemm-opt/Frontend/Nest.h"

#include "clang/Tooling/Tooling.h"

#include <memory>

namespace mlir::gemm {

/// An action that finds the candidate nests of the main file, reports one
/// remark per candidate (-Rpass=gemm / -Rpass-missed=gemm) and records the
/// recognised ones in `result`. Nothing is recorded if the file has errors.
std::unique_ptr<clang::tooling::FrontendActionFactory>
newGemmActionFactory(FrontendResult &result);

/// Whether `path` names a header (by its extension): its output is a header
/// too, which a translation unit may include beside other rewritten
/// headers, and twice; and it is parsed as a header, its `#pragma once`
/// holding.
bool isHeaderName(llvm::StringRef path);

} // namespace mlir::gemm

#endif // GEMM_OPT_FRONTEND_ACTION_H
