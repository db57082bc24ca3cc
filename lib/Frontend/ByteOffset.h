//===- ByteOffset.h - Pointers moved by byte offsets ------------*- C++ -*-===//
//
// Real code forms an element pointer by moving a byte view of a pointer and
// casting back: `(float *)((unsigned char *)data + (size_t)w * y *
// elemsize)` (a matrix class's row), `(REAL *)((PTR)p + ldInBytes)` (a
// pointer bumped through an integer). Such a pointer is p plus E /
// sizeof(T) elements wherever the byte offset E is a whole number of
// elements; ByteOffset proves that, or versions the nest on a run-time
// element size, so that accesses and pointer walks see element offsets.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_OPT_LIB_FRONTEND_BYTEOFFSET_H
#define GEMM_OPT_LIB_FRONTEND_BYTEOFFSET_H

#include "NestScope.h"

namespace mlir::gemm {

/// A pointer to T that is another pointer moved by a number of bytes.
struct ByteStep {
  /// The pointer moved, as a T *: itself where it points to T, else (a byte
  /// or void pointer) cast to T *.
  const clang::Expr *pointer = nullptr;
  /// The offset in elements of T (an integer expression); null where the
  /// byte offset is not proven to be whole elements, and `why` says why.
  clang::Expr *elements = nullptr;
  std::string why;
};

/// `e` (a T *) as a byte step, or nullopt where it is none: `(T *)(q + E)`
/// or `(T *)&q[E]` with q a pointer to char, unsigned char, signed char or
/// std::byte, `(T *)(I + E)` with I a pointer cast to an integer as wide as
/// a pointer (uintptr_t, size_t, long, a typedef of one), E also on the
/// left or subtracted, several in a row. E is whole elements where each of
/// its terms is a product with a constant factor that sizeof(T) divides
/// (`k * sizeof(T)`, `x << 3` for an 8-byte T), or with a factor that is
/// such a sum, or an integer local of the function that nothing assigns
/// after its initialiser, itself whole elements (`PTR rowBytes = ld << 3;`,
/// read as `rowBytes / 8`). Where a term of a loop-varying offset is a
/// product of scalars alone, its last factor of type size_t (else its
/// last) is taken for sizeof(T) (ncnn's `elemsize`): the launcher then runs
/// only where it is, a precondition added to the scope, and the remark
/// says so. A step that is invariant in the nest but not proven whole is
/// nullopt: the pointer it forms is a fixed base like any other.
/// `walking`: called by PointerWalk, before the walk knows what the nest
/// writes, for a step that moves a walked pointer: no element size is
/// taken as invariant and the step is never a fixed base.
std::optional<ByteStep> asByteStep(NestScope &scope, const clang::Expr *e,
                                   bool walking = false);

/// Whether `e` has the form of a byte step, whatever its offset: a pointer
/// to a non-byte type cast from a byte address moved by some terms.
bool isByteAddress(const clang::Expr *e);

} // namespace mlir::gemm

#endif // GEMM_OPT_LIB_FRONTEND_BYTEOFFSET_H
