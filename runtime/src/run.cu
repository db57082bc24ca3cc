//===- run.cu - Deciding whether and how a nest runs on the GPU -----------===//
//
// gemm_rt::run: the checks that send a nest back to its original loop, the
// staging of host operands, the launch and the trace.
//
//===----------------------------------------------------------------------===//
#include "gemm_runtime.h"

#include "check.h"
#include "choose.h"
#include "cpu.h"
#include "device.h"
#include "layout.h"
#include "split.h"
#include "verify.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <optional>
#include <string>

namespace gemm_rt {

using namespace detail;

namespace {
/// The calling thread's last launch, for lastRun().
thread_local LastRun last{};

/// Whether the switch `name` is set in the environment, to anything but 0.
bool switchedOn(const char *name) {
  const char *value = std::getenv(name);
  return value && *value && std::strcmp(value, "0") != 0;
}

bool tracing() {
  static const bool on = switchedOn("GEMM_OPT_TRACE");
  return on;
}

/// GEMM_OPT_DISABLE: every nest runs its original loop, as if not rewritten.
bool disabled() {
  static const bool on = switchedOn("GEMM_OPT_DISABLE");
  return on;
}

/// Traces why the nest keeps its original loop; returns run()'s answer.
bool fallBack(const Problem &p, const char *reason) {
  if (tracing())
    std::fprintf(stderr, "gemm-opt: nest %s runs the original loop: %s\n",
                 p.nest, reason);
  return false;
}

/// One operand of the problem: where its elements lie and whose memory it is.
struct Placement {
  Role role;
  const char *name;
  const Operand &operand;
  Span span;
  PointerKind kind;
  /// The device copy of a host operand's span, once place() has made it.
  void *staged = nullptr;

  Placement(const Problem &p, Role role, const char *name,
            const Operand &operand, const Extents &extents)
      : role(role), name(name), operand(operand),
        span(spanOf(operand, extents, elementSize(p.dtype))),
        kind(pointerKind(operand.ptr, p.nest)) {}

