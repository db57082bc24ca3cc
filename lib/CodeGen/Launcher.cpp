//===- Launcher.cpp - Host launchers for gemm.matmul funcs ----------------===//
//
// A printer: the launcher fills a gemm_rt::Problem from its parameters and
// hands it to the runtime with the kernel to launch.
//
//===----------------------------------------------------------------------===//

#include "gemm-opt/CodeGen/Launcher.h"
#include "Plans.h"
#include "gemm-opt/Dialect/Gemm/LauncherSignature.h"
#include "gemm-opt/Dialect/Gemm/GemmDialect.h"
#include "gemm-opt/Dialect/Gemm/GemmOps.h"
#include "gemm-opt/Target/OpModel.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/FormatVariadic.h"


using namespace mlir;
using namespace mlir::gemm;

namespace {

/// One activation step as the runtime's gemm_rt::Step kind, and as the
/// launcher's comment writes it (x for its input; paramN for the launcher's
/// params, the step's first being `first`).
struct PrintedStep {
  std::string kind, formula;
  unsigned params;
  bool nanToBound;
};

PrintedStep printStep(Attribute step, StringRef x, unsigned first) {
  auto param = [&](unsigned i) { return "param" + std::to_string(first + i); };
  if (auto clamp = dyn_cast<ClampAttr>(step)) {
    bool upper = clamp.getSide() == ClampSide::Upper;
    return {upper ? "Upper" : "Lower",
            llvm::formatv("{0}({1}, {2})", upper ? "min" : "max", x, param(0)),
            1, clamp.getNan() == ClampNaN::Bound};
  }
  auto fn = cast<FnAttr>(step);
  switch (fn.getFunction()) {
  case Function::Tanh:
    return {"Tanh", llvm::formatv("tanh({0})", x), 0, false};
  case Function::Sigmoid:
    return {"Sigmoid", llvm::formatv("sigmoid({0})", x), 0, false};
  case Function::GeluTanh:
    return {"GeluTanh",
            llvm::formatv("gelu_tanh({0}; {1}, {2})", x, param(0), param(1)),
            2, false};
  case Function::GeluErf:
    return {"GeluErf", llvm::formatv("gelu_erf({0}; {1})", x, param(0)), 1,
            false};
  }
  llvm_unreachable("unknown activation function");
}

/// `inner` under the activation's steps, for the launcher's comment, then
/// the clamp bounds that a NaN becomes.
std::string printedActivation(ArrayRef<Attribute> steps, StringRef inner) {
  std::string text = inner.str(), nan;
  unsigned first = 0;
  for (Attribute step : steps) {
    PrintedStep printed = printStep(step, text, first);
    text = printed.formula;
    if (printed.nanToBound)
      nan += llvm::formatv(", NaN to param{0}", first).str();
    first += printed.params;
  }
  return text + nan;
}

/// The operands' names and their indices in gemm.matmul's `rows`.
constexpr StringLiteral operandNames[] = {"a", "b", "c"};

RowTables rowTablesOf(MatmulOp op) {
  return {op.getRowTable(0) != RowTable::None,
          op.getRowTable(1) != RowTable::None,
          op.getRowTable(2) != RowTable::None};
}

/// `{ptr, batchStride, rowStride, colStride}` of a gemm_rt::Operand.
void printOperand(llvm::raw_ostream &os, StringRef name, bool batched) {
  os << "{" << name << ", " << (batched ? (name + "_stride0").str() : "0");
  int first = batched ? 1 : 0;
  os << ", " << name << "_stride" << first << ", " << name << "_stride"
     << first + 1 << "}";
}

/// The call of gemm_rt::run: with `nest`'s planned kernels, or, without a
/// schedule, with the runtime's reference kernel.
/// The variant of the runtime's TF32 tensor-core launch (gemm_tf32.h) for
/// a nest of `precision` (tf32 or 3xtf32), at the rate measured on the
/// target, for the calls it runs (gemm_rt::runsTf32).
std::string tensorVariant(MatmulOp op, StringRef precision) {
  const GpuTarget &target = targetOf(op->getParentOfType<ModuleOp>());
  bool one = precision == "tf32";
  return llvm::formatv(
      "      // The runtime's {0} tensor-core launch, for the calls it runs.\n"
      "      {{gemm_rt::{1}, 128, {2}, 1, {3:F1}, 1.000, 1.000, nullptr,\n"
      "       gemm_rt::runsTf32},\n",
      one ? "TF32" : "3xTF32", one ? "launchTf32" : "launchTf32x3",
      one ? 256 : 128, one ? target.tf32Gflops : target.tf32x3Gflops);
}

void printPlan(llvm::raw_ostream &os, const PlannedNest &nest) {
  MatmulOp op = nest.op;
  StringRef rows = rowTablesOf(op).any() ? "rows, " : "";
  // Float matrices summed in double run through double copies.
  StringRef run = op.isWidened() ? "runWidened" : "run";
  if (nest.configs.empty()) {
    os << "  return gemm_rt::" << run << "(problem, " << rows
       << "gemm_rt::launchReference);\n";
    return;
  }
  os << "  // run() picks a kernel, and a split of K, from the extents of "
        "each call.\n";
  auto precision =
      op->getAttrOfType<StringAttr>(GemmDialect::getPrecisionAttrName());
  printVariants(os, nest, "variants", "  ",
                precision ? tensorVariant(op, precision.getValue()) : "");
  std::string measured;
  // A tuning database timed the FP32 kernels only: its choices would keep
  // a nest that asked for tensor cores off them.
  if (auto entries =
          op->getAttrOfType<ArrayAttr>(GemmDialect::getMeasuredAttrName());
      entries && !precision) {
    os << "  // Problems a tuning database timed on "
       << targetNameOf(op->getParentOfType<ModuleOp>())
       << ": batch, M, N, K,\n"
          "  // the fastest variant and its K split (docs/tuning.md).\n"
          "  static const gemm_rt::Measured measured[] = {\n";
    for (auto e : entries.getAsRange<MeasuredAttr>())
      os << llvm::formatv("      {{{0}, {1}, {2}, {3}, {4}, {5}},\n",
                          e.getBatch(), e.getM(), e.getN(), e.getK(),
                          e.getKernel(), e.getSplits());
    os << "  };\n";
    measured = llvm::formatv(", measured, {0}", entries.size());
  }
  os << "  return gemm_rt::" << run << "(problem, " << rows
     << planOf(nest, "variants", measured, precision ? 1 : 0) << ");\n";
}

/// The launcher's name and parameters (LauncherSignature.h). Overloads of a
/// template's instantiations share one C++ name.
void printDeclarator(llvm::raw_ostream &os, func::FuncOp func, MatmulOp op) {
  auto launcher = func->getAttrOfType<StringAttr>(
      GemmDialect::getLauncherAttrName());
  os << (launcher ? launcher : func.getSymNameAttr()).getValue() << "(";
  // Scalars have the type the product is summed in, matrices their own.
  StringRef scalar = op.getElementType().isF64() ? "double" : "float";
  StringRef element = op.getStorageType().isF64() ? "double" : "float";
  unsigned rank = op.getCType().getRank();
  bool first = true;
  forEachLauncherParam(
      rank, op.getBias() != nullptr, op.getParams().size(),
      op.getReads().size(), rowTablesOf(op),
      [&](const LauncherParam &param) {
        using Kind = LauncherParam::Kind;
        // A line per operand, and one for the scalars.
        bool breaks = param.kind == Kind::Pointer ||
                      param.kind == Kind::Table || param.kind == Kind::Alpha;
        os << (first ? "" : breaks ? ",\n    " : ", ");
        first = false;
        StringRef name = param.operand;
        switch (param.kind) {
        case Kind::Pointer:
          os << (name == "c" ? "" : "const ") << element << " *" << name;
          return;
        case Kind::Table: {
          // The table's first row: a row pointer or a std::vector.
          StringRef constness = name == "c" ? "" : "const ";
          if (op.getRowTable(llvm::find(operandNames, name) - operandNames) ==
              RowTable::Vectors)
            os << constness << "std::vector<" << element << "> *" << name;
          else
            os << constness << element << " *const *" << name;
          return;
        }
        case Kind::RowOffset:
          os << "long long " << name << "_offset";
          return;
        case Kind::Size: {
          // The problem's extents come from C's sizes and A's last (K); the
          // other sizes repeat them and stay unnamed, so that
          // -Wunused-parameter stays quiet.
          bool used = name == "c" || (name == "a" && param.index == rank - 1);
          os << "long long " << (used ? "" : "/*") << name << "_size"
             << param.index << (used ? "" : "*/");
          return;
        }
        case Kind::Stride:
          os << "long long " << name << "_stride" << param.index;
          return;
        case Kind::Alpha:
          os << scalar << " alpha";
          return;
        case Kind::Beta:
          os << scalar << " beta";
          return;
        case Kind::Param:
          os << scalar << " param" << param.index;
          return;
        case Kind::Read: {
          auto type = cast<MemRefType>(op.getReads()[param.index].getType());
          os << "const " << (type.getElementType().isF64() ? "double" : "float")
             << " *read" << param.index;
          return;
        }
        }
      });
  if (auto instance = func->getAttrOfType<DenseI64ArrayAttr>(
          GemmDialect::getInstanceAttrName())) {
    os << ", " << instanceTag << "<";
    llvm::interleaveComma(instance.asArrayRef(), os);
    os << ">";
  }
  os << ")";
}

/// The launcher names that instantiations gemm-opt did not see call (a
/// template the file never instantiates), each once.
llvm::SetVector<StringRef> openTemplateNames(ModuleOp module) {
  llvm::SetVector<StringRef> names;
  for (func::FuncOp func : module.getOps<func::FuncOp>())
    if (func->hasAttr(GemmDialect::getOpenTemplateAttrName()))
      names.insert(func->getAttrOfType<StringAttr>(
                           GemmDialect::getLauncherAttrName())
                       .getValue());
  return names;
}

/// For each of those names, the overload that other instantiations call: a
/// C variadic, the worst match there is, so that every typed launcher wins
/// where it fits; it runs the nest as written.
void printOpenTemplateOverloads(llvm::raw_ostream &os, ModuleOp module,
                                StringRef prefix, StringRef result) {
  for (StringRef name : openTemplateNames(module))
    os << "// Other instantiations of the template run its nest as written.\n"
       << prefix << " " << name << "(...) { return " << result << "; }\n";
}

bool hasInstanceTag(ModuleOp module) {
  return llvm::any_of(module.getOps<func::FuncOp>(), [](func::FuncOp func) {
    return func->hasAttr(GemmDialect::getInstanceAttrName());
  });
}

bool isOverloaded(func::FuncOp func) {
  return func->hasAttr(GemmDialect::getLauncherAttrName());
}

bool takesVectors(MatmulOp op) {
  return llvm::any_of(llvm::seq(0u, 3u), [&](unsigned i) {
    return op.getRowTable(i) == RowTable::Vectors;
  });
}

/// C linkage, so that C can call the launcher, but for overloads and
/// launchers that take std::vectors.
bool hasCLinkage(func::FuncOp func, MatmulOp op) {
  return !isOverloaded(func) && !takesVectors(op);
}

/// The tables of rows as the runtime takes them: the start of each row the
/// nest reads, one per index of the dimension the table runs along.
void printRowTables(llvm::raw_ostream &os, MatmulOp op) {
  if (!rowTablesOf(op).any())
    return;
  // The table runs along the dimension without the unit stride.
  static const char *const extents[3][2] = {
      {"m", "k"}, {"k", "n"}, {"m", "n"}};
  MemRefType types[] = {op.getAType(), op.getBType(), op.getCType()};
  std::string list;
  for (unsigned i = 0; i < 3; ++i) {
    if (op.getRowTable(i) == RowTable::None) {
      list += i ? ", {}" : "{}";
      continue;
    }
    bool columns = hasUnitStride(types[i], 0);
    StringRef name = operandNames[i];
    os << "  const std::vector<const void *> " << name
       << "_rows = gemm_rt::rowStarts(" << name << ", problem."
       << extents[i][columns] << ", " << name << "_offset);\n";
    list += (i ? ", {" : "{") + name.str() + "_rows.data(), " +
            (columns ? "true" : "false") + "}";
  }
  os << "  const gemm_rt::RowOperands rows = {" << list << "};\n";
}

/// The launcher of `nest`.
void emitLauncher(const PlannedNest &nest, llvm::raw_ostream &os,
                  LauncherLinkage linkage) {
  func::FuncOp func = nest.func;
  MatmulOp op = nest.op;

  bool f64 = op.getElementType().isF64();
  bool batched = op.isBatched();
  int row = batched ? 1 : 0;
  SmallVector<Attribute> steps = op.getActivationSteps();
  os << "// The nest at " << nestName(op.getLoc()) << ": "
     << (op.isWidened() ? "f32 summed in f64," : f64 ? "f64" : "f32")
     << (batched ? " batched" : "") << " C = "
     << printedActivation(steps,
                          op.getBias() ? "alpha * A * B + beta * C + bias"
                                       : "alpha * A * B + beta * C")
     << ".\n";
  // Beside the source, internal; called from a host file compiled apart,
  // int and C linkage so that C can call it (but for overloads).
  if (linkage == LauncherLinkage::Internal)
    os << "static bool ";
  else
    os << (hasCLinkage(func, op) ? "extern \"C\" int " : "int ");
  printDeclarator(os, func, op);
  os << " {\n";
  std::string batch = batched ? "c_size0" : "1",
              m = "c_size" + std::to_string(row),
              n = "c_size" + std::to_string(row + 1),
              k = "a_size" + std::to_string(row + 1);
  // The tiny-call exit sends only operands that are surely host memory to
  // the loop; a table's rows are host memory by the runtime's contract.
  os << "  if (gemm_rt::loopFirst(" << batch << ", " << m << ", " << n << ", "
     << k << ", {";
  for (auto [i, name] : llvm::enumerate(operandNames))
    os << (i ? ", " : "")
       << (op.getRowTable(i) == RowTable::None ? StringRef(name) : "nullptr");
  os << (op.getBias() ? ", bias" : "") << "}))\n    return false;\n";
  os << "  gemm_rt::Problem problem = gemm_rt::launcherProblem(\n"
     << "      \"" << nestName(op.getLoc()) << "\", gemm_rt::DType::"
     << (f64 ? "F64" : "F32") << ",\n"
     << "      /*batch=*/" << batch << ", /*m=*/" << m << ", /*n=*/" << n
     << ", /*k=*/" << k << ",\n      ";
  // A table of rows is filled in by the runtime with its gathered copy.
  for (auto [i, name] : llvm::enumerate(operandNames)) {
    os << (i ? ", " : "");
    if (op.getRowTable(i) == RowTable::None)
      printOperand(os, name, batched);
    else
      os << "{nullptr, 0, 0, 0}";
  }
  os << ",\n      alpha, beta);\n";
  if (op.hasEpilogue()) {
    // A null bias (the source's `bias != NULL ? bias[o] : 0`) is no bias.
    os << "  problem.epilogue = {";
    if (op.getBias())
      printOperand(os, "bias", batched);
    else
      os << "{nullptr, 0, 0, 0}";
    os << ", " << steps.size() << ", {";
    unsigned first = 0;
    for (auto [i, step] : llvm::enumerate(steps)) {
      PrintedStep printed = printStep(step, "", first);
      os << (i ? ", " : "") << "{gemm_rt::Step::" << printed.kind << ", "
         << (printed.nanToBound ? "true" : "false") << ", {";
      for (unsigned p = 0; p < printed.params; ++p)
        os << (p ? ", " : "") << "param" << first + p;
      os << "}}";
      first += printed.params;
    }
    os << "}};\n";
  }
  if (!op.getReads().empty()) {
    // Their values are in alpha, beta and the params; C must not hold them.
    os << "  problem.reads = {" << op.getReads().size() << ", {";
    for (size_t r = 0; r < op.getReads().size(); ++r)
      os << (r ? ", " : "") << "{read" << r << ", sizeof *read" << r << "}";
    os << "}};\n";
  }
  printRowTables(os, op);
  printPlan(os, nest);
  os << "}\n\n";
}

} // namespace

