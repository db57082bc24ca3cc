//===- Plans.h - What every printed file of kernels shares ------*- C++ -*-===//
//
// The launchers (Launcher.h) and a tuning program (TuningProgram.h) both
// print each kernel configuration once and a gemm_rt::Plan per nest; these
// are those pieces.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_OPT_LIB_CODEGEN_PLANS_H
#define GEMM_OPT_LIB_CODEGEN_PLANS_H

#include "gemm-opt/CodeGen/Launcher.h"
#include "gemm-opt/Dialect/Gemm/GemmOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace mlir::gemm {

/// A launcher func's gemm.matmul and the configuration names of its
/// planned kernels, in the op's order.
struct PlannedNest {
  func::FuncOp func;
  MatmulOp op;
  SmallVector<std::string> configs;
};

/// "file.cpp:12:3" for the runtime's messages, escaped as in a C string
/// literal: a file name may hold quotes, backslashes or newlines.
std::string nestName(Location loc);

/// The func's gemm.matmul, checked against the launcher ABI.
FailureOr<MatmulOp> launcherOp(func::FuncOp func);

/// The module's nests, with each kernel configuration printed once into
/// `configs` (named after the first func that runs it), so that nvcc
/// compiles each kernel once; with `files`, every configuration derives
/// from a kernel printed there.
FailureOr<SmallVector<PlannedNest>>
planNests(ModuleOp module, llvm::raw_ostream &configs,
          KernelFiles *files = nullptr);

/// The kernel templates' include (and `files`' headers) and `configs`
/// (planNests') in an anonymous namespace.
void printConfigs(llvm::raw_ostream &os, StringRef configs,
                  const KernelFiles *files = nullptr);

/// `static const gemm_rt::Variant <name>[]`: each kernel of `nest` with its
/// tile, its blocks per SM, what the cost model predicts of it on the
/// module's target, and its schedule, then `extra` (rows of the runtime's
/// own launches); `indent` before each line.
void printVariants(llvm::raw_ostream &os, const PlannedNest &nest,
                   StringRef name, StringRef indent, StringRef extra = "");

/// The gemm_rt::Plan of `nest` over printVariants' `variants` with `extra`
/// rows of its own, ending with `tail` (its measured problems, or nothing).
std::string planOf(const PlannedNest &nest, StringRef variants,
                   StringRef tail = "", int extra = 0);

} // namespace mlir::gemm

#endif // GEMM_OPT_LIB_CODEGEN_PLANS_H
