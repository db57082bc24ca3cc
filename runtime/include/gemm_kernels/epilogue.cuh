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

/// C by rows: one pointer per row, the columns at constant offsets from it.
template <class Cfg, bool Vec, OldC Old, class T>
__device__ __forceinline__ void storeByRows(const T (&acc)[Cfg::TM][Cfg::TN],
                                            const CStore<T> &s) {
  constexpr int TM = Cfg::TM, TN = Cfg::TN, C_PACK = Cfg::C_PACK;
  const int rowsIn = roomPast(s.m, s.rowBase);
  const int colsIn = roomPast(s.n, s.colBase);
  T *const first = s.c + s.rowBase * s.cm + s.colBase * s.cn;
#pragma unroll
  for (int i = 0; i < TM; ++i) {
    const int r = offsetOf<Cfg::ROW_GROUP, Cfg::ROW_STEP>(i);
    if (r >= rowsIn)
      continue;
    const long long row = s.rowBase + r;
    T *rowPtr = first + r * s.cm;
#pragma unroll
    for (int j = 0; j < TN; j += C_PACK) {
      const int col = offsetOf<Cfg::COL_GROUP, Cfg::COL_STEP>(j);
      if (C_PACK > 1 && Vec && col + C_PACK - 1 < colsIn) {
        storePack<Cfg, Old>(
            s, rowPtr + col * s.cn, [&](int w) { return acc[i][j + w]; },
            [&](int) { return row; },
            [&](int w) { return s.colBase + col + w; });
        continue;
      }
#pragma unroll
      for (int w = 0; w < C_PACK; ++w)
        if (col + w < colsIn)
          storeScalar<Cfg, Old>(s, rowPtr + (col + w) * s.cn, acc[i][j + w],
                                row, s.colBase + col + w);
    }
  }
}

/// C by columns, where only its rows are contiguous: one pointer per
/// column, its rows at constant offsets and, where in bounds and aligned,
/// in packs of C_PACK rows.
template <class Cfg, bool Vec, OldC Old, class T>
__device__ __forceinline__ void storeByColumns(const T (&acc)[Cfg::TM][Cfg::TN],
                                               const CStore<T> &s) {
  constexpr int TM = Cfg::TM, TN = Cfg::TN, C_PACK = Cfg::C_PACK;
  const int rowsIn = roomPast(s.m, s.rowBase);
  const int colsIn = roomPast(s.n, s.colBase);
  T *const first = s.c + s.rowBase * s.cm + s.colBase * s.cn;
#pragma unroll
  for (int j = 0; j < TN; ++j) {
    const int c = offsetOf<Cfg::COL_GROUP, Cfg::COL_STEP>(j);
    if (c >= colsIn)
      continue;
    const long long col = s.colBase + c;
    T *colPtr = first + c * s.cn;
#pragma unroll
    for (int i = 0; i < TM; i += C_PACK) {
      const int row = offsetOf<Cfg::ROW_GROUP, Cfg::ROW_STEP>(i);
      if (Vec && C_PACK > 1 && row + C_PACK - 1 < rowsIn) {
        storePack<Cfg, Old>(
            s, colPtr + row * s.cm, [&](int w) { return acc[i + w][j]; },
            [&](int w) { return s.rowBase + row + w; },
            [&](int) { return col; });
        continue;
      }
#pragma unroll
      for (int w = 0; w < C_PACK; ++w)
        if (row + w < rowsIn)
          storeScalar<Cfg, Old>(s, colPtr + (row + w) * s.cm, acc[i + w][j],
                                s.rowBase + row + w, col);
    }
  }
}

/// C = act(alpha * acc + beta * C + bias) on this thread's elements, in
/// the order that C's layout makes contiguous.
template <class Cfg, bool Vec, OldC Old, class T>
__device__ __forceinline__ void storeAll(const T (&acc)[Cfg::TM][Cfg::TN],
                                         const CStore<T> &s) {
  if constexpr (Cfg::C_BY_COLUMNS)
    storeByColumns<Cfg, Vec, Old>(acc, s);
  else
    storeByRows<Cfg, Vec, Old>(acc, s);
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
    storeAll<Cfg, Vec, OldC::PerStore>(acc, s);
  else if (s.beta == T(0))
    storeAll<Cfg, Vec, OldC::Skip>(acc, s);
  else
    storeAll<Cfg, Vec, OldC::Read>(acc, s);
}

} // namespace gemm_kernels

#endif // GEMM_KERNELS_EPILOGUE_CUH
