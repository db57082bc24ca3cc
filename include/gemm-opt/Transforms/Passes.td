//===- Passes.td - gemm-opt passes -------------------------*- tablegen -*-===//
//
// One pass a decision, run in this order by buildGemmPipeline (Passes.h):
// attach-target, select-schedule, add-alternatives, (for a tuning program)
// add-tuning-candidates, specialize, verify-budget.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_OPT_TRANSFORMS_PASSES_TD
#define GEMM_OPT_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

// The options that fix schedule parameters, and the tuning database.
// gemm-select-schedule and gemm-add-alternatives both take them, so that an
// op's alternatives are chosen under the options that chose its schedule.
defvar scheduleOptions = [
  ListOption<"block", "block", "int64_t", "Block tile BM,BN,BK">,
  ListOption<"thread", "thread", "int64_t", "Register tile TM,TN">,
  Option<"stages", "stages", "int64_t", "0",
         "Shared-memory stages (0: the model's)">,
  Option<"vector", "vector", "int64_t", "0",
         "Elements per vector access (0: the model's)">,
  Option<"prefetch", "prefetch", "std::string", "\"\"",
         "none, smem, regs or async (empty: the model's)">,
  Option<"compute", "compute", "std::string", "\"\"",
         "fma or dmma (empty: the model's choice)">,
  Option<"pad", "pad", "int64_t", "-1",
         "Shared-memory row padding in elements (-1: the model's)">,
  Option<"transpose", "transpose", "int", "-1",
         "1: compute C^T = B^T A^T, 0: C = A B (-1: the model's)">,
  Option<"occupancy", "occupancy", "int64_t", "0",
         "Blocks per SM of the launch bounds (0: the model's residency)">,
  Option<"tuningDb", "tuning-db", "std::string", "\"\"",
         "A tuning database (docs/tuning.md): what the GPU measured fastest "
         "replaces the model's choice where it timed the problem">,
];

def GemmAttachTarget : Pass<"gemm-attach-target", "ModuleOp"> {
  let summary = "Put the target GPU's #gemm.target on the module";
  let description = [{
    Resolves the GPU that later passes and CodeGen tune for: the `target`
    option, else the module's `gemm.target`, else the default
    (hopper-h100). An unknown name is an error that lists the known
    targets (lib/Target/Targets.cpp).

    Before:
    ```mlir
    module {
      func.func @sgemm(...) { gemm.matmul ... }
    }
    ```
    After (`--gemm-attach-target=target=fermi-c2050`):
    ```mlir
    module attributes {gemm.target = #gemm.target<name = "fermi-c2050">} {
      func.func @sgemm(...) { gemm.matmul ... }
    }
    ```
  }];
  let dependentDialects = ["::mlir::gemm::GemmDialect"];
  let options = [
    Option<"target", "target", "std::string", "\"\"",
           "Target GPU, e.g. fermi-c2050 or hopper-h200 (empty: the "
           "module's #gemm.target, else the default)">,
  ];
}

def GemmSelectSchedule : Pass<"gemm-select-schedule", "ModuleOp"> {
  let summary = "Attach a #gemm.schedule to every gemm.matmul";
  let description = [{
    Chooses the tiling of each gemm.matmul that has none with the cost model
    of lib/Target (docs/cost-model.md) for the module's target: it
    enumerates the schedules CodeGen can print, prunes them with the
    target's guidelines ([Kurzak et al. 2011] Algorithm 3, Table 1), predicts each
    one's GFLOP/s as the least of its memory, issue and latency bounds, and
    takes the best. A remark at the op gives the choice, its prediction and
    its bound. The launch bounds' `occupancy` is the model's residency.

    Parameters given as options restrict the search to schedules that have
    them; when none does, they are applied to the best schedule instead.
    An op that already carries a schedule keeps it, unless an option
    overrides a parameter.

    Before:
    ```mlir
    gemm.matmul %a, %b, %c, %alpha, %beta : ..., f64
    ```
    After (on a module whose target is fermi-c2050):
    ```mlir
    gemm.matmul %a, %b, %c, %alpha, %beta {schedule = #gemm.schedule<
        block = [64, 64, 16], thread = [4, 4], warps = 8, stages = 1,
        vector = 2, prefetch = none, pad = 2>} : ..., f64
    ```
    With `tuning-db=FILE`, an op whose extents are all static takes the
    fastest checked row that the file holds for its problem on the
    module's target (docs/tuning.md), and the remark says it was
    measured; rows that other kernels or another gemm-opt made are
    ignored, with a remark.

    Warps follow from the tiles. `explain=N` prints the top N candidates
    of each search with every bound on stdout (`explain-schedules` prints
    only their options, one schedule per line, for scripts).
  }];
  let dependentDialects = ["::mlir::gemm::GemmDialect"];
  let options = !listconcat(scheduleOptions, [
    Option<"explain", "explain", "unsigned", "0",
           "Print the top N candidates of each search on stdout">,
    Option<"explainSchedules", "explain-schedules", "bool", "false",
           "With explain, print only the candidates' options">,
  ]);
}

