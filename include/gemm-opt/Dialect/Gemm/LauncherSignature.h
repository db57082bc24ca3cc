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
  enum class Kind {
    Pointer, Table, Size, Stride, RowOffset, Alpha, Beta, Param, Read
  };
  Kind kind;
  /// "a", "b", "c" or "bias" for an operand's pointer, sizes and strides.
  llvm::StringRef operand;
  /// Which size, stride, activation param or scalar read.
  unsigned index = 0;
};

/// Which of A, B and C are tables of rows (gemm.matmul's `rows`).
struct RowTables {
  bool a = false, b = false, c = false;

  bool any() const { return a || b || c; }
};

/// The parameters of a launcher whose matrices have `rank` dimensions, with
/// or without a bias, with `params` activation params (clamp bounds, GELU
/// constants) and `reads` scalars read through pointers, in order: A, B and
/// C each as (pointer, sizes..., strides...) in elements, or for a table of
/// rows as (its first row, sizes..., the offset of the first element in
/// each row); alpha, beta, the bias as an operand, the params, then the
/// pointers of the reads.
template <class Fn>
void forEachLauncherParam(unsigned rank, bool bias, unsigned params,
                          unsigned reads, RowTables tables, Fn fn) {
  using Kind = LauncherParam::Kind;
  auto operand = [&](llvm::StringRef name, bool table) {
    fn(LauncherParam{table ? Kind::Table : Kind::Pointer, name});
    for (unsigned i = 0; i < rank; ++i)
      fn(LauncherParam{Kind::Size, name, i});
    if (table)
      return fn(LauncherParam{Kind::RowOffset, name});
    for (unsigned i = 0; i < rank; ++i)
      fn(LauncherParam{Kind::Stride, name, i});
  };
  operand("a", tables.a);
  operand("b", tables.b);
  operand("c", tables.c);
  fn(LauncherParam{Kind::Alpha, ""});
  fn(LauncherParam{Kind::Beta, ""});
  if (bias)
    operand("bias", false);
  for (unsigned i = 0; i < params; ++i)
    fn(LauncherParam{Kind::Param, "", i});
  for (unsigned i = 0; i < reads; ++i)
    fn(LauncherParam{Kind::Read, "", i});
}

/// The launcher of one instantiation of a template with non-type template
/// parameters takes a last, unnamed argument of type
/// `gemm_opt_instance<v...>`, v the instantiation's values of those
/// parameters; the call, in the template's text, names them. The overloads
/// of one name then differ where their element types do not.
constexpr llvm::StringLiteral instanceTag = "gemm_opt_instance";

/// The tag's definition, for a file that declares or defines such a
/// launcher (the host file and the kernels file may both).
constexpr llvm::StringLiteral instanceTagDefinition =
    "#ifndef GEMM_OPT_INSTANCE_TAG\n#define GEMM_OPT_INSTANCE_TAG\n"
    "template <long long...> struct gemm_opt_instance {};\n#endif\n";

} // namespace mlir::gemm

#endif // GEMM_OPT_DIALECT_GEMM_LAUNCHERSIGNATURE_H
