//===- GemmAttrs.td - gemm dialect attributes --------------*- tablegen -*-===//
//
// `#gemm.target` names the GPU that the module is compiled for;
// `#gemm.schedule` is the tiling that the cost model chose for one
// `gemm.matmul` and that later passes and CodeGen read; `#gemm.clamp` and
// `#gemm.fn` are the steps of a matmul's activation; `#gemm.rows` says how
// an operand holds its rows.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_OPT_DIALECT_GEMM_GEMMATTRS_TD
#define GEMM_OPT_DIALECT_GEMM_GEMMATTRS_TD

include "gemm-opt/Dialect/Gemm/GemmBase.td"
include "mlir/IR/EnumAttr.td"

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def Gemm_Prefetch : I32EnumAttr<"Prefetch",
    "where the next K tile is staged while the current one is computed", [
      I32EnumAttrCase<"None", 0, "none">,
      I32EnumAttrCase<"Smem", 1, "smem">,
      I32EnumAttrCase<"Regs", 2, "regs">,
      I32EnumAttrCase<"Async", 3, "async">
    ]> {
  let cppNamespace = "::mlir::gemm";
  // Only used as an attribute parameter; no standalone attribute is needed.
  let genSpecializedAttr = 0;
}

def Gemm_Compute : I32EnumAttr<"Compute",
    "the instruction that multiplies the register tiles", [
      I32EnumAttrCase<"Fma", 0, "fma">,
      I32EnumAttrCase<"Dmma", 1, "dmma">
    ]> {
  let cppNamespace = "::mlir::gemm";
  let genSpecializedAttr = 0;
}

def Gemm_ClampSide : I32EnumAttr<"ClampSide",
    "which bound a clamp of the activation applies", [
      I32EnumAttrCase<"Lower", 0, "lower">,
      I32EnumAttrCase<"Upper", 1, "upper">
    ]> {
  let cppNamespace = "::mlir::gemm";
  let genSpecializedAttr = 0;
}

def Gemm_ClampNaN : I32EnumAttr<"ClampNaN",
    "what a clamp of the activation makes of a NaN", [
      I32EnumAttrCase<"Bound", 0, "bound">,
      I32EnumAttrCase<"Keep", 1, "keep">
    ]> {
  let cppNamespace = "::mlir::gemm";
  let genSpecializedAttr = 0;
}

def Gemm_Function : I32EnumAttr<"Function",
    "a function step of the activation, as the source writes it", [
      I32EnumAttrCase<"Tanh", 0, "tanh">,
      I32EnumAttrCase<"Sigmoid", 1, "sigmoid">,
      I32EnumAttrCase<"GeluTanh", 2, "gelu_tanh">,
      I32EnumAttrCase<"GeluErf", 3, "gelu_erf">
    ]> {
  let cppNamespace = "::mlir::gemm";
  let genSpecializedAttr = 0;
}

def Gemm_RowTable : I32EnumAttr<"RowTable",
    "how an operand's rows are held: as one strided buffer or as a table of "
    "separately allocated rows", [
      I32EnumAttrCase<"None", 0, "none">,
      I32EnumAttrCase<"Pointers", 1, "pointers">,
      I32EnumAttrCase<"Vectors", 2, "vectors">
    ]> {
  let cppNamespace = "::mlir::gemm";
  let genSpecializedAttr = 0;
}

//===----------------------------------------------------------------------===//
// Parameters
//===----------------------------------------------------------------------===//

/// The compute instruction; `fma` when omitted, so schedules written before
/// tensor-core kernels existed keep their meaning.
def Gemm_ComputeParameter : EnumParameter<Gemm_Compute> {
  let defaultValue = "::mlir::gemm::Compute::Fma";
}

/// A list of integers written in square brackets, e.g. `[128, 128, 8]`. The
/// default list parser takes no brackets, which is ambiguous inside a
/// `struct(params)` format whose fields are also separated by commas.
class Gemm_IntListParameter<string desc>
    : ArrayRefParameter<"int64_t", desc> {
  let parser = [{
    [&]() -> ::mlir::FailureOr<::llvm::SmallVector<int64_t>> {
      ::llvm::SmallVector<int64_t> values;
      if ($_parser.parseCommaSeparatedList(
              ::mlir::AsmParser::Delimiter::Square,
              [&]() { return $_parser.parseInteger(values.emplace_back()); }))
        return ::mlir::failure();
      return values;
    }()
  }];
  let printer = [{ $_printer << '[' << $_self << ']' }];
}

