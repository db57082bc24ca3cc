//===- run.cu - Deciding whether and how a nest runs on the GPU -----------===//
//
// gemm_rt::run: the checks that send a nest back to its original loop, the
// route of calls with host operands (profit.h, staging.h), tables of rows
// (rows.h), the launch and the trace; runWidened, the same on double copies
// of float operands (widen.h).
//
//===----------------------------------------------------------------------===//
#include "gemm_runtime.h"
#include "gemm_tuning.h"
#include "gemm_widen.h"

#include "core/check.h"
#include "launch/choose.h"
#include "checks/cpu.h"
#include "core/device.h"
#include "host/gpus.h"
#include "launch/layout.h"
#include "host/gather.h"
#include "host/profit.h"
#include "launch/rows.h"
#include "launch/widen.h"
#include "host/staging.h"
#include "core/switches.h"
#include "checks/verify.h"

#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace gemm_rt {

using namespace detail;

namespace {
/// The calling thread's last launch, for lastRun().
thread_local LastRun last{};

bool tracing() {
  static const bool on = flagOn(Switch::Trace);
  return on;
}

/// GEMM_OPT_DISABLE: every nest runs its original loop, as if not rewritten.
bool disabled() {
  static const bool on = flagOn(Switch::Disable);
  return on;
}

/// Traces why the nest keeps its original loop; returns run()'s answer.
bool fallBack(const Problem &p, const char *reason) {
  if (tracing())
    std::fprintf(stderr, "gemm-opt: nest %s runs the original loop: %s\n",
                 p.nest, reason);
  return false;
}

/// Why p runs its original loop whatever its operands hold, or null.
const char *precluded(const Problem &p) {
  if (const char *rejected = rejectedSwitch())
    return rejected;
  if (disabled())
    return "disabled (GEMM_OPT_DISABLE)";
  if (p.batch <= 0 || p.m <= 0 || p.n <= 0 || p.k <= 0)
    return "empty extent";
  if (!cpuMode() && !gpuName())
    return noGpuReason();
  return nullptr;
}

/// A table of `rows` as a host source (pack.h); none where it is null.
Table tableOf(const Rows &rows) { return {rows.start, 0, rows.columns}; }

/// Why the rule keeps p in its loop before any pointer is queried, or null:
/// it keeps calls of host operands as small as p there, and every operand
/// is a table or surely host memory (device.h), so no query could send p
/// anywhere else. Tiny calls then cost little more than their loop.
const char *loopOnHost(const Problem &p, const RowOperands &rows) {
  const char *why = loopBeforeStaging(p, profitability());
  if (!why)
    return nullptr;
  const bool host = (rows.a.start || surelyHost(p.a.ptr)) &&
                    (rows.b.start || surelyHost(p.b.ptr)) &&
                    (rows.c.start || surelyHost(p.c.ptr)) &&
                    (!p.epilogue.bias.ptr || surelyHost(p.epilogue.bias.ptr));
  return host ? why : nullptr;
}

/// Stops the program: p cannot run on the GPU for `why`, and its loop cannot
/// read `operand`, which is in device memory.
[[noreturn]] void noLoop(const Problem &p, const char *operand,
                         const std::string &why) {
  fatal(p.nest, why + "; the original loop cannot run either, since " +
                    operand + " is in device memory");
}

/// One operand of the problem and whose memory it is (a table's is host).
struct Placement {
  const char *name;
  const Operand &operand;
  PointerKind kind;
  /// The GPU that holds it, -1 for host memory.
  int device;

  Placement(const Problem &p, const char *name, const Operand &operand,
            const Rows &table = {})
      : Placement(name, operand,
                  table.start ? Pointer{PointerKind::Host, -1}
                              : pointerOf(operand.ptr, p.nest)) {}

  Placement(const char *name, const Operand &operand, Pointer pointer)
      : name(name), operand(operand), kind(pointer.kind),
        device(pointer.device) {}

