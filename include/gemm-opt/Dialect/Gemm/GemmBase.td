//===- GemmBase.td - The gemm dialect ----------------------*- tablegen -*-===//
//
// The gemm dialect holds the matrix multiplications that gemm-opt recognises
// in C++ loop nests, together with the attributes that describe the target GPU
// and the schedule chosen for each multiplication.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_OPT_DIALECT_GEMM_GEMMBASE_TD
#define GEMM_OPT_DIALECT_GEMM_GEMMBASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def Gemm_Dialect : Dialect {
  let name = "gemm";
  let cppNamespace = "::mlir::gemm";
  let summary = "GEMM operations on strided memrefs and their schedules";
  let description = [{
    The gemm dialect sits between the Frontend, which lifts C++ loop nests into
    `gemm.matmul` operations, and CodeGen, which prints CUDA kernels for them.

    Layout lives in the operand types: every operand is a strided memref, so a
    transposed or column-major matrix, or one with a leading dimension larger
    than its row, is the same op with other strides. Decisions live in
    attributes: `#gemm.target` on the module describes the hardware, and
    `#gemm.schedule` on each op is the tiling that the cost model picked.
  }];

  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect"
  ];

  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;

  let extraClassDeclaration = [{
    /// The discardable attribute that carries the `#gemm.target` of a module.
    static constexpr ::llvm::StringLiteral getTargetAttrName() {
      return ::llvm::StringLiteral("gemm.target");
    }

    /// The discardable string attribute of a launcher func that names its
    /// C++ launcher where that differs from the symbol: the instantiations
    /// of a function template overload one name.
    static constexpr ::llvm::StringLiteral getLauncherAttrName() {
      return ::llvm::StringLiteral("gemm.launcher");
    }

    /// The discardable i64 array attribute of a launcher func lifted from
    /// one instantiation of a template: the values of its non-type template
    /// arguments, which the launcher's last parameter names (an
    /// instantiation tag, LauncherSignature.h), so that instantiations with
    /// one element type overload the name too.
    static constexpr ::llvm::StringLiteral getInstanceAttrName() {
      return ::llvm::StringLiteral("gemm.instance");
    }

    /// The discardable unit attribute of a launcher func lifted from an
    /// instantiation that gemm-opt made of a template the file never
    /// instantiates: instantiations with other types call the name too, and
    /// an overload that takes anything runs them as written.
    static constexpr ::llvm::StringLiteral getOpenTemplateAttrName() {
      return ::llvm::StringLiteral("gemm.open_template");
    }

    /// The discardable attribute of a gemm.matmul whose extents are
    /// dynamic: an array of #gemm.measured, the problems a tuning database
    /// timed and their fastest choices. The launcher runs calls near one
    /// with its choice.
    static constexpr ::llvm::StringLiteral getMeasuredAttrName() {
      return ::llvm::StringLiteral("gemm.measured");
    }

    /// The discardable string attribute of an f32 gemm.matmul whose user
    /// asked for tensor cores: "tf32" (one TF32 product) or "3xtf32" (three,
    /// FP32-accurate). Its launcher adds the runtime's TF32 launch
    /// (gemm_tf32.h) to its kernels.
    static constexpr ::llvm::StringLiteral getPrecisionAttrName() {
      return ::llvm::StringLiteral("gemm.precision");
    }

    /// The discardable attribute of a gemm.matmul in a tuning program: an
    /// array of #gemm.tune_case, the problems to time each kernel on.
    static constexpr ::llvm::StringLiteral getTuneAttrName() {
      return ::llvm::StringLiteral("gemm.tune");
    }

  private:
    void registerAttributes();

  public:
  }];
}

/// Base class for the attributes of the gemm dialect.
class Gemm_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Gemm_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

/// Base class for the operations of the gemm dialect.
class Gemm_Op<string mnemonic, list<Trait> traits = []>
    : Op<Gemm_Dialect, mnemonic, traits>;

#endif // GEMM_OPT_DIALECT_GEMM_GEMMBASE_TD
