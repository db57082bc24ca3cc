// bench/tf32/tf32_bench.cu - side-by-side benchmark and accuracy check of the
// wgmma TF32 / 3xTF32 kernel (runtime/include/gemm_tensor/wgmma_tf32.cuh)
// against cuBLAS, in one process.
//
//   tf32_bench [--reps N] [MxNxK ...]      (default: 4096^3 8192^3 1000^3
//                                           4097x4096x4096 333x999x2044 77x130x36 1x1x4)
//
// Per shape: three input distributions (uniform [-1,1]; normal(0,1); random
// sign * 2^e with e uniform in [-20,20] and a uniform mantissa). Layouts:
//   NN: B row-major K x N. ours = transpose (+ split) pre-pass + kernel.
//   NT: B column-major (Bt = N x K row-major), the kernel's native layout.
// Variants: ours tf32, ours 3xtf32, cublas tf32 (cublasGemmEx with
// CUBLAS_COMPUTE_32F_FAST_TF32), cublas fp32 (CUBLAS_COMPUTE_32F_PEDANTIC).
// "ours tf32 krn" in NN is the kernel alone (pre-pass excluded), for reference.
// Timing (uniform inputs only): 3 warm-ups, then the median of --reps (20)
// runs timed one by one with CUDA events. Pre-passes of ours are inside the
// timed region (except the "krn" row), and so is split-K's reduction where K
// is split (every row of ours; the variant's name then ends in S=<slices>).
// Its workspace, like the other buffers, is allocated once per shape.
//
// Error, against an FP64 reference computed on the GPU (alpha=1, beta=0, C
// poisoned with NaN before each call, so reading C when beta == 0 shows, and
// split-K's workspace too, so a partial sum never written shows):
//   frob = ||C - Cref||_F / ||Cref||_F                 (the criterion metric)
//   cw   = max_ij |C - Cref|_ij / (|A| |B|)_ij         (componentwise, normalised)
// Checks (the program exits 1 when one fails):
//   ours tf32:   cw <= 2^-9 + K * 2^-23 (tf32 truncation of both operands,
//                2^-10 each, plus fp32 accumulation with 2x slack) and frob <= 2^-7;
//   ours 3xtf32: frob <= 2 * frob(cublas fp32 pedantic) on the same inputs,
//                and cw <= 2^-18 + K * 2^-23;
//   epilogue:    ours (NT, tf32) with alpha = 1.5, beta = -0.5 on a random C,
//                cw against 1.5 Cref - 0.5 C0 (denominator 1.5|A||B| + 0.5|C0|).
// TFLOP/s use 2*M*N*K flops. Ratio: ours / the matching cuBLAS of the same
// layout (tf32 -> cublas tf32, 3xtf32 -> cublas fp32).
#include "gemm_tensor/wgmma_tf32.cuh"

#include <cublas_v2.h>
#include <curand_kernel.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#define CK(x)                                                                                     \
  do {                                                                                            \
    cudaError_t e_ = (x);                                                                         \
    if (e_ != cudaSuccess) {                                                                      \
      fprintf(stderr, "CUDA error %s at %s:%d: %s\n", cudaGetErrorString(e_), __FILE__, __LINE__, \
              #x);                                                                                \
      exit(2);                                                                                    \
    }                                                                                             \
  } while (0)
#define CB(x)                                                                        \
  do {                                                                               \
    cublasStatus_t s_ = (x);                                                         \
    if (s_ != CUBLAS_STATUS_SUCCESS) {                                               \
      fprintf(stderr, "cuBLAS error %d at %s:%d: %s\n", (int)s_, __FILE__, __LINE__, #x); \
      exit(2);                                                                       \
    }                                                                                \
  } while (0)

// ---------------------------------------------------------------- inputs
__global__ void fill_kernel(float* p, size_t n, int dist, unsigned long long seed) {
  size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  curandStatePhilox4_32_10_t st;
  curand_init(seed, i, 0, &st);
  for (; i < n; i += stride) {
    float v;
    if (dist == 0) {
      v = 2.f * curand_uniform(&st) - 1.f;
    } else if (dist == 1) {
      v = curand_normal(&st);
    } else {
      const float m = 1.f + curand_uniform(&st);                 // [1, 2)
      const int e = static_cast<int>(curand(&st) % 41u) - 20;    // [-20, 20]
      const float s = (curand(&st) & 1u) ? 1.f : -1.f;
      v = s * ldexpf(m, e);
    }
    p[i] = v;
  }
}
__global__ void fill_const(float* p, size_t n, float v) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<size_t>(gridDim.x) * blockDim.x)
    p[i] = v;
}