def GemmAddAlternatives : Pass<"gemm-add-alternatives", "ModuleOp"> {
  let summary = "Add kernels for smaller problems than C's types allow";
  let description = [{
    Where C's extents (or the batch count) are dynamic, a call may be much
    smaller than the problem the schedule was chosen for. Each op whose
    schedule is the model's choice under the options gets `alternatives`:
    the model's first schedules for a few smaller problems (squares of 1024
    and 256, 64 rows or columns against a large other side, batches of
    small squares), under the same options, each kernel once and none
    equal to the schedule. The launcher picks one per call by the model's
    fill at the call's extents. An op whose schedule was given (in the
    input, or by options that fix every parameter) keeps its one kernel.

    With `tuning-db=FILE`, the fastest checked kernel of each problem that
    the file timed on the module's target, and that the op admits (its
    precision, layout and static extents), is added too (at most 8 new
    ones), and `gemm.measured` lists those problems with their kernel and
    K split: the launcher runs a call near one of them with its measured
    choice (docs/tuning.md).

    Before:
    ```mlir
    gemm.matmul %a, %b, %c, %alpha, %beta {schedule = #gemm.schedule<
        block = [128, 128, 8], ...>} : memref<?x?xf64>, ..., f64
    ```
    After:
    ```mlir
    gemm.matmul %a, %b, %c, %alpha, %beta {alternatives = [
        #gemm.schedule<block = [128, 64, 8], ...>, ...],
        schedule = #gemm.schedule<block = [128, 128, 8], ...>}
        : memref<?x?xf64>, ..., f64
    ```
  }];
  let dependentDialects = ["::mlir::gemm::GemmDialect"];
  let options = !listconcat(scheduleOptions, [
    Option<"alternatives", "alternatives", "unsigned", "4",
           "Most extra kernels for smaller problems than C's dynamic "
           "extents allow (0: one kernel per op)">,
  ]);
}

def GemmAddTuningCandidates
    : Pass<"gemm-add-tuning-candidates", "ModuleOp"> {
  let summary = "Give each op the model's first schedules for the problems "
                "a tuning program times";
  let description = [{
    For a tuning program (`gemm-opt --emit=tune`, docs/tuning.md), which
    times kernels on the GPU instead of trusting the model's ranking of
    them. An op whose extents are all static is tuned on its own problem;
    any other on each problem of `problems` that it admits: its static
    extents, a BATCHx prefix for batched ops and none for the others, and
    the layout class where the problem names one (`rcr:4096x4096x4096` is
    for ops with B column-major only). Each problem times the kernels the
    op has (its schedule, kernel 0, and the alternatives that
    gemm-add-alternatives gave it: what the launcher would choose among)
    and the model's first `top` schedules for it under the schedule
    options, then its best of each of `shapes` further tile shapes (the
    model ranks variants of one tile together, however they measure),
    added to `alternatives` (each kernel once); `gemm.tune` lists
    (batch, M, N, K, kernel) for each problem and each of its kernels. An
    op that no problem fits gets a remark and no `gemm.tune`: the tuning
    program skips it.

    Before:
    ```mlir
    gemm.matmul %a, %b, %c, %alpha, %beta {schedule = #gemm.schedule<...>}
        : memref<?x?xf32>, ..., f32
    ```
    After (problems=1024x1024x1024, top=2):
    ```mlir
    gemm.matmul %a, %b, %c, %alpha, %beta {alternatives = [
        #gemm.schedule<...>], gemm.tune = [#gemm.tune_case<batch = 1, m = 1024, n = 1024, k = 1024, kernel = 0>, #gemm.tune_case<batch = 1, m = 1024, n = 1024, k = 1024, kernel = 1>], schedule = #gemm.schedule<...>}
        : memref<?x?xf32>, ..., f32
    ```
  }];
  let dependentDialects = ["::mlir::gemm::GemmDialect"];
  let options = !listconcat(scheduleOptions, [
    ListOption<"problems", "problems", "std::string",
               "Problems to tune ops of dynamic extents on: "
               "[LAYOUT:][BATCHx]MxNxK">,
    Option<"top", "top", "unsigned", "16",
           "Schedules per problem, the model's first">,
    Option<"shapes", "shapes", "unsigned", "0",
           "Then the model's best schedule of each of this many further "
           "tile shapes (block and thread tile)">,
  ]);
}

