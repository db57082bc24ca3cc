//===- BuildFlags.h - The flags that build gemm-opt's output ----*- C++ -*-===//
//
// --cflags, --libs and --nvcc-flags: what nvcc needs to compile and link
// out.cu, llvm-config style.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_OPT_TOOLS_BUILDFLAGS_H
#define GEMM_OPT_TOOLS_BUILDFLAGS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace gemm_opt {

/// Where the runtime's headers and library are.
struct RuntimePaths {
  std::string includeDir, library;
};

/// The runtime beside the executable `argv0` names when that lies in an
/// install prefix (<prefix>/bin/../include, ../lib), else the build tree's.
RuntimePaths findRuntime(const char *argv0);

/// The tuning database that ships with gemm-opt for `target` (the default
/// target when empty): <prefix>/share/gemm-opt/tuning/<target>.csv beside
/// an installed executable, else the source tree's tuning/<target>.csv;
/// empty where none ships for it (docs/tuning.md).
std::string shippedTuningDb(const char *argv0, llvm::StringRef target);

/// The `sm_NN` number to compile for: `cudaArch` when set, else the one of
/// the GPU that `target` names, else the runtime's. Fails on an unknown
/// target and on one older than this CUDA toolkit builds.
llvm::Expected<unsigned> cudaArchFor(llvm::StringRef target, unsigned cudaArch);

/// `-std=c++17 -arch=sm_NN -Xcompiler=<GEMM_OPT_HOST_LOOP_FLAG> -I<include
/// dir>` (the top CMakeLists.txt says why the flag).
std::string compileFlags(const RuntimePaths &runtime, unsigned arch);

/// The runtime library and the CUDA runtime, for nvcc or a host linker.
std::string linkFlags(const RuntimePaths &runtime);

} // namespace gemm_opt

#endif // GEMM_OPT_TOOLS_BUILDFLAGS_H
