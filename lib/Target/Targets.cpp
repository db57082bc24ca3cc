//===- Targets.cpp - The GPU description table ----------------------------===//
//
// Every number the cost model reads, with its source: the papers of
// docs/references.md, NVIDIA's documents, and for Hopper what no document
// gives, measured with the tools of utils/calibrate (its README says how to
// measure again). "H100 run" is utils/calibrate/latency.cu on an H100 SXM
// (sm_90, 1980 MHz): FFMA 4.3, DFMA 8.3, LDS/.64/.128 plus a dependent XOR
// 29/29/34, a global load that misses the caches 689 clocks.
//
//===----------------------------------------------------------------------===//

#include "gemm-opt/Target/GpuTarget.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::gemm;

namespace {

/// The Fermi SM (GF100/GF110, sm_20) that the C2050 and the GTX580 share.
/// Fields left zero are the product's own.
GpuTarget fermiSM() {
  GpuTarget t{};
  // source: [Tan et al. 2011] section 2.1 and Table 1 (32 cores per SM).
  t.f32.perClock = 32;
  // source: CUDA C Programming Guide 4.2, section 5.2.3: "about 22 clock
  // cycles for devices of compute capability 2.x".
  t.f32.latency = 22;
  // source: [Kurzak et al. 2011] Table 1, SGEMM: 512 threads, 2 blocks,
  // reuse 3.0.
  t.f32.guidelines = {512, 2, 3.0};
  // source: [Tan et al. 2011] Table 3, dfma RAW latency.
  t.f64.latency = 24;
  // source: [Kurzak et al. 2011] Table 1, DGEMM: 512 threads, 2 blocks,
  // reuse 2.0.
  t.f64.guidelines = {512, 2, 2.0};
  // source: [Tan et al. 2011] Table 1 (2 warp schedulers per SM) and section
  // 3.1 ("Fermi takes 2 cycles to issue an entire warp").
  t.schedulersPerSM = 2;
  t.warpIssuePerClock = 0.5;
  // source: [Tan et al. 2011] section 2.1: "double precision instructions
  // cannot be dual-issued with other instructions".
  t.fp64DualIssue = false;
  // source: [Tan et al. 2011] section 3.1 (32768 registers per SM, at most 63
  // per thread); [Lai & Seznec 2012] section 2.1.
  t.registersPerSM = 32768;
  t.maxRegistersPerThread = 63;
  // source: [Tan et al. 2011] Table 1 (48 KB shared memory); [Kurzak et al.
  // 2011] section 5.3.1 (per SM = per block).
  t.sharedBytesPerSM = 48 * 1024;
  t.sharedBytesPerBlock = 48 * 1024;
  // source: [Kurzak et al. 2011] section 5.3.2 (1536 threads per SM) and
  // 5.3.1 (warps = threads / 32); CUDA C Programming Guide 4.2, Table F-1
  // (1024 threads per block, 8 blocks per SM for compute capability 2.x).
  t.maxThreadsPerSM = 1536;
  t.maxThreadsPerBlock = 1024;
  t.maxBlocksPerSM = 8;
  t.maxWarpsPerSM = 48;
  // source: [Tan et al. 2011] section 3.1: BW_sm = 4 * 32 * 0.5 * clock *
  // SMs, i.e. 64 bytes per clock per SM.
  t.sharedBytesPerClock = 64;
  // source: [Lai & Seznec 2012] Table 1 (16 LD/ST units; LDS throughput 16
  // per clock).
  t.lsuPerClock = 16;
  // source: [Lai & Seznec 2012] section 3.1 and Figure 2 (LDS.128 "normally
  // leads to 2-way bank conflict", 2 thread instructions per clock); [Tan et
  // al. 2011] section 3.2.
  t.wideAccessConflict = 2;
  // source: [Tan et al. 2011] Table 2 (ld.32 / ld.64 / ld.128).
  t.sharedLatency[0] = 26;
  t.sharedLatency[1] = 38;
  t.sharedLatency[2] = 46;
  // source: [Tan et al. 2011] Table 3 (ld.gm: 332 cached, 1000 uncached).
  t.globalLatency = 1000;
  return t;
}

/// The Hopper SM (GH100, sm_90) that the H100 and the H200 share.
GpuTarget hopperSM() {
  GpuTarget t{};
  // source: NVIDIA H100 Tensor Core GPU Architecture whitepaper (128 FP32
  // and 64 FP64 cores per SM); H100 run (FFMA 4, DFMA 8 clocks).
  t.f32.perClock = 128;
  t.f32.latency = 4;
  t.f64.perClock = 64;
  t.f64.latency = 8;
  // source: no published Table 1 for Hopper; reuse as in [Kurzak et al.
  // 2011] Table 1. The fastest kernels of each precision measured on an
  // H100 (test/gpu/sweep, utils/calibrate/correlate: f32 128x128x8/8x8,
  // f64 dmma 128x128x8/8x8) run one block of 256 threads per SM, so
  // neither Table 1's 2 blocks nor eq. 1's 512 threads may prune them.
  t.f32.guidelines = {256, 1, 3.0};
  t.f64.guidelines = {256, 1, 2.0};
  // source: H100 whitepaper (four SM partitions, one warp scheduler issuing
  // one warp instruction per clock each; FP64 has its own pipe).
  t.schedulersPerSM = 4;
  t.warpIssuePerClock = 1;
  t.fp64DualIssue = true;
  // source: CUDA C++ Programming Guide 12.x, Table 21 (compute capability
  // 9.0: 64K registers per SM, 255 per thread, 228 KB shared memory per SM,
  // 227 KB per block, 2048 threads, 1024 per block, 32 blocks, 64 warps).
  t.registersPerSM = 65536;
  t.maxRegistersPerThread = 255;
  // source: utils/calibrate/registers.py with ptxas 13.0 (sm_90): least
  // squares over the fewest registers at which 45 FFMA and dmma kernels of
  // the correlation check compile without spilling. Residuals -55 to +49,
  // standard deviation 20, hence the margins that CostModel adds for
  // feasibility and residency. The fit's largest staged tile is 36 words a
  // thread (64x224x28/8x8, f32); 48x120x40/6x6 (42 words) spills at 255
  // registers where the law predicts 206. It counts cp.async copies as held
  // tiles (one coefficient). The law's estimates run high for the FFMA
  // multiply that CodeGen prints (ptxas takes 9-21 fewer registers), which
  // errs on the safe side; a refit needs kernels of every layout, since the
  // layout moves the need by 20-50 registers near the cap.
  t.registerLaw = RegisterLaw{47.1, -0.12, 2.78, 2.78, 2.06, 20, 36};
  // source: utils/calibrate/registers.py --kind dmma with ptxas 13.0.88: 14
  // dmma kernels, among them the two-slice cp.async tiles of streamed
  // problems (staged tiles up to 64 words), with cp.async copies apart from
  // held tiles (1.02 registers per copied word against 1.73 per held one),
  // standard deviation 8. dmma kernels get their own law because ptxas
  // allocates their fragments and cp.async addresses unlike an FFMA
  // kernel's: the shared law overestimated cp.async tiles by 10-90
  // registers. None of the 14 stages without a prefetch, so stagedDead
  // comes from an earlier dmma fit of 19 kernels.
  t.dmmaRegisterLaw = RegisterLaw{77.9, -0.49, 1.73, 1.02, 1.61, 8, 64};
  // source: H100 whitepaper SM diagram (a 16K x 32-bit register file per
  // partition); ptxas caps 576-thread blocks at 96 registers, not 112.
  t.registerPartitions = 4;
  // source: utils/calibrate/correlate on an H100: FFMA kernels slow down in
  // step with their shared-memory loads per FMA (8x8 v4 tiles 37-39
  // TFLOP/s, 5x8 v2 ones 24-26, v1 ones 17-19); ncu of a 128x128x8/8x8 dmma
  // kernel with a barrier per K step: the tensor pipe 51% busy, 2 warps per
  // scheduler stalled on fixed-latency dependencies, where the same
  // multiply without barriers and global loads runs at 97% (latency.cu's
  // dmma tile).
  t.stallsAdd = true;
  // source: utils/calibrate/correlate on an H200 (4096^3 NN, four cp.async
  // buffers): 128x128x16/8x8 42.0 TFLOP/s against 53.4-54.4 with one k8
  // slice a step (128x128x8/8x8); 128x64x16/4x8 39.7 against 42.0-42.9.
  // The model's turns rate the deeper steps alike.
  t.deepDriftShare = 0.78;
  // source: ncu (utils/calibrate/profile.sh) of CodeGen's 128x128x8/8x8
  // FFMA kernel on an H100: 2 warps per scheduler, 0.17 wait stalls per
  // issue and the FMA pipe 64% busy, where eq. 1 asks for 512 threads; the
  // compiler's control codes issue independent FFMAs back to back. On Fermi
  // the papers' measurements (MAGMA's SGEMM at 63% of the C2050) fit eq. 1's
  // thread count.
  t.tileCoversLatency = true;
  // source: H100 SASS (cuobjdump, nvcc 13.0; utils/calibrate/profile.sh) of
  // CodeGen's 128x128x8/8x8 dmma kernel: 176 instructions per K step, of
  // which 16 DMMA, 24 LDS, 8 LDG, 6 STS and 29 NOP; about 60 issued ones
  // step the 4 global loads' pointers, set their predicates and zero fills
  // and recompute their shared addresses.
  t.loadAddressing = 15;
  // source: PTX ISA 7.0, "cp.async" (sm_80 and later).
  t.asyncCopies = true;
  t.sharedBytesPerSM = 228 * 1024;
  t.sharedBytesPerBlock = 227 * 1024;
  t.maxThreadsPerSM = 2048;
  t.maxThreadsPerBlock = 1024;
  t.maxBlocksPerSM = 32;
  t.maxWarpsPerSM = 64;
  // source: CUDA C++ Programming Guide 12.x, section 16.x "Shared Memory"
  // (32 banks of 32 bits, one access per bank per clock): 128 B per clock.
  t.sharedBytesPerClock = 128;
  // source: H100 whitepaper SM diagram (8 LD/ST units per partition).
  t.lsuPerClock = 32;
  t.wideAccessConflict = 1;
  // source: H100 run (32/64/128-bit load plus a dependent XOR; cold global
  // load).
  t.sharedLatency[0] = 29;
  t.sharedLatency[1] = 29;
  t.sharedLatency[2] = 34;
  t.globalLatency = 689;
  // source: the L2's 128-byte lines (CUDA C++ Best Practices Guide,
  // "Coalesced Access to Global Memory"); utils/calibrate/correlate on an
  // H200 (--shape 32768,64,8192, DGEMM NN, A read once from DRAM): tiles
  // whose rows of A are 64 bytes (BK 8) ran 36.2-37.8 TFLOP/s whatever
  // their buffers (4, 6, 8), 128-byte ones (BK 16) 43.3-48.3.
  t.dramLineBytes = 128;
  return t;
}

GpuTarget makeC2050() {
  GpuTarget t = fermiSM();
  t.name = "fermi-c2050";
  t.description = "NVIDIA Tesla C2050 (Fermi GF100, sm_20)";
  t.deviceName = "Tesla C2050";
  // source: [Nath et al. 2010] section 3 and [Tan et al. 2011] section 2.1:
  // 448 cores (14 SMs) at 1.15 GHz, 1030 / 515 GFLOP/s.
  t.sms = 14;
  t.clockGHz = 1.15;
  // source: [Kurzak et al. 2011] section 5.1 (double precision: "16
  // operations per multiprocessor per cycle").
  t.f64.perClock = 16;
  // source: [Tan et al. 2011] Table 1 (GDDR5, 144 GB/s).
  t.dramGBs = 144;
  return t;
}

GpuTarget makeGTX580() {
  GpuTarget t = fermiSM();
  t.name = "fermi-gtx580";
  t.description = "NVIDIA GeForce GTX 580 (Fermi GF110, sm_20)";
  t.deviceName = "NVIDIA GeForce GTX 580";
  // source: [Lai & Seznec 2012] Table 1: 16 SMs of 32 SPs, 1544 MHz shader
  // clock, 1581 GFLOP/s, 192.4 GB/s.
  t.sms = 16;
  t.clockGHz = 1.544;
  t.dramGBs = 192.4;
  // source: CUDA C Programming Guide 4.2, Table 5-1 (64-bit FMA: 16 per
  // clock per SM for compute capability 2.0, 4 on GeForce GPUs).
  t.f64.perClock = 4;
  return t;
}

GpuTarget makeGTX280() {
  GpuTarget t{};
  t.name = "gt200-gtx280";
  t.description = "NVIDIA GeForce GTX 280 (Tesla GT200, sm_13)";
  t.deviceName = "GeForce GTX 280";
  // source: [Volkov & Demmel 2008] Table 1: 30 cores (SMs) at 1.30 GHz,
  // 624 / 78 GFLOP/s, 141 GB/s, 64 KB registers and 16 KB shared memory per
  // core.
  t.sms = 30;
  t.clockGHz = 1.30;
  t.dramGBs = 141;
  // source: [Volkov & Demmel 2008] section 2.1 (8 SP MAD pipelines and 1 DP
  // pipeline per core) and section 3.4 (MAD latency 24, DP MAD 52 clocks).
  t.f32 = {8, 24, {}};
  t.f64 = {1, 52, {}};
  // source: no Table 1 for GT200. Occupancy: [Volkov & Demmel 2008] section
  // 3.4 (6 warps, 192 threads, hide the pipeline); reuse 1 keeps its 1 x 16
  // register tile.
  t.f32.guidelines = {192, 1, 1.0};
  t.f64.guidelines = {192, 1, 1.0};
  // source: [Volkov & Demmel 2008] section 4.2: every instruction but the
  // MAD takes 4 cycles per warp, one issue unit (8 thread instructions per
  // clock); [Lai & Seznec 2012] section 2.2: other units take instructions
  // in the free cycles.
  t.schedulersPerSM = 1;
  t.warpIssuePerClock = 0.25;
  t.fp64DualIssue = true;
  // source: [Lai & Seznec 2012] Table 1 (16K registers per SM) and section
  // 2.1 (127 per thread); [Volkov & Demmel 2008] Table 1 (16 KB shared
  // memory).
  t.registersPerSM = 16384;
  t.maxRegistersPerThread = 127;
  t.sharedBytesPerSM = 16 * 1024;
  t.sharedBytesPerBlock = 16 * 1024;
  // source: CUDA Programming Guide 2.2, Appendix A (compute capability 1.3:
  // 1024 threads, 32 warps and 8 blocks per SM, 512 threads per block).
  t.maxThreadsPerSM = 1024;
  t.maxThreadsPerBlock = 512;
  t.maxBlocksPerSM = 8;
  t.maxWarpsPerSM = 32;
  // source: CUDA Programming Guide 2.2, section 5.1.2.5 (16 banks of 32
  // bits, each delivering one word per two clocks): 32 B per clock.
  t.sharedBytesPerClock = 32;
  // source: [Volkov & Demmel 2008] section 4.2 (shared-memory moves issue
  // like any other instruction, 4 cycles per warp).
  t.lsuPerClock = 8;
  t.wideAccessConflict = 1;
  // source: [Volkov & Demmel 2008] section 3.3 (shared memory "about 36
  // cycles"; non-cached global access 470 to 720 cycles).
  t.sharedLatency[0] = t.sharedLatency[1] = t.sharedLatency[2] = 36;
  t.globalLatency = 720;
  return t;
}

GpuTarget makeA100() {
  // Ampere keeps Hopper's SM organisation with half the FP32 and FP64 cores.
  GpuTarget t = hopperSM();
  t.name = "ampere-a100";
  t.description = "NVIDIA A100 SXM4 40GB (Ampere GA100, sm_80)";
  t.deviceName = "NVIDIA A100";
  // source: NVIDIA A100 Tensor Core GPU Architecture whitepaper: 108 SMs,
  // 1410 MHz boost, 64 FP32 and 32 FP64 cores per SM (19.5 / 9.7 TFLOP/s),
  // 1555 GB/s HBM2.
  t.sms = 108;
  t.clockGHz = 1.41;
  t.f32.perClock = 64;
  t.f64.perClock = 32;
  t.dramGBs = 1555;
  // source: [Lai & Seznec 2012] eq. 1 at Ampere's rates: 4 * 64 = 8 * 32 =
  // 256 threads.
  t.f32.guidelines.minThreadsPerSM = 256;
  t.f64.guidelines.minThreadsPerSM = 256;
  // source: the A100 whitepaper: 19.5 TFLOP/s FP64 on the tensor cores, twice
  // the FP64 cores' rate.
  t.f64Tensor = {64, 8, t.f64.guidelines};
  // source: PTX ISA 7.8 (m16n8kK .f64 needs sm_90): m8n8k4 only, at DFMA's
  // assumed 8 clocks (not measured on an A100).
  t.dmmaLatency[0] = 8;
  // source: CUDA C++ Programming Guide 12.x, Table 21 (compute capability
  // 8.0: 164 KB shared memory per SM, 163 KB per block). Latencies: not
  // measured on an A100; the H100 run's (FFMA 4 and DFMA 8 clocks match
  // Jia et al. 2018, docs/references.md, for the same SM pipeline since
  // Volta).
  t.sharedBytesPerSM = 164 * 1024;
  t.sharedBytesPerBlock = 163 * 1024;
  return t;
}

GpuTarget makeH100() {
  GpuTarget t = hopperSM();
  t.name = "hopper-h100";
  t.description = "NVIDIA H100 SXM5 80GB (Hopper GH100, sm_90)";
  t.deviceName = "NVIDIA H100";
  // source: NVIDIA H100 datasheet (SXM5: 67 / 34 TFLOP/s FP32 / FP64,
  // 3.35 TB/s HBM3); H100 run (132 SMs at 1980 MHz).
  t.sms = 132;
  t.clockGHz = 1.98;
  t.dramGBs = 3350;
  // source: NVIDIA H100 datasheet (SXM5: 67 TFLOP/s FP64 Tensor Core, twice
  // the FP64 cores' 34): 128 FMAs per clock per SM; H100 run of
  // utils/calibrate/latency.cu: m16n8k4/8/16 126.4-126.9 FMAs per clock
  // per SM and 34, 50, 82 clocks; m8n8k4 63.2 (half) and 26 clocks. The
  // guidelines are FP64's.
  t.f64Tensor = {128, 82, t.f64.guidelines};
  t.narrowDmmaShare = 0.5;
  // source: H100 run of utils/calibrate/latency.cu: 128-bit loads of a
  // 16 MiB buffer at 6852 GB/s.
  t.l2GBs = 6852;
  t.dmmaLatency[0] = 26;
  t.dmmaLatency[1] = 34;
  t.dmmaLatency[2] = 50;
  t.dmmaLatency[3] = 82;
  // source: bench/tf32 on an H200 (the H100's SMs and clocks), 4096^3 with
  // B column-major, median of 5: 376 TFLOP/s TF32, 116 TFLOP/s 3xTF32.
  t.tf32Gflops = 376000;
  t.tf32x3Gflops = 116000;
  return t;
}

GpuTarget makeH200() {
  GpuTarget t = makeH100();
  t.name = "hopper-h200";
  t.description = "NVIDIA H200 SXM 141GB (Hopper GH100, sm_90)";
  t.deviceName = "NVIDIA H200";
  // source: NVIDIA H200 datasheet (the H100's SMs and clocks, 67 TFLOP/s
  // FP32; 4.8 TB/s HBM3e).
  t.dramGBs = 4800;
  return t;
}

} // namespace