def GemmVerifyBudget : Pass<"gemm-verify-budget", "ModuleOp"> {
  let summary = "Check every schedule against the target's per-block limits";
  let description = [{
    A schedule written into the input or fixed by options may ask for more
    than the module's target has. For each gemm.matmul's schedule and
    alternatives, the cost model's footprint (lib/Target) must fit one block
    of the target: its threads, its registers per thread (the estimate
    without the search's safety margin) and its shared memory. Anything
    over is an error at the op that names the schedule, the target and
    both numbers. The IR is not changed.

    Before and after:
    ```mlir
    module attributes {gemm.target = #gemm.target<name = "fermi-c2050">} {
      gemm.matmul ... {schedule = #gemm.schedule<block = [128, 128, 16],
          thread = [4, 4], warps = 32, stages = 2, vector = 2,
          prefetch = smem, pad = 0>} : ..., f64
    }
    ```
    ```
    error: gemm-verify-budget: schedule block=128,128,16 thread=4,4 ...
    needs 65536 bytes of shared memory per block; fermi-c2050 has 49152
    ```
  }];
}

def GemmSpecialize : Pass<"gemm-specialize", "ModuleOp"> {
  let summary = "Plan every scheduled kernel of a gemm.matmul for its operands";
  let description = [{
    Derives, for each schedule of each gemm.matmul (the schedule, then the
    alternatives), the kernel that CodeGen prints: how A's and B's tiles move
    (pack width and direction along the unit stride, whole or element-wise
    shared stores, a thread's regular pack steps), how a thread's fragments
    group, the FP64 tensor-core shape, whether C is stored by rows or by
    columns and in which packs, and the shared memory taken. These are
    lib/Target's KernelPlan, the one the cost model counted, written as
    `kernels`, one #gemm.kernel per schedule. A packed kernel gets a scalar
    twin (for operands its packs do not fit) where it is the first kernel of
    some op in the module, so that every misaligned call has a kernel and no
    other kernel doubles its compile time. A kernel gets its stream-K form
    (`stream_k`) only where a measurement can choose it: where an op's
    `gemm.measured` table chose stream-K for it, for every kernel of an op
    that a tuning program times (`gemm.tune`), or for all with `stream-k`.
    Both are decided per configuration across the module: a kernel that one
    op needs them for has them for every op.

    Before:
    ```mlir
    gemm.matmul %a, %b, %c, %alpha, %beta {schedule = #gemm.schedule<...>}
        : memref<?x?xf32, strided<[?, 1], offset: ?>>, ...
    ```
    After:
    ```mlir
    gemm.matmul %a, %b, %c, %alpha, %beta {kernels = [#gemm.kernel<
        schedule = #gemm.schedule<...>, threads = 256,
        a = #gemm.tile_move<x = 128, x_unit = true, ...>, ...>],
        schedule = #gemm.schedule<...>} : ...
    ```
  }];
  let dependentDialects = ["::mlir::gemm::GemmDialect"];
  let options = [
    Option<"streamK", "stream-k", "bool", "false",
           "Compile every kernel's stream-K form, for GEMM_OPT_TUNE and "
           "GEMM_OPT_STREAM at run time">
  ];
}

#endif // GEMM_OPT_TRANSFORMS_PASSES_TD
