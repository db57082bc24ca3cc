//===- gemms.h - The benchmark's GEMMs, rewritten by gemm-opt ---*- C++ -*-===//
//
// The functions of bench/inputs/*.cpp. bench/gen.sh rewrites each file into
// .gpu/bench/<name>.cu, compiled as a translation unit of its own, and
// bench.cu calls them through these declarations: row-major matrices,
// C = alpha * op(A) * op(B) + beta * C, _nt/_tn/_tt transposing B, A or both
// (a transposed operand is stored the other way round), _batched an NN GEMM
// on `batch` matrices strideA/B/C elements apart.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_OPT_BENCH_GEMMS_H
#define GEMM_OPT_BENCH_GEMMS_H

template <class T>
using Gemm = void (*)(long m, long n, long k, T alpha, const T *A, long lda,
                      const T *B, long ldb, T beta, T *C, long ldc);
template <class T>
using BatchedGemm = void (*)(long batch, long m, long n, long k, T alpha,
                             const T *A, long lda, long strideA, const T *B,
                             long ldb, long strideB, T beta, T *C, long ldc,
                             long strideC);

// The functions, their names prefixed by P: bench.cu with -DBENCH_BASE
// also declares a baseline set (bench/run.sh BENCH_BASE=DIR), the same
// functions as another gemm-opt rewrote them, renamed base_*.
#define BENCH_GEMMS(P)                                                         \
  void P##sgemm_nn(long, long, long, float, const float *, long,              \
                   const float *, long, float, float *, long);                \
  void P##sgemm_nt(long, long, long, float, const float *, long,              \
                   const float *, long, float, float *, long);                \
  void P##sgemm_tn(long, long, long, float, const float *, long,              \
                   const float *, long, float, float *, long);                \
  void P##sgemm_tt(long, long, long, float, const float *, long,              \
                   const float *, long, float, float *, long);                \
  void P##sgemm_batched(long, long, long, long, float, const float *, long,   \
                        long, const float *, long, long, float, float *,      \
                        long, long);                                           \
  void P##dgemm_nn(long, long, long, double, const double *, long,            \
                   const double *, long, double, double *, long);             \
  void P##dgemm_nt(long, long, long, double, const double *, long,            \
                   const double *, long, double, double *, long);             \
  void P##dgemm_tn(long, long, long, double, const double *, long,            \
                   const double *, long, double, double *, long);             \
  void P##dgemm_tt(long, long, long, double, const double *, long,            \
                   const double *, long, double, double *, long);             \
  void P##dgemm_batched(long, long, long, long, double, const double *, long, \
                        long, const double *, long, long, double, double *,   \
                        long, long);

BENCH_GEMMS()
#ifdef BENCH_BASE
BENCH_GEMMS(base_)
#endif

#endif // GEMM_OPT_BENCH_GEMMS_H