StringRef mlir::gemm::stringifyPrecision(Precision precision) {
  return precision == Precision::F64 ? "f64" : "f32";
}

int64_t mlir::gemm::elementBytes(Precision precision) {
  return precision == Precision::F64 ? 8 : 4;
}

double GpuTarget::issuePerClock(Precision precision) const {
  double all = double(schedulersPerSM) * warpIssuePerClock * 32.0;
  // Without dual issue the SM issues nothing beside an FP64 instruction
  // ([Tan et al. 2011] section 2.1), so FP64 code issues at the FP64 rate.
  if (precision == Precision::F64 && !fp64DualIssue)
    return std::min(all, double(f64.perClock));
  return all;
}

double GpuTarget::sharedAccessClocks(int64_t bytes, int64_t addresses) const {
  int64_t conflict = bytes >= 16 ? wideAccessConflict : 1;
  return std::max(32.0 / double(lsuPerClock),
                  double(addresses * bytes * conflict) /
                      double(sharedBytesPerClock));
}

double GpuTarget::dmmaLatencyOf(bool narrow, int64_t depth) const {
  return dmmaLatency[narrow ? 0 : depth >= 16 ? 3 : depth >= 8 ? 2 : 1];
}

double GpuTarget::sharedLoadLatency(int64_t bytes) const {
  return sharedLatency[bytes >= 16 ? 2 : bytes >= 8 ? 1 : 0];
}

ArrayRef<GpuTarget> mlir::gemm::getTargets() {
  static const GpuTarget targets[] = {makeGTX280(), makeC2050(), makeGTX580(),
                                      makeA100(),   makeH100(),  makeH200()};
  return targets;
}

const GpuTarget *mlir::gemm::lookupTarget(StringRef name) {
  ArrayRef<GpuTarget> targets = getTargets();
  const auto *it = llvm::find_if(
      targets, [&](const GpuTarget &t) { return t.name == name; });
  return it == targets.end() ? nullptr : it;
}

const GpuTarget &mlir::gemm::getDefaultTarget() {
  // A modern GPU, and the one the Hopper numbers were measured on.
  return *lookupTarget("hopper-h100");
}