LogicalResult mlir::gemm::emitLaunchers(ModuleOp module, llvm::raw_ostream &os,
                                        LauncherLinkage linkage,
                                        KernelFiles *files) {
  std::string configs;
  llvm::raw_string_ostream configOs(configs);
  FailureOr<SmallVector<PlannedNest>> nests =
      planNests(module, configOs, files);
  if (failed(nests))
    return failure();
  os << "// Generated by gemm-opt. Each launcher below returns false when its\n"
     << "// nest must run as written (no GPU, overlapping operands).\n";
  printConfigs(os, configs, files);
  if (llvm::any_of(*nests, [](const PlannedNest &n) {
        return MatmulOp(n.op).isWidened();
      }))
    os << "#include \"gemm_widen.h\"\n\n";
  if (llvm::any_of(*nests, [](const PlannedNest &n) {
        return n.op->hasAttr(GemmDialect::getPrecisionAttrName());
      }))
    os << "#include \"gemm_tf32.h\"\n\n";
  if (hasInstanceTag(module))
    os << instanceTagDefinition << "\n";
  for (const PlannedNest &nest : *nests)
    emitLauncher(nest, os, linkage);
  // A kernels file's overloads are the host file's (declarations).
  if (linkage == LauncherLinkage::Internal)
    printOpenTemplateOverloads(os, module, "static bool", "false");
  return success();
}

