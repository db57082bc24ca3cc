//===- Launcher.cpp - Host launchers for gemm.matmul funcs ----------------===//
//
// A printer: the launcher fills a gemm_rt::Problem from its parameters and
// hands it to the runtime with the kernel to launch.
//
//===----------------------------------------------------------------------===//

#include "gemm-opt/CodeGen/Launcher.h"
#include "KernelEmitter.h"
#include "gemm-opt/Dialect/Gemm/GemmDialect.h"
#include "gemm-opt/Dialect/Gemm/GemmOps.h"
#include "gemm-opt/Target/OpModel.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace mlir::gemm;

namespace {

/// "file.cpp:12:3" for the runtime's messages, escaped as in a C string
/// literal: a file name may hold quotes, backslashes or newlines.
std::string nestName(Location loc) {
  std::string name = "<unknown>";
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    name = (llvm::sys::path::filename(file.getFilename().getValue()) + ":" +
            llvm::Twine(file.getLine()) + ":" + llvm::Twine(file.getColumn()))
               .str();
  std::string escaped;
  llvm::raw_string_ostream(escaped).write_escaped(name);
  return escaped;
}

/// The problem's extents come from C's sizes and A's last (K); the other
/// sizes repeat them and stay unnamed, so -Wunused-parameter stays quiet.
void printParams(llvm::raw_ostream &os, StringRef name, MemRefType type,
                 StringRef scalar, bool isConst) {
  os << (isConst ? "const " : "") << scalar << " *" << name;
  for (int64_t i = 0, e = type.getRank(); i < e; ++i) {
    bool used = name == "c" || (name == "a" && i == e - 1);
    os << ", long long " << (used ? "" : "/*") << name << "_size" << i
       << (used ? "" : "*/");
  }
  for (int64_t i = 0, e = type.getRank(); i < e; ++i)
    os << ", long long " << name << "_stride" << i;
}

/// `inner` under the activation's clamps, for the launcher's comment:
/// max(x, bound0) for a lower bound, min(x, bound0) for an upper one, then
/// the bounds that a NaN becomes.
std::string printedActivation(ArrayRef<ClampAttr> clamps, StringRef inner) {
  std::string text = inner.str(), nan;
  for (auto [i, clamp] : llvm::enumerate(clamps)) {
    text = llvm::formatv("{0}({1}, bound{2})",
                         clamp.getSide() == ClampSide::Upper ? "min" : "max",
                         text, i);
    if (clamp.getNan() == ClampNaN::Bound)
      nan += llvm::formatv(", NaN to bound{0}", i).str();
  }
  return text + nan;
}

/// `{ptr, batchStride, rowStride, colStride}` of a gemm_rt::Operand.
void printOperand(llvm::raw_ostream &os, StringRef name, bool batched) {
  os << "{" << name << ", " << (batched ? (name + "_stride0").str() : "0");
  int first = batched ? 1 : 0;
  os << ", " << name << "_stride" << first << ", " << name << "_stride"
     << first + 1 << "}";
}

/// The namespace prefix of the func's kernel for schedule `i`.
std::string kernelName(func::FuncOp func, size_t i) {
  return i == 0 ? func.getSymName().str()
                : (func.getSymName() + "_alt" + llvm::Twine(i)).str();
}

/// The call of gemm_rt::run: with the kernel of each schedule and what the
/// model predicts of it on the module's target, or, without a schedule,
/// with the runtime's reference kernel.
void printPlan(llvm::raw_ostream &os, func::FuncOp func, MatmulOp op,
               ArrayRef<ScheduleAttr> schedules) {
  if (schedules.empty()) {
    os << "  return gemm_rt::run(problem, gemm_rt::launchReference);\n";
    return;
  }
  // gemm-select-schedule has checked the module's target name.
  const GpuTarget *target = &targetOf(func->getParentOfType<ModuleOp>());
  os << "  // One kernel per schedule, with its tile, its blocks per SM, the\n"
        "  // GFLOP/s the cost model predicts on a full "
     << target->name
     << " and the shares\n"
        "  // of DRAM bandwidth its rows of A and B stream at: run() picks one,\n"
        "  // and a split of K, from the extents of each call.\n"
        "  static const gemm_rt::Variant variants[] = {\n";
  // The tile as the runtime sees it, along C's rows and columns.
  for (auto [i, s] : llvm::enumerate(schedules)) {
    auto [shareA, shareB] = streamShares(*target, precisionOf(op),
                                         toSchedule(s), problemOf(op));
    os << llvm::formatv(
        "      {{{0}_impl::launch, {1}, {2}, {3}, {4:F1}, {5:F3}, {6:F3}},\n",
        kernelName(func, i), s.getTranspose() ? s.getBlockN() : s.getBlockM(),
        s.getTranspose() ? s.getBlockM() : s.getBlockN(), s.getOccupancy(),
        fullRate(*target, op, s), shareA, shareB);
  }
  os << "  };\n"
     << llvm::formatv("  return gemm_rt::run(problem, gemm_rt::Plan{{variants, "
                      "{0}, {1:F1}});\n",
                      schedules.size(), target->dramGBs);
}

/// The launcher's name and parameters. Overloads of a template's
/// instantiations share one C++ name.
void printDeclarator(llvm::raw_ostream &os, func::FuncOp func, MatmulOp op) {
  auto launcher = func->getAttrOfType<StringAttr>(
      GemmDialect::getLauncherAttrName());
  os << (launcher ? launcher : func.getSymNameAttr()).getValue() << "(";
  StringRef scalar = op.getElementType().isF64() ? "double" : "float";
  printParams(os, "a", op.getAType(), scalar, true);
  os << ",\n    ";
  printParams(os, "b", op.getBType(), scalar, true);
  os << ",\n    ";
  printParams(os, "c", op.getCType(), scalar, false);
  os << ",\n    " << scalar << " alpha, " << scalar << " beta";
  if (Value bias = op.getBias()) {
    os << ",\n    ";
    printParams(os, "bias", cast<MemRefType>(bias.getType()), scalar, true);
  }
  for (size_t i = 0, e = op.getClamps().size(); i < e; ++i)
    os << ", " << scalar << " bound" << i;
  os << ")";
}

bool isOverloaded(func::FuncOp func) {
  return func->hasAttr(GemmDialect::getLauncherAttrName());
}

/// The func's gemm.matmul, checked against the launcher ABI.
FailureOr<MatmulOp> launcherOp(func::FuncOp func) {
  SmallVector<MatmulOp> ops(func.getOps<MatmulOp>());
  if (ops.size() != 1)
    return func.emitError("a launcher func must hold exactly one gemm.matmul");
  MatmulOp op = ops.front();
  SmallVector<Value> expected = {op.getA(), op.getB(), op.getC(),
                                 op.getAlpha(), op.getBeta()};
  if (Value bias = op.getBias())
    expected.push_back(bias);
  llvm::append_range(expected, op.getBounds());
  if (!llvm::equal(func.getArguments(), expected))
    return op.emitError("launcher funcs take (A, B, C, alpha, beta[, bias]"
                        "[, clamp bounds]) and pass them to gemm.matmul in "
                        "that order");
  return op;
}

LogicalResult emitLauncher(func::FuncOp func, llvm::raw_ostream &os,
                           LauncherLinkage linkage) {
  FailureOr<MatmulOp> matmul = launcherOp(func);
  if (failed(matmul))
    return failure();
  MatmulOp op = *matmul;

  bool f64 = op.getElementType().isF64();
  bool batched = op.isBatched();
  int row = batched ? 1 : 0;
  SmallVector<ClampAttr> clamps = op.getClamps();
  os << "// The nest at " << nestName(op.getLoc()) << ": "
     << (f64 ? "f64" : "f32") << (batched ? " batched" : "") << " C = "
     << printedActivation(clamps,
                          op.getBias() ? "alpha * A * B + beta * C + bias"
                                       : "alpha * A * B + beta * C")
     << ".\n";
  SmallVector<ScheduleAttr> schedules = op.getSchedules();
  for (auto [i, schedule] : llvm::enumerate(schedules))
    if (failed(emitKernel(op, schedule, kernelName(func, i), os)))
      return failure();
  // Beside the source, internal; called from a host file compiled apart,
  // int and C linkage so that C can call it (but for overloads).
  if (linkage == LauncherLinkage::Internal)
    os << "static bool ";
  else
    os << (isOverloaded(func) ? "int " : "extern \"C\" int ");
  printDeclarator(os, func, op);
  os << " {\n";
  os << "  const gemm_rt::Problem problem = {\n"
     << "      \"" << nestName(op.getLoc()) << "\", gemm_rt::DType::"
     << (f64 ? "F64" : "F32") << ",\n"
     << "      /*batch=*/" << (batched ? "c_size0" : "1") << ", /*m=*/c_size"
     << row << ", /*n=*/c_size" << row + 1 << ", /*k=*/a_size" << row + 1
     << ",\n      ";
  printOperand(os, "a", batched);
  os << ", ";
  printOperand(os, "b", batched);
  os << ", ";
  printOperand(os, "c", batched);
  os << ",\n      alpha, beta";
  if (op.hasEpilogue()) {
    // A null bias (the source's `bias != NULL ? bias[o] : 0`) is no bias.
    os << ",\n      {";
    if (op.getBias())
      printOperand(os, "bias", batched);
    else
      os << "{nullptr, 0, 0, 0}";
    os << ", " << clamps.size() << ", {";
    for (auto [i, clamp] : llvm::enumerate(clamps))
      os << (i ? ", " : "") << "{"
         << (clamp.getSide() == ClampSide::Upper ? "true" : "false") << ", "
         << (clamp.getNan() == ClampNaN::Bound ? "true" : "false") << ", bound"
         << i << "}";
    os << "}}";
  }
  os << "};\n";
  printPlan(os, func, op, schedules);
  os << "}\n\n";
  return success();
}

} // namespace

