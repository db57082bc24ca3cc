//===- KernelParts.h - The pieces of a generated kernel --------*- C++ -*-===//
//
// What KernelEmitter.cpp assembles a kernel from: the tile moves
// (TileMoves.cpp), the K loop and multiply (MainLoop.cpp) and the epilogue
// (Epilogue.cpp). Each prints CUDA C++ into the kernel's namespace; the
// comments at the definitions say what.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_OPT_LIB_CODEGEN_KERNELPARTS_H
#define GEMM_OPT_LIB_CODEGEN_KERNELPARTS_H

#include "gemm-opt/Dialect/Gemm/GemmOps.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace mlir::gemm::kernel {

/// How one input tile moves from global to shared memory. Tiles are stored
/// k-major, `tile[k][x]`, where x runs over M for A and over N for B.
struct TileLoad {
  char name;            ///< 'a' or 'b'.
  StringRef upper;      ///< "A" or "B", for constant names.
  StringRef extent;     ///< "BM" or "BN".
  int64_t x;            ///< Its value.
  std::string xStride;  ///< Stride between x neighbours, as C++.
  std::string kStride;  ///< Stride between k neighbours, as C++.
  int64_t pack;         ///< Elements per global access (1 or V).
  bool alongK;          ///< Packs run along k (else along x).
  bool packedSmemStore; ///< Packs can be stored to shared memory whole.
  /// A thread's packs lie a fixed address step apart: every thread has
  /// the same number, and the threads cover whole lines of packs along
  /// the packed dimension, so pack i is pack 0 moved i * THREADS / line
  /// lines on.
  bool regular;
};

std::string strideText(MemRefType type, unsigned dim, StringRef field);
std::string scaled(StringRef index, StringRef stride);
MemRefType transposedType(MemRefType type);
TileLoad describeLoad(char name, MemRefType type, bool batched, int64_t v,
                      int64_t x, int64_t bk, int64_t pad, int64_t threads);
void printCursor(llvm::raw_ostream &os);
void printTileLayout(llvm::raw_ostream &os, const TileLoad &t);
void printTileLoadStore(llvm::raw_ostream &os, const TileLoad &t);
void printTileCopy(llvm::raw_ostream &os, const TileLoad &t);
void printAsyncPrimitives(llvm::raw_ostream &os);
void printTilePair(llvm::raw_ostream &os, bool async);
void printRemainder(llvm::raw_ostream &os, bool async);
void printPipelineSetup(llvm::raw_ostream &os);
void printPipeline(llvm::raw_ostream &os, Prefetch prefetch, int64_t stages);
void printFmaMultiply(llvm::raw_ostream &os);
void printDmmaMultiply(llvm::raw_ostream &os, int64_t k, bool wide);
void printEpilogue(llvm::raw_ostream &os, StringRef cn, int64_t cPack,
                   bool fused);
void printEpilogueByColumns(llvm::raw_ostream &os, bool fused);

} // namespace mlir::gemm::kernel

#endif // GEMM_OPT_LIB_CODEGEN_KERNELPARTS_H
