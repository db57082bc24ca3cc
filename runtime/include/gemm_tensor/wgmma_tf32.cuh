// gemm_tensor/wgmma_tf32.cuh - a Hopper-native (sm_90a) TF32 / 3xTF32 GEMM:
// the kernel behind the runtime's float products on tensor cores
// (gemm_tf32.h, src/launch/tf32.cu) and bench/tf32's benchmark. It is the
// runtime's own kernel, not a configurable template: the templates' hash
// (abi/TemplatesHash.cmake) does not cover it.
//
//   C (M x N, row-major, ldc) = alpha * A (M x K, row-major, lda) * B + beta * C
//
// Fast path ("NT"): B given as Bt = B^T, i.e. N x K row-major (B column-major,
// ldb >= K). Both operands are then K-major, which is the only layout wgmma
// accepts for tf32 (no transposed / MN-major tf32 operands). Row-major B
// ("NN", K x N) goes through a transposing pre-pass into a scratch N x K
// buffer first (gather), timed separately by the bench.
//
// 3xTF32 (template flag SPLIT3): a pre-pass splits every operand element a
// into hi = cvt.rna.tf32(a) and lo = cvt.rna.tf32(a - hi) (a - hi is exact in
// fp32), written as four arrays A_hi, A_lo (M x K) and B_hi, B_lo (N x K; the
// row-major-B pre-pass transposes and splits in one pass). wgmma reads shared
// memory directly, so splitting at register-load time is impossible; the
// pre-pass is the simplest correct choice and is timed as part of the call.
// The kernel keeps two accumulators: acc_small += A_lo*B_hi + A_hi*B_lo (the
// two correction products, issued first for each k-step) and acc_big +=
// A_hi*B_hi, so the correction terms are accumulated among themselves
// without being swamped by the big sum. lo*lo is dropped (relative size
// ~2^-22). Every TF32K_PROMOTE k-tiles (4: K = 128) both are added into FP32
// registers and restart: the tensor cores' own FP32 accumulation loses
// accuracy in proportion to the chain's length (its error grew almost
// linearly with K, 19x pedantic SGEMM's at K = 2044 without promotion).
//
// Plain TF32: fp32 bits are fed straight to the tensor cores, which ignore
// the low 13 mantissa bits (truncation, not round-to-nearest).
//
// Kernel: CTA tile BM=128 x BN (128 or 256) x BK=32 floats (=128 bytes, one
// 128B-swizzle row). 3 warpgroups (384 threads): WG0 = producer (one thread
// issues TMA loads; setmaxnreg.dec 40), WG1/WG2 = consumers, each owns 64 rows
// x BN of C (setmaxnreg.inc 232). STAGES-deep smem ring, full[] barriers
// (count 1 + tx bytes) and empty[] barriers (count 8 = one arrive per consumer
// warp). Consumers keep one wgmma group in flight (wait_group 1) and release
// the previous k-tile's stage; the two consumer warpgroups also overlap.
// -DTF32K_WAIT_ALL: wait_group 0 every k-tile instead (simpler, for A/B).
// Persistent (TF32K_PERSISTENT, default 1): min(SMs, tiles) CTAs, each
// taking tiles blockIdx.x, + gridDim.x, ... in a grouped order (TF32K_GROUP_M
// M tiles swept together across N, for L2 reuse). The ring's stage and
// phase run on across a CTA's tiles, so the producer loads the next tile's
// first k-tiles while the consumers store the current one.
// -DTF32K_PERSISTENT=0: one CTA per tile in row-major tile order (the
// kernel before persistence, for A/B).
// Split-K (TF32K_SPLITK, default 1): with fewer output tiles than SMs,
// splitk_slices cuts K into S > 1 slices and the CTAs take tiles x S work
// units instead of tiles (unit u: tile u % tiles, slice u / tiles, k-tiles
// [slice*kt/S, (slice+1)*kt/S) of kt); the ring runs on across units as
// across tiles, and 3xTF32 promotes per slice as per tile. A unit stores its
// raw FP32 partial sums into its slice's M x N plane of a workspace (S x M x
// N floats, the caller's), and splitk_reduce then writes C = alpha * (the
// planes summed in slice order) + beta * C: deterministic, no atomics.
// S = 1 (tiles >= SMs, or -DTF32K_SPLITK=0) is the unsplit kernel, no
// workspace.
//
// Requirements: K % 4 == 0 and lda, ldb % 4 == 0 (TMA: 16-byte global
// strides), 16-byte aligned base pointers. M, N, K otherwise arbitrary: TMA
// zero-fills out-of-bounds boxes (so a K tail contributes 0), and the epilogue
// bounds-checks rows and columns (as does splitk_reduce). beta == 0 never
// reads C.
#pragma once
#include <cuda.h>   // CUtensorMap & enums only (no -lcuda: driver entry point)
#include <cuda_runtime.h>
#include <algorithm>
#include <atomic>
#include <climits>
#include <cstdint>
#include <cstdio>