//===----------------------------------------------------------------------===//
// TargetAttr
//===----------------------------------------------------------------------===//

def Gemm_TargetAttr : Gemm_Attr<"Target", "target"> {
  let summary = "the GPU that a module is compiled for";
  let description = [{
    Names the target GPU whose description (SM count, rates, register and
    shared-memory budgets, latencies) the cost model reads. It sits on the
    module as the discardable attribute `gemm.target`.

    Parameters:
    /// name: the target's key in lib/Target, e.g. `"fermi-c2050"`,
    ///   `"hopper-h100"`.

    Example:

    ```mlir
    module attributes {gemm.target = #gemm.target<name = "hopper-h100">} {}
    ```
  }];

  let parameters = (ins
    /// The target's key in lib/Target, e.g. "hopper-h100".
    StringRefParameter<"the target's key in lib/Target">:$name
  );

  let assemblyFormat = "`<` struct(params) `>`";
}

//===----------------------------------------------------------------------===//
// ClampAttr
//===----------------------------------------------------------------------===//

def Gemm_ClampAttr : Gemm_Attr<"Clamp", "clamp"> {
  let summary = "one step of a gemm.matmul's activation";
  let description = [{
    x = max(x, bound) (`lower`) or min(x, bound) (`upper`), the bound being
    the matching operand of the op's `params(...)` list. `nan` says what a NaN
    x becomes, as the source's form does: the bound (`fmaxf(x, 0.0f)`,
    `x > 0 ? x : 0`) or NaN (`std::max(x, 0.0f)`, which is
    `x < 0 ? 0 : x`). ReLU is one lower clamp at 0.

    Example:

    ```mlir
    #gemm.clamp<lower, nan = bound>
    ```
  }];

  let parameters = (ins
    EnumParameter<Gemm_ClampSide>:$side,
    EnumParameter<Gemm_ClampNaN>:$nan
  );

  let assemblyFormat = "`<` $side `,` `nan` `=` $nan `>`";
}

//===----------------------------------------------------------------------===//
// FnAttr
//===----------------------------------------------------------------------===//

def Gemm_FnAttr : Gemm_Attr<"Fn", "fn"> {
  let summary = "a function step of a gemm.matmul's activation";
  let description = [{
    x = f(x) with the source's formula and constants, computed in the
    element type through its libm call (tanhf, expf, erff for f32). The
    constants are the next operands of the op's `params(...)` list:

    - `tanh`: tanh(x); no constants.
    - `sigmoid`: 1 / (1 + exp(-x)); no constants.
    - `gelu_tanh`: 0.5 * x * (1 + tanh(k * (x + c * x*x*x))); k and c
      (sqrt(2/pi) and 0.044715 as the source spells them).
    - `gelu_erf`: 0.5 * x * (1 + erf(x * s)); s (1/sqrt(2)).

    Example:

    ```mlir
    #gemm.fn<gelu_tanh>
    ```
  }];

  let parameters = (ins EnumParameter<Gemm_Function>:$function);

  let assemblyFormat = "`<` $function `>`";

  let extraClassDeclaration = [{
    /// How many constants of the op's `params(...)` the step takes.
    unsigned getParamCount() const;
  }];
}

//===----------------------------------------------------------------------===//
// RowsAttr
//===----------------------------------------------------------------------===//

def Gemm_RowsAttr : Gemm_Attr<"Rows", "rows"> {
  let summary = "how one operand of a gemm.matmul holds its rows";
  let description = [{
    `none`: the operand is the strided memref it is typed as. `pointers`: a
    table of row pointers (`T **`, `T *rows[]`, `std::vector<T *>`);
    `vectors`: a `std::vector<std::vector<T>>`. A table's rows are separate
    allocations that the runtime gathers into one contiguous copy before the
    kernel (and scatters back, for C); the memref type describes that copy:
    the dimension with the static unit stride runs along a row, the other
    one along the table.

    Example:

    ```mlir
    #gemm.rows<pointers>
    ```
  }];

  let parameters = (ins EnumParameter<Gemm_RowTable>:$table);

  let assemblyFormat = "`<` $table `>`";
}

