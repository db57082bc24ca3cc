//===- GpuTarget.h - GPU descriptions for the cost model --------*- C++ -*-===//
//
// A target is data: the facts about one GPU that the cost model reads, each
// with its source in lib/Target/Targets.cpp. `#gemm.target<name = "...">`
// names one of them; nothing in the model tests a target's name.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_OPT_TARGET_GPUTARGET_H
#define GEMM_OPT_TARGET_GPUTARGET_H

#include "gemm-opt/Dialect/Gemm/GemmAttrs.h"

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>

namespace mlir::gemm {

/// The arithmetic of a GEMM: it picks the FMA pipe and the element width.
enum class Precision { F32, F64 };

/// "f32" or "f64".
StringRef stringifyPrecision(Precision precision);

/// Bytes per element of `precision`.
int64_t elementBytes(Precision precision);

/// The search-space guidelines of [Kurzak et al. 2011] (Algorithm 3, Table 1) for one
/// precision: kernels that cannot meet them are not enumerated.
struct SearchGuidelines {
  /// Minimum resident threads per SM ("minimum occupancy").
  int64_t minThreadsPerSM;
  /// Minimum resident thread blocks per SM.
  int64_t minBlocksPerSM;
  /// Minimum register reuse TM * TN / (TM + TN) of the register tile.
  double minRegisterReuse;
};

/// The FMA pipe of one precision.
struct FmaPipe {
  /// FMA thread instructions per clock per SM.
  int64_t perClock;
  /// Clocks from the issue of an FMA to the issue of one that reads it.
  double latency;
  /// The pruning guidelines for kernels of this precision.
  SearchGuidelines guidelines;
};

/// Registers per thread of CodeGen's kernel as the least-squares law of what
/// a compiler needs without spilling: base + accumulators + fragment *
/// fragment registers + staged words times stagedLive (the next tile held
/// across the multiply), stagedCopied (cp.async: its copies' addresses and
/// bounds stay live instead) or stagedDead (no prefetch), all in 32-bit
/// words; sigma is the standard deviation of its residuals. Beyond the
/// largest staged tile it was fitted to, maxStagedWords, it is not trusted.
struct RegisterLaw {
  double base, fragment, stagedLive, stagedCopied, stagedDead, sigma;
  int64_t maxStagedWords;
};

/// One GPU, as the cost model sees it. Clocks are the clock that the FMA
/// pipes run at (the shader clock on GT200 and Fermi).
struct GpuTarget {
  /// The key of `#gemm.target`, e.g. "hopper-h100".
  StringRef name;
  /// The product and architecture, for --explain.
  StringRef description;
  /// How CUDA names the device, or its start, where rows of a tuning
  /// database (TuningDb.h) measured on it apply; empty: none do.
  StringRef deviceName;

  /// Streaming multiprocessors.
  int64_t sms;
  /// Clock of the FMA pipes, in GHz.
  double clockGHz;
  /// The single- and double-precision FMA pipes.
  FmaPipe f32, f64;

  /// Warp schedulers per SM.
  int64_t schedulersPerSM;
  /// Warp instructions each scheduler issues per clock.
  double warpIssuePerClock;
  /// Whether an FP64 instruction can issue while other instructions do; when
  /// not, an SM running FP64 code issues at the FP64 rate.
  bool fp64DualIssue;

  /// 32-bit registers per SM, and the most one thread can address.
  int64_t registersPerSM, maxRegistersPerThread;
  /// Register files the SM's registers are split into, one per scheduler's
  /// partition; a warp takes its registers from one (0 or 1: a single file).
  int64_t registerPartitions = 1;
  /// Registers per thread by a measured law of the target's compiler;
  /// without one, [Lai & Seznec 2012] eq. 7 (the papers' compilers).
  std::optional<RegisterLaw> registerLaw;
  /// The law of tensor-core (dmma) kernels where the target fits them
  /// apart: ptxas allocates their fragments and cp.async addresses
  /// differently from an FFMA kernel's.
  std::optional<RegisterLaw> dmmaRegisterLaw;
  const std::optional<RegisterLaw> &registerLawOf(Compute compute) const {
    return compute == Compute::Dmma && dmmaRegisterLaw ? dmmaRegisterLaw
                                                       : registerLaw;
  }
  /// Shared memory per SM and the most one block can use.
  int64_t sharedBytesPerSM, sharedBytesPerBlock;
  /// Residency limits.
  int64_t maxThreadsPerSM, maxThreadsPerBlock, maxBlocksPerSM, maxWarpsPerSM;

  /// DRAM bandwidth in GB/s.
  double dramGBs;
  /// Bytes that DRAM moves at a time for one row of a streamed tile, where
  /// measured: shorter rows get that share of the bandwidth (RunTimeTerms.h's
  /// streamShare). 0: rows of any length stream at the full rate.
  int64_t dramLineBytes = 0;
  /// L2 bandwidth in GB/s where measured, else 0: the block tiles' loads
  /// then count against DRAM, as in the papers.
  double l2GBs = 0;
  /// Shared-memory bytes delivered per clock per SM.
  int64_t sharedBytesPerClock;
  /// Load/store thread instructions accepted per clock per SM.
  int64_t lsuPerClock;
  /// Ways of bank conflict of a warp's 128-bit shared-memory access.
  int64_t wideAccessConflict;
  /// Latency in clocks of 32-, 64- and 128-bit shared-memory loads.
  double sharedLatency[3];
  /// Latency in clocks of a global load that misses the caches.
  double globalLatency;