namespace tf32k {

constexpr int BM = 128, BK = 32;

// ---------------------------------------------------------------- PTX helpers
__device__ __forceinline__ uint32_t smem_u32(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void mbar_init(uint64_t* bar, uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" :: "r"(smem_u32(bar)), "r"(count) : "memory");
}
__device__ __forceinline__ void mbar_expect_tx(uint64_t* bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" :: "r"(smem_u32(bar)), "r"(bytes) : "memory");
}
__device__ __forceinline__ void mbar_arrive(uint64_t* bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" :: "r"(smem_u32(bar)) : "memory");
}
// Wait until the phase with the given parity has completed.
__device__ __forceinline__ void mbar_wait(uint64_t* bar, uint32_t parity) {
  asm volatile("{\n.reg .pred P1;\nLAB_WAIT:\n"
               "mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1;\n"
               "@P1 bra DONE;\nbra LAB_WAIT;\nDONE:\n}\n" :: "r"(smem_u32(bar)), "r"(parity) : "memory");
}
// 2D TMA load: box at (c0 = inner/K coordinate, c1 = row) into smem, completing on bar.
__device__ __forceinline__ void tma_load_2d(void* dst, const CUtensorMap* map, uint64_t* bar, int c0, int c1) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
               " [%0], [%1, {%3, %4}], [%2];\n"
               :: "r"(smem_u32(dst)), "l"(reinterpret_cast<uint64_t>(map)), "r"(smem_u32(bar)),
                  "r"(c0), "r"(c1) : "memory");
}
__device__ __forceinline__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }
__device__ __forceinline__ void wgmma_commit() { asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory"); }
template <int N> __device__ __forceinline__ void wgmma_wait() {
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" :: "n"(N) : "memory");
}
template <int R> __device__ __forceinline__ void fence_regs(float (&d)[R]) {
#pragma unroll
  for (int i = 0; i < R; ++i) asm volatile("" : "+f"(d[i]) :: "memory");
}
template <uint32_t R> __device__ __forceinline__ void setmaxnreg_inc() {
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" :: "n"(R));
}
template <uint32_t R> __device__ __forceinline__ void setmaxnreg_dec() {
  asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" :: "n"(R));
}

// Shared-memory matrix descriptor for a K-major operand with 128B swizzle:
// rows of 128 bytes (32 floats), 8-row swizzle atoms of 1024 bytes stacked
// along M/N. start address >> 4 in bits 0-13, leading byte offset >> 4 in
// 16-29 (unused for swizzled K-major; 1 by convention), stride byte offset
// >> 4 in 32-45 (1024 B between 8-row groups), base offset 0 (bits 49-51;
// tiles are 1024-byte aligned), layout type 1 = SWIZZLE_128B in bits 62-63.
// The k-th k8 slice inside the 128-byte row starts k*32 bytes further on.
__device__ __forceinline__ uint64_t make_desc_sw128(uint32_t saddr) {
  uint64_t d = 0;
  d |= static_cast<uint64_t>((saddr & 0x3FFFF) >> 4);
  d |= static_cast<uint64_t>(1) << 16;
  d |= static_cast<uint64_t>(1024 >> 4) << 32;
  d |= static_cast<uint64_t>(1) << 62;
  return d;
}

// D(64x128, f32 regs) += A(64x8 tf32, smem desc) * B(128x8 tf32, smem desc)^T; both K-major.
__device__ __forceinline__ void wgmma_m64n128k8_tf32(float (&d)[64], uint64_t da, uint64_t db, int sd) {
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32 "
      "{"
      "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
      "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
      "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63"
      "}, %64, %65, p, 1, 1;\n}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
        "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
        "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
        "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
        "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
      : "l"(da), "l"(db), "r"(sd));
}

