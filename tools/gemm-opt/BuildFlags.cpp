//===- BuildFlags.cpp - The flags that build gemm-opt's output ------------===//
//
// The same binary runs from the build tree and from an install prefix, so the
// runtime's location is found at run time; the build tree's is compiled in.
//
//===----------------------------------------------------------------------===//
#include "BuildFlags.h"

#include "gemm-opt/Target/GpuTarget.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace gemm_opt {

namespace {

/// The directory above the executable's bin/.
SmallString<256> executablePrefix(const char *argv0) {
  static int anchor; // Any address in this executable.
  SmallString<256> prefix(sys::fs::getMainExecutable(argv0, &anchor));
  sys::path::remove_filename(prefix); // bin/gemm-opt
  sys::path::remove_filename(prefix); // bin
  return prefix;
}

} // namespace

std::string shippedTuningDb(const char *argv0, StringRef target) {
  std::string name =
      (target.empty() ? mlir::gemm::getDefaultTarget().name : target).str() +
      ".csv";
  SmallString<256> installed = executablePrefix(argv0);
  sys::path::append(installed, "share", "gemm-opt", "tuning", name);
  if (sys::fs::exists(installed))
    return installed.str().str();
  SmallString<256> source(GEMM_OPT_SOURCE_TUNING_DIR);
  sys::path::append(source, name);
  return sys::fs::exists(source) ? source.str().str() : "";
}

RuntimePaths findRuntime(const char *argv0) {
  SmallString<256> prefix = executablePrefix(argv0);
  SmallString<256> include(prefix), library(prefix);
  sys::path::append(include, "include");
  sys::path::append(library, "lib", "libgemm_runtime.a");
  SmallString<256> header(include);
  sys::path::append(header, "gemm_runtime.h");
  if (sys::fs::exists(header) && sys::fs::exists(library))
    return {include.str().str(), library.str().str()};
  return {GEMM_OPT_RUNTIME_INCLUDE_DIR, GEMM_OPT_RUNTIME_LIBRARY};
}

Expected<unsigned> cudaArchFor(StringRef target, unsigned cudaArch) {
  if (cudaArch)
    return cudaArch;
  if (target.empty())
    return GEMM_OPT_CUDA_ARCH;
  if (!mlir::gemm::lookupTarget(target))
    return createStringError("unknown --target '" + target + "'");
  // The compute capability of each family of targets (a name's first part).
  static const std::pair<StringRef, unsigned> families[] = {
      {"gt200", 13}, {"fermi", 20}, {"ampere", 80}, {"hopper", 90}};
  StringRef family = target.split('-').first;
  const auto *it = llvm::find_if(
      families, [&](const auto &entry) { return entry.first == family; });
  if (it == std::end(families))
    return createStringError("no CUDA architecture is known for --target '" +
                             target + "'; pass --cuda-arch=NN");
  if (it->second < GEMM_OPT_OLDEST_CUDA_ARCH)
    return createStringError(
        "--target=" + target + " is sm_" + Twine(it->second) +
        ", older than this CUDA toolkit builds (sm_" +
        Twine(GEMM_OPT_OLDEST_CUDA_ARCH) +
        " and later); pass --cuda-arch=NN for the GPU that runs the program");
  return it->second;
}

std::string compileFlags(const RuntimePaths &runtime, unsigned arch) {
  return ("-std=c++17 -arch=sm_" + Twine(arch) +
          " -Xcompiler=" GEMM_OPT_HOST_LOOP_FLAG " -I" + runtime.includeDir)
      .str();
}

std::string linkFlags(const RuntimePaths &runtime) {
  return runtime.library + " -L" GEMM_OPT_CUDA_LIBRARY_DIR " -lcudart";
}

} // namespace gemm_opt
