//===- harness.h - What every fuzz program starts with ----------*- C++ -*-===//
//
// gen.py pastes this file at the top of each program it generates (so the
// program stays one self-contained file): allocation of guarded, poisoned
// regions, random inputs, the norms of the error bound, the dumps that
// compare_fuzz.py reads, and the copies to GPU memory of nvcc builds. Every
// loop here is one loop deep, so gemm-opt sees no candidate nest.
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <valarray>
#include <vector>
#if defined(__CUDACC__) && !defined(FZ_HOST_ONLY)
#include <cuda_runtime.h>
#define FZ_GPU 1
#endif

// Index arithmetic through a macro, as some nests spell it.
#define FZ_IX(r, c, ld) ((r) * (ld) + (c))

// Struct-member views: a matrix's bounds, leading dimension, batch stride and
// elements.
struct FzMatf {
  long rows, cols, ld, sb;
  float *a;
};
struct FzMatd {
  long rows, cols, ld, sb;
  double *a;
};

// What near-misses leave behind: live-out induction variables, counters and
// accumulators, and stores besides C.
static long fz_sink_l;
static double fz_sink_d;
static uint64_t fz_state;

// A call in a nest's body.
static float fz_twice(float x) { return x + x; }
static double fz_twice(double x) { return x + x; }
// Helpers whose visible bodies a nest may be read through (inline_call),
// and one that counts its calls in a global, which the launcher would not
// update (call).
static long fz_calls;
template <class T> static T fz_counted(T x) { ++fz_calls; return x; }
template <class T> static inline T fz_id(T x) { return x; }
template <class T> static inline const T *fz_addr(const T &x) { return &x; }
template <class T> static inline void fz_acc(T *c, T v) { *c += v; }
static unsigned long long fz_bits(float x) {
  uint32_t u;
  memcpy(&u, &x, 4);
  return u;
}
static unsigned long long fz_bits(double x) {
  uint64_t u;
  memcpy(&u, &x, 8);
  return u;
}
static int fz_width(float) { return 8; }
static int fz_width(double) { return 16; }
// A quiet NaN with a payload: whatever reads a guard or an unwritten cell of C
// turns its results into NaN, and the cell itself compares bit for bit.
static void fz_poison(float *p) {
  uint32_t u = 0x7fc0feedu;
  memcpy(p, &u, 4);
}
static void fz_poison(double *p) {
  uint64_t u = 0x7ff80000deadbeefull;
  memcpy(p, &u, 8);
}

// Uniform in [-1, 1), from a 64-bit LCG.
static double fz_next() {
  fz_state = fz_state * 6364136223846793005ull + 1442695040888963407ull;
  return double(fz_state >> 11) * 0x1p-52 - 1.0;
}

template <class T> static T *fz_alloc(long n) {
  T *p = static_cast<T *>(malloc(n * sizeof(T)));
  for (long t = 0; t < n; ++t)
    fz_poison(p + t);
  return p;
}

template <class T> static T *fz_zeros(long n) {
  return static_cast<T *>(calloc(n, sizeof(T)));
}

template <class T> static void fz_fill(T *p, long n, uint64_t seed) {
  fz_state = seed;
  for (long t = 0; t < n; ++t)
    p[t] = T(fz_next());
}

template <class T>
static void fz_fill_masked(T *p, const T *mask, long n, uint64_t seed) {
  fz_state = seed;
  for (long t = 0; t < n; ++t)
    if (mask[t] != 0)
      p[t] = T(fz_next());
}

// The sum of squares of a strided n0 x n1 x n2 box. Poisoned cells (NaN) are
// skipped: a non-rectangular nest writes only part of its box of C.
template <class T>
static double fz_norm2(const T *p, long n0, long s0, long n1, long s1, long n2,
                       long s2) {
  double sum = 0;
  for (long t = 0; t < n0 * n1 * n2; ++t) {
    double x = p[t / (n1 * n2) * s0 + t / n2 % n1 * s1 + t % n2 * s2];
    if (std::isfinite(x))
      sum += x * x;
  }
  return sum;
}