// D(64x256, f32 regs) += A(64x8 tf32, smem desc) * B(256x8 tf32, smem desc)^T; both K-major.
__device__ __forceinline__ void wgmma_m64n256k8_tf32(float (&d)[128], uint64_t da, uint64_t db, int sd) {
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32 "
      "{"
      "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
      "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
      "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, "
      "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, "
      "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, "
      "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, "
      "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127"
      "}, %128, %129, p, 1, 1;\n}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
        "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
        "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
        "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
        "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),
        "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
        "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]),
        "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]),
        "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]),
        "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]),
        "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]),
        "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]),
        "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
      : "l"(da), "l"(db), "r"(sd));
}

template <int BN> struct Wgmma;
template <> struct Wgmma<128> {
  static __device__ __forceinline__ void mma(float (&d)[64], uint64_t a, uint64_t b, int sd) { wgmma_m64n128k8_tf32(d, a, b, sd); }
};
template <> struct Wgmma<256> {
  static __device__ __forceinline__ void mma(float (&d)[128], uint64_t a, uint64_t b, int sd) { wgmma_m64n256k8_tf32(d, a, b, sd); }
};

// 3xTF32's promotion interval in k-tiles (0: never); see the consumers.
#ifndef TF32K_PROMOTE
#define TF32K_PROMOTE 4
#endif

// Persistent grid (1) or one CTA per output tile (0); the kernel is the
// same, only the grid differs (launch_kmajor).
#ifndef TF32K_PERSISTENT
#define TF32K_PERSISTENT 1
#endif
// M tiles per group of the tile order (1: row-major, the order of a 2D grid).
#ifndef TF32K_GROUP_M
#define TF32K_GROUP_M (TF32K_PERSISTENT ? 8 : 1)
#endif
// Split-K where there are fewer tiles than SMs (1), or never (0); read by
// splitk_slices alone.
#ifndef TF32K_SPLITK
#define TF32K_SPLITK 1
#endif

__host__ __device__ constexpr int cdiv(int x, int d) { return (x - 1) / d + 1; }  // x > 0

// Origin of linear tile t. Grouped order: the tiles of TF32K_GROUP_M
// consecutive M tiles are taken column by column (N outer, M inner), so the
// CTAs running at one time read a few A and B panels from L2 rather than
// all of B for every row of tiles. The last group may have fewer M tiles.
template <int BN>
__device__ __forceinline__ void tile_origin(int t, int tilesM, int tilesN, int& m0, int& n0) {
  constexpr int G = TF32K_GROUP_M;
  static_assert(G >= 1, "TF32K_GROUP_M must be positive");
  const int perGroup = G * tilesN;
  const int first = t / perGroup * G;
  const int rows = min(tilesM - first, G);
  const int r = t % perGroup;
  m0 = (first + r % rows) * BM;
  n0 = r / rows * BN;
}

// Work unit u of tiles x S: tile t = u % tiles, K slice u / tiles, whose
// k-tiles are [k0, k1). Slice-major, so that S = 1 takes the tiles in the
// order above. The slices tile [0, ktiles) without gaps or overlaps, and none
// is empty where S <= ktiles (launch_kmajor).
__device__ __forceinline__ void unit_range(int u, int tiles, int S, int ktiles, int& t, int& slice, int& k0,
                                           int& k1) {
  t = u % tiles;
  slice = u / tiles;
  k0 = slice * ktiles / S;  // S * ktiles <= INT_MAX (launch_kmajor)
  k1 = (slice + 1) * ktiles / S;
}

template <int BN, int STAGES, bool SPLIT3> struct Cfg {
  static constexpr int A_BYTES = BM * BK * 4;           // 16 KB
  static constexpr int B_BYTES = BN * BK * 4;           // 16 / 32 KB
  static constexpr int NOPS = SPLIT3 ? 2 : 1;           // hi (+ lo) per operand
  static constexpr int STAGE_BYTES = NOPS * (A_BYTES + B_BYTES);
  static constexpr int SMEM = STAGES * STAGE_BYTES + 1024 /*align*/ + 2 * STAGES * 8 + 64;
  static constexpr int THREADS = 384;
  static constexpr int ACC = BN / 2;                    // f32 regs per thread per accumulator
};