  /// The bias as the kernel sees it: in place, or a device copy (read-only,
  /// and a vector where it is broadcast).
  Operand place(const Problem &p) const {
    if (kind != PointerKind::Host)
      return operand;
    return stageBias(operand, {p.batch, p.m, p.n}, elementSize(p.dtype),
                     p.nest);
  }
};

/// Why p must not run anywhere but in its original loop, or null: C sharing
/// memory with A, B, the bias or a scalar read through a pointer, or C's
/// layout mapping two elements to one address, makes the result depend on
/// the order of the updates. Tables are compared row by row (rows.h).
const char *unsafeLayout(const Problem &p, const RowOperands &rows) {
  if (rows.a.start || rows.b.start || rows.c.start)
    return rowOverlap(p, rows);
  const size_t bytes = elementSize(p.dtype);
  const Extents cExtents{p.batch, p.m, p.n};
  const Span c = spanOf(p.c, cExtents, bytes);
  if (c.overlaps(spanOf(p.a, {p.batch, p.m, p.k}, bytes)))
    return "C overlaps A";
  if (c.overlaps(spanOf(p.b, {p.batch, p.k, p.n}, bytes)))
    return "C overlaps B";
  if (p.epilogue.bias.ptr &&
      c.overlaps(spanOf(p.epilogue.bias, cExtents, bytes)))
    return "C overlaps the bias";
  if (const char *read = holdsRead({c}, p.reads))
    return read;
  if (!isOneToOne(p.c, cExtents))
    return "C's layout is not one-to-one";
  return nullptr;
}

/// The staging buffers and the copy threads are shared by every caller.
std::mutex poolMutex;

/// GEMM_OPT_DEVICE=cpu: runOnCpu, through dense host copies of the tables.
void runOnCpu(const Problem &p, const RowOperands &rows) {
  const size_t element = elementSize(p.dtype);
  Problem copies = p;
  std::vector<unsigned char> data[3];
  auto copy = [&](const Rows &table, Operand &op, const Extents &e,
                  std::vector<unsigned char> &to, bool read) {
    const HostGather packing(op, e, element, tableOf(table));
    if (!table.start)
      return packing;
    to.resize(packing.bytes());
    if (read)
      packing.gather(to.data(), 0, packing.runCount());
    op = packing.dense(to.data());
    return packing;
  };
  std::lock_guard<std::mutex> lock(poolMutex);
  copy(rows.a, copies.a, {p.batch, p.m, p.k}, data[0], true);
  copy(rows.b, copies.b, {p.batch, p.k, p.n}, data[1], true);
  const HostGather c = copy(rows.c, copies.c, {p.batch, p.m, p.n}, data[2],
                         p.beta != 0);
  detail::runOnCpu(copies);
  if (rows.c.start)
    c.scatter(data[2].data(), 0, c.runCount());
}

/// The rows that a call ran apart, or the slots its stream-K launch was
/// planned for (choose.h), for the trace.
std::string tailTrace(const Choice &choice) {
  const Tail &tail = choice.tail;
  if (choice.streamed > 0)
    return "; stream-K for " + std::to_string(choice.streamed) + " slots";
  if (tail.from == 0)
    return "";
  return "; rows from " + std::to_string(tail.from) +
         " (a last partial wave) as variant " + std::to_string(tail.variant) +
         ", K split " + std::to_string(tail.splits) + " ways";
}

/// How a staged call ran, and why it was staged, for the trace.
std::string stagedTrace(const Problem &p, const StagePlan &s,
                        const std::string &why) {
  const std::string blocks =
      s.cols >= (s.alongN ? p.m : p.n)
          ? ""
          : " in blocks of " + std::to_string(s.cols) +
                (s.alongN ? " rows of A" : " columns of B");
  return "; staged in " + std::to_string(s.panels) + " panel(s) of " +
         std::to_string(s.rows) + (s.alongN ? " columns" : " rows") + blocks +
         " (" + why + ")";
}

/// Seconds as milliseconds, for the trace.
std::string ms(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g ms", seconds * 1e3);
  return text;
}

/// Keeps the launch for lastRun().
void remember(const Plan &plan, const Choice &choice) {
  const Variant &variant = plan.variants[choice.variant];
  last = {choice.variant,      plan.count,        variant.blockM,
          variant.blockN,      choice.splits,     choice.tail.from,
          choice.tail.variant, choice.tail.splits, choice.streamed};
}

/// The trace line of p's run on the current GPU; `kinds` are A's, B's and
/// C's memory.
void traceRun(const Problem &p, const Plan &plan, const Choice &choice,
              const std::array<PointerKind, 3> &kinds,
              const std::string &how) {
  const Variant &variant = plan.variants[choice.variant];
  std::fprintf(stderr,
               "gemm-opt: nest %s ran on the GPU (%s, device %d): batch=%lld "
               "m=%lld n=%lld k=%lld %s, operands %s/%s/%s, variant %d of %d "
               "(%lldx%lld tiles), K split %lld ways%s%s\n",
               p.nest, gpuName(), currentDevice(),
               static_cast<long long>(p.batch), static_cast<long long>(p.m),
               static_cast<long long>(p.n), static_cast<long long>(p.k),
               p.dtype == DType::F32 ? "f32" : "f64",
               pointerKindName(kinds[0]), pointerKindName(kinds[1]),
               pointerKindName(kinds[2]), choice.variant, plan.count,
               static_cast<long long>(variant.blockM),
               static_cast<long long>(variant.blockN),
               static_cast<long long>(choice.splits),
               tailTrace(choice).c_str(), how.c_str());
}

/// run() where the operands that `rows` names are its tables.
bool runOn(const Problem &p, const RowOperands &rows, const Plan &plan) {
  if (const char *why = precluded(p))
    return fallBack(p, why);
  if (cpuMode()) {
    if (const char *unsafe = unsafeLayout(p, rows))
      return fallBack(p, unsafe);
    runOnCpu(p, rows);
    if (tracing())
      std::fprintf(stderr, "gemm-opt: nest %s ran on the CPU reference "
                   "(GEMM_OPT_DEVICE=cpu)\n", p.nest);
    return true;
  }
  if (const char *why = loopOnHost(p, rows))
    return fallBack(p, why);

  Placement a(p, "A", p.a, rows.a);
  Placement b(p, "B", p.b, rows.b);
  Placement c(p, "C", p.c, rows.c);
  // The bias is read like C, with zero strides where it is broadcast.
  std::optional<Placement> bias;
  if (p.epilogue.bias.ptr)
    bias.emplace(p, "the bias", p.epilogue.bias);
  // The loop cannot read an operand in device memory: where the call
  // cannot run on the GPU either, it stops with a message.
  const Placement *inDevice = nullptr;
  for (const Placement *op : {&c, &a, &b, bias ? &*bias : nullptr})
    if (!inDevice && op && op->kind == PointerKind::Device)
      inDevice = op;
  if (const char *unsafe = unsafeLayout(p, rows)) {
    if (inDevice)
      noLoop(p, inDevice->name, unsafe);
    return fallBack(p, unsafe);
  }
  // The GPU that holds the device operands runs the call (docs/switches.md,
  // "Which GPUs"); a kernel on one GPU cannot read another's memory.
  for (const Placement *op : {&c, &a, &b, bias ? &*bias : nullptr})
    if (op && op->kind == PointerKind::Device &&
        op->device != inDevice->device)
      fatal(p.nest, std::string(inDevice->name) + " is on GPU " +
                        std::to_string(inDevice->device) + " and " + op->name +
                        " on GPU " + std::to_string(op->device) +
                        "; one kernel cannot read both, and the original "
                        "loop cannot read either");
  const DeviceScope onGpu(inDevice ? inDevice->device : hostCallDevice(),
                          p.nest);

  std::lock_guard<std::mutex> lock(poolMutex);
  // A, B or C in host memory: staged in panels, or the loop where it is
  // faster.
  const Hosted hosted{a.kind == PointerKind::Host,
                      b.kind == PointerKind::Host,
                      c.kind == PointerKind::Host,
                      tableOf(rows.a),
                      tableOf(rows.b),
                      tableOf(rows.c)};
  std::optional<Route> staged;
  if (hosted.a || hosted.b || hosted.c) {
    // With an operand in device memory the GPU runs the call whatever the
    // profitability rule would choose.
    staged = route(p, plan, hosted,
                   inDevice ? Profitability::Gpu : profitability(),
                   currentMachine);
    if (!staged->gpu && inDevice)
      noLoop(p, inDevice->name, staged->why);
    if (!staged->gpu)
      return fallBack(p, staged->why.c_str());
  }
  // A large call of host arrays may run on several GPUs (gpus.h).
  if (std::optional<Split> split =
          staged && !inDevice ? planSplit(p, plan, hosted, *staged)
                              : std::nullopt) {
    const std::vector<Choice> choices =
        runSplit(p, plan, hosted, bias && bias->kind == PointerKind::Host,
                 *split);
    for (size_t i = 0; tracing() && i < choices.size(); ++i) {
      const Share &share = split->shares[i];
      const DeviceScope on(share.device, p.nest);
      const Problem rows = rowsOf(p, share);
      const std::string gpus = std::to_string(choices.size()) + " GPUs";
      const std::string why = "predicted " + ms(split->seconds) + " on " +
                              gpus + ", " + ms(staged->stage.seconds) +
                              " on one";
      const SlicePlan &sliced = split->slices;
      traceRun(rows, plan, choices[i], {a.kind, b.kind, c.kind},
               "; rows " + std::to_string(share.begin) + " to " +
                   std::to_string(share.begin + share.rows - 1) + " of C on " +
                   gpus +
                   (sliced.depth
                        ? "; in " + std::to_string(sliced.slices) +
                              " slice(s) of K, " +
                              std::to_string(sliced.depth) +
                              " deep, C's rows kept on each GPU (" + why + ")"
                        : stagedTrace(rows, split->stages[i],
                                      why + (split->wholeB
                                                 ? ", B copied once to "
                                                   "every GPU"
                                                 : ""))));
    }
    remember(plan, choices.front());
    return true;
  }
  Problem device = p;
  if (bias)
    device.epilogue.bias = bias->place(p);
  Choice choice{0, 1};
  if (staged) {
    choice = runStaged(device, plan, hosted, staged->stage);
  } else {
    const cudaStream_t stream = 0;
    LaunchCheck launchCheck(device); // GEMM_OPT_VERIFY: saves the initial C.
    choice = launchChosen(device, plan, smCount(), stream);
    // With C in device memory and no managed operand the call returns once
    // the kernel is queued, as cuBLAS does: later work on the default stream
    // (or on streams that synchronise with it, and every cudaMemcpy) sees C.
    // The host touches managed operands directly, so those wait; so do the
    // trace and the check, which name the nest of a failing kernel.
    const bool queueOnly = a.kind != PointerKind::Managed &&
                           b.kind != PointerKind::Managed &&
                           (!bias || bias->kind != PointerKind::Managed) &&
                           c.kind == PointerKind::Device;
    if (!queueOnly || tracing() || launchCheck.enabled())
      checkCuda(cudaStreamSynchronize(stream), p.nest, "kernel execution");
    launchCheck.report(plan.variants[choice.variant].launch);
  }
  remember(plan, choice);
  if (tracing())
    traceRun(p, plan, choice, {a.kind, b.kind, c.kind},
             staged ? stagedTrace(p, staged->stage, staged->why) : "");
  return true;
}

/// runWidened(): the float problem's checks, then the double problem on
/// copies (widen.h).
bool runWidenedOn(const Problem &p, const Plan &plan) {
  Problem stored = p;
  stored.dtype = DType::F32;
  if (const char *why = precluded(stored))
    return fallBack(p, why);
  // GEMM_OPT_DEVICE=cpu checks every call that may run.
  if (const char *why = cpuMode() ? nullptr : loopOnHost(p, RowOperands{}))
    return fallBack(p, why);
  // The copies share no memory: overlaps show in the floats only.
  if (const char *unsafe = unsafeLayout(stored, RowOperands{})) {
    const std::pair<const char *, const void *> operands[] = {
        {"C", p.c.ptr}, {"A", p.a.ptr}, {"B", p.b.ptr},
        {"the bias", p.epilogue.bias.ptr}};
    for (auto [name, ptr] : operands)
      if (ptr && !cpuMode() &&
          pointerOf(ptr, p.nest).kind == PointerKind::Device)
        noLoop(p, name, unsafe);
    return fallBack(p, unsafe);
  }
  if (tracing())
    std::fprintf(stderr, "gemm-opt: nest %s sums float matrices in double: "
                 "it runs on double copies of them\n", p.nest);
  const Widened wide(p);
  if (!runOn(wide.problem(), RowOperands{}, plan))
    return false;
  wide.narrowC();
  return true;
}

} // namespace

namespace detail {
const bool loopFirstOn =
    !tracing() && !cpuMode() && profitability() != Profitability::Gpu;
} // namespace detail

bool run(const Problem &p, const Plan &plan) {
  return runOn(p, RowOperands{}, plan);
}

bool run(const Problem &p, LaunchFn launch) {
  const Variant only{launch, 0, 0, 0, 0};
  return runOn(p, RowOperands{}, Plan{&only, 1, 0});
}

bool run(const Problem &p, const RowOperands &rows, const Plan &plan) {
  return runOn(p, rows, plan);
}

bool run(const Problem &p, const RowOperands &rows, LaunchFn launch) {
  const Variant only{launch, 0, 0, 0, 0};
  return runOn(p, rows, Plan{&only, 1, 0});
}

bool runWidened(const Problem &p, const Plan &plan) {
  return runWidenedOn(p, plan);
}

bool runWidened(const Problem &p, LaunchFn launch) {
  const Variant only{launch, 0, 0, 0, 0};
  return runWidenedOn(p, Plan{&only, 1, 0});
}

LastRun lastRun() { return last; }

} // namespace gemm_rt