  /// FP64 tensor cores (mma.sync), in FMAs per clock per SM at the widest
  /// shape; a perClock of 0 means the target has none.
  FmaPipe f64Tensor = {0, 0, {}};
  /// The share of that rate that m8n8k4 products get (m16n8kK ones get all),
  /// and the latency in clocks of m8n8k4, m16n8k4, m16n8k8 and m16n8k16; a
  /// latency of 0 is a shape the target lacks.
  double narrowDmmaShare = 1;
  double dmmaLatency[4] = {0, 0, 0, 0};
  /// The runtime's TF32 tensor-core launches (gemm_tf32.h, sm_90 only): the
  /// GFLOP/s of one TF32 product and of 3xTF32 on a large problem; 0 where
  /// the target has none.
  double tf32Gflops = 0, tf32x3Gflops = 0;
  /// Whether shared-memory loads and the other instructions of a warp
  /// scheduler hold up its FMAs or tensor products (their times add), rather
  /// than overlap with them.
  bool stallsAdd = false;
  /// The share of its issue and latency bounds that a dmma kernel whose warps
  /// drift (Schedule::drifts) keeps when a step holds more than one k8
  /// slice: measured where the target has it, else 1.
  double deepDriftShare = 1;
  /// Whether a warp issues a thread's independent FMAs back to back, so that
  /// the TM * TN FMAs of a rank-1 update cover the FMA latency; otherwise
  /// [Lai & Seznec 2012] eq. 1 counts threads alone.
  bool tileCoversLatency = false;
  /// Integer, predicate and branch instructions per global load (or cp.async)
  /// of a tile, beyond the loop overhead: 0 for the papers' kernels, whose
  /// instruction mix [Tan et al. 2011] Table 3 counts whole.
  int64_t loadAddressing = 0;
  /// Whether global loads can go straight to shared memory (cp.async), which
  /// CodeGen's `async` pipeline needs.
  bool asyncCopies = false;

  /// The FMA pipe of `precision`.
  const FmaPipe &pipe(Precision precision) const {
    return precision == Precision::F64 ? f64 : f32;
  }
  /// The pipe that `compute` kernels of `precision` multiply on.
  const FmaPipe &pipe(Precision precision, Compute compute) const {
    return compute == Compute::Dmma ? f64Tensor : pipe(precision);
  }
  /// Whether `compute` kernels of `precision` can run here.
  bool supports(Precision precision, Compute compute) const {
    return compute == Compute::Fma ||
           (precision == Precision::F64 && f64Tensor.perClock > 0);
  }
  /// Peak GFLOP/s of `precision` (an FMA is two flops).
  double peakGFlops(Precision precision,
                    Compute compute = Compute::Fma) const {
    return double(sms) * double(pipe(precision, compute).perClock) * 2.0 *
           clockGHz;
  }
  /// Thread instructions the SM issues per clock for kernels of `precision`.
  double issuePerClock(Precision precision) const;
  /// Clocks the SM's shared memory spends on one warp's access of `bytes`
  /// (4, 8 or 16) per thread at `addresses` distinct addresses (the others
  /// are broadcasts): the load/store units take the warp at their rate, the
  /// banks deliver the distinct bytes, wide accesses with their conflicts.
  double sharedAccessClocks(int64_t bytes, int64_t addresses) const;
  /// Shared-memory thread instructions of `bytes` per clock per SM when
  /// every thread reads its own address.
  double sharedAccessesPerClock(int64_t bytes) const {
    return 32.0 / sharedAccessClocks(bytes, 32);
  }
  /// FMAs per clock per SM of dmma products `depth` deep (m16n8kK; an odd
  /// register tile's m8n8k4 when `narrow`), and their latency.
  double dmmaPerClock(bool narrow) const {
    return double(f64Tensor.perClock) * (narrow ? narrowDmmaShare : 1.0);
  }
  double dmmaLatencyOf(bool narrow, int64_t depth) const;
  /// Latency of a shared-memory load of `bytes` (4, 8 or 16).
  double sharedLoadLatency(int64_t bytes) const;
  /// Shared-memory bandwidth of the whole GPU in GB/s.
  double sharedGBs() const {
    return double(sms) * double(sharedBytesPerClock) * clockGHz;
  }
};

/// Every known target, in the order --explain lists them.
ArrayRef<GpuTarget> getTargets();

/// The target called `name`, or null.
const GpuTarget *lookupTarget(StringRef name);

/// The target used when neither an option nor the module names one.
const GpuTarget &getDefaultTarget();

} // namespace mlir::gemm

#endif // GEMM_OPT_TARGET_GPUTARGET_H
