//===- runtime_check.cu - Checks gemm_rt::run on a GPU ---------------------===//
//
// Runs gemm_rt::run with launchReference on fresh random data and compares
// every result with a CPU fp64 reference under the norm-wise GEMM bound
//   ||C - Cref||_F <= 4 K eps (|alpha| ||A||_F ||B||_F + |beta| ||C0||_F).
// The cases cover odd and non-square sizes, all four transposes (as strides),
// padded leading dimensions, a reversed operand, batches (also past the grid
// limit), split K and a last partial wave run apart, host, device and
// managed operands, beta == 0 over a C full of NaN,
// f32 and f64, and on an sm_90 GPU the TF32 and 3xTF32 launches
// (gemm_tf32.h) under their precisions' bounds; it also checks that padding
// inside C's span survives and that unsafe problems are sent back to the
// caller. Needs a GPU; run by run.sh.
//
// Usage: runtime_check [seed]   (the default seed is the time)
//
//===----------------------------------------------------------------------===//
#include "gpu_check.h"

#include "gemm_tf32.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <random>
#include <string>
#include <vector>

namespace {

std::mt19937_64 rng;

enum class Mem { Host, Device, Managed };
const char *memName(Mem mem) {
  static const char *const names[] = {"host", "device", "managed"};
  return names[static_cast<int>(mem)];
}

/// Where a batch x rows x cols operand's elements lie in its buffer: element
/// (b, r, c) is buffer[origin + b*sb + r*sr + c*sc].
struct Layout {
  int64_t batch, rows, cols;
  int64_t sb, sr, sc, origin, elements;

  /// Row- or column-major with the leading dimension `pad` past the extent,
  /// `pad` more elements between batches, and the rows in reverse order if
  /// `reversed` (a negative row stride).
  Layout(int64_t batch, int64_t rows, int64_t cols, bool colMajor, int64_t pad,
         bool reversed = false)
      : batch(batch), rows(rows), cols(cols) {
    int64_t ld = (colMajor ? rows : cols) + pad;
    int64_t matrix = ld * (colMajor ? cols : rows);
    sr = colMajor ? 1 : ld;
    sc = colMajor ? ld : 1;
    sb = batch > 1 ? matrix + pad : 0;
    elements = (batch - 1) * sb + matrix;
    origin = 0;
    if (reversed) {
      origin = (rows - 1) * sr;
      sr = -sr;
    }
  }