LogicalResult mlir::gemm::emitLauncherDeclarations(ModuleOp module,
                                                   llvm::raw_ostream &os) {
  // C sees the C-linkage launchers; only C++ has templates, overloads and
  // std::vector.
  std::string plain, overloads;
  llvm::raw_string_ostream plainOs(plain), overloadOs(overloads);
  bool vectors = false;
  for (func::FuncOp func : module.getOps<func::FuncOp>()) {
    FailureOr<MatmulOp> op = launcherOp(func);
    if (failed(op))
      return failure();
    vectors |= takesVectors(*op);
    llvm::raw_ostream &out = hasCLinkage(func, *op) ? plainOs : overloadOs;
    out << "int ";
    printDeclarator(out, func, *op);
    out << ";\n";
  }
  os << "/* Generated by gemm-opt: the launchers of this file's nests, defined "
        "in its\n   kernels file (compile that with nvcc and link it). */\n"
     << "#ifdef __cplusplus\n" << "extern \"C\" {\n" << "#endif\n"
     << plain << "#ifdef __cplusplus\n}\n"
     << (vectors ? "#include <vector>\n" : "")
     << (hasInstanceTag(module) ? instanceTagDefinition : "") << overloads;
  printOpenTemplateOverloads(os, module, "inline int", "0");
  os << "#endif\n";
  return success();
}