// tmA: A or A_hi (M x K); tmAl: A_lo (SPLIT3 only); tmB: Bt or B_hi (N x K); tmBl: B_lo.
// S: K slices (1: C = alpha * A * B + beta * C here; > 1: partial sums into
// W, S x M x N floats, for splitk_reduce).
template <int BN, int STAGES, bool SPLIT3>
__global__ void __launch_bounds__(384, 1)
gemm_tf32_kernel(const __grid_constant__ CUtensorMap tmA, const __grid_constant__ CUtensorMap tmAl,
                 const __grid_constant__ CUtensorMap tmB, const __grid_constant__ CUtensorMap tmBl,
                 float* __restrict__ C, float* __restrict__ W, int M, int N, int K, int ldc, float alpha,
                 float beta, int S) {
  using CF = Cfg<BN, STAGES, SPLIT3>;
  extern __shared__ unsigned char smem_raw[];
  // 128B swizzle atoms must be 1024-byte aligned (the descriptors assume base offset 0).
  unsigned char* smem = reinterpret_cast<unsigned char*>(
      (reinterpret_cast<uintptr_t>(smem_raw) + 1023) & ~static_cast<uintptr_t>(1023));
  uint64_t* full = reinterpret_cast<uint64_t*>(smem + STAGES * CF::STAGE_BYTES);
  uint64_t* empty = full + STAGES;

  // stage s: [A_hi | (A_lo) | B_hi | (B_lo)]
  auto sA = [&](int s, int part) { return smem + s * CF::STAGE_BYTES + part * CF::A_BYTES; };
  auto sB = [&](int s, int part) {
    return smem + s * CF::STAGE_BYTES + CF::NOPS * CF::A_BYTES + part * CF::B_BYTES;
  };

  const int wg = threadIdx.x / 128;
  const int tid = threadIdx.x % 128;
  const int tilesM = cdiv(M, BM), tilesN = cdiv(N, BN);
  const int tiles = tilesM * tilesN;
  const int units = tiles * S;
  const int ktiles = (K + BK - 1) / BK;

  if (threadIdx.x == 0) {
    for (int s = 0; s < STAGES; ++s) {
      mbar_init(&full[s], 1);
      mbar_init(&empty[s], 8);  // one arrive per consumer warp (2 WGs x 4 warps)
    }
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
  }
  __syncthreads();

  if (wg == 0) {
    // ------------------------------------------------------------ producer
    setmaxnreg_dec<40>();
    if (tid == 0) {
      // it counts k-tiles over all of this CTA's units: the ring is never
      // reset, so a unit's loads land in the stages right after the last
      // unit's and wait only for the consumers to free them.
      int it = 0;
      for (int unit = blockIdx.x; unit < units; unit += gridDim.x) {
        int t, slice, k0, k1, m0, n0;
        unit_range(unit, tiles, S, ktiles, t, slice, k0, k1);
        tile_origin<BN>(t, tilesM, tilesN, m0, n0);
        for (int kt = k0; kt < k1; ++kt, ++it) {
          const int s = it % STAGES;
          // Use u = it / STAGES of stage s needs the consumers' release of
          // use u - 1, i.e. phase u - 1 of empty[s] complete: parity
          // (u & 1) ^ 1. That phase or the next is the newest one (fill u - 1
          // happened, fill u not yet), so parity tells them apart and this
          // thread cannot get more than STAGES k-tiles ahead. For u = 0,
          // waiting for parity 1 of a fresh barrier returns at once.
          mbar_wait(&empty[s], ((it / STAGES) & 1) ^ 1);
          // Full box bytes are counted even where TMA zero-fills out of bounds.
          mbar_expect_tx(&full[s], CF::STAGE_BYTES);
          const int kc = kt * BK;
          tma_load_2d(sA(s, 0), &tmA, &full[s], kc, m0);
          if (SPLIT3) tma_load_2d(sA(s, 1), &tmAl, &full[s], kc, m0);
          tma_load_2d(sB(s, 0), &tmB, &full[s], kc, n0);
          if (SPLIT3) tma_load_2d(sB(s, 1), &tmBl, &full[s], kc, n0);
        }
      }
    }
  } else {
    // ------------------------------------------------------------ consumers
    setmaxnreg_inc<232>();
    const int cw = wg - 1;  // rows cw*64 .. cw*64+63 of the CTA tile
    float acc[CF::ACC];
    float acc2[SPLIT3 ? CF::ACC : 1];
    // 3xTF32 with TF32K_PROMOTE = P > 0: every P k-tiles the tensor-core
    // accumulators are added into FP32 registers (tot) and restarted, so
    // that the tensor cores' own accumulation (whose rounding errors grow
    // with K) spans P k-tiles only.
    constexpr int P = SPLIT3 ? TF32K_PROMOTE : 0;
    float tot[P > 0 ? CF::ACC : 1];
    // No zero-fill: the first wgmma of each accumulator runs with scale-d = 0
    // (D = A*B), so the registers' old contents are ignored. (Zero-filling them
    // with ordinary moves made ptxas serialize the wgmmas, C7515.)

    // it counts k-tiles over all of this CTA's units, as the producer's
    // does: stage and phase parity continue from one unit to the next.
    int it = 0;
    for (int unit = blockIdx.x; unit < units; unit += gridDim.x) {
      int t, slice, k0, k1, m0, n0;
      unit_range(unit, tiles, S, ktiles, t, slice, k0, k1);
      tile_origin<BN>(t, tilesM, tilesN, m0, n0);
      // kt numbers the unit's k-tiles from 0, so that restarts and
      // promotions fall per slice as they do per tile (nk >= 1).
      const int nk = k1 - k0;
      for (int kt = 0; kt < nk; ++kt, ++it) {
        const int s = it % STAGES;
        // Use u = it / STAGES of stage s is phase u of full[s]; the producer
        // cannot complete phase u + 1 before this warpgroup releases use u.
        mbar_wait(&full[s], (it / STAGES) & 1);
        const uint32_t aHi = smem_u32(sA(s, 0)) + cw * 64 * 128;  // 64 rows x 128 B
        const uint32_t bHi = smem_u32(sB(s, 0));
        const bool restart = P > 0 ? kt % (P > 0 ? P : 1) == 0 : kt == 0;
        wgmma_fence();
#pragma unroll
        for (int k = 0; k < BK / 8; ++k) {
          const uint64_t dAh = make_desc_sw128(aHi + k * 32);
          const uint64_t dBh = make_desc_sw128(bHi + k * 32);
          if constexpr (SPLIT3) {
            const uint32_t aLo = smem_u32(sA(s, 1)) + cw * 64 * 128;
            const uint32_t bLo = smem_u32(sB(s, 1));
            const uint64_t dAl = make_desc_sw128(aLo + k * 32);
            const uint64_t dBl = make_desc_sw128(bLo + k * 32);
            Wgmma<BN>::mma(acc2, dAl, dBh, !restart || k != 0);  // lo*hi
            Wgmma<BN>::mma(acc2, dAh, dBl, 1);  // hi*lo
          }
          Wgmma<BN>::mma(acc, dAh, dBh, !restart || k != 0);  // hi*hi
        }
        wgmma_commit();
        // Keep this k-tile's group in flight; the previous group is complete
        // now, so its stage goes back to the producer.
#ifndef TF32K_WAIT_ALL
        wgmma_wait<1>();
        // (At kt == 0 the previous k-tile is the last unit's, whose stage
        // was freed before that unit's epilogue.)
        if (kt > 0) {
          __syncwarp();
          if ((threadIdx.x & 31) == 0) mbar_arrive(&empty[(it - 1) % STAGES]);
        }
#else  // fallback for A/B or debugging: drain each k-tile, release its own stage
        wgmma_wait<0>();
        __syncwarp();
        if ((threadIdx.x & 31) == 0) mbar_arrive(&empty[s]);
#endif
        if constexpr (P > 0) {
          if ((kt + 1) % P == 0 || kt + 1 == nk) {
            wgmma_wait<0>();
            fence_regs(acc);
            fence_regs(acc2);
#pragma unroll
            for (int i = 0; i < CF::ACC; ++i)
              tot[i] = (kt < P ? 0.f : tot[i]) + (acc2[i] + acc[i]);
          }
        }
      }
      wgmma_wait<0>();
      fence_regs(acc);
      if constexpr (SPLIT3) fence_regs(acc2);
#ifndef TF32K_WAIT_ALL
      // The unit's last stage is read no more: free it before the epilogue,
      // so the producer fills the whole ring with the next unit's k-tiles
      // while this warpgroup stores C. (The next unit's wgmma_fence orders
      // the epilogue's reads of acc before the wgmmas that overwrite it.)
      __syncwarp();
      if ((threadIdx.x & 31) == 0) mbar_arrive(&empty[(it - 1) % STAGES]);
#endif

      // ------------------------------------------------------------ epilogue
      // Accumulator fragment (m64nN f32): reg i of thread t (warp w = t/32,
      // lane l) holds row w*16 + l/4 + 8*((i/2)%2), column 8*(i/4) + 2*(l%4) + i%2.
      const int w = tid / 32, l = tid % 32;
      const int rbase = m0 + cw * 64 + w * 16 + l / 4;
      const int cbase = n0 + 2 * (l % 4);
      // Split-K: a unit's partial sums go to W unscaled (alpha 1, beta 0, so
      // C's term is not read), its slice's plane with row stride N.
      float* const out = S > 1 ? W + static_cast<size_t>(slice) * M * N : C;
      const int ldo = S > 1 ? N : ldc;
      const float al = S > 1 ? 1.f : alpha, be = S > 1 ? 0.f : beta;
      const bool vec2 = (ldo % 2) == 0 && reinterpret_cast<uintptr_t>(out) % 8 == 0;
#pragma unroll
      for (int j = 0; j < CF::ACC / 4; ++j) {
#pragma unroll
        for (int h = 0; h < 2; ++h) {
          const int row = rbase + 8 * h;
          const int col = cbase + 8 * j;
          if (row >= M || col >= N) continue;
          float v0 = acc[4 * j + 2 * h], v1 = acc[4 * j + 2 * h + 1];
          if constexpr (P > 0) {
            v0 = tot[4 * j + 2 * h];
            v1 = tot[4 * j + 2 * h + 1];
          } else if constexpr (SPLIT3) {
            v0 += acc2[4 * j + 2 * h];
            v1 += acc2[4 * j + 2 * h + 1];
          }
          float* p = out + static_cast<size_t>(row) * ldo + col;
          if (vec2 && col + 1 < N) {
            float2 o = make_float2(al * v0, al * v1);
            if (be != 0.f) {
              const float2 c = *reinterpret_cast<const float2*>(p);
              o.x = fmaf(be, c.x, o.x);
              o.y = fmaf(be, c.y, o.y);
            }
            *reinterpret_cast<float2*>(p) = o;
          } else {
            p[0] = be != 0.f ? fmaf(be, p[0], al * v0) : al * v0;
            if (col + 1 < N) p[1] = be != 0.f ? fmaf(be, p[1], al * v1) : al * v1;
          }
        }
      }
    }
  }
}