static const char *fz_format(float) { return " %.9g"; }
static const char *fz_format(double) { return " %.17g"; }

template <class T>
static void fz_dump_written(const T *p, const T *mask, long n) {
  long count = 0;
  for (long t = 0; t < n; ++t)
    count += mask[t] != 0;
  printf("w %ld", count);
  for (long t = 0; t < n; ++t)
    if (mask[t] != 0)
      printf(fz_format(p[t]), double(p[t]));
  printf("\n");
}

// Up to 64 consecutive cells that are no run, printed as one FNV-1a hash of
// their tokens: a difference is still seen, to within 64 cells, and the
// random inputs take 1/64 of the room.
struct FzGroup {
  unsigned long long hash;
  long count;
  char first[24];
};

static void fz_flush(FzGroup &g) {
  if (g.count == 1)
    printf(" %s", g.first);
  else if (g.count > 1)
    printf(" #%016llx/%ld", g.hash, g.count);
  g.hash = 1469598103934665603ull;
  g.count = 0;
}

static void fz_emit(FzGroup &g, const char *tok, long run) {
  if (run > 1) {
    fz_flush(g);
    printf(" %s*%ld", tok, run);
    return;
  }
  if (g.count == 0)
    strcpy(g.first, tok);
  for (const char *c = tok; *c; ++c)
    g.hash = (g.hash ^ (unsigned char)*c) * 1099511628211ull;
  g.hash = (g.hash ^ ' ') * 1099511628211ull;
  if (++g.count == 64)
    fz_flush(g);
}

// Every cell of a region: its bit pattern in hex ('.' for a written cell of
// C), runs of equal tokens as tok*count, other cells in hashed groups.
template <class T>
static void fz_dump_cells(const char *tag, const T *p, const T *mask, long n) {
  char prev[24] = "", tok[24] = "";
  long run = 0;
  FzGroup group = {1469598103934665603ull, 0, ""};
  printf("x %s", tag);
  for (long t = 0; t <= n; ++t) {
    if (t < n && mask && mask[t] != 0)
      strcpy(tok, ".");
    else if (t < n)
      snprintf(tok, sizeof tok, "%0*llx", fz_width(p[t]), fz_bits(p[t]));
    if (t == n || strcmp(tok, prev) != 0) {
      if (run > 0)
        fz_emit(group, prev, run);
      strcpy(prev, tok);
      run = 0;
    }
    ++run;
  }
  fz_flush(group);
  printf("\n");
}

// GPU builds put some operands in device (1) or managed (2) memory: the
// region is copied in before the nest and back out after it.
#ifdef FZ_GPU
static void fz_cuda(cudaError_t e, const char *what) {
  if (e != cudaSuccess) {
    fprintf(stderr, "fuzz harness: %s: %s\n", what, cudaGetErrorString(e));
    exit(2);
  }
}

template <class T> static T *fz_place(T *host, long n, int kind) {
  if (kind == 0)
    return host;
  T *p = nullptr;
  if (kind == 1) {
    fz_cuda(cudaMalloc(&p, n * sizeof(T)), "cudaMalloc");
    fz_cuda(cudaMemcpy(p, host, n * sizeof(T), cudaMemcpyHostToDevice),
            "copy in");
  } else {
    fz_cuda(cudaMallocManaged(&p, n * sizeof(T)), "cudaMallocManaged");
    memcpy(p, host, n * sizeof(T));
  }
  return p;
}

template <class T>
static void fz_unplace(T *host, T *placed, long n, int kind) {
  if (kind == 0)
    return;
  fz_cuda(cudaDeviceSynchronize(), "the nest");
  fz_cuda(cudaMemcpy(host, placed, n * sizeof(T), cudaMemcpyDefault),
          "copy out");
  fz_cuda(cudaFree(placed), "cudaFree");
}
#else
template <class T> static T *fz_place(T *host, long, int) { return host; }
template <class T> static void fz_unplace(T *, T *, long, int) {}
#endif
