//===- LauncherSignature.h - The parameters of a nest's launcher -*- C++ -*-===//
//
// The one definition of a launcher's parameter list, which both its printers
// follow: the call spliced into the source (lib/Frontend/SourceRewriter.cpp)
// and the definition and declaration (lib/CodeGen/Launcher.cpp). A launcher
// func's arguments are gemm.matmul's operands in the same order.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_OPT_DIALECT_GEMM_LAUNCHERSIGNATURE_H
#define GEMM_OPT_DIALECT_GEMM_LAUNCHERSIGNATURE_H

#include "llvm/ADT/StringRef.h"

namespace mlir::gemm {

/// One parameter of a launcher.
struct LauncherParam {
  enum class Kind { Pointer, Size, Stride, Alpha, Beta, Param, Read };
  Kind kind;
  /// "a", "b", "c" or "bias" for an operand's pointer, sizes and strides.
  llvm::StringRef operand;
  /// Which size, stride, activation param or scalar read.
  unsigned index = 0;
};

/// The parameters of a launcher whose matrices have `rank` dimensions, with
/// or without a bias, with `params` activation params (clamp bounds, GELU
/// constants) and `reads` scalars read through pointers, in order: A, B and
/// C each as (pointer, sizes..., strides...) in elements, alpha, beta, the
/// bias as an operand, the params, then the pointers of the reads.
template <class Fn>
void forEachLauncherParam(unsigned rank, bool bias, unsigned params,
                          unsigned reads, Fn fn) {
  auto operand = [&](llvm::StringRef name) {
    fn(LauncherParam{LauncherParam::Kind::Pointer, name});
    for (unsigned i = 0; i < rank; ++i)
      fn(LauncherParam{LauncherParam::Kind::Size, name, i});
    for (unsigned i = 0; i < rank; ++i)
      fn(LauncherParam{LauncherParam::Kind::Stride, name, i});
  };
  operand("a");
  operand("b");
  operand("c");
  fn(LauncherParam{LauncherParam::Kind::Alpha, ""});
  fn(LauncherParam{LauncherParam::Kind::Beta, ""});
  if (bias)
    operand("bias");
  for (unsigned i = 0; i < params; ++i)
    fn(LauncherParam{LauncherParam::Kind::Param, "", i});
  for (unsigned i = 0; i < reads; ++i)
    fn(LauncherParam{LauncherParam::Kind::Read, "", i});
}

} // namespace mlir::gemm

#endif // GEMM_OPT_DIALECT_GEMM_LAUNCHERSIGNATURE_H
