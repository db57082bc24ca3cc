//===- epilogue.cuh - C = act(alpha * acc + beta * C + bias) ----*- C++ -*-===//
//
// A thread's accumulators into C: by rows where C's columns are contiguous or
// neither stride is, by columns where only its rows are. A fused
// configuration finishes each element through gemm_rt::finishElement, the
// one definition that the runtime's other paths share. beta == 0 never reads
// C, so NaN or garbage there cannot reach the result.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_KERNELS_EPILOGUE_CUH
#define GEMM_KERNELS_EPILOGUE_CUH

#include "gemm_kernels/config.cuh"
#include "gemm_runtime.h"

namespace gemm_kernels {

/// What a thread's accumulators are stored with. Row i of its tile is
/// rowBase + (i / ROW_GROUP) * ROW_STEP + i % ROW_GROUP, and likewise for
/// columns.
template <class T> struct CStore {
  T *c;
  long long cm, cn, m, n;
  long long rowBase, colBase;
  T alpha, beta;
  const gemm_rt::Epilogue &ep;
  long long batch;
};

/// `v`, the product term of element (row, col), as stored: with the
/// problem's bias and activation where the configuration is fused.
template <class Cfg, class T>
__device__ __forceinline__ T finish(const CStore<T> &s, T v, long long row,
                                    long long col) {
  if constexpr (Cfg::FUSED)
    return gemm_rt::finishElement<T>(s.ep, v, s.batch, row, col);
  else
    return v;
}

/// Whether the stores read C: never (beta == 0, tested once per tile),
/// always (beta != 0), or as a test of beta at each store says.
enum class OldC { Skip, Read, PerStore };

/// Whether a store under `Old` reads C.
template <OldC Old, class T>
__device__ __forceinline__ bool readsOld(const CStore<T> &s) {
  return Old == OldC::Read || (Old == OldC::PerStore && s.beta != T(0));
}

/// alpha * acc, plus beta * old where the store read `old`; PerStore picks
/// by a select, so that the store's code is not written twice.
template <OldC Old, class T>
__device__ __forceinline__ T scaled(const CStore<T> &s, T acc, T old) {
  const T product = s.alpha * acc;
  if constexpr (Old == OldC::Skip)
    return product;
  else if constexpr (Old == OldC::Read)
    return fma(s.beta, old, product);
  else
    return s.beta == T(0) ? product : fma(s.beta, old, product);
}

/// How far past the thread's first row (column) C goes, as an int: the
/// bounds checks compare it with each element's constant offset, one 32-bit
/// compare where 64-bit indices took three instructions.
__device__ __forceinline__ int roomPast(long long extent, long long first) {
  const long long room = extent - first;
  return room <= 0 ? 0 : room >= (1 << 30) ? (1 << 30) : int(room);
}

/// Offset of a thread's element `i` from its first: groups of `GROUP`
/// adjacent ones, `STEP` apart.
template <int GROUP, int STEP>
__host__ __device__ constexpr int offsetOf(int i) {
  return (i / GROUP) * STEP + i % GROUP;
}

/// One element through `dst`, whose product term is alpha * acc
/// (+ beta * *dst).
template <class Cfg, OldC Old, class T>
__device__ __forceinline__ void storeScalar(const CStore<T> &s, T *dst, T acc,
                                            long long row, long long col) {
  const T old = readsOld<Old>(s) ? *dst : T(0);
  *dst = finish<Cfg>(s, scaled<Old>(s, acc, old), row, col);
}

/// C_PACK elements through `dst`, whose product terms are alpha * acc[w]
/// (+ beta * dst[w]); `colOf(w)` and `rowOf(w)` place element w.
template <class Cfg, OldC Old, class T, class Acc, class RowOf, class ColOf>
__device__ __forceinline__ void storePack(const CStore<T> &s, T *at, Acc acc,
                                          RowOf rowOf, ColOf colOf) {
  constexpr int C_PACK = Cfg::C_PACK;
  Pack<T, C_PACK> *dst = reinterpret_cast<Pack<T, C_PACK> *>(at);
  Pack<T, C_PACK> old{}, out;
  if (readsOld<Old>(s))
    old = *dst;
#pragma unroll
  for (int w = 0; w < C_PACK; ++w)
    out.v[w] =
        finish<Cfg>(s, scaled<Old>(s, acc(w), old.v[w]), rowOf(w), colOf(w));
  *dst = out;
}

/// C line by line: by rows, or by columns where C_BY_COLUMNS says only its
/// rows are contiguous. One pointer per line; its elements at constant
/// offsets from it and, where in bounds and Vec, in packs of C_PACK.
template <class Cfg, bool Vec, OldC Old, class T>
__device__ __forceinline__ void storeLines(const T (&acc)[Cfg::TM][Cfg::TN],
                                           const CStore<T> &s) {
  constexpr bool BY_COLUMNS = Cfg::C_BY_COLUMNS;
  constexpr int LINES = BY_COLUMNS ? Cfg::TN : Cfg::TM;
  constexpr int ALONG = BY_COLUMNS ? Cfg::TM : Cfg::TN, C_PACK = Cfg::C_PACK;
  const int rowsIn = roomPast(s.m, s.rowBase);
  const int colsIn = roomPast(s.n, s.colBase);
  const int linesIn = BY_COLUMNS ? colsIn : rowsIn;
  const int alongIn = BY_COLUMNS ? rowsIn : colsIn;
  const long long lineStride = BY_COLUMNS ? s.cn : s.cm;
  const long long alongStride = BY_COLUMNS ? s.cm : s.cn;
  T *const first = s.c + s.rowBase * s.cm + s.colBase * s.cn;
#pragma unroll
  for (int i = 0; i < LINES; ++i) {
    const int l = BY_COLUMNS ? offsetOf<Cfg::COL_GROUP, Cfg::COL_STEP>(i)
                             : offsetOf<Cfg::ROW_GROUP, Cfg::ROW_STEP>(i);
    if (l >= linesIn)
      continue;
    T *line = first + l * lineStride;
#pragma unroll
    for (int j = 0; j < ALONG; j += C_PACK) {
      const int a = BY_COLUMNS ? offsetOf<Cfg::ROW_GROUP, Cfg::ROW_STEP>(j)
                               : offsetOf<Cfg::COL_GROUP, Cfg::COL_STEP>(j);
      // Element w of the pack from (line l, place a).
      const auto accOf = [&](int w) {
        return BY_COLUMNS ? acc[j + w][i] : acc[i][j + w];
      };
      const auto rowOf = [&](int w) {
        return s.rowBase + (BY_COLUMNS ? a + w : l);
      };
      const auto colOf = [&](int w) {
        return s.colBase + (BY_COLUMNS ? l : a + w);
      };
      if (C_PACK > 1 && Vec && a + C_PACK - 1 < alongIn) {
        storePack<Cfg, Old>(s, line + a * alongStride, accOf, rowOf, colOf);
        continue;
      }
#pragma unroll
      for (int w = 0; w < C_PACK; ++w)
        if (a + w < alongIn)
          storeScalar<Cfg, Old>(s, line + (a + w) * alongStride, accOf(w),
                                rowOf(w), colOf(w));
    }
  }
}

/// C = act(alpha * acc + beta * C + bias) on this thread's elements. A dmma
/// kernel tests beta once and stores beta == 0 (the usual case) through code
/// of its own: tested at each store, beta cost a compare and a select of both
/// sums there, and a short K loop leaves the stores much of the kernel's time
/// (f64 4096 x 4096 x 64 on an H100: 1.10 times as fast). An FFMA kernel
/// tests it at each store: beside two copies of the stores, ptxas allocated
/// the 254-register K loops of several kernels worse (f32 4096^3 NT and TN
/// 0.97 times as fast, 8192^3 0.975, though K = 64 1.08).
template <class Cfg, bool Vec, class T>
__device__ __forceinline__ void storeC(const T (&acc)[Cfg::TM][Cfg::TN],
                                       const CStore<T> &s) {
  if constexpr (Cfg::DMMA_K == 0)
    storeLines<Cfg, Vec, OldC::PerStore>(acc, s);
  else if (s.beta == T(0))
    storeLines<Cfg, Vec, OldC::Skip>(acc, s);
  else
    storeLines<Cfg, Vec, OldC::Read>(acc, s);
}

} // namespace gemm_kernels

#endif // GEMM_KERNELS_EPILOGUE_CUH