// ---------------------------------------------------------------- FP64 reference
// Cref = A*B and Cabs = |A|*|B| in double; A M x K (ld K), B K x N (ld N), row-major.
constexpr int RT = 16;
__global__ void ref_kernel(const float* A, const float* B, double* Cref, double* Cabs, int M, int N, int K) {
  __shared__ double sa[RT][RT + 1], sb[RT][RT + 1];
  const int r = blockIdx.y * RT + threadIdx.y, c = blockIdx.x * RT + threadIdx.x;
  double s = 0, sabs = 0;
  for (int k0 = 0; k0 < K; k0 += RT) {
    const int ka = k0 + threadIdx.x, kb = k0 + threadIdx.y;
    sa[threadIdx.y][threadIdx.x] = (r < M && ka < K) ? A[static_cast<size_t>(r) * K + ka] : 0.0;
    sb[threadIdx.y][threadIdx.x] = (kb < K && c < N) ? B[static_cast<size_t>(kb) * N + c] : 0.0;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < RT; ++k) {
      const double a = sa[threadIdx.y][k], b = sb[k][threadIdx.x];
      s = fma(a, b, s);
      sabs = fma(fabs(a), fabs(b), sabs);
    }
    __syncthreads();
  }
  if (r < M && c < N) {
    Cref[static_cast<size_t>(r) * N + c] = s;
    Cabs[static_cast<size_t>(r) * N + c] = sabs;
  }
}

// Per block: sum (C-ref)^2, sum ref^2, max |C-ref|/den (NaN -> inf). ref =
// alpha*Cref + beta*C0, den = |alpha|*Cabs + |beta|*|C0| (C0 may be null).
__global__ void err_kernel(const float* C, const double* Cref, const double* Cabs, const float* C0, double alpha,
                           double beta, size_t n, double* out) {
  double se = 0, sr = 0, mx = 0;
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    const double c0 = C0 ? static_cast<double>(C0[i]) : 0.0;
    const double ref = alpha * Cref[i] + beta * c0;
    const double den = fabs(alpha) * Cabs[i] + fabs(beta) * fabs(c0);
    const double c = C[i];
    const double d = c - ref;
    if (!isfinite(c)) {
      mx = INFINITY;
      se = INFINITY;
    } else {
      se += d * d;
      const double q = den > 0 ? fabs(d) / den : (d != 0 ? INFINITY : 0.0);
      mx = fmax(mx, q);
    }
    sr += ref * ref;
  }
  __shared__ double s1[256], s2[256], s3[256];
  s1[threadIdx.x] = se;
  s2[threadIdx.x] = sr;
  s3[threadIdx.x] = mx;
  __syncthreads();
  for (int o = blockDim.x / 2; o > 0; o >>= 1) {
    if (threadIdx.x < o) {
      s1[threadIdx.x] += s1[threadIdx.x + o];
      s2[threadIdx.x] += s2[threadIdx.x + o];
      s3[threadIdx.x] = fmax(s3[threadIdx.x], s3[threadIdx.x + o]);
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    out[3 * blockIdx.x] = s1[0];
    out[3 * blockIdx.x + 1] = s2[0];
    out[3 * blockIdx.x + 2] = s3[0];
  }
}

