//===- IncludeNames.h - Header names as GCC builds them ---------*- C++ -*-===//
//
// A computed #include (`#include STR(EXPAND(name) EXPAND(.h))`) names the
// file that GCC finds, and that the output's compiler will find: clang keeps
// a space between the expanded tokens ("name .h"), GCC does not.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_OPT_TOOLS_INCLUDENAMES_H
#define GEMM_OPT_TOOLS_INCLUDENAMES_H

#include "llvm/Support/VirtualFileSystem.h"

namespace gemm_opt {

/// The real file system, where a file name with spaces that does not exist
/// is looked up without them (only the last component, only then).
llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> gccIncludeNames();

} // namespace gemm_opt

#endif