//===----------------------------------------------------------------------===//
// RatesAttr
//===----------------------------------------------------------------------===//

def Gemm_RatesAttr : Gemm_Attr<"Rates", "rates"> {
  let summary = "what the cost model predicts of one kernel, for the runtime";
  let description = [{
    The GFLOP/s that the cost model predicts for a kernel on a full GPU of
    the module's target (a problem that fills it), and the shares of DRAM
    bandwidth at which its tiles of A and B stream (RunTimeTerms.h). The
    runtime scales the rate to a call's extents and picks among the kernels
    by it; gemm-specialize writes one per kernel so that CodeGen only
    prints them.

    Example:

    ```mlir
    #gemm.rates<gflops = 4.8e+04 : f64, share_a = 5.0e-01 : f64,
                share_b = 1.0 : f64>
    ```
  }];

  let parameters = (ins "FloatAttr":$gflops, "FloatAttr":$share_a,
                        "FloatAttr":$share_b);

  let assemblyFormat = "`<` struct(params) `>`";
}

//===----------------------------------------------------------------------===//
// MeasuredAttr, TuneCaseAttr
//===----------------------------------------------------------------------===//

def Gemm_MeasuredAttr : Gemm_Attr<"Measured", "measured"> {
  let summary = "a problem that a tuning database timed, and its fastest choice";
  let description = [{
    One entry of a gemm.matmul's `gemm.measured` list: a problem (batch,
    m, n, k) that a tuning database timed for the op's layout, and the
    fastest choice for it: `kernel` indexes the op's schedule (0) and then
    its alternatives, `splits` is the K split (0: the kernel's stream-K
    form). The launcher runs a call near the problem with that choice
    (docs/tuning.md).

    Example:

    ```mlir
    #gemm.measured<batch = 1, m = 4096, n = 4096, k = 4096, kernel = 2,
                   splits = 1>
    ```
  }];

  let parameters = (ins "int64_t":$batch, "int64_t":$m, "int64_t":$n,
                        "int64_t":$k, "int64_t":$kernel, "int64_t":$splits);

  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def Gemm_TuneCaseAttr : Gemm_Attr<"TuneCase", "tune_case"> {
  let summary = "a problem that a tuning program times one kernel on";
  let description = [{
    One entry of a gemm.matmul's `gemm.tune` list, in a tuning program: a
    problem (batch, m, n, k) and the kernel to time on it, indexing the
    op's schedule (0) and then its alternatives.

    Example:

    ```mlir
    #gemm.tune_case<batch = 1, m = 512, n = 512, k = 512, kernel = 1>
    ```
  }];

  let parameters = (ins "int64_t":$batch, "int64_t":$m, "int64_t":$n,
                        "int64_t":$k, "int64_t":$kernel);

  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

//===----------------------------------------------------------------------===//
// ScheduleAttr
//===----------------------------------------------------------------------===//

def Gemm_ScheduleAttr : Gemm_Attr<"Schedule", "schedule"> {
  let summary = "the tiling chosen for one gemm.matmul";
  let description = [{
    The two-level tiling of a GEMM kernel: each thread block computes a
    BM x BN tile of C from BM x BK and BK x BN tiles of A and B staged in
    shared memory; each thread computes a TM x TN register tile of it.
    The cost-model pass writes it and CodeGen prints a kernel from it. A test
    of a later pass can write it by hand.

    Parameters:
    /// block: the block tile [BM, BN, BK]: rows of C, columns of C and the
    ///   depth of the K step that one thread block computes per iteration.
    /// thread: the register tile [TM, TN]: rows and columns of C per thread,
    ///   so a block has (BM / TM) * (BN / TN) threads.
    /// warps: warps per thread block.
    /// stages: shared-memory buffers of the K loop pipeline (1 = no double
    ///   buffering, 2 = double buffering; `async` takes 2 or more).
    /// vector: elements per vector global/shared access (1, 2 or 4; 4 x f32
    ///   and 2 x f64 are 128-bit accesses).
    /// prefetch: where the next K tile waits while the current one is
    ///   computed: `none`, `smem` (a second shared-memory buffer), `regs`
    ///   (a register prefetch, as in the autotuning paper's Algorithm 1) or
    ///   `async` (stages - 1 tiles in flight as cp.async copies straight into
    ///   shared memory, sm_80 and later).
    /// pad: elements of padding per shared-memory row, against bank conflicts.
    /// compute: `fma` (one scalar FMA per thread and element, the papers'
    ///   kernels) or `dmma` (FP64 tensor-core mma.sync m8n8k4, sm_80 and
    ///   later): each warp then owns an 8*TM x 4*TN tile of C and a thread
    ///   still holds TM * TN accumulators. Optional; `fma` by default.
    /// occupancy: the blocks per SM that the kernel must fit, register-wise:
    ///   CodeGen prints `__launch_bounds__(threads, occupancy)`, so ptxas
    ///   keeps each thread within the registers of that many blocks. The
    ///   cost model writes the residency it predicts. Optional; 1 by
    ///   default (ptxas may use up to the per-thread cap).
    /// transpose: the kernel computes C^T = B^T * A^T, so that the tiles and
    ///   the thread tile above are those of the transposed product: BM runs
    ///   along N and BN along M. The operands' layouts decide which way
    ///   round their tiles move best. Optional; false by default.

    Example:

    ```mlir
    #gemm.schedule<block = [128, 128, 8], thread = [8, 8], warps = 8,
                   stages = 2, vector = 4, prefetch = smem, pad = 4>
    ```
  }];

  let parameters = (ins
    /// [BM, BN, BK]: the block tile of C and the K step.
    Gemm_IntListParameter<"block tile [BM, BN, BK]">:$block,
    /// [TM, TN]: the register tile of C per thread.
    Gemm_IntListParameter<"register tile [TM, TN]">:$thread,
    /// Warps per thread block.
    "int64_t":$warps,
    /// Shared-memory pipeline stages of the K loop.
    "int64_t":$stages,
    /// Elements per vector access: 1, 2 or 4.
    "int64_t":$vector,
    /// Where the next K tile is staged.
    EnumParameter<Gemm_Prefetch>:$prefetch,
    /// Elements of padding per shared-memory row.
    "int64_t":$pad,
    /// The instruction that multiplies the register tiles.
    Gemm_ComputeParameter:$compute,
    /// Resident blocks per SM that the launch bounds ask for.
    DefaultValuedParameter<"int64_t", "1">:$occupancy,
    /// Whether the kernel computes the transposed product.
    DefaultValuedParameter<"bool", "false">:$transpose
  );

  let builders = [
    /// A schedule of scalar FMA kernels, the papers' kind.
    AttrBuilder<(ins "::llvm::ArrayRef<int64_t>":$block,
                     "::llvm::ArrayRef<int64_t>":$thread, "int64_t":$warps,
                     "int64_t":$stages, "int64_t":$vector,
                     "Prefetch":$prefetch, "int64_t":$pad), [{
      return $_get($_ctxt, block, thread, warps, stages, vector, prefetch, pad,
                   Compute::Fma, 1, false);
    }]>
  ];

  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;

  let extraClassDeclaration = [{
    /// Rows of C per thread block (BM).
    int64_t getBlockM() const { return getBlock()[0]; }
    /// Columns of C per thread block (BN).
    int64_t getBlockN() const { return getBlock()[1]; }
    /// Depth of one K step (BK).
    int64_t getBlockK() const { return getBlock()[2]; }
    /// Rows of C per thread (TM).
    int64_t getThreadM() const { return getThread()[0]; }
    /// Columns of C per thread (TN).
    int64_t getThreadN() const { return getThread()[1]; }
  }];
}

//===----------------------------------------------------------------------===//
// TileMoveAttr and KernelAttr
//===----------------------------------------------------------------------===//

def Gemm_TileMoveAttr : Gemm_Attr<"TileMove", "tile_move"> {
  let summary = "how one input tile of a kernel moves into shared memory";
  let description = [{
    The tile is stored k-major (`tile[k][x]`; x runs along M for A and along
    N for B), or x-major where `k_inner` says so. Written by
    gemm-specialize from lib/Target's KernelPlan and printed by CodeGen as
    a `gemm_kernels::TileMove`.

    Example:
    ```mlir
    #gemm.tile_move<x = 128, x_unit = true, k_unit = false, pack = 4,
                    along_k = false, whole_store = true, packs = 256,
                    loads = 1, regular = true, swizzled = false,
                    k_inner = false>
    ```
  }];
  let parameters = (ins
    /// The tile's extent along x (BM or BN).
    "int64_t":$x,
    /// Whether x (k) neighbours are a static 1 apart in memory.
    "bool":$x_unit,
    "bool":$k_unit,
    /// Elements per global access, and whether packs run along k.
    "int64_t":$pack,
    "bool":$along_k,
    /// Whether a pack lands in shared memory whole.
    "bool":$whole_store,
    /// Packs per K tile, and per thread (rounded up).
    "int64_t":$packs,
    "int64_t":$loads,
    /// Whether a thread's packs lie a fixed address step apart.
    "bool":$regular,
    /// Whether the tile's columns are swizzled by row (KernelPlan.h).
    "bool":$swizzled,
    /// Whether the tile is stored x-major (KernelPlan.h, isKInner).
    "bool":$k_inner
  );
  let assemblyFormat = "`<` struct(params) `>`";
}

def Gemm_KernelAttr : Gemm_Attr<"Kernel", "kernel"> {
  let summary = "every fact of one kernel variant of a gemm.matmul";
  let description = [{
    What gemm-specialize derives from a schedule, the target and the
    operands' layout (lib/Target's KernelPlan), so that CodeGen only prints:
    the tile moves, how a thread's fragments group, the FP64 tensor-core
    shape, how C is stored, and the shared memory taken. The cost model
    counts the same plan. Names follow the configuration constants of
    runtime/include/gemm_kernels/config.cuh.

    Example:
    ```mlir
    #gemm.kernel<schedule = #gemm.schedule<...>, threads = 256,
                 a = #gemm.tile_move<...>, b = #gemm.tile_move<...>,
                 row_group = 4, row_step = 64, col_group = 4, col_step = 64,
                 dmma_depth = 0, dmma_wide = false, dmma_group_a = 1,
                 dmma_group_b = 1, c_row_unit = false, c_col_unit = true,
                 c_by_columns = false, c_pack = 4, a_tile_bytes = 16896,
                 shared_bytes = 25600, scalar_twin = true>
    ```
  }];
  let parameters = (ins
    /// The schedule the kernel tiles by.
    "ScheduleAttr":$schedule,
    "int64_t":$threads,
    /// The input tiles as the kernel sees them (B^T and A^T when the
    /// schedule computes C^T).
    "TileMoveAttr":$a,
    "TileMoveAttr":$b,
    /// A thread's rows of C: groups of row_group adjacent rows, row_step
    /// apart; likewise its columns.
    "int64_t":$row_group,
    "int64_t":$row_step,
    "int64_t":$col_group,
    "int64_t":$col_step,
    /// 0 for scalar FMAs, else the k of one FP64 mma.sync; whether row blocks
    /// pair into m16n8kK products; the blocks a lane reads as one pack.
    "int64_t":$dmma_depth,
    "bool":$dmma_wide,
    "int64_t":$dmma_group_a,
    "int64_t":$dmma_group_b,
    /// C as the kernel stores it: its unit strides, by columns or by rows,
    /// and elements per store.
    "bool":$c_row_unit,
    "bool":$c_col_unit,
    "bool":$c_by_columns,
    "int64_t":$c_pack,
    /// Dynamic shared memory: the A tiles (rounded up to 32 bytes), and all.
    "int64_t":$a_tile_bytes,
    "int64_t":$shared_bytes,
    /// A twin with single-element accesses is compiled too, for operands
    /// that the packs do not fit; without one, such calls run other kernels.
    "bool":$scalar_twin,
    /// The stream-K kernel is compiled too (only a measurement chooses it);
    /// printed only where true.
    DefaultValuedParameter<"bool", "false">:$stream_k
  );
  let assemblyFormat = "`<` struct(params) `>`";
}

#endif // GEMM_OPT_DIALECT_GEMM_GEMMATTRS_TD