// Split-K's second pass: C = alpha * (W_0 + ... + W_{S-1}) + beta * C, W_s
// the M x N plane (row stride N) of slice s, summed in slice order (no
// atomics: the same inputs give the same bits). beta == 0 never reads C. A
// warp takes 32 columns of a row: each plane is read in coalesced lines.
__global__ void splitk_reduce(const float* __restrict__ W, int S, float* __restrict__ C, int M, int N, int ldc,
                              float alpha, float beta) {
  const long long col = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (col >= N) return;
  const size_t plane = static_cast<size_t>(M) * N;
  for (long long row = blockIdx.y * static_cast<long long>(blockDim.y) + threadIdx.y; row < M;
       row += static_cast<long long>(gridDim.y) * blockDim.y) {
    const float* w = W + row * N + col;
    float v = w[0];
    for (int s = 1; s < S; ++s) v += w[s * plane];
    float* p = C + row * ldc + col;
    *p = beta != 0.f ? fmaf(beta, *p, alpha * v) : alpha * v;
  }
}

// ---------------------------------------------------------------- pre-passes
// hi = tf32 round-to-nearest(a) (cvt.rna), lo = tf32 rna(a - hi).
__device__ __forceinline__ void split_tf32(float a, float& hi, float& lo) {
  uint32_t h, lw;
  asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(h) : "f"(a));
  hi = __uint_as_float(h);
  asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(lw) : "f"(a - hi));
  lo = __uint_as_float(lw);
}

