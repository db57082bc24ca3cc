//===- launch.cuh - Which calls a kernel runs, and its launch ---*- C++ -*-===//
//
// The host side of a configuration's kernels (kernel.cuh): whether a call's
// strides and alignment suit them, and their launches with the dynamic
// shared memory they need. gemm_kernels::launch<Cfg> and runs<Cfg> are what
// a generated launcher's Variant holds.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_KERNELS_LAUNCH_CUH
#define GEMM_KERNELS_LAUNCH_CUH

#include "gemm_kernels/kernel.cuh"

#include <atomic>

namespace gemm_kernels {

/// True if every pack of n elements of x starts at a multiple of its size.
/// The packs run along x's unit stride, so every other stride (the batch's
/// too) must step whole packs; where both strides are 1 (rows that overlap)
/// one of them does not.
template <class T>
inline bool packAligned(const gemm_rt::Operand &x, int n) {
  const bool rows = x.sr % n == 0, cols = x.sc % n == 0;
  return reinterpret_cast<unsigned long long>(x.ptr) % (n * sizeof(T)) == 0 &&
         x.sb % n == 0 && ((rows && (cols || x.sc == 1)) || (cols && x.sr == 1));
}

/// True if the rows of x, `ld` apart and xs long along the packs of `M`,
/// leave room for a pack that starts inside a row and runs past its end
/// (TileMover::start), or no pack does.
template <class M> inline bool packsStayInRows(long long ld, long long xs) {
  return M::ALONG_K || M::PACK == 1 || xs % M::PACK == 0 ||
         ld >= (xs + M::PACK - 1) / M::PACK * M::PACK;
}

/// True if every packed access of `Cfg` is aligned for p (given, not yet
/// transposed) and stays inside the rows of its operand, or there are no
/// packs.
template <class Cfg> bool packsFit(const gemm_rt::Problem &given) {
  const gemm_rt::Problem p =
      Cfg::TRANSPOSED ? gemm_rt::transposed(given) : given;
  using T = typename Cfg::T;
  using A = typename Cfg::A;
  using B = typename Cfg::B;
  return (A::PACK == 1 || (packAligned<T>(p.a, A::PACK) &&
                           packsStayInRows<A>(p.a.sc, p.m))) &&
         (B::PACK == 1 || (packAligned<T>(p.b, B::PACK) &&
                           packsStayInRows<B>(p.b.sr, p.n))) &&
         (Cfg::C_PACK == 1 || packAligned<T>(p.c, Cfg::C_PACK));
}

/// True if p's strides are 1 wherever `Cfg` takes them as 1 at compile time
/// (or the extent is 1, so that the stride is never taken). A generated
/// launcher passes those strides as literal 1s, but a staged dense copy of an
/// operand whose two strides are both 1 may keep the other one.
template <class Cfg> bool unitStridesHold(const gemm_rt::Problem &given) {
  const gemm_rt::Problem p =
      Cfg::TRANSPOSED ? gemm_rt::transposed(given) : given;
  const auto unit = [](int64_t stride, int64_t extent) {
    return stride == 1 || extent <= 1;
  };
  return (!Cfg::A::X_UNIT || unit(p.a.sr, p.m)) &&
         (!Cfg::A::K_UNIT || unit(p.a.sc, p.k)) &&
         (!Cfg::B::X_UNIT || unit(p.b.sc, p.n)) &&
         (!Cfg::B::K_UNIT || unit(p.b.sr, p.k)) &&
         (!Cfg::C_ROW_UNIT || unit(p.c.sr, p.m)) &&
         (!Cfg::C_COL_UNIT || unit(p.c.sc, p.n));
}

/// Whether `Cfg` runs p: its unit strides hold, and its packs fit or it has
/// a scalar twin. A Variant's `runs`.
template <class Cfg> bool runs(const gemm_rt::Problem &p) {
  return unitStridesHold<Cfg>(p) && (Cfg::SCALAR_TWIN || packsFit<Cfg>(p));
}

/// Whether `Cfg`'s stream-K kernel runs p (given, not yet transposed): one
/// product of fewer than 2^31 tiles, with unit strides that hold and packs
/// that fit. A Variant's `streams`.
template <class Cfg> bool streams(const gemm_rt::Problem &p) {
  const double tiles = double((p.m + Cfg::BM - 1) / Cfg::BM) *
                       double((p.n + Cfg::BN - 1) / Cfg::BN);
  return p.batch == 1 && tiles < 2e9 && p.k < (1LL << 31) &&
         unitStridesHold<Cfg>(p) && packsFit<Cfg>(p);
}

/// The devices on which `Kernel` has opted in to more than 48 KB of dynamic
/// shared memory, a bit per ordinal below 64: the opt-in costs about half a
/// microsecond, which a small problem's call would otherwise pay every time.
template <auto Kernel> std::atomic<unsigned long long> optedInOn{0};

/// Launches `Kernel` on args with `bytes` of dynamic shared memory, opting
/// it in first where that passes 48 KB and it has not on the current
/// device. cudaDeviceReset drops the opt-ins: a launch that fails after one
/// was skipped, with no error pending before it, opts in and launches
/// again.
template <auto Kernel, class... Args>
cudaError_t launchKernel(dim3 grid, int threads, int bytes,
                         cudaStream_t stream, const Args &...args) {
  std::atomic<unsigned long long> &optedIn = optedInOn<Kernel>;
  const bool large = bytes > 48 * 1024;
  unsigned long long bit = 0;
  if (large) {
    int device = 0;
    if (const cudaError_t err = cudaGetDevice(&device); err != cudaSuccess)
      return err;
    bit = device < 64 ? 1ull << device : 0;
  }
  const bool skip = bit && (optedIn.load() & bit) &&
                    cudaPeekAtLastError() == cudaSuccess;
  if (large && !skip) {
    if (const cudaError_t err = cudaFuncSetAttribute(
            Kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
        err != cudaSuccess)
      return err;
    optedIn |= bit;
  }
  Kernel<<<grid, threads, bytes, stream>>>(args...);
  const cudaError_t err = cudaGetLastError();
  if (err == cudaSuccess || !skip)
    return err;
  optedIn &= ~bit;
  return launchKernel<Kernel>(grid, threads, bytes, stream, args...);
}

/// launchKernel with kernel<Kernel, Vec>.
template <class Kernel, bool Vec>
cudaError_t launchGemm(const gemm_rt::Problem &p, dim3 grid,
                       cudaStream_t stream) {
  return launchKernel<gemmKernel<Kernel, Vec>>(grid, Kernel::THREADS,
                                               Kernel::SMEM_BYTES, stream, p);
}

/// Launches `Cfg`'s stream-K kernel through sk (Gemm::stream). A problem
/// that streams<Cfg>() rejects launches nothing: cudaErrorInvalidValue.
template <class Cfg>
cudaError_t launchStreamed(const gemm_rt::Problem &given,
                           const gemm_rt::StreamK &sk, cudaStream_t stream) {
  if (!streams<Cfg>(given) || sk.whole + sk.count < 1)
    return cudaErrorInvalidValue;
  const gemm_rt::Problem p =
      Cfg::TRANSPOSED ? gemm_rt::transposed(given) : given;
  using Kernel = typename KernelOf<Cfg>::type;
  return launchKernel<streamKernel<Kernel>>(
      dim3(unsigned(sk.whole + sk.count)), Kernel::THREADS,
      Kernel::SMEM_BYTES, stream, p, sk);
}

/// Launches `Cfg`'s vector kernel when every packed access is aligned (or
/// there are no packs), its scalar twin otherwise; a transposed
/// configuration computes C^T = B^T A^T. A problem that runs<Cfg>()
/// rejects launches nothing: cudaErrorInvalidValue where a unit stride does
/// not hold, cudaErrorMisalignedAddress where the packs do not fit and there
/// is no twin.
template <class Cfg>
cudaError_t launch(const gemm_rt::Problem &given, cudaStream_t stream) {
  const gemm_rt::Problem p =
      Cfg::TRANSPOSED ? gemm_rt::transposed(given) : given;
  if (!unitStridesHold<Cfg>(given))
    return cudaErrorInvalidValue;
  dim3 grid;
  if (const cudaError_t err = tileGrid(p, Cfg::BM, Cfg::BN, grid);
      err != cudaSuccess)
    return err;
  using Kernel = typename KernelOf<Cfg>::type;
  if (packsFit<Cfg>(given))
    return launchGemm<Kernel, true>(p, grid, stream);
  if constexpr (Cfg::SCALAR_TWIN)
    return launchGemm<Kernel, false>(p, grid, stream);
  else
    return cudaErrorMisalignedAddress;
}

} // namespace gemm_kernels

#endif // GEMM_KERNELS_LAUNCH_CUH
