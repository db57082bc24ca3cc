//===- Plans.cpp - What every printed file of kernels shares --------------===//

#include "Plans.h"
#include "KernelConfig.h"
#include "KernelFiles.h"

#include "gemm-opt/Target/Explain.h"
#include "gemm-opt/Target/OpModel.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

#include <map>
#include <tuple>

using namespace mlir;
using namespace mlir::gemm;

std::string mlir::gemm::nestName(Location loc) {
  std::string name = "<unknown>";
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    name = (llvm::sys::path::filename(file.getFilename().getValue()) + ":" +
            llvm::Twine(file.getLine()) + ":" + llvm::Twine(file.getColumn()))
               .str();
  std::string escaped;
  llvm::raw_string_ostream(escaped).write_escaped(name);
  return escaped;
}

FailureOr<MatmulOp> mlir::gemm::launcherOp(func::FuncOp func) {
  SmallVector<MatmulOp> ops(func.getOps<MatmulOp>());
  if (ops.size() != 1)
    return func.emitError("a launcher func must hold exactly one gemm.matmul");
  MatmulOp op = ops.front();
  SmallVector<Value> expected = {op.getA(), op.getB(), op.getC(),
                                 op.getAlpha(), op.getBeta()};
  if (Value bias = op.getBias())
    expected.push_back(bias);
  llvm::append_range(expected, op.getParams());
  llvm::append_range(expected, op.getReads());
  if (!llvm::equal(func.getArguments(), expected))
    return op.emitError("launcher funcs take (A, B, C, alpha, beta[, bias]"
                        "[, activation params][, reads]) and pass them to gemm.matmul in "
                        "that order");
  return op;
}

FailureOr<SmallVector<PlannedNest>>
mlir::gemm::planNests(ModuleOp module, llvm::raw_ostream &configs,
                      KernelFiles *files) {
  std::map<std::tuple<const void *, const void *, bool>, std::string> names;
  // The first configuration of each kernel body: one that differs from it
  // only in TRANSPOSED launches its kernel, which nvcc then compiles once.
  std::map<std::string, std::string> kernels;
  SmallVector<PlannedNest> nests;
  for (func::FuncOp func : module.getOps<func::FuncOp>()) {
    FailureOr<MatmulOp> op = launcherOp(func);
    if (failed(op))
      return failure();
    if (op->getSchedules().size() != op->getKernelPlans().size() ||
        op->getKernelRates().size() != op->getKernelPlans().size())
      return op->emitError("CodeGen prints planned kernels: run "
                           "gemm-specialize after gemm-select-schedule");
    PlannedNest nest{func, *op, {}};
    for (auto [i, kernel] : llvm::enumerate(op->getKernelPlans())) {
      // T and a fused epilogue are part of the configuration too. Named
      // after the first launcher that runs it, so that files of other
      // modules may be included into one translation unit.
      auto [it, added] = names.try_emplace(
          {kernel.getAsOpaquePointer(),
           op->getElementType().getAsOpaquePointer(), op->hasEpilogue()},
          (func.getSymName() + "_k" + Twine(i)).str());
      if (added) {
        std::string body;
        llvm::raw_string_ostream bodyOs(body);
        printKernelBody(bodyOs, *op, kernel);
        auto [first, fresh] = kernels.try_emplace(
            body, files ? addKernelFiles(*files, body, kernel) : it->second);
        printKernelConfig(configs, it->second, *op, kernel, body,
                          fresh && !files ? StringRef()
                                          : StringRef(first->second));
      }
      nest.configs.push_back(it->second);
    }
    nests.push_back(std::move(nest));
  }
  return nests;
}

void mlir::gemm::printConfigs(llvm::raw_ostream &os, StringRef configs,
                              const KernelFiles *files) {
  os << "#include \"gemm_kernels/launch.cuh\"\n";
  if (files)
    printKernelFileUses(os, *files);
  os << "\n";
  if (!configs.empty())
    os << "// The kernels' configurations (runtime/include/gemm_kernels), "
          "named after the\n// first launcher that runs each. Internal "
          "linkage: every rewritten file\n// numbers its nests from 0.\n"
          "namespace {\n"
       << configs << "} // namespace\n\n";
}

void mlir::gemm::printVariants(llvm::raw_ostream &os, const PlannedNest &nest,
                               StringRef name, StringRef indent,
                               StringRef extra) {
  MatmulOp op = nest.op;
  // gemm-attach-target has checked the module's target name.
  const GpuTarget &target = targetOf(nest.func->getParentOfType<ModuleOp>());
  os << indent << "// One kernel per schedule, with its tile, its blocks per "
     << "SM, the\n"
     << indent << "// GFLOP/s the cost model predicts on a full " << target.name
     << " and the shares\n"
     << indent << "// of DRAM bandwidth its rows of A and B stream at, its "
     << "schedule, and\n"
     << indent << "// which problems it runs (one without a scalar twin "
     << "needs aligned\n"
     << indent << "// packs), then its stream-K form where it has one "
     << "(null: none), which\n"
     << indent << "// problems that runs, and its K step. The plan names the "
     << "gemm-opt and\n"
     << indent << "// kernel templates that printed it, for tuning records "
     << "(docs/tuning.md).\n"
     << indent << "static const gemm_rt::Variant " << name << "[] = {\n";
  // The tile as the runtime sees it, along C's rows and columns.
  for (auto [config, k, rates] :
       llvm::zip(nest.configs, op.getKernelPlans(), op.getKernelRates())) {
    ScheduleAttr s = k.getSchedule();
    std::string streamed =
        k.getStreamK()
            ? llvm::formatv("gemm_kernels::launchStreamed<{0}>,\n{1}     "
                            "gemm_kernels::streams<{0}>",
                            config, indent)
                  .str()
            : "nullptr, nullptr";
    os << indent
       << llvm::formatv(
              "    {{gemm_kernels::launch<{0}>, {1}, {2}, {3}, {4:F1}, "
              "{5:F3}, {6:F3},\n{8}     \"{7}\",\n{8}     "
              "gemm_kernels::runs<{0}>, {10}, {9}},\n",
              config, s.getTranspose() ? s.getBlockN() : s.getBlockM(),
              s.getTranspose() ? s.getBlockM() : s.getBlockN(),
              s.getOccupancy(), rates.getGflops().getValueAsDouble(),
              rates.getShareA().getValueAsDouble(),
              rates.getShareB().getValueAsDouble(),
              formatScheduleOptions(toSchedule(s)), indent, s.getBlockK(),
              streamed);
  }
  os << extra << indent << "};\n";
}

std::string mlir::gemm::planOf(const PlannedNest &nest, StringRef variants,
                               StringRef tail, int extra) {
  const GpuTarget &target = targetOf(nest.func->getParentOfType<ModuleOp>());
  return llvm::formatv("gemm_rt::Plan{{{0}, {1}, {2:F1}, \"{3}\", \"{4}\"{5}}",
                       variants, nest.configs.size() + extra, target.dramGBs,
                       toolVersion(), templatesHash(), tail);
}
