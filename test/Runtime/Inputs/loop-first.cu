//===- loop-first.cu - Which calls a launcher sends to its loop at once -----===//
//
// Prints gemm_rt::loopFirst for products around kLoopFirstWork (16^3
// multiply-adds), with no work, with extents whose product overflows 64
// bits, and for tiny products whose operands are not all surely host memory.
// A mapping that the host cannot read stands in for cudaMalloc'd memory:
// like it, it lies outside the stack, the brk heap and the loaded segments,
// and only a CUDA query could classify it. Host code: no GPU is needed.
//
//===----------------------------------------------------------------------===//
#include "gemm_runtime.h"

#include <cstdint>
#include <cstdio>
#include <sys/mman.h>

namespace {
float statics[16];
}

int main() {
  float a[16] = {}, b[16] = {}, c[16] = {};
  void *device = mmap(nullptr, 1 << 16, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
                      -1, 0);
  if (device == MAP_FAILED)
    return 1;
  struct Case {
    const char *name;
    int64_t batch, m, n, k;
    std::initializer_list<const void *> operands;
  };
  const int64_t huge = int64_t(1) << 20;
  const Case cases[] = {
      {"4^3", 1, 4, 4, 4, {a, b, c}},
      {"16^3", 1, 16, 16, 16, {a, b, c}},
      {"17x16x16", 1, 17, 16, 16, {a, b, c}},
      {"2 x 16^3", 2, 16, 16, 16, {a, b, c}},
      {"4096x1x1", 1, 4096, 1, 1, {a, b, c}},
      {"0x64x64", 1, 0, 64, 64, {a, b, c}},
      {"2^20 cubed", 1, huge, huge, huge, {a, b, c}},
      {"4^3 static operands", 1, 4, 4, 4, {statics, statics, statics}},
      {"4^3 tables (null) and a host bias", 1, 4, 4, 4, {nullptr, b, nullptr, c}},
      {"4^3 device A", 1, 4, 4, 4, {device, b, c}},
      {"4^3 device B", 1, 4, 4, 4, {a, device, c}},
      {"4^3 device C", 1, 4, 4, 4, {a, b, device}},
      {"4^3 device bias", 1, 4, 4, 4, {a, b, c, device}},
      {"1x1x1 device operands", 1, 1, 1, 1, {device, device, device}},
  };
  for (const Case &c : cases)
    std::printf("%s: %s\n", c.name,
                gemm_rt::loopFirst(c.batch, c.m, c.n, c.k, c.operands)
                    ? "loop"
                    : "checks");
}