// X (rows x K, element (r, k) at X[r * sRow + k * sK]) -> a K-major copy
// (rows x ldo, ldo >= K, zeros at k >= K), split into hi and lo with SPLIT.
// Through a 32 x 33 shared tile: reads run along whichever of r and k has
// the unit stride, writes along k.
template <bool SPLIT>
__global__ void gather_kmajor(const float* __restrict__ X, int rows, int K, long long sRow, long long sK,
                              float* __restrict__ Hi, float* __restrict__ Lo, int ldo) {
  __shared__ float t[32][33];
  const int r0 = blockIdx.y * 32, k0 = blockIdx.x * 32;
  const bool rowsFast = sK != 1;
  for (int y = threadIdx.y; y < 32; y += blockDim.y) {
    const int rl = rowsFast ? threadIdx.x : y, kl = rowsFast ? y : threadIdx.x;
    const int r = r0 + rl, k = k0 + kl;
    t[rl][kl] = (r < rows && k < K) ? X[r * sRow + k * sK] : 0.f;
  }
  __syncthreads();
  for (int y = threadIdx.y; y < 32; y += blockDim.y) {
    const int r = r0 + y, k = k0 + threadIdx.x;
    if (r >= rows || k >= ldo) continue;
    const size_t at = static_cast<size_t>(r) * ldo + k;
    if (SPLIT) {
      float h, l;
      split_tf32(t[y][threadIdx.x], h, l);
      Hi[at] = h;
      Lo[at] = l;
    } else {
      Hi[at] = t[y][threadIdx.x];
    }
  }
}

