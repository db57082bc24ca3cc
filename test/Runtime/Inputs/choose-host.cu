//===- choose-host.cu - The runtime's pick of a variant and a K split -----===//
//
// Prints what gemm_rt::detail::choose picks on the bench's DGEMM NN plan as
// gemm-opt writes it for the H200 (bench/inputs/dgemm.cpp; tiles, rates and
// stream shares copied from its launcher) for problems whose answer the
// run-time terms decide. Host code: no GPU is needed.
//
//===----------------------------------------------------------------------===//
#include "launch/choose.h"

#include <cstdint>
#include <cstdio>

namespace {

cudaError_t none(const gemm_rt::Problem &, cudaStream_t) {
  return cudaSuccess;
}

// 0: 128x128x8/8x8, 1: 64x128 (128x64x8/4x8 transposed), 2: 256x64x16/8x8
// (128-byte rows of A), 3: 256x64x8/8x8 (64-byte rows: half the DRAM share).
const gemm_rt::Variant variants[] = {
    {none, 128, 128, 1, 66908.2, 0.5, 1.0},
    {none, 64, 128, 1, 49719.9, 0.5, 1.0},
    {none, 256, 64, 1, 52191.0, 1.0, 1.0},
    {none, 256, 64, 1, 57381.9, 0.5, 1.0},
};
const gemm_rt::Plan plan{variants, 4, 4800.0};

// What a tuning database measured (docs/tuning.md): at 4096^3 variant 3
// split two ways, at 1000^3 variant 2.
const gemm_rt::Measured measured[] = {{1, 4096, 4096, 4096, 3, 2},
                                      {1, 1000, 1000, 1000, 2, 1}};
const gemm_rt::Plan tuned{variants, 4, 4800.0, "", "", measured, 2};

// The same kernels where only the first has a scalar twin: the others' packs
// of two need 16-byte aligned operands and even row strides
// (gemm_kernels::runs).
bool packsFit(const gemm_rt::Problem &p) {
  return reinterpret_cast<uintptr_t>(p.a.ptr) % 16 == 0 && p.a.sr % 2 == 0 &&
         p.b.sr % 2 == 0 && p.c.sr % 2 == 0;
}
const gemm_rt::Variant twinless[] = {
    variants[0],
    {none, 64, 128, 1, 49719.9, 0.5, 1.0, nullptr, packsFit},
    {none, 256, 64, 1, 52191.0, 1.0, 1.0, nullptr, packsFit},
    {none, 256, 64, 1, 57381.9, 0.5, 1.0, nullptr, packsFit},
};
const gemm_rt::Plan firstTwin{twinless, 4, 4800.0, "", "", measured, 2};

void pick(const char *what, int64_t m, int64_t n, int64_t k,
          const gemm_rt::Plan &plan = plan, uintptr_t a = 0) {
  // Row-major A, B and C; the pointers (A at address `a`) are never touched.
  const gemm_rt::Problem p{what,
                           gemm_rt::DType::F64,
                           1,
                           m,
                           n,
                           k,
                           {reinterpret_cast<const void *>(a), 0, k, 1},
                           {nullptr, 0, n, 1},
                           {nullptr, 0, n, 1},
                           1.0,
                           0.0};
  const gemm_rt::detail::Choice c = gemm_rt::detail::choose(p, plan, 132);
  std::printf("%s: variant %d, %lld-way split", what, c.variant,
              (long long)c.splits);
  if (c.tail.from > 0)
    std::printf("; rows from %lld as variant %d, %lld-way split",
                (long long)c.tail.from, c.tail.variant,
                (long long)c.tail.splits);
  std::printf("\n");
}

} // namespace

int main() {
  pick("16384x64x16384", 16384, 64, 16384);
  pick("1024^3", 1024, 1024, 1024);
  pick("3000^3", 3000, 3000, 3000);
  pick("4096^3", 4096, 4096, 4096);
  pick("measured 4096^3", 4096, 4096, 4096, tuned);
  pick("measured 4000^3", 4000, 4000, 4000, tuned);
  pick("measured 1024^3", 1024, 1024, 1024, tuned);
  pick("measured 4096x4096x64", 4096, 4096, 64, tuned);
  pick("measured 3000^3", 3000, 3000, 3000, tuned);
  pick("measured 4096x4096x4094", 4096, 4096, 4094, tuned);
  pick("1023^3", 1023, 1023, 1023);
  pick("first twin 1024^3", 1024, 1024, 1024, firstTwin);
  pick("first twin 1023^3", 1023, 1023, 1023, firstTwin);
  pick("first twin 16384x63x16384", 16384, 63, 16384, firstTwin);
  pick("first twin 4096^3", 4096, 4096, 4096, firstTwin);
  pick("first twin 4095^3", 4095, 4095, 4095, firstTwin);
  // The model's last searches are kept per problem and alignment: A 8 bytes
  // off its packs takes the twin, and the aligned call after it its own.
  pick("first twin 16384x64x16384", 16384, 64, 16384, firstTwin);
  pick("first twin 16384x64x16384, A off", 16384, 64, 16384, firstTwin, 8);
  pick("first twin 16384x64x16384 again", 16384, 64, 16384, firstTwin);
  return 0;
}
