//===- Passes.td - gemm-opt passes -------------------------*- tablegen -*-===//
#ifndef GEMM_OPT_TRANSFORMS_PASSES_TD
#define GEMM_OPT_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def GemmSelectSchedule : Pass<"gemm-select-schedule", "ModuleOp"> {
  let summary = "Attach a #gemm.schedule to every gemm.matmul";
  let description = [{
    Chooses the tiling of each gemm.matmul that has none with the cost model
    of lib/Target (docs/cost-model.md): it enumerates the schedules CodeGen
    can print for the target, prunes them with the target's guidelines
    ([Kurzak et al. 2011] Algorithm 3, Table 1), predicts each one's GFLOP/s as the
    least of its memory, issue and latency bounds, and takes the best. A
    remark at the op gives the choice, its prediction and its bound.

    The target is the `target` option, else the module's `gemm.target`,
    else the default (hopper-h100); the module is left carrying it.
    Parameters given as options restrict the search to schedules that have
    them; when none does, they are applied to the best schedule instead.
    An op that already carries a schedule keeps it, unless an option
    overrides a parameter.

    Before:
    ```mlir
    gemm.matmul %a, %b, %c, %alpha, %beta : ..., f64
    ```
    After (`--gemm-select-schedule="target=fermi-c2050"`):
    ```mlir
    gemm.matmul %a, %b, %c, %alpha, %beta {schedule = #gemm.schedule<
        block = [64, 64, 16], thread = [4, 4], warps = 8, stages = 1,
        vector = 2, prefetch = none, pad = 2>} : ..., f64
    ```
    Where C's extents are dynamic, the op also gets `alternatives`: the
    model's first schedules for a few smaller problems (squares of 1024 and
    256, 64 rows or columns against a large other side, batches of small
    squares), each kernel once; the launcher picks one per call by the
    model's fill at the call's extents. Warps follow from the tiles.
    `explain=N` prints the top N candidates of
    each search with every bound on stdout (`explain-schedules` prints only
    their options, one schedule per line, for scripts).
  }];
  let dependentDialects = ["::mlir::gemm::GemmDialect"];
  let options = [
    Option<"target", "target", "std::string", "\"\"",
           "Target GPU, e.g. fermi-c2050 or hopper-h200 (empty: the "
           "module's #gemm.target, else the default)">,
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
    Option<"alternatives", "alternatives", "unsigned", "4",
           "Most extra kernels for smaller problems than C's dynamic "
           "extents allow (0: one kernel per op)">,
    Option<"explain", "explain", "unsigned", "0",
           "Print the top N candidates of each search on stdout">,
    Option<"explainSchedules", "explain-schedules", "bool", "false",
           "With explain, print only the candidates' options">,
  ];
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
    `kernels`, one #gemm.kernel per schedule.

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
}

#endif // GEMM_OPT_TRANSFORMS_PASSES_TD
