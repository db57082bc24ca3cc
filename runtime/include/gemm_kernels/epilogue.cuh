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

/// alpha * acc + beta * old, or alpha * acc alone where beta is 0 (and
/// `old` unread), as a select rather than a branch: a branch would
/// double each store's code, and nvcc's time.
template <class T>
__device__ __forceinline__ T scaled(const CStore<T> &s, T acc, T old) {
  return s.beta == T(0) ? s.alpha * acc : s.alpha * acc + s.beta * old;
}

/// One element through `dst`, whose product term is alpha * acc
/// (+ beta * *dst).
template <class Cfg, class T>
__device__ __forceinline__ void storeScalar(const CStore<T> &s, T *dst, T acc,
                                            long long row, long long col) {
  const T old = s.beta == T(0) ? T(0) : *dst;
  *dst = finish<Cfg>(s, scaled(s, acc, old), row, col);
}

/// C_PACK elements through `dst`, whose product terms are alpha * acc[w]
/// (+ beta * dst[w]); `colOf(w)` and `rowOf(w)` place element w.
template <class Cfg, class T, class Acc, class RowOf, class ColOf>
__device__ __forceinline__ void storePack(const CStore<T> &s, T *at, Acc acc,
                                          RowOf rowOf, ColOf colOf) {
  constexpr int C_PACK = Cfg::C_PACK;
  Pack<T, C_PACK> *dst = reinterpret_cast<Pack<T, C_PACK> *>(at);
  Pack<T, C_PACK> old{}, out;
  if (s.beta != T(0))
    old = *dst;
#pragma unroll
  for (int w = 0; w < C_PACK; ++w)
    out.v[w] = finish<Cfg>(s, scaled(s, acc(w), old.v[w]), rowOf(w), colOf(w));
  *dst = out;
}

/// C by rows: column offsets and bounds once, so that a row needs one
/// pointer (per-element addresses would crowd out the accumulators).
template <class Cfg, bool Vec, class T>
__device__ __forceinline__ void storeByRows(const T (&acc)[Cfg::TM][Cfg::TN],
                                            const CStore<T> &s) {
  constexpr int TM = Cfg::TM, TN = Cfg::TN, C_PACK = Cfg::C_PACK;
  long long colOffset[TN];
  bool colIn[TN];
  const auto colOf = [&](int j) {
    return s.colBase + (j / Cfg::COL_GROUP) * Cfg::COL_STEP +
           j % Cfg::COL_GROUP;
  };
#pragma unroll
  for (int j = 0; j < TN; ++j) {
    const long long col = colOf(j);
    colOffset[j] = col * s.cn;
    colIn[j] = col < s.n;
  }
#pragma unroll
  for (int i = 0; i < TM; ++i) {
    const long long row = s.rowBase + (i / Cfg::ROW_GROUP) * Cfg::ROW_STEP +
                          i % Cfg::ROW_GROUP;
    if (row >= s.m)
      continue;
    T *rowPtr = s.c + row * s.cm;
#pragma unroll
    for (int j = 0; j < TN; j += C_PACK) {
      if (C_PACK > 1 && Vec && colIn[j + C_PACK - 1]) {
        storePack<Cfg>(
            s, rowPtr + colOffset[j], [&](int w) { return acc[i][j + w]; },
            [&](int) { return row; }, [&](int w) { return colOf(j + w); });
        continue;
      }
#pragma unroll
      for (int w = 0; w < C_PACK; ++w) {
        if (!colIn[j + w])
          continue;
        storeScalar<Cfg>(s, rowPtr + colOffset[j + w], acc[i][j + w], row,
                         colOf(j + w));
      }
    }
  }
}

/// C by columns, where only its rows are contiguous: each column of the
/// thread's tile through one pointer, its rows at constant offsets and,
/// where aligned, in packs of C_PACK rows; no per-column offsets stay live
/// across the tile.
template <class Cfg, bool Vec, class T>
__device__ __forceinline__ void
storeByColumns(const T (&acc)[Cfg::TM][Cfg::TN], const CStore<T> &s) {
  constexpr int TM = Cfg::TM, TN = Cfg::TN, C_PACK = Cfg::C_PACK;
#pragma unroll
  for (int j = 0; j < TN; ++j) {
    const long long col = s.colBase + (j / Cfg::COL_GROUP) * Cfg::COL_STEP +
                          j % Cfg::COL_GROUP;
    if (col >= s.n)
      continue;
    T *colPtr = s.c + col * s.cn + s.rowBase;
#pragma unroll
    for (int i = 0; i < TM; i += C_PACK) {
      const int offset = (i / Cfg::ROW_GROUP) * Cfg::ROW_STEP +
                         i % Cfg::ROW_GROUP;
      if (Vec && C_PACK > 1 && s.rowBase + offset + C_PACK - 1 < s.m) {
        storePack<Cfg>(
            s, colPtr + offset, [&](int w) { return acc[i + w][j]; },
            [&](int w) { return s.rowBase + offset + w; },
            [&](int) { return col; });
        continue;
      }
#pragma unroll
      for (int w = 0; w < C_PACK; ++w) {
        if (s.rowBase + offset + w >= s.m)
          continue;
        storeScalar<Cfg>(s, colPtr + offset + w, acc[i + w][j],
                         s.rowBase + offset + w, col);
      }
    }
  }
}

/// C = act(alpha * acc + beta * C + bias) on this thread's elements.
template <class Cfg, bool Vec, class T>
__device__ __forceinline__ void storeC(const T (&acc)[Cfg::TM][Cfg::TN],
                                       const CStore<T> &s) {
  if constexpr (Cfg::C_BY_COLUMNS)
    storeByColumns<Cfg, Vec>(acc, s);
  else
    storeByRows<Cfg, Vec>(acc, s);
}

} // namespace gemm_kernels

#endif // GEMM_KERNELS_EPILOGUE_CUH