struct Err {
  double frob, cw;
};
static double* g_part = nullptr;
constexpr int ERR_BLOCKS = 1024;
static Err measure(const float* C, const double* Cref, const double* Cabs, size_t n, const float* C0 = nullptr,
                   double alpha = 1, double beta = 0) {
  err_kernel<<<ERR_BLOCKS, 256>>>(C, Cref, Cabs, C0, alpha, beta, n, g_part);
  CK(cudaGetLastError());
  std::vector<double> h(3 * ERR_BLOCKS);
  CK(cudaMemcpy(h.data(), g_part, h.size() * sizeof(double), cudaMemcpyDeviceToHost));
  double se = 0, sr = 0, mx = 0;
  for (int b = 0; b < ERR_BLOCKS; ++b) {
    se += h[3 * b];
    sr += h[3 * b + 1];
    mx = std::max(mx, h[3 * b + 2]);
  }
  return {sr > 0 ? std::sqrt(se / sr) : std::sqrt(se), mx};
}

// ---------------------------------------------------------------- ours
struct Bufs {
  float *A, *B, *Bt, *C, *C0, *Ahi, *Alo, *Bhi, *Blo, *Tt;  // Tt: scratch N x K for the NN pre-pass
  float* W;  // split-K's partial sums: S x M x N floats for the larger S of tf32 and 3xtf32 (null: S = 1)
};

// K slices of ours for variant v (splitk_slices of its tile width).
static int slices(int v, int M, int N, int K) {
  return tf32k::splitk_slices(M, N, K, v == 2 || v == 4 ? tf32k::X3_BN : tf32k::TF32_BN);
}

static void transpose(const float* B, int K, int N, float* hi, float* lo, bool split) {
  tf32k::gather(B, N, K, 1, N, hi, split ? lo : nullptr, K);
}
static void split(const float* X, int rows, int cols, float* hi, float* lo) {
  tf32k::gather(X, rows, cols, cols, 1, hi, lo, cols);
}

static bool g_launch_ok = true;
// variant: 0 = tf32 NN (pre-pass + kernel), 1 = tf32 NN kernel only (Tt must hold Bt),
// 2 = 3x NN, 3 = tf32 NT, 4 = 3x NT
static void run_ours(int v, Bufs& b, int M, int N, int K, float alpha, float beta) {
  using namespace tf32k;
  const int S = slices(v, M, N, K);
  bool ok = true;
  switch (v) {
    case 0:
      transpose(b.B, K, N, b.Tt, nullptr, false);
      ok = launch_kmajor<TF32_BN, TF32_STAGES, false>(b.A, nullptr, K, b.Tt, nullptr, K, b.C, N, M, N, K, alpha, beta,
                                                      S, b.W);
      break;
    case 1:
      ok = launch_kmajor<TF32_BN, TF32_STAGES, false>(b.A, nullptr, K, b.Tt, nullptr, K, b.C, N, M, N, K, alpha, beta,
                                                      S, b.W);
      break;
    case 2:
      split(b.A, M, K, b.Ahi, b.Alo);
      transpose(b.B, K, N, b.Bhi, b.Blo, true);
      ok = launch_kmajor<X3_BN, X3_STAGES, true>(b.Ahi, b.Alo, K, b.Bhi, b.Blo, K, b.C, N, M, N, K, alpha, beta, S,
                                                 b.W);
      break;
    case 3:
      ok = launch_kmajor<TF32_BN, TF32_STAGES, false>(b.A, nullptr, K, b.Bt, nullptr, K, b.C, N, M, N, K, alpha, beta,
                                                      S, b.W);
      break;
    case 4:
      split(b.A, M, K, b.Ahi, b.Alo);
      split(b.Bt, N, K, b.Bhi, b.Blo);
      ok = launch_kmajor<X3_BN, X3_STAGES, true>(b.Ahi, b.Alo, K, b.Bhi, b.Blo, K, b.C, N, M, N, K, alpha, beta, S,
                                                 b.W);
      break;
  }
  if (!ok) g_launch_ok = false;
}