// gather_kmajor on `st`; split into hi and lo where lo is given.
inline void gather(const float* X, int rows, int K, long long sRow, long long sK, float* hi, float* lo, int ldo,
                   cudaStream_t st = 0) {
  const dim3 grid((ldo + 31) / 32, (rows + 31) / 32), block(32, 8);
  if (lo)
    gather_kmajor<true><<<grid, block, 0, st>>>(X, rows, K, sRow, sK, hi, lo, ldo);
  else
    gather_kmajor<false><<<grid, block, 0, st>>>(X, rows, K, sRow, sK, hi, nullptr, ldo);
}

// ---------------------------------------------------------------- host side
using PFN_encodeTiled = CUresult (*)(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*, const cuuint64_t*,
                                     const cuuint64_t*, const cuuint32_t*, const cuuint32_t*, CUtensorMapInterleave,
                                     CUtensorMapSwizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill);

inline PFN_encodeTiled get_encode_fn() {
  static PFN_encodeTiled fn = nullptr;
  if (!fn) {
    void* p = nullptr;
    cudaDriverEntryPointQueryResult q;
    if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000, cudaEnableDefault, &q) != cudaSuccess ||
        q != cudaDriverEntryPointSuccess || !p) {
      fprintf(stderr, "tf32k: cuTensorMapEncodeTiled not available\n");
      return nullptr;
    }
    fn = reinterpret_cast<PFN_encodeTiled>(p);
  }
  return fn;
}

// Row-major rows x cols (cols contiguous, ld floats), box = boxRows x 32 floats, 128B swizzle.
inline bool make_map(CUtensorMap* m, const float* base, int rows, int cols, int ld, int boxRows) {
  PFN_encodeTiled enc = get_encode_fn();
  if (!enc) return false;
  cuuint64_t dims[2] = {static_cast<cuuint64_t>(cols), static_cast<cuuint64_t>(rows)};
  cuuint64_t strides[1] = {static_cast<cuuint64_t>(ld) * sizeof(float)};
  cuuint32_t box[2] = {static_cast<cuuint32_t>(BK), static_cast<cuuint32_t>(boxRows)};
  cuuint32_t estr[2] = {1, 1};
  CUresult r = enc(m, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, const_cast<float*>(base), dims, strides, box, estr,
                   CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                   CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS) {
    fprintf(stderr, "tf32k: cuTensorMapEncodeTiled failed (%d)\n", static_cast<int>(r));
    return false;
  }
  return true;
}

// SMs of the current device (0 on failure), asked once per device: the
// persistent grid has one CTA per SM.
inline int sm_count() {
  static std::atomic<int> known[64];  // by device ordinal; 0 = not asked yet
  int dev = 0, n = 0;
  if (cudaGetDevice(&dev) != cudaSuccess) return 0;
  if (dev < 64 && (n = known[dev].load(std::memory_order_relaxed)) > 0) return n;
  if (cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess || n <= 0) return 0;
  if (dev < 64) known[dev].store(n, std::memory_order_relaxed);
  return n;
}

