//===- surely-host.cu - Memory known to be host without a CUDA call -------===//
//
// Prints surelyHost (device.h) for the memory a tiny call's operands come
// from: the caller's stack, the brk heap and static data count as host;
// memory that only a CUDA query could classify (an mmap'd block, null) does
// not, nor does memory between a coroutine's stack and the thread's.
// Host code: no GPU is needed.
//
//===----------------------------------------------------------------------===//
#include "core/device.h"

#include <cstdio>
#include <cstdlib>
#include <thread>
#include <ucontext.h>
#include <vector>

using gemm_rt::detail::surelyHost;

namespace {
double statics[16];

void show(const char *what, const void *ptr) {
  std::printf("%s: %s\n", what, surelyHost(ptr) ? "host" : "ask");
}

ucontext_t mainContext, coroutine;
const void *mapped;

/// Runs on a stack of its own, below `mapped` (mappings grow down): the
/// thread's stack range must not stretch from this frame to cover it.
void onCoroutine() {
  show("coroutine: a mapping above its stack", mapped);
  swapcontext(&coroutine, &mainContext);
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
  // The mapping first, then the coroutine's stack (also mmap'd) below it.
  mapped = large;
  const size_t stackBytes = size_t(1) << 20;
  void *stackMemory = std::malloc(stackBytes);
  getcontext(&coroutine);
  coroutine.uc_stack.ss_sp = stackMemory;
  coroutine.uc_stack.ss_size = stackBytes;
  coroutine.uc_link = &mainContext;
  makecontext(&coroutine, onCoroutine, 0);
  swapcontext(&mainContext, &coroutine);
  std::free(stackMemory);
  std::free(small);
  std::free(large);
  return 0;
}