  int64_t index(int64_t b, int64_t r, int64_t c) const {
    return origin + b * sb + r * sr + c * sc;
  }
};

/// One operand: its initial contents and the memory run() sees.
template <class T> class Matrix {
public:
  Layout layout;
  std::vector<T> initial;

  Matrix(const Layout &layout, Mem mem) : layout(layout), mem(mem) {
    std::uniform_real_distribution<double> dist(-1, 1);
    initial.resize(layout.elements);
    for (T &x : initial)
      x = T(dist(rng));
  }
  Matrix(const Matrix &) = delete;
  Matrix &operator=(const Matrix &) = delete;
  ~Matrix() {
    if (mem != Mem::Host)
      CHECK_CUDA(cudaFree(data));
  }

  /// Puts the initial contents where run() will see them.
  void place() {
    size_t bytes = initial.size() * sizeof(T);
    if (mem == Mem::Host) {
      live = initial;
      data = live.data();
    } else if (mem == Mem::Device) {
      CHECK_CUDA(cudaMalloc(&data, bytes));
      CHECK_CUDA(cudaMemcpy(data, initial.data(), bytes,
                            cudaMemcpyHostToDevice));
    } else {
      CHECK_CUDA(cudaMallocManaged(&data, bytes));
      std::memcpy(data, initial.data(), bytes);
    }
  }

  gemm_rt::Operand operand() const {
    return {data + layout.origin, layout.sb, layout.sr, layout.sc};
  }

  /// The buffer as it is now (run() has synchronised).
  std::vector<T> current() const {
    if (mem == Mem::Host)
      return live;
    std::vector<T> out(initial.size());
    CHECK_CUDA(cudaMemcpy(out.data(), data, out.size() * sizeof(T),
                          cudaMemcpyDefault));
    return out;
  }

  T at(int64_t b, int64_t r, int64_t c) const {
    return initial[layout.index(b, r, c)];
  }

  double frobenius() const {
    double sum = 0;
    for (int64_t b = 0; b < layout.batch; ++b)
      for (int64_t r = 0; r < layout.rows; ++r)
        for (int64_t c = 0; c < layout.cols; ++c)
          sum += double(at(b, r, c)) * double(at(b, r, c));
    return std::sqrt(sum);
  }

  const char *memName() const { return ::memName(mem); }

private:
  Mem mem;
  std::vector<T> live;
  T *data = nullptr;
};

struct Case {
  std::string name;
  bool f64;
  int64_t batch, m, n, k;
  bool aColMajor, bColMajor, cColMajor;
  int64_t pad;
  bool reverseA;
  Mem mem[3];
  double alpha, beta;
  /// Run through a plan whose model numbers make run() split K.
  bool split = false;
  /// With split: GEMM_OPT_CHOICE for the call ("variant,splits"), which
  /// lastRun() must then report.
  const char *choice = nullptr;
  /// With split: DRAM so slow in the plan that the model runs the rows of
  /// the last partial wave apart, split (lastRun() must say so).
  bool tail = false;
  /// Run on the TF32 tensor-core launch (1: TF32, 3: 3xTF32) under its
  /// precision's bound (sm_90 only).
  int tf32 = 0;
};

int failures = 0;

void report(const Case &c, const std::string &mem, double ratio, bool pass,
            const char *note) {
  std::printf("%-26s %-4s %6lld %7lld %5lld %5lld  %-22s %10.3e  %s%s\n",
              c.name.c_str(), c.f64 ? "f64" : "f32",
              static_cast<long long>(c.batch), static_cast<long long>(c.m),
              static_cast<long long>(c.n), static_cast<long long>(c.k),
              mem.c_str(), ratio, pass ? "PASS" : "FAIL", note);
  if (!pass)
    ++failures;
}

template <class T> void runCase(const Case &cs) {
  Matrix<T> a(Layout(cs.batch, cs.m, cs.k, cs.aColMajor, cs.pad, cs.reverseA),
              cs.mem[0]);
  Matrix<T> b(Layout(cs.batch, cs.k, cs.n, cs.bColMajor, cs.pad), cs.mem[1]);
  Matrix<T> c(Layout(cs.batch, cs.m, cs.n, cs.cColMajor, cs.pad), cs.mem[2]);
  // With beta == 0 the result must not depend on C at all, NaN included.
  for (int64_t bi = 0; bi < cs.batch && cs.beta == 0; ++bi)
    for (int64_t i = 0; i < cs.m; ++i)
      for (int64_t j = 0; j < cs.n; ++j)
        c.initial[c.layout.index(bi, i, j)] = T(NAN);
  a.place();
  b.place();
  c.place();

  std::string nest = "runtime_check:" + cs.name;
  gemm_rt::Problem p{nest.c_str(),
                     cs.f64 ? gemm_rt::DType::F64 : gemm_rt::DType::F32,
                     cs.batch, cs.m, cs.n, cs.k,
                     a.operand(), b.operand(), c.operand(),
                     cs.alpha, cs.beta};
  std::string mem = std::string(a.memName()) + "/" + b.memName() + "/" +
                    c.memName();
  // The reference kernel posing as a 16 x 16-tile variant: few tiles and a
  // long K make choose() split K as far as it goes.
  // A second, 32 x 32 one that the model never picks, for GEMM_OPT_CHOICE.
  static const gemm_rt::Variant variants[] = {
      {gemm_rt::launchReference, 16, 16, 1, 1000.0},
      {gemm_rt::launchReference, 32, 32, 1, 1.0}};
  if (cs.choice)
    setenv("GEMM_OPT_CHOICE", cs.choice, 1);
  const double dramGBs = cs.tail ? 100.0 : 3350.0;
  const gemm_rt::LaunchFn launch = cs.tf32 == 1   ? gemm_rt::launchTf32
                                   : cs.tf32 == 3 ? gemm_rt::launchTf32x3
                                                  : gemm_rt::launchReference;
  bool ran = cs.split ? gemm_rt::run(p, gemm_rt::Plan{variants, 2, dramGBs})
                      : gemm_rt::run(p, launch);
  unsetenv("GEMM_OPT_CHOICE");
  if (!ran) {
    // Without always-gpu the profitability rule may keep a call of host
    // operands in its loop; operands in device or managed memory never.
    const char *rule = std::getenv("GEMM_OPT_PROFITABILITY");
    const bool forced = rule && (!std::strcmp(rule, "always-gpu") ||
                                 !std::strcmp(rule, "off"));
    const bool host = mem == "host/host/host";
    report(cs, mem, NAN, host && !forced,
           host && !forced ? "  (the rule kept the loop)"
                           : "  (run() returned false)");
    return;
  }
  const gemm_rt::LastRun last = gemm_rt::lastRun();
  if (cs.choice && (std::to_string(last.variant) + "," +
                    std::to_string(last.splits)) != cs.choice) {
    report(cs, mem, NAN, false, "  (GEMM_OPT_CHOICE not honoured)");
    return;
  }
  if (cs.tail && last.tailFrom == 0) {
    report(cs, mem, NAN, false, "  (no tail ran apart)");
    return;
  }
  std::vector<T> out = c.current();

  std::vector<char> isElement(out.size(), 0);
  double err2 = 0;
  for (int64_t bi = 0; bi < cs.batch; ++bi)
    for (int64_t i = 0; i < cs.m; ++i)
      for (int64_t j = 0; j < cs.n; ++j) {
        double acc = 0;
        for (int64_t l = 0; l < cs.k; ++l)
          acc += double(a.at(bi, i, l)) * double(b.at(bi, l, j));
        double ref = cs.alpha * acc;
        if (cs.beta != 0)
          ref += cs.beta * double(c.at(bi, i, j));
        int64_t idx = c.layout.index(bi, i, j);
        isElement[idx] = 1;
        double diff = double(out[idx]) - ref;
        err2 += diff * diff;
      }
  bool paddingKept = true;
  for (size_t idx = 0; idx < out.size(); ++idx)
    if (!isElement[idx] &&
        std::memcmp(&out[idx], &c.initial[idx], sizeof(T)) != 0)
      paddingKept = false;

  double eps = cs.f64 ? std::ldexp(1.0, -53) : std::ldexp(1.0, -24);
  double scale = std::fabs(cs.alpha) * a.frobenius() * b.frobenius() +
                 (cs.beta != 0 ? std::fabs(cs.beta) * c.frobenius() : 0);
  // TF32 truncates both operands (2^-10 each) and sums on the tensor cores;
  // 3xTF32 drops the remainders' product (2^-22 of each product).
  double bound = 4 * cs.k * eps;
  if (cs.tf32 == 1)
    bound = std::ldexp(1.0, -9) + cs.k * std::ldexp(1.0, -22);
  else if (cs.tf32 == 3)
    bound += std::ldexp(1.0, -20);
  double ratio = std::sqrt(err2) / (bound * scale);
  bool pass = std::isfinite(ratio) && ratio <= 1 && paddingKept;
  report(cs, mem, ratio, pass, paddingKept ? "" : "  (padding clobbered)");
}

void runCase(const Case &cs) {
  if (cs.f64)
    runCase<double>(cs);
  else
    runCase<float>(cs);
}

/// Problems run() must hand back to the caller without touching C.
void checkFallbacks() {
  const int64_t n = 31;
  std::vector<double> x(n * n * 2), y(n * n);
  std::uniform_real_distribution<double> dist(-1, 1);
  for (double &v : x)
    v = dist(rng);
  for (double &v : y)
    v = dist(rng);
  const std::vector<double> xBefore = x, yBefore = y;
  auto square = [&](const double *ptr) {
    return gemm_rt::Operand{ptr, 0, n, 1};
  };
  struct Fallback {
    const char *name;
    gemm_rt::Problem p;
  };
  Fallback cases[] = {
      {"C == A",
       {"runtime_check:C==A", gemm_rt::DType::F64, 1, n, n, n, square(x.data()),
        square(y.data()), square(x.data()), 1.0, 0.0}},
      // C's rows sit in B's row padding: no element is shared, but run()
      // compares spans, so it must still refuse.
      {"C in B's row padding",
       {"runtime_check:C-in-B", gemm_rt::DType::F64, 1, n, n, n,
        square(y.data()), {x.data(), 0, 2 * n, 1}, {x.data() + n, 0, 2 * n, 1},
        1.0, 1.0}},
      {"C column stride 0",
       {"runtime_check:C-stride-0", gemm_rt::DType::F64, 1, n, n, n,
        square(y.data()), square(y.data()), {x.data(), 0, n, 0}, 1.0, 1.0}},
      {"C batch stride too small",
       {"runtime_check:C-batch-stride", gemm_rt::DType::F64, 2, n, n, n,
        {y.data(), 0, n, 1}, {y.data(), 0, n, 1}, {x.data(), n, n, 1}, 1.0,
        1.0}},
      {"k = 0",
       {"runtime_check:k=0", gemm_rt::DType::F64, 1, n, n, 0, square(y.data()),
        square(y.data()), square(x.data()), 1.0, 1.0}},
  };
  for (const Fallback &f : cases) {
    bool ran = gemm_rt::run(f.p, gemm_rt::launchReference);
    bool untouched = x == xBefore && y == yBefore;
    bool pass = !ran && untouched;
    std::printf("%-26s %-4s %6lld %7lld %5lld %5lld  %-22s %10s  %s%s\n",
                f.name, "f64", static_cast<long long>(f.p.batch),
                static_cast<long long>(f.p.m), static_cast<long long>(f.p.n),
                static_cast<long long>(f.p.k), "host/host/host", "-",
                pass ? "PASS" : "FAIL",
                ran ? "  (ran on the GPU)"
                    : untouched ? "" : "  (memory changed)");
    if (!pass)
      ++failures;
  }
}

/// The cases, some sized for a GPU of `sms` SMs; with tensorCores (an sm_90
/// GPU), the TF32 launches' too.
std::vector<Case> makeCases(int sms, bool tensorCores) {
  struct Shape {
    int64_t m, n, k;
  };
  const Shape shapes[] = {{1, 1, 1},       {7, 7, 7},     {31, 31, 31},
                          {64, 64, 64},    {65, 65, 65},  {127, 127, 127},
                          {500, 500, 500}, {7, 31, 65},   {65, 1, 127},
                          {500, 64, 31},   {1, 127, 500}, {31, 500, 7}};
  const double alphas[] = {1, 1.5, -0.75};
  const double betas[] = {0, 1, -0.5};
  std::vector<Case> cases;
  for (bool f64 : {false, true}) {
    int idx = 0;
    for (const Shape &s : shapes)
      for (int trans = 0; trans < 4; ++trans, ++idx) {
        Case c;
        c.f64 = f64;
        c.batch = 1;
        c.m = s.m;
        c.n = s.n;
        c.k = s.k;
        c.aColMajor = trans & 2;
        c.bColMajor = trans & 1;
        c.cColMajor = (idx / 2) % 2;
        c.pad = idx % 2 ? 3 : 0;
        c.reverseA = false;
        for (int role = 0; role < 3; ++role)
          c.mem[role] = Mem((idx / 3 + role) % 3);
        c.alpha = alphas[idx % 3];
        c.beta = betas[idx % 3];
        c.name = std::string(c.aColMajor ? "T" : "N") +
                 (c.bColMajor ? "T" : "N") + (c.cColMajor ? " Ccol" : "") +
                 (c.pad ? " ld+3" : "") + (c.beta == 0 ? " beta=0,NaN" : "");
        cases.push_back(c);
      }
    const Mem h = Mem::Host, d = Mem::Device, u = Mem::Managed;
    cases.push_back({"batched", f64, 5, 33, 17, 65, false, true, false, 2,
                     false, {h, h, h}, 1.25, -0.5});
    cases.push_back({"batched", f64, 5, 33, 17, 65, true, false, true, 2,
                     false, {d, u, d}, -1, 0});
    cases.push_back({"batch past grid limit", f64, 70000, 2, 3, 4, false,
                     false, false, 1, false, {h, d, u}, 1, 1});
    cases.push_back({"rows past grid limit", f64, 1, 1100000, 2, 3, false,
                     true, false, 0, false, {u, h, d}, 2, 0.5});
    cases.push_back({"A rows reversed", f64, 1, 31, 7, 65, false, false,
                     false, 1, true, {h, h, h}, 1, 1});
    cases.push_back({"A rows reversed", f64, 3, 31, 7, 65, true, false, true,
                     0, true, {d, d, d}, 1, 0});
    // Split-K (K / 16 and K / 2 chunks): row- and column-major C, padded,
    // beta == 0 over NaN and beta != 0.
    cases.push_back({"split-K", f64, 1, 31, 33, 4096, false, false, false, 0,
                     false, {d, d, d}, 1.5, -0.5, true});
    cases.push_back({"split-K Ccol ld+3", f64, 1, 33, 31, 4096, true, true,
                     true, 3, false, {d, h, u}, 1, 0, true});
    cases.push_back({"split-K ld+3", f64, 1, 65, 7, 1000, false, true, false,
                     3, false, {h, d, d}, -0.75, 1, true});
    // 12 columns of 16 x 16 tiles and rows for a wave and 12 to 23 tiles
    // more: the rows of one wave first, then the rest in K chunks.
    const int64_t tailM = 16 * (sms / 12 + 1) + 7;
    cases.push_back({"tail ld+3 A reversed", f64, 1, tailM, 190, 1024, false,
                     false, false, 3, true, {d, d, d}, 1.5, -0.5, true,
                     nullptr, true});
    cases.push_back({"tail Ccol beta=0,NaN", f64, 1, tailM, 190, 1024, true,
                     true, true, 0, false, {d, d, d}, 1, 0, true, nullptr,
                     true});
    // The model's last choice forced (32 x 32 tiles, K in 4 chunks of 256).
    cases.push_back({"GEMM_OPT_CHOICE=1,4", f64, 1, 45, 37, 1024, false, false,
                     false, 1, false, {d, d, d}, 1, 0.5, true, "1,4"});
  }
  // The TF32 tensor-core launches, on sm_90: every layout of A and B (in
  // place or gathered), C by rows and by columns, padded, K not a multiple
  // of 4, A's rows reversed, beta == 0 over NaN.
  if (tensorCores)
    for (int tf32 : {1, 3}) {
      const Mem h = Mem::Host, d = Mem::Device, u = Mem::Managed;
      const std::string name = tf32 == 1 ? "tf32 " : "3xtf32 ";
      for (int trans = 0; trans < 4; ++trans)
        cases.push_back({name + (trans & 2 ? "T" : "N") + (trans & 1 ? "T" : "N"),
                         false, 1, 300, 257, 516, bool(trans & 2),
                         bool(trans & 1), false, 0, false, {d, d, d}, 1.5, -0.5,
                         false, nullptr, false, tf32});
      cases.push_back({name + "Ccol ld+3 beta=0,NaN", false, 1, 129, 70, 35,
                       false, true, true, 3, false, {h, d, u}, 1, 0, false,
                       nullptr, false, tf32});
      cases.push_back({name + "A reversed ld+1", false, 1, 77, 130, 36, false,
                       true, false, 1, true, {d, h, d}, -1, 1, false, nullptr,
                       false, tf32});
      cases.push_back({name + "K 4097", false, 1, 256, 512, 4097, false, true,
                       false, 0, false, {d, d, d}, 1, 0, false, nullptr, false,
                       tf32});
    }
  return cases;
}

} // namespace

int main(int argc, char **argv) {
  if (!gpu_check::haveGpu("runtime_check"))
    return 2;
  cudaDeviceProp prop;
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  unsigned long long seed =
      argc > 1 ? std::strtoull(argv[1], nullptr, 0) : std::time(nullptr);
  rng.seed(seed);
  std::printf("runtime_check on %s, seed %llu\n", prop.name, seed);
  std::printf("%-26s %-4s %6s %7s %5s %5s  %-22s %10s  %s\n", "case", "type",
              "batch", "m", "n", "k", "A/B/C memory", "err/bound", "result");

  for (const Case &c : makeCases(prop.multiProcessorCount,
                                 prop.major == 9 && prop.minor == 0))
    runCase(c);
  checkFallbacks();

  if (failures) {
    std::printf("%d FAILED (seed %llu)\n", failures, seed);
    return 1;
  }
  std::printf("ALL PASS\n");
  return 0;
}