// cuBLAS, row-major C = A*B computed as column-major C^T = B^T A^T.
// nt = false: B row-major K x N (ld N); nt = true: Bt N x K (ld K).
static void run_cublas(cublasHandle_t h, bool tf32, bool nt, Bufs& b, int M, int N, int K, float alpha,
                       float beta) {
  const cublasComputeType_t ct = tf32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F_PEDANTIC;
  if (!nt)
    CB(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &alpha, b.B, CUDA_R_32F, N, b.A, CUDA_R_32F, K, &beta,
                    b.C, CUDA_R_32F, N, ct, CUBLAS_GEMM_DEFAULT));
  else
    CB(cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, N, M, K, &alpha, b.Bt, CUDA_R_32F, K, b.A, CUDA_R_32F, K, &beta,
                    b.C, CUDA_R_32F, N, ct, CUBLAS_GEMM_DEFAULT));
}

template <class F>
static double time_median(F f, int reps) {
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  for (int i = 0; i < 3; ++i) f();
  CK(cudaDeviceSynchronize());
  std::vector<float> ms;
  for (int i = 0; i < reps; ++i) {
    CK(cudaEventRecord(e0));
    f();
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    float t;
    CK(cudaEventElapsedTime(&t, e0, e1));
    ms.push_back(t);
  }
  CK(cudaEventDestroy(e0));
  CK(cudaEventDestroy(e1));
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

int main(int argc, char** argv) {
  int reps = 20;
  std::vector<std::array<int, 3>> shapes;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--reps") && i + 1 < argc) {
      reps = atoi(argv[++i]);
      continue;
    }
    int m, n, k;
    if (sscanf(argv[i], "%dx%dx%d", &m, &n, &k) == 3 && m > 0 && n > 0 && k > 0) {
      shapes.push_back({m, n, k});
    } else {
      fprintf(stderr, "usage: %s [--reps N] [MxNxK ...]  (K must be a multiple of 4)\n", argv[0]);
      return 2;
    }
  }
  if (shapes.empty())
    shapes = {{4096, 4096, 4096}, {8192, 8192, 8192}, {1000, 1000, 1000}, {4097, 4096, 4096},
              {333, 999, 2044}, {77, 130, 36}, {1, 1, 4}};

  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  int rtv = 0, cbv = 0;
  CK(cudaRuntimeGetVersion(&rtv));
  cublasHandle_t h;
  CB(cublasCreate(&h));
  CB(cublasGetVersion(h, &cbv));
  printf("# tf32_bench on %s (sm_%d%d, %d SMs), CUDA runtime %d, cuBLAS %d, reps %d, TF32K_PERSISTENT %d, "
         "TF32K_GROUP_M %d, TF32K_SPLITK %d\n",
         prop.name, prop.major, prop.minor, prop.multiProcessorCount, rtv, cbv, reps, TF32K_PERSISTENT, TF32K_GROUP_M,
         TF32K_SPLITK);
  if (prop.major != 9) {
    fprintf(stderr, "needs a Hopper (sm_90) GPU\n");
    return 2;
  }
  CK(cudaMalloc(&g_part, 3 * ERR_BLOCKS * sizeof(double)));

  const char* dname[3] = {"uniform", "normal", "exp2^-20..20"};
  const char* vname[] = {"ours tf32", "ours tf32 krn", "ours 3xtf32", "ours tf32", "ours 3xtf32"};
  bool fail = false;
  printf("\n| shape MxNxK | layout | dist | variant | ms | TFLOP/s | ratio | frob err | cw err | check |\n");
  printf("|---|---|---|---|---|---|---|---|---|---|\n");

  for (auto& s : shapes) {
    const int M = s[0], N = s[1], K = s[2];
    if (K % 4) {
      printf("| %dx%dx%d | - | - | skipped: K %% 4 != 0 (TMA needs 16-byte row strides) |\n", M, N, K);
      continue;
    }
    const size_t nA = (size_t)M * K, nB = (size_t)K * N, nC = (size_t)M * N;
    // ours' variant names, with S where K is split
    auto label = [&](int v) {
      const int S = slices(v, M, N, K);
      return std::string(vname[v]) + (S > 1 ? " S=" + std::to_string(S) : "");
    };
    Bufs b;
    CK(cudaMalloc(&b.A, nA * 4));
    CK(cudaMalloc(&b.B, nB * 4));
    CK(cudaMalloc(&b.Bt, nB * 4));
    CK(cudaMalloc(&b.Tt, nB * 4));
    CK(cudaMalloc(&b.C, nC * 4));
    CK(cudaMalloc(&b.C0, nC * 4));
    CK(cudaMalloc(&b.Ahi, nA * 4));
    CK(cudaMalloc(&b.Alo, nA * 4));
    CK(cudaMalloc(&b.Bhi, nB * 4));
    CK(cudaMalloc(&b.Blo, nB * 4));
    const int maxS = std::max(slices(3, M, N, K), slices(4, M, N, K));
    b.W = nullptr;
    if (maxS > 1) CK(cudaMalloc(&b.W, maxS * nC * 4));
    double *Cref, *Cabs;
    CK(cudaMalloc(&Cref, nC * 8));
    CK(cudaMalloc(&Cabs, nC * 8));
    const double flops = 2.0 * M * N * K;

    for (int d = 0; d < 3; ++d) {
      fill_kernel<<<1024, 256>>>(b.A, nA, d, 1234 + 17 * d);
      fill_kernel<<<1024, 256>>>(b.B, nB, d, 9876 + 31 * d);
      fill_kernel<<<1024, 256>>>(b.C0, nC, 0, 555);
      CK(cudaGetLastError());
      transpose(b.B, K, N, b.Bt, nullptr, false);  // the NT operand (B column-major)
      CK(cudaMemcpy(b.Tt, b.Bt, nB * 4, cudaMemcpyDeviceToDevice));
      dim3 rg((N + RT - 1) / RT, (M + RT - 1) / RT), rb(RT, RT);
      ref_kernel<<<rg, rb>>>(b.A, b.B, Cref, Cabs, M, N, K);
      CK(cudaGetLastError());
      CK(cudaDeviceSynchronize());

      for (int layout = 0; layout < 2; ++layout) {
        const bool nt = layout == 1;
        const char* lname = nt ? "NT" : "NN";
        // cuBLAS first (their errors and times are the yardsticks)
        double ms_cb[2] = {0, 0};
        Err e_cb[2];
        for (int t = 0; t < 2; ++t) {  // 0 = tf32, 1 = fp32 pedantic
          fill_const<<<1024, 256>>>(b.C, nC, NAN);
          run_cublas(h, t == 0, nt, b, M, N, K, 1.f, 0.f);
          CK(cudaDeviceSynchronize());
          e_cb[t] = measure(b.C, Cref, Cabs, nC);
          if (d == 0) ms_cb[t] = time_median([&] { run_cublas(h, t == 0, nt, b, M, N, K, 1.f, 0.f); }, reps);
        }
        std::vector<int> vs = nt ? std::vector<int>{3, 4} : std::vector<int>{0, 1, 2};
        for (int v : vs) {
          const bool x3 = (v == 2 || v == 4);
          g_launch_ok = true;
          if (v == 1) CK(cudaMemcpy(b.Tt, b.Bt, nB * 4, cudaMemcpyDeviceToDevice));
          fill_const<<<1024, 256>>>(b.C, nC, NAN);
          if (b.W) fill_const<<<1024, 256>>>(b.W, maxS * nC, NAN);
          run_ours(v, b, M, N, K, 1.f, 0.f);
          CK(cudaGetLastError());
          CK(cudaDeviceSynchronize());
          Err e = measure(b.C, Cref, Cabs, nC);
          bool ok = g_launch_ok;
          if (!x3) {
            ok = ok && e.cw <= std::ldexp(1.0, -9) + K * std::ldexp(1.0, -23) && e.frob <= std::ldexp(1.0, -7);
          } else {
            ok = ok && e.frob <= 2.0 * e_cb[1].frob && e.cw <= std::ldexp(1.0, -18) + K * std::ldexp(1.0, -23);
          }
          double ms = 0;
          if (d == 0) ms = time_median([&] { run_ours(v, b, M, N, K, 1.f, 0.f); }, reps);
          const double ref_ms = x3 ? ms_cb[1] : ms_cb[0];
          if (d == 0)
            printf("| %dx%dx%d | %s | %s | %s | %.3f | %.1f | %.2f | %.3e | %.3e | %s |\n", M, N, K, lname, dname[d],
                   label(v).c_str(), ms, flops / ms * 1e-9, ref_ms / ms, e.frob, e.cw, ok ? "ok" : "FAIL");
          else
            printf("| %dx%dx%d | %s | %s | %s | - | - | - | %.3e | %.3e | %s |\n", M, N, K, lname, dname[d],
                   label(v).c_str(), e.frob, e.cw, ok ? "ok" : "FAIL");
          if (!ok) fail = true;
        }
        for (int t = 0; t < 2; ++t) {
          if (d == 0)
            printf("| %dx%dx%d | %s | %s | %s | %.3f | %.1f | 1.00 | %.3e | %.3e | |\n", M, N, K, lname, dname[d],
                   t == 0 ? "cublas tf32" : "cublas fp32", ms_cb[t], flops / ms_cb[t] * 1e-9, e_cb[t].frob, e_cb[t].cw);
          else
            printf("| %dx%dx%d | %s | %s | %s | - | - | - | %.3e | %.3e | |\n", M, N, K, lname, dname[d],
                   t == 0 ? "cublas tf32" : "cublas fp32", e_cb[t].frob, e_cb[t].cw);
        }
      }
      if (d == 0) {  // epilogue check: alpha = 1.5, beta = -0.5 on a random C (NT, tf32 and 3x)
        for (int v : {3, 4}) {
          g_launch_ok = true;
          CK(cudaMemcpy(b.C, b.C0, nC * 4, cudaMemcpyDeviceToDevice));
          if (b.W) fill_const<<<1024, 256>>>(b.W, maxS * nC, NAN);
          run_ours(v, b, M, N, K, 1.5f, -0.5f);
          CK(cudaDeviceSynchronize());
          Err e = measure(b.C, Cref, Cabs, nC, b.C0, 1.5, -0.5);
          const double bound = (v == 3 ? std::ldexp(1.0, -9) : std::ldexp(1.0, -18)) + K * std::ldexp(1.0, -23);
          const bool ok = g_launch_ok && e.cw <= bound;
          printf("| %dx%dx%d | NT | %s | %s alpha=1.5 beta=-0.5 | - | - | - | %.3e | %.3e | %s |\n", M, N, K,
                 dname[d], label(v).c_str(), e.frob, e.cw, ok ? "ok" : "FAIL");
          if (!ok) fail = true;
        }
      }
      fflush(stdout);
    }
    for (float* p : {b.A, b.B, b.Bt, b.Tt, b.C, b.C0, b.Ahi, b.Alo, b.Bhi, b.Blo, b.W}) CK(cudaFree(p));
    CK(cudaFree(Cref));
    CK(cudaFree(Cabs));
  }
  CB(cublasDestroy(h));
  printf("\n%s\n", fail ? "RESULT: FAIL (an accuracy or launch check failed)" : "RESULT: all checks passed");
  return fail ? 1 : 0;
}