  /// The operand as the kernel sees it: in place, or rebased into a staging
  /// buffer that holds a copy of the whole span.
  Operand place(const char *nest) {
    if (kind != PointerKind::Host)
      return operand;
    staged = poolBuffer(role, span.size(), nest);
    std::string what = std::string("copying ") + name + " to the GPU";
    checkCuda(cudaMemcpy(staged, reinterpret_cast<const void *>(span.begin),
                         span.size(), cudaMemcpyHostToDevice),
              nest, what.c_str());
    Operand rebased = operand;
    rebased.ptr = static_cast<char *>(staged) +
                  (reinterpret_cast<uintptr_t>(operand.ptr) - span.begin);
    return rebased;
  }
};

/// Why p must not run anywhere but in its original loop, or null: C sharing
/// memory with A or B, or C's layout mapping two elements to one address,
/// makes the result depend on the order of the updates.
const char *unsafeLayout(const Problem &p) {
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
  if (!isOneToOne(p.c, cExtents))
    return "C's layout is not one-to-one";
  return nullptr;
}

/// The staging buffers are shared by every caller.
std::mutex poolMutex;
} // namespace

bool run(const Problem &p, const Plan &plan) {
  if (disabled())
    return fallBack(p, "disabled (GEMM_OPT_DISABLE)");
  if (p.batch <= 0 || p.m <= 0 || p.n <= 0 || p.k <= 0)
    return fallBack(p, "empty extent");
  if (cpuMode()) {
    if (const char *unsafe = unsafeLayout(p))
      return fallBack(p, unsafe);
    runOnCpu(p);
    if (tracing())
      std::fprintf(stderr, "gemm-opt: nest %s ran on the CPU reference "
                   "(GEMM_OPT_DEVICE=cpu)\n", p.nest);
    return true;
  }
  const char *gpu = gpuName();
  if (!gpu)
    return fallBack(p, noGpuReason());

  Placement a(p, Role::A, "A", p.a, {p.batch, p.m, p.k});
  Placement b(p, Role::B, "B", p.b, {p.batch, p.k, p.n});
  Placement c(p, Role::C, "C", p.c, {p.batch, p.m, p.n});
  // The bias is read like C, with zero strides where it is broadcast.
  std::optional<Placement> bias;
  if (p.epilogue.bias.ptr)
    bias.emplace(p, Role::Bias, "the bias", p.epilogue.bias,
                 Extents{p.batch, p.m, p.n});
  if (const char *unsafe = unsafeLayout(p)) {
    const Placement *const operands[] = {&c, &a, &b, bias ? &*bias : nullptr};
    for (const Placement *op : operands)
      if (op && op->kind == PointerKind::Device)
        fatal(p.nest, std::string(unsafe) +
                          "; the original loop cannot run either, since " +
                          op->name + " is in device memory");
    return fallBack(p, unsafe);
  }

  std::lock_guard<std::mutex> lock(poolMutex);
  Problem device = p;
  device.a = a.place(p.nest);
  device.b = b.place(p.nest);
  // C's span may hold elements that are not C's; staging it whole keeps them
  // intact when the span is copied back.
  device.c = c.place(p.nest);
  if (bias)
    device.epilogue.bias = bias->place(p.nest);
  const cudaStream_t stream = 0;
  LaunchCheck launchCheck(device); // GEMM_OPT_VERIFY: saves the initial C.
  const Choice choice = choose(device, plan, smCount());
  const Variant &variant = plan.variants[choice.variant];
  last = {choice.variant, plan.count, variant.blockM, variant.blockN,
          choice.splits};
  if (choice.splits > 1)
    checkCuda(launchSplit(device, variant.launch, choice.splits,
                          poolBuffer(Role::Chunks,
                                     splitWorkspaceBytes(device, choice.splits),
                                     p.nest),
                          stream),
              p.nest, "kernel launch");
  else
    checkCuda(variant.launch(device, stream), p.nest, "kernel launch");
  // With C in device memory and no managed operand the call returns once the
  // kernel is queued, as cuBLAS does: later work on the default stream (or on
  // streams that synchronise with it, and every cudaMemcpy) sees C, and
  // staged A and B are copies already. The host touches managed operands and
  // a staged C directly, so those wait; so do the trace and the check, which
  // name the nest of a failing kernel.
  const bool queueOnly = a.kind != PointerKind::Managed &&
                         b.kind != PointerKind::Managed &&
                         (!bias || bias->kind != PointerKind::Managed) &&
                         c.kind == PointerKind::Device;
  if (!queueOnly || tracing() || launchCheck.enabled())
    checkCuda(cudaStreamSynchronize(stream), p.nest, "kernel execution");
  launchCheck.report();
  if (c.staged)
    checkCuda(cudaMemcpy(reinterpret_cast<void *>(c.span.begin), c.staged,
                         c.span.size(), cudaMemcpyDeviceToHost),
              p.nest, "copying C back from the GPU");

  if (tracing())
    std::fprintf(stderr,
                 "gemm-opt: nest %s ran on the GPU (%s): batch=%lld m=%lld "
                 "n=%lld k=%lld %s, operands %s/%s/%s, variant %d of %d "
                 "(%lldx%lld tiles), K split %lld ways\n",
                 p.nest, gpu, static_cast<long long>(p.batch),
                 static_cast<long long>(p.m), static_cast<long long>(p.n),
                 static_cast<long long>(p.k),
                 p.dtype == DType::F32 ? "f32" : "f64",
                 pointerKindName(a.kind), pointerKindName(b.kind),
                 pointerKindName(c.kind), choice.variant, plan.count,
                 static_cast<long long>(variant.blockM),
                 static_cast<long long>(variant.blockN),
                 static_cast<long long>(choice.splits));
  return true;
}

bool run(const Problem &p, LaunchFn launch) {
  const Variant only{launch, 0, 0, 0, 0};
  return run(p, Plan{&only, 1, 0});
}

LastRun lastRun() { return last; }

} // namespace gemm_rt
