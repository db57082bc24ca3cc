//===- Rewrite.cpp - Rewrite one input file -------------------------------===//

#include "Rewrite.h"
#include "IncludeNames.h"
#include "Output.h"
#include "Record.h"

#include "gemm-opt/CodeGen/Launcher.h"
#include "gemm-opt/CodeGen/TuningProgram.h"
#include "gemm-opt/Dialect/Gemm/GemmDialect.h"
#include "gemm-opt/Frontend/Action.h"
#include "gemm-opt/Frontend/MLIRGen.h"
#include "gemm-opt/Frontend/SourceRewriter.h"
#include "gemm-opt/Target/GpuTarget.h"
#include "gemm-opt/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/Tooling.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/xxhash.h"

using namespace llvm;

namespace gemm_opt {

void registerGemmOptDialects(mlir::DialectRegistry &registry) {
  registry.insert<mlir::gemm::GemmDialect, mlir::func::FuncDialect,
                  mlir::arith::ArithDialect, mlir::memref::MemRefDialect>();
}

namespace {

/// The prefix of the launchers that a host file compiled apart calls. They
/// have external linkage, so it must be unique in the program: it names the
/// kernels file as given (one per rewritten source), readably and hashed.
std::string externalLauncherPrefix(StringRef kernelsPath) {
  std::string stem = sys::path::stem(kernelsPath).str();
  for (char &c : stem)
    if (!isAlnum(c))
      c = '_';
  return formatv("gemm_opt_{0}_{1:x-8}_", stem,
                 static_cast<uint32_t>(xxh3_64bits(kernelsPath)))
      .str();
}

/// The passes' options that `options` give, or why there are none.
Expected<std::unique_ptr<mlir::gemm::GemmPipelineOptions>>
makePipelineOptions(const RewriteOptions &options) {
  std::string passOptions = options.schedule;
  if (!options.target.empty())
    passOptions += " target=" + options.target;
  if (options.explain || options.emit == Emit::Schedules)
    passOptions += " explain=" + std::to_string(options.candidates) +
                   (options.explain ? "" : " explain-schedules=1");
  auto pipelineOptions =
      mlir::gemm::GemmPipelineOptions::createFromString(passOptions);
  if (!pipelineOptions)
    return createStringError("--schedule: cannot parse '" + options.schedule +
                             "'; it takes space-separated key=value pairs "
                             "such as 'block=64,64,16 thread=4,4'");
  pipelineOptions->tuningDb = options.tuningDb;
  pipelineOptions->tune = options.emit == Emit::Tune;
  pipelineOptions->tuneProblems = options.tuneProblems;
  pipelineOptions->tuneTop = options.tuneTop;
  pipelineOptions->tuneShapes = options.tuneShapes;
  pipelineOptions->streamK = options.streamK;
  if (Error bad = mlir::gemm::checkPipelineOptions(*pipelineOptions))
    return std::move(bad);
  return std::move(pipelineOptions);
}

} // namespace

Error checkRewriteOptions(const RewriteOptions &options) {
  if (!mlir::gemm::isPrecisionName(options.precision))
    return createStringError("--precision: '" + options.precision +
                             "' is none of fp32, tf32 and 3xtf32");
  return makePipelineOptions(options).takeError();
}

int rewriteFile(const RewriteOptions &options, const RewriteJob &job,
                const clang::tooling::CompilationDatabase &compilations) {
  const std::string &input = job.input;
  mlir::DialectRegistry registry;
  registerGemmOptDialects(registry);
  mlir::MLIRContext context(registry);
  context.loadAllAvailableDialects();
  // Diagnostics from passes and CodeGen read like clang's: file:line:col.
  llvm::SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  context.printOpOnDiagnostic(false);
  // Like clang's, the passes' remarks are opt-in: the newer handler sees
  // each diagnostic first, swallows remarks unless asked for, and tags them
  // with the flag that asks, as the front end's remarks are tagged.
  mlir::ScopedDiagnosticHandler passRemarks(&context, [&](mlir::Diagnostic &d) {
    if (d.getSeverity() != mlir::DiagnosticSeverity::Remark)
      return mlir::failure();
    if (!options.remarks.analysis)
      return mlir::success();
    d << " [-Rpass-analysis=gemm]";
    return mlir::failure();
  });
  Emit emit = options.emit;
  bool listOnly = options.explain || emit == Emit::Schedules;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  mlir::gemm::FrontendResult result;
  std::vector<RemarkRecord> remarkLog;
  // Written once the module holds what the record reports.
  auto saveRecord = [&] {
    if (job.record.empty())
      return 0;
    std::string record;
    raw_string_ostream ros(record);
    printRecord(ros, job.recordFormat, remarkLog, result, *module);
    return writeOutput(job.record, record);
  };
  bool fromMlir = options.language == Language::FromName &&
                  StringRef(input).ends_with(".mlir");
  if (fromMlir) {
    if (emit == Emit::Source && !listOnly)
      return driverError("a .mlir input has no source to rewrite; use "
                         "--emit=cuda or --emit=mlir");
    if (!job.depfile.empty() || !job.record.empty())
      return driverError("-MD, -MF and -fsave-optimization-record need a C "
                         "or C++ input");
    module = mlir::parseSourceFile<mlir::ModuleOp>(input, sourceMgr, &context);
  } else {
    using clang::tooling::ArgumentInsertPosition;
    using clang::tooling::getInsertArgumentAdjuster;
    clang::tooling::ClangTool tool(
        compilations, {input},
        std::make_shared<clang::PCHContainerOperations>(), gccIncludeNames());
    // Clang has printed the diagnostics of a failure; the tool's "Error
    // while processing" line would only repeat it.
    tool.setPrintErrorMessage(false);
    if (job.stdinText)
      tool.mapVirtualFile(input, job.stdinText->getBuffer());
    if (options.language != Language::FromName)
      tool.appendArgumentsAdjuster(getInsertArgumentAdjuster(
          {"-x", options.language == Language::C ? "c" : "c++"},
          ArgumentInsertPosition::BEGIN));
    tool.appendArgumentsAdjuster(
        getInsertArgumentAdjuster("-resource-dir=" GEMM_OPT_CLANG_RESOURCE_DIR,
                                  ArgumentInsertPosition::END));
    // What clang 19 rejects by default but GCC accepts with a warning stays a
    // warning, so that any file the user's compiler builds is read; the
    // user's own flags, after these, may make them errors again.
    tool.appendArgumentsAdjuster(getInsertArgumentAdjuster(
        {"-Wno-error=implicit-function-declaration", "-Wno-error=implicit-int",
         "-Wno-error=int-conversion",
         "-Wno-error=incompatible-function-pointer-types",
         "-Wno-error=missing-template-arg-list-after-template-kw",
         "-Wno-error=register", "-Wno-error=c++11-narrowing"},
        ArgumentInsertPosition::BEGIN));
    // Clang writes the job.depfile itself. This adjuster runs after the tool's
    // own, which strip the dependency flags of compile commands; -MQ quotes
    // the target for make.
    if (!job.depfile.empty()) {
      std::vector<std::string> flags = {"-MD", "-MF", job.depfile, "-MQ",
                                        job.output};
      if (!job.kernels.empty())
        flags.insert(flags.end(), {"-MQ", job.kernels});
      // The schedules depend on the tuning database too.
      if (!options.tuningDb.empty())
        flags.insert(flags.end(),
                     {"-Xclang", "-fdepfile-entry=" + options.tuningDb});
      tool.appendArgumentsAdjuster(
          getInsertArgumentAdjuster(flags, ArgumentInsertPosition::END));
    }
    if (!job.kernels.empty())
      result.launcherPrefix = externalLauncherPrefix(job.kernels);
    else if (mlir::gemm::isHeaderName(input))
      result.launcherPrefix = externalLauncherPrefix(job.output);
    // As the command line names it, not as clang's tooling (absolute), so
    // that out.cu does not hold this machine's paths.
    result.fileName = job.stdinText ? "<stdin>" : job.input;
    // checkRewriteOptions has accepted the target's name.
    const mlir::gemm::GpuTarget &target =
        options.target.empty() ? mlir::gemm::getDefaultTarget()
                               : *mlir::gemm::lookupTarget(options.target);
    result.precision = options.precision;
    result.targetName = target.name;
    result.targetHasTf32 = target.tf32Gflops > 0;
    if (tool.run(gemm_opt::filterRemarks(
                     mlir::gemm::newGemmActionFactory(result), options.remarks,
                     job.record.empty() ? nullptr : &remarkLog)
                     .get()) != 0)
      return 1; // clang has printed the diagnostics.
    module = mlir::gemm::buildModule(context, result);
  }
  if (!module || mlir::failed(mlir::verify(*module)))
    return 1;

  std::string text;
  raw_string_ostream os(text);
  // --emit=mlir shows what the front end lifted, before any pass.
  if (emit == Emit::Mlir) {
    module->print(os);
    os << "\n";
    if (int failed = saveRecord())
      return failed;
    return writeOutput(job.output, text);
  }
  // checkRewriteOptions has accepted them.
  std::unique_ptr<mlir::gemm::GemmPipelineOptions> pipelineOptions =
      cantFail(makePipelineOptions(options));
  mlir::PassManager pm(&context);
  mlir::gemm::buildGemmPipeline(pm, *pipelineOptions);
  if (!options.referenceKernel && mlir::failed(pm.run(*module)))
    return 1;
  if (int failed = saveRecord())
    return failed;
  // gemm-select-schedule has printed the candidates.
  if (listOnly)
    return 0;
  // A host compiler would stop deep inside the kernels; say at the top
  // what builds the file.
  auto nvccOnly = [&] {
    os << "#ifndef __CUDACC__\n"
          "#error \"gemm-opt output must be compiled with nvcc (see gemm-opt "
          "--cflags)\"\n"
          "#endif\n";
  };
  std::optional<mlir::gemm::KernelFiles> kernelFiles;
  if (!options.kernelDir.empty())
    kernelFiles = mlir::gemm::KernelFiles{
        options.kernelDir,
        spelledFrom(job.kernels.empty() ? job.output : job.kernels,
                    options.kernelDir),
        {}, {}, {}};
  mlir::gemm::KernelFiles *files = kernelFiles ? &*kernelFiles : nullptr;
  if (emit == Emit::Cuda) {
    if (mlir::failed(mlir::gemm::emitLaunchers(
            *module, os, mlir::gemm::LauncherLinkage::Internal, files)))
      return 1;
  } else if (emit == Emit::Tune) {
    nvccOnly();
    if (mlir::failed(mlir::gemm::emitTuningProgram(*module, os)))
      return 1;
  } else if (!job.kernels.empty()) {
    // The host file is the user's compiler's, in the input's language: it
    // declares the launchers that the kernels file defines.
    std::string kernels, declarations;
    raw_string_ostream kos(kernels), dos(declarations);
    if (mlir::failed(mlir::gemm::emitLaunchers(
            *module, kos, mlir::gemm::LauncherLinkage::External, files)) ||
        mlir::failed(mlir::gemm::emitLauncherDeclarations(*module, dos)))
      return 1;
    if (int failed = writeOutput(job.kernels, kernels))
      return failed;
    os << mlir::gemm::rewriteSource(result, declarations);
  } else {
    std::string launchers;
    raw_string_ostream los(launchers);
    if (mlir::failed(mlir::gemm::emitLaunchers(
            *module, los, mlir::gemm::LauncherLinkage::Internal, files)))
      return 1;
    nvccOnly();
    // A header's launchers are defined once per translation unit, whatever
    // guard its own text has.
    if (mlir::gemm::isHeaderName(input))
      launchers = "#ifndef " + StringRef(result.launcherPrefix).upper() +
                  "LAUNCHERS\n#define " +
                  StringRef(result.launcherPrefix).upper() + "LAUNCHERS\n" +
                  launchers + "#endif\n";
    os << mlir::gemm::rewriteSource(result, launchers);
  }
  if (int failed = writeKernelFiles(files))
    return failed;
  return writeOutput(job.output, text);
}

} // namespace gemm_opt
