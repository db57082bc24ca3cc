//===- loop-first.cu - Which calls a launcher sends to its loop at once -----===//
//
// Prints gemm_rt::loopFirst for products around kLoopFirstWork (16^3
// multiply-adds), with no work, and with extents whose product overflows
// 64 bits. Host code: no GPU is needed.
//
//===----------------------------------------------------------------------===//
#include "gemm_runtime.h"

#include <cstdint>
#include <cstdio>

int main() {
  struct Case {
    const char *name;
    int64_t batch, m, n, k;
  };
  const int64_t huge = int64_t(1) << 20;
  const Case cases[] = {
      {"4^3", 1, 4, 4, 4},           {"16^3", 1, 16, 16, 16},
      {"17x16x16", 1, 17, 16, 16},   {"2 x 16^3", 2, 16, 16, 16},
      {"4096x1x1", 1, 4096, 1, 1},   {"0x64x64", 1, 0, 64, 64},
      {"2^20 cubed", 1, huge, huge, huge},
  };
  for (const Case &c : cases)
    std::printf("%s: %s\n", c.name,
                gemm_rt::loopFirst(c.batch, c.m, c.n, c.k) ? "loop" : "checks");
}
