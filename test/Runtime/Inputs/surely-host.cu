//===- surely-host.cu - Memory known to be host without a CUDA call -------===//
//
// Prints surelyHost (device.h) for the memory a tiny call's operands come
// from: the caller's stack and the brk heap count as host; memory that only
// a CUDA query could classify (an mmap'd block, static data, null) does not.
// Host code: no GPU is needed.
//
//===----------------------------------------------------------------------===//
#include "device.h"

#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

using gemm_rt::detail::surelyHost;

namespace {
double statics[16];

void show(const char *what, const void *ptr) {
  std::printf("%s: %s\n", what, surelyHost(ptr) ? "host" : "ask");
}
} // namespace

int main() {
  double stack[4][4] = {};
  std::vector<double> vector(64);
  void *small = std::malloc(512);
  // Above glibc's mmap threshold: its own mapping, not the heap.
  void *large = std::malloc(size_t(64) << 20);
  show("stack array", &stack[3][3]);
  show("small vector", vector.data());
  show("small malloc", small);
  show("large malloc", large);
  show("static array", statics);
  show("null", nullptr);
  // Another thread's stack is its own: the main thread's is not in it.
  std::thread([&] {
    double local[4] = {};
    show("thread: its stack", local);
    show("thread: main's stack", &stack[0][0]);
  }).join();
  std::free(small);
  std::free(large);
  return 0;
}
