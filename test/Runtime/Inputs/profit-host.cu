//===- profit-host.cu - The profitability rule and the panel planner ------===//
//
// Prints where gemm_rt::detail::route sends calls with host operands on a
// made-up machine (copy threads 20 GB/s unless said, the link 50 GB/s each
// way, 132 SMs) with the bench's DGEMM plan for the H200 (choose-host.cu's),
// and how the GPU's calls are staged: one operand whole where it fits the
// device budget, else B in blocks of columns. Host code: no GPU is needed.
//
//===----------------------------------------------------------------------===//
#include "host/profit.h"

#include <cstdio>

using namespace gemm_rt::detail;

namespace {

cudaError_t none(const gemm_rt::Problem &, cudaStream_t) {
  return cudaSuccess;
}

const gemm_rt::Variant variants[] = {
    {none, 128, 128, 1, 66908.2, 0.5, 1.0},
    {none, 64, 128, 1, 49719.9, 0.5, 1.0},
    {none, 256, 64, 1, 52191.0, 1.0, 1.0},
};
const gemm_rt::Plan plan{variants, 3, 4800.0};

// One kernel compiled for B's N stride as a static 1 (its runs<>), and one
// compiled for a unit K stride, which no row-major B has.
bool unitN(const gemm_rt::Problem &p) { return p.b.sc == 1 || p.n <= 1; }
bool unitK(const gemm_rt::Problem &p) { return p.b.sr == 1 || p.k <= 1; }
const gemm_rt::Variant rowB[] = {
    {none, 128, 128, 1, 66908.2, 0.5, 1.0, nullptr, unitN}};
const gemm_rt::Variant colB[] = {
    {none, 128, 128, 1, 66908.2, 0.5, 1.0, nullptr, unitK}};

size_t budget = size_t(64) << 30;
double hostGBs = 20;
Machine machine(const char *) { return {{hostGBs, 50, 50}, 132, budget}; }

void show(const char *what, gemm_rt::DType type, int64_t m, int64_t n,
          int64_t k, Profitability mode = Profitability::Model,
          bool colMajorC = false, bool tiedB = false,
          const gemm_rt::Plan &plan = plan, bool hostB = true,
          size_t held = 0) {
  // Row-major A and B (or a B whose rows overlap: both strides 1); C row-
  // or column-major; beta == 0.
  gemm_rt::Problem p{what, type, 1, m, n, k, {nullptr, 0, k, 1},
                     {nullptr, 0, n, 1}, {nullptr, 0, n, 1}, 1.0, 0.0};
  if (colMajorC)
    p.c = {nullptr, 0, 1, m};
  if (tiedB)
    p.b = {nullptr, 0, 1, 1};
  const Route r = route(p, plan, {true, hostB, true}, mode, machine, held);
  std::printf("%s: %s (%s)", what, r.gpu ? "GPU" : "loop", r.why.c_str());
  if (r.gpu)
    std::printf(", %lld panel(s) of %lld %s, B in blocks of %lld",
                (long long)r.stage.panels, (long long)r.stage.rows,
                r.stage.alongN ? "columns" : "rows", (long long)r.stage.cols);
  std::printf("\n");
}

} // namespace

int main() {
  using gemm_rt::DType;
  show("4^3 f32", DType::F32, 4, 4, 4);
  show("32^3 f32", DType::F32, 32, 32, 32);
  show("32^3 f64", DType::F64, 32, 32, 32);
  show("gemv 4096 f32", DType::F32, 4096, 1, 4096);
  show("gemv 4096 f64", DType::F64, 4096, 1, 4096);
  show("512^3 f64", DType::F64, 512, 512, 512);
  show("4096^3 f64", DType::F64, 4096, 4096, 4096);
  show("4096^3 f64, C column-major", DType::F64, 4096, 4096, 4096,
       Profitability::Model, true);
  show("4^3 f32 always-gpu", DType::F32, 4, 4, 4, Profitability::Gpu);
  show("4096^3 f64 always-loop", DType::F64, 4096, 4096, 4096,
       Profitability::Loop);
  // Where the copy threads keep up with the link, a product with half as
  // many rows as columns sends its A whole and B in panels (along N),
  // though C is row-major: the kernels wait for the smaller whole operand.
  hostGBs = 100;
  show("4096x8192x8192 f64, copy threads at 100 GB/s", DType::F64, 4096,
       8192, 8192);
  show("8192^3 f64, copy threads at 100 GB/s", DType::F64, 8192, 8192, 8192);
  hostGBs = 20;
  // Staged along N, B's dense copy would keep its K stride as the unit one
  // (a tie); the kernel runs only along M, in one panel, the faster way
  // anyway. A kernel that takes K as B's unit stride runs only along N.
  show("2x2x142 f32, B's strides tied, C column-major", DType::F32, 2, 2, 142,
       Profitability::Gpu, true, true, {rowB, 1, 4800.0});
  show("2x2x142 f32, B's strides tied, C column-major, a K-unit kernel",
       DType::F32, 2, 2, 142, Profitability::Gpu, true, true,
       {colB, 1, 4800.0});
  budget = size_t(256) << 20;
  show("4096^3 f64 in 256 MiB", DType::F64, 4096, 4096, 4096);
  budget = size_t(64) << 20;
  show("4096^3 f64 in 64 MiB", DType::F64, 4096, 4096, 4096);
  show("4096^3 f64 in 64 MiB, C column-major", DType::F64, 4096, 4096, 4096,
       Profitability::Model, true);
  // A split call's share, B copied to its GPU already: the bytes that
  // B's copy still needs come out of the budget.
  show("2048x4096x4096 f64, B on the GPU, in 64 MiB", DType::F64, 2048, 4096,
       4096, Profitability::Model, false, false, plan, false);
  show("2048x4096x4096 f64, B on the GPU, in 64 MiB, 48 MiB held",
       DType::F64, 2048, 4096, 4096, Profitability::Model, false, false, plan,
       false, size_t(48) << 20);
  budget = size_t(64) << 10;
  show("4096^3 f64 in 64 KiB", DType::F64, 4096, 4096, 4096);
  return 0;
}
