//===- Passes.td - gemm-opt passes -------------------------*- tablegen -*-===//
#ifndef GEMM_OPT_TRANSFORMS_PASSES_TD
#define GEMM_OPT_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def GemmSelectSchedule : Pass<"gemm-select-schedule", "ModuleOp"> {
  let summary = "Attach a #gemm.schedule to every gemm.matmul";
  let description = [{
    Chooses the tiling of each gemm.matmul that has none: the target's default
    schedule for its element type (until the cost model lands), with any
    parameter given as a pass option taking precedence. An op that already
    carries a schedule keeps it, unless an option overrides a parameter.

    Before:
    ```mlir
    gemm.matmul %a, %b, %c, %alpha, %beta : ..., f32
    ```
    After (`--gemm-select-schedule="block=64,64,8"`):
    ```mlir
    gemm.matmul %a, %b, %c, %alpha, %beta {schedule = #gemm.schedule<
        block = [64, 64, 8], thread = [8, 8], warps = 2, stages = 2,
        vector = 4, prefetch = smem, pad = 4>} : ..., f32
    ```
    Warps follow from the tiles.
  }];
  let dependentDialects = ["::mlir::gemm::GemmDialect"];
  let options = [
    ListOption<"block", "block", "int64_t", "Block tile BM,BN,BK">,
    ListOption<"thread", "thread", "int64_t", "Register tile TM,TN">,
    Option<"stages", "stages", "int64_t", "0",
           "Shared-memory stages (0: the default)">,
    Option<"vector", "vector", "int64_t", "0",
           "Elements per vector access (0: the default)">,
    Option<"prefetch", "prefetch", "std::string", "\"\"",
           "none, smem or regs (empty: the default)">,
    Option<"pad", "pad", "int64_t", "-1",
           "Shared-memory row padding in elements (-1: the default)">,
  ];
}

#endif // GEMM_OPT_TRANSFORMS_PASSES_TD