LogicalResult mlir::gemm::emitLaunchers(ModuleOp module, llvm::raw_ostream &os,
                                        LauncherLinkage linkage) {
  os << "// Generated by gemm-opt. Each launcher below returns false when its\n"
     << "// nest must run as written (no GPU, overlapping operands).\n"
     << "#include \"gemm_runtime.h\"\n\n";
  for (func::FuncOp func : module.getOps<func::FuncOp>())
    if (failed(emitLauncher(func, os, linkage)))
      return failure();
  return success();
}

LogicalResult mlir::gemm::emitLauncherDeclarations(ModuleOp module,
                                                   llvm::raw_ostream &os) {
  // C sees the C-linkage launchers; only C++ has templates and overloads.
  std::string plain, overloads;
  llvm::raw_string_ostream plainOs(plain), overloadOs(overloads);
  for (func::FuncOp func : module.getOps<func::FuncOp>()) {
    FailureOr<MatmulOp> op = launcherOp(func);
    if (failed(op))
      return failure();
    llvm::raw_ostream &out = isOverloaded(func) ? overloadOs : plainOs;
    out << "int ";
    printDeclarator(out, func, *op);
    out << ";\n";
  }
  os << "/* Generated by gemm-opt: the launchers of this file's nests, defined "
        "in its\n   kernels file (compile that with nvcc and link it). */\n"
     << "#ifdef __cplusplus\n" << "extern \"C\" {\n" << "#endif\n"
     << plain << "#ifdef __cplusplus\n}\n" << overloads << "#endif\n";
  return success();
}
