//===- GemmOps.td - gemm dialect operations ----------------*- tablegen -*-===//
//
// Operations of the gemm dialect.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_OPT_DIALECT_GEMM_GEMMOPS_TD
#define GEMM_OPT_DIALECT_GEMM_GEMMOPS_TD

include "gemm-opt/Dialect/Gemm/GemmBase.td"
include "gemm-opt/Dialect/Gemm/GemmAttrs.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

/// A matrix operand: a strided memref of rank 2, or of rank 3 with a leading
/// batch dimension. The element type and the shapes are checked by the op's
/// verifier, which can name the offending dimensions.
def Gemm_MatrixMemRef : Type<
    And<[IsMemRefTypePred, HasAnyRankOfPred<[2, 3]>, HasStridesPred]>,
    "rank-2 or rank-3 memref with a strided layout", "::mlir::MemRefType">;

def Gemm_MatmulOp : Gemm_Op<"matmul", [AllTypesMatch<["alpha", "beta"]>,
                                       AttrSizedOperandSegments]> {
  let summary = "C = act(alpha * A * B + beta * C + bias) on strided memrefs";
  let description = [{
    Multiplies A (M x K) by B (K x N) and accumulates into C (M x N):
    `C = alpha * A * B + beta * C`. With a leading batch dimension (all three
    operands of rank 3) it does so for each batch index.

    The layout is in the types: a transposed or column-major operand is the
    same op with other strides, and a leading dimension larger than the row is
    a larger outer stride. `alpha` and `beta` are SSA values of the type the
    product is summed in: the element type (f32 or f64), or f64 for f32
    operands, as a loop that sums float elements in a `double` accumulator
    computes it (the launcher widens the operands to f64 and rounds C back
    once). `beta` = 0 overwrites C.

    The optional epilogue finishes each element after the whole sum over K:
    a `bias` operand laid out like C, with a stride of 0 along the
    dimensions it is broadcast over (a vector indexed by the row or by the
    column is M x N with strides [s, 0] or [0, s]), is added; then the
    `activation` steps are applied in order: `#gemm.clamp`s and at most one
    `#gemm.fn` (tanh, sigmoid, GELU). Each step takes its scalars (a
    clamp's bound, a GELU's constants) in order from the `params(...)`
    operands, which have alpha's type.

    The optional `reads` are the scalars that the source reads through
    pointers (f2c's `*alpha`) and whose values alpha, beta or the params
    take: the op reads them once, before C is written, so it computes what
    the source does only where C does not hold them; the launcher checks
    that at run time and runs the original loop otherwise.

    The optional `rows` attribute, one `#gemm.rows` each for A, B and C,
    marks the operands whose rows are separate allocations (a table of row
    pointers or a vector of vectors): their types describe the contiguous
    copy that the runtime gathers them into, row-major where the table runs
    along the operand's rows and column-major where it runs along its
    columns (`B[j][k]`). Such operands are rank 2.

    The optional `schedule` attribute is the tiling that the cost model chose.
    The optional `alternatives` are the model's picks for smaller problems
    than the op's types allow: the launcher holds a kernel for each and picks
    one per call, by the model's fill of the GPU at the call's extents.
    The optional `kernels`, one per schedule and in the same order (the
    schedule, then the alternatives), are what gemm-specialize derived from
    them for the op's layout: what CodeGen prints. The optional `rates`, one
    per kernel, are the cost model's predictions that the runtime chooses
    by, also written by gemm-specialize.

    Example:

    ```mlir
    gemm.matmul %a, %b, %c, %alpha, %beta
        {schedule = #gemm.schedule<block = [128, 128, 8], thread = [8, 8],
                                   warps = 8, stages = 2, vector = 4,
                                   prefetch = smem, pad = 4>}
        : memref<?x?xf32, strided<[?, 1], offset: ?>>,
          memref<?x?xf32, strided<[1, ?], offset: ?>>,
          memref<?x?xf32, strided<[?, 1], offset: ?>>, f32
    ```

    With a bias along N and a ReLU:

    ```mlir
    gemm.matmul %a, %b, %c, %alpha, %beta
        bias(%bias : memref<?x?xf32, strided<[0, 1], offset: ?>>)
        params(%zero : f32) {activation = [#gemm.clamp<lower, nan = bound>]}
        : memref<?x?xf32, strided<[?, 1], offset: ?>>,
          memref<?x?xf32, strided<[1, ?], offset: ?>>,
          memref<?x?xf32, strided<[?, 1], offset: ?>>, f32
    ```

    A GELU in its tanh form, its constants sqrt(2/pi) and 0.044715 passed
    as the source spells them:

    ```mlir
    gemm.matmul %a, %b, %c, %alpha, %beta
        params(%k, %c3 : f32, f32) {activation = [#gemm.fn<gelu_tanh>]}
        : memref<?x?xf32, strided<[?, 1], offset: ?>>,
          memref<?x?xf32, strided<[1, ?], offset: ?>>,
          memref<?x?xf32, strided<[?, 1], offset: ?>>, f32
    ```
  }];

  let arguments = (ins
    Arg<Gemm_MatrixMemRef, "the left operand, [batch x] M x K", [MemRead]>:$a,
    Arg<Gemm_MatrixMemRef, "the right operand, [batch x] K x N", [MemRead]>:$b,
    Arg<Gemm_MatrixMemRef, "the accumulator, [batch x] M x N",
        [MemRead, MemWrite]>:$c,
    AnyFloat:$alpha,
    AnyFloat:$beta,
    Arg<Optional<Gemm_MatrixMemRef>,
        "added to each element: [batch x] M x N, broadcast by zero strides",
        [MemRead]>:$bias,
    Variadic<AnyFloat>:$params,
    Arg<Variadic<MemRefRankOf<[F32, F64], [0]>>,
        "scalars read through pointers, which C must not hold", [MemRead]>:$reads,
    OptionalAttr<TypedArrayAttrBase<AnyAttrOf<[Gemm_ClampAttr, Gemm_FnAttr]>,
        "array of #gemm.clamp and #gemm.fn">>:$activation,
    OptionalAttr<TypedArrayAttrBase<Gemm_RowsAttr,
        "array of #gemm.rows">>:$rows,
    OptionalAttr<Gemm_ScheduleAttr>:$schedule,
    OptionalAttr<TypedArrayAttrBase<Gemm_ScheduleAttr,
        "array of #gemm.schedule">>:$alternatives,
    OptionalAttr<TypedArrayAttrBase<Gemm_KernelAttr,
        "array of #gemm.kernel">>:$kernels,
    OptionalAttr<TypedArrayAttrBase<Gemm_RatesAttr,
        "array of #gemm.rates">>:$rates
  );

  let assemblyFormat = [{
    $a `,` $b `,` $c `,` $alpha `,` $beta
    (`bias` `(` $bias^ `:` type($bias) `)`)?
    (`params` `(` $params^ `:` type($params) `)`)?
    (`reads` `(` $reads^ `:` type($reads) `)`)?
    attr-dict `:` type($a) `,` type($b) `,` type($c) `,` type($alpha)
  }];

  // ODS gives the generated builder no default for the optional schedules;
  // this one leaves them, and the epilogue, unset.
  let builders = [
    OpBuilder<(ins "::mlir::Value":$a, "::mlir::Value":$b, "::mlir::Value":$c,
                   "::mlir::Value":$alpha, "::mlir::Value":$beta), [{
      build($_builder, $_state, a, b, c, alpha, beta, /*bias=*/nullptr,
            /*params=*/::mlir::ValueRange(), /*reads=*/::mlir::ValueRange(),
            /*activation=*/nullptr, /*rows=*/nullptr,
            /*schedule=*/::mlir::gemm::ScheduleAttr(),
            /*alternatives=*/::mlir::ArrayAttr(), /*kernels=*/::mlir::ArrayAttr(),
            /*rates=*/::mlir::ArrayAttr());
    }]>
  ];

  let hasVerifier = 1;

  let extraClassDeclaration = [{
    /// True if the operands have a leading batch dimension (rank 3).
    bool isBatched() { return getAType().getRank() == 3; }
    /// The type the product is summed in: alpha's and beta's, which is the
    /// operands' element type or f64 for f32 operands (the launcher widens
    /// them). Kernels, schedules and the cost model go by this type.
    ::mlir::Type getElementType() { return getAlpha().getType(); }
    /// The element type of A, B, C and the bias in memory.
    ::mlir::Type getStorageType() { return getAType().getElementType(); }
    /// True if f32 operands are summed in f64.
    bool isWidened() { return getElementType() != getStorageType(); }
    ::mlir::MemRefType getAType() { return getA().getType(); }
    ::mlir::MemRefType getBType() { return getB().getType(); }
    ::mlir::MemRefType getCType() { return getC().getType(); }
    /// Which dimensions of A's tile (x = M) and of B's (x = N) have a static
    /// unit stride: what CodeGen's tile loads and the cost model go by.
    ::mlir::gemm::TileStrides getTileStridesA();
    ::mlir::gemm::TileStrides getTileStridesB();
    /// True if the op has a bias or an activation.
    bool hasEpilogue() { return getBias() || !getActivationSteps().empty(); }
    /// The activation's steps (#gemm.clamp, #gemm.fn), in order.
    ::llvm::SmallVector<::mlir::Attribute> getActivationSteps();
    /// How operand `operand` (0 A, 1 B, 2 C) holds its rows: `None` without
    /// the `rows` attribute.
    ::mlir::gemm::RowTable getRowTable(unsigned operand);
    /// The schedule, then the alternatives: one kernel each.
    ::llvm::SmallVector<::mlir::gemm::ScheduleAttr> getSchedules();
    /// The kernels, in the order of getSchedules() (none before
    /// gemm-specialize).
    ::llvm::SmallVector<::mlir::gemm::KernelAttr> getKernelPlans();
    /// The kernels' rates, in the same order (none before gemm-specialize).
    ::llvm::SmallVector<::mlir::gemm::RatesAttr> getKernelRates();
  }];
}

#endif // GEMM_OPT_DIALECT_GEMM_GEMMOPS_TD