// K slices for an M x N x K product of BN-wide tiles on the current device.
// With fewer tiles than SMs the persistent grid leaves SMs idle; S slices
// make tiles x S units. S is the largest that keeps them within one round
// (tiles x S <= SMs): one unit more than SMs costs a whole second round
// (32 tiles on 132 SMs: S = 5 leaves 28 CTAs two units of K/5, 0.4 K, against
// K/4 at S = 4). Capped at 8 k-tiles (K = 256) per slice, so that a unit's
// pipeline fill and epilogue stay small beside its loop, and at 16 slices.
// The workspace, S x M x N floats, is then at most SMs x BM x BN floats
// (17 MB on 132 SMs at BN = 256), written once and read once by
// splitk_reduce.
inline int splitk_slices(int M, int N, int K, int BN) {
  const int sms = sm_count();
  const long long tiles = static_cast<long long>(cdiv(M, BM)) * cdiv(N, BN);
  if (!TF32K_SPLITK || tiles >= sms) return 1;
  return std::max(1, std::min({sms / static_cast<int>(tiles), cdiv(K, BK) / 8, 16}));
}

// Launch on K-major operands: A (M x K, lda) and Bt (N x K, ldb); for SPLIT3
// Al / Btl are the lo parts (A, Bt the hi parts). S: K slices (splitk_slices;
// 1: no split), W: S x M x N floats where S > 1 (else unused). Returns false
// on a precondition or launch failure.
template <int BN, int STAGES, bool SPLIT3>
bool launch_kmajor(const float* A, const float* Al, int lda, const float* Bt, const float* Btl, int ldb, float* C,
                   int ldc, int M, int N, int K, float alpha, float beta, int S, float* W, cudaStream_t st = 0) {
  using CF = Cfg<BN, STAGES, SPLIT3>;
  if (M <= 0 || N <= 0 || K <= 0 || K % 4 || lda % 4 || ldb % 4) return false;
  // An empty slice would free a stage it never filled: each needs a k-tile.
  if (S < 1 || S > cdiv(K, BK) || static_cast<long long>(S) * cdiv(K, BK) > INT_MAX || (S > 1 && !W)) return false;
  if ((reinterpret_cast<uintptr_t>(A) | reinterpret_cast<uintptr_t>(Bt)) & 15) return false;
  CUtensorMap mA, mAl, mB, mBl;
  if (!make_map(&mA, A, M, K, lda, BM) || !make_map(&mB, Bt, N, K, ldb, BN)) return false;
  if (SPLIT3) {
    if ((reinterpret_cast<uintptr_t>(Al) | reinterpret_cast<uintptr_t>(Btl)) & 15) return false;
    if (!make_map(&mAl, Al, M, K, lda, BM) || !make_map(&mBl, Btl, N, K, ldb, BN)) return false;
  } else {
    mAl = mA;
    mBl = mB;
  }
  auto kern = gemm_tf32_kernel<BN, STAGES, SPLIT3>;
  // Per device: set on every call (a fraction of a microsecond).
  if (cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, CF::SMEM) != cudaSuccess)
    return false;
  // The kernel numbers units with int (1D grid: no 65535 limit on M tiles).
  const long long units = static_cast<long long>(cdiv(M, BM)) * cdiv(N, BN) * S;
  if (units > INT_MAX) return false;
  // Persistent: a CTA per SM at most (one fits: 192 KB of smem), each
  // looping over units; else one CTA per unit.
  const int grid = TF32K_PERSISTENT ? std::min(static_cast<int>(units), sm_count()) : static_cast<int>(units);
  if (grid <= 0) return false;
  kern<<<grid, CF::THREADS, CF::SMEM, st>>>(mA, mAl, mB, mBl, C, W, M, N, K, ldc, alpha, beta, S);
  // Not after a failed launch: C would get partial sums never written.
  if (S > 1 && cudaPeekAtLastError() == cudaSuccess) {
    const dim3 block(32, 8), rgrid(cdiv(N, 32), std::min(cdiv(M, 8), 65535));
    splitk_reduce<<<rgrid, block, 0, st>>>(W, S, C, M, N, ldc, alpha, beta);
  }
  return cudaGetLastError() == cudaSuccess;
}

// Default configurations (smem: 227 KB per block on H100/H200).
//   TF32:   BN=256, 4 stages x 48 KB = 192 KB
//   3xTF32: BN=128, 3 stages x 64 KB = 192 KB (two 64-reg accumulators)
constexpr int TF32_BN = 256, TF32_STAGES = 4;
constexpr int X3_BN = 128, X3_STAGES = 3;

}  // namespace tf32k
