//===- gemm-opt.cpp - The gemm-opt driver ---------------------------------===//
//
// `gemm-opt input.cpp -o out.cu` rewrites the GEMM loop nests of a C++ file
// into launcher calls; `gemm-opt input.mlir ...` runs passes like mlir-opt, so
// each stage of the pipeline can be tested on its own.
//
//===----------------------------------------------------------------------===//

#include "gemm-opt/CodeGen/Launcher.h"
#include "gemm-opt/Dialect/Gemm/GemmDialect.h"
#include "gemm-opt/Frontend/Action.h"
#include "gemm-opt/Frontend/MLIRGen.h"
#include "gemm-opt/Frontend/SourceRewriter.h"
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
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CommonOptionsParser.h"
#include "clang/Tooling/Tooling.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;

namespace {

void registerGemmOptDialects(mlir::DialectRegistry &registry) {
  registry.insert<mlir::gemm::GemmDialect, mlir::func::FuncDialect,
                  mlir::arith::ArithDialect, mlir::memref::MemRefDialect>();
}

/// C and C++ sources, --emit, --explain, --target and --nvcc-flags select
/// gemm-opt's own mode;
/// everything else, .mlir files and stdin included, goes to MlirOptMain,
/// which owns its command line.
bool isCppInvocation(int argc, char **argv) {
  for (int i = 1; i < argc; ++i) {
    StringRef arg(argv[i]);
    if (arg == "--")
      break;
    if (arg == "--nvcc-flags" || arg == "-nvcc-flags" || arg == "--explain" ||
        arg == "-explain" || arg.starts_with("--emit=") ||
        arg.starts_with("-emit=") || arg.starts_with("--target=") ||
        arg.starts_with("-target="))
      return true;
    StringRef ext = sys::path::extension(arg);
    if (!arg.starts_with("-") &&
        llvm::is_contained({".c", ".cc", ".cpp", ".cxx", ".C", ".c++"}, ext) &&
        (i == 1 || StringRef(argv[i - 1]) != "-o"))
      return true;
  }
  return false;
}

int runMlirOpt(int argc, char **argv) {
  mlir::DialectRegistry registry;
  registerGemmOptDialects(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "gemm-opt pass driver\n", registry));
}

enum class Emit { Source, Mlir, Cuda, Schedules };

/// A user-facing error without a source location (driver-level problems).
int driverError(const Twine &message) {
  WithColor::error(errs(), "gemm-opt") << message << "\n";
  return 1;
}

/// Flushes and closes `os`, turning a write error into a driver error (an
/// unchecked one would abort with LLVM's "IO failure on output stream").
int finishWrite(raw_fd_ostream &os, StringRef what) {
  os.close();
  if (!os.has_error())
    return 0;
  std::error_code ec = os.error();
  os.clear_error();
  return driverError("cannot write " + what + ": " + ec.message());
}

/// Writes `text` to `path` whole or not at all. A regular file (or a new one)
/// is written through a temporary beside it that is renamed into place only
/// once every byte is written, so a failed write leaves the previous output
/// as it was. A device or pipe (/dev/stdout) cannot be renamed over and gets
/// the text directly.
int writeOutput(StringRef path, StringRef text) {
  if (path == "-") {
    outs() << text;
    outs().flush();
    if (!outs().has_error())
      return 0;
    std::error_code ec = outs().error();
    outs().clear_error();
    return driverError("cannot write to standard output: " + ec.message());
  }
  std::error_code ec;
  sys::fs::file_status status;
  if (!sys::fs::status(path, status) && sys::fs::exists(status) &&
      !sys::fs::is_regular_file(status)) {
    raw_fd_ostream os(path, ec, sys::fs::OF_Text);
    if (ec)
      return driverError("cannot open output '" + path + "': " + ec.message());
    os << text;
    return finishWrite(os, "output '" + path.str() + "'");
  }
  int fd;
  SmallString<128> temporary;
  ec = sys::fs::createUniqueFile(path + ".tmp-%%%%%%", fd, temporary);
  if (ec)
    return driverError("cannot create a temporary file beside output '" +
                       path + "': " + ec.message());
  raw_fd_ostream os(fd, /*shouldClose=*/true);
  os << text;
  if (int failed = finishWrite(os, "output '" + path.str() + "'")) {
    sys::fs::remove(temporary);
    return failed;
  }
  if ((ec = sys::fs::rename(temporary, path))) {
    sys::fs::remove(temporary);
    return driverError("cannot replace output '" + path + "': " + ec.message());
  }
  return 0;
}

std::string nvccFlags() {
  return std::string("-std=c++17 -arch=sm_") + GEMM_OPT_CUDA_ARCH +
         " -I" GEMM_OPT_RUNTIME_INCLUDE_DIR " " GEMM_OPT_RUNTIME_LIBRARY;
}

int runCppMode(int argc, const char **argv) {
  // Options are built here, not at namespace scope, so that they never meet
  // MlirOptMain's own -o in the global registry.
  static cl::OptionCategory category("gemm-opt options");
  static cl::opt<std::string> outputPath(
      "o", cl::desc("Output file (default: stdout)"), cl::value_desc("file"),
      cl::init("-"), cl::cat(category));
  static cl::opt<Emit> emit(
      "emit", cl::desc("What to print"), cl::init(Emit::Source),
      cl::values(clEnumValN(Emit::Source, "source",
                            "the rewritten source (default)"),
                 clEnumValN(Emit::Mlir, "mlir", "the lifted gemm module"),
                 clEnumValN(Emit::Cuda, "cuda",
                            "the generated launchers and kernels"),
                 clEnumValN(Emit::Schedules, "schedules",
                            "each nest's best --schedule options, one per "
                            "line (see --candidates)")),
      cl::cat(category));
  static cl::opt<std::string> scheduleOptions(
      "schedule",
      cl::desc("Options of gemm-select-schedule for every nest, e.g. "
               "'block=64,64,16 thread=4,4 prefetch=regs'"),
      cl::init(""), cl::cat(category));
  static cl::opt<std::string> target(
      "target",
      cl::desc("GPU that the cost model tunes for, e.g. fermi-c2050 or "
               "hopper-h200 (default: hopper-h100)"),
      cl::value_desc("name"), cl::init(""), cl::cat(category));
  static cl::opt<bool> explain(
      "explain",
      cl::desc("Print each nest's ranked schedules with every bound of the "
               "cost model on stdout, instead of the output"),
      cl::cat(category));
  static cl::opt<unsigned> candidates(
      "candidates",
      cl::desc("Schedules that --explain and --emit=schedules print per "
               "nest (default: 10)"),
      cl::init(10), cl::cat(category));
  static cl::opt<std::string> passAnalysis(
      "Rpass-analysis",
      cl::desc("'gemm' reports each nest's schedule and its predicted "
               "GFLOP/s"),
      cl::value_desc("gemm"), cl::init(""), cl::cat(category));
  static cl::opt<bool> referenceKernel(
      "reference-kernel",
      cl::desc("Skip schedule selection: every launcher runs the runtime's "
               "reference kernel (fast to compile; for testing recognition)"),
      cl::cat(category));
  static cl::opt<bool> printNvccFlags(
      "nvcc-flags",
      cl::desc("Print the nvcc flags that compile and link gemm-opt output"),
      cl::cat(category));

  // Without -p or `--`, parse with no extra flags instead of searching for a
  // compilation database, which CommonOptionsParser would complain about.
  SmallVector<const char *> args(argv, argv + argc);
  bool hasDashDash = llvm::any_of(args, [](const char *a) {
    return StringRef(a) == "--";
  });
  bool hasBuildPath = llvm::any_of(args, [](const char *a) {
    StringRef s(a);
    return s == "-p" || s.starts_with("-p=");
  });
  if (!hasDashDash && !hasBuildPath)
    args.push_back("--");
  int n = args.size();
  auto parser = clang::tooling::CommonOptionsParser::create(
      n, args.data(), category, cl::ZeroOrMore,
      "gemm-opt: rewrite GEMM loop nests in C++ into CUDA\n");
  if (!parser) {
    logAllUnhandledErrors(parser.takeError(), errs(), "gemm-opt: error: ");
    return 1;
  }
  if (printNvccFlags) {
    outs() << nvccFlags() << "\n";
    return 0;
  }
  const auto &sources = parser->getSourcePathList();
  if (sources.size() != 1)
    return driverError("expected exactly one input file");
  StringRef input = sources.front();
  if (!sys::fs::exists(input))
    return driverError("no such file: '" + input + "'");
  // Clang's tooling turns every '\\' of a path into '/' before it opens the
  // file, so such a name would fail later with a misleading message.
  if (input.contains('\\'))
    return driverError("cannot read '" + input +
                       "': clang's tooling takes '\\' in a file name for a "
                       "path separator; rename the file");
  if (outputPath != "-") {
    if (sys::fs::equivalent(input, outputPath))
      return driverError("output '" + outputPath +
                         "' is the input file; refusing to overwrite it");
    StringRef dir = sys::path::parent_path(outputPath);
    if (!dir.empty() && !sys::fs::is_directory(dir))
      return driverError("output directory '" + dir + "' does not exist");
  }

  mlir::DialectRegistry registry;
  registerGemmOptDialects(registry);
  mlir::MLIRContext context(registry);
  context.loadAllAvailableDialects();
  // Diagnostics from passes and CodeGen read like clang's: file:line:col.
  llvm::SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  context.printOpOnDiagnostic(false);
  // Like clang's, the passes' remarks are opt-in: the newer handler sees
  // each diagnostic first and swallows remarks unless asked for.
  mlir::ScopedDiagnosticHandler remarks(&context, [&](mlir::Diagnostic &d) {
    return mlir::success(d.getSeverity() == mlir::DiagnosticSeverity::Remark &&
                         passAnalysis != "gemm");
  });
  bool listOnly = explain || emit == Emit::Schedules;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  mlir::gemm::FrontendResult result;
  bool fromMlir = input.ends_with(".mlir");
  if (fromMlir) {
    if (emit == Emit::Source && !listOnly)
      return driverError("a .mlir input has no source to rewrite; use "
                         "--emit=cuda or --emit=mlir");
    module = mlir::parseSourceFile<mlir::ModuleOp>(input, sourceMgr, &context);
  } else {
    clang::tooling::ClangTool tool(parser->getCompilations(), {input.str()});
    tool.appendArgumentsAdjuster(clang::tooling::getInsertArgumentAdjuster(
        "-resource-dir=" GEMM_OPT_CLANG_RESOURCE_DIR,
        clang::tooling::ArgumentInsertPosition::END));
    if (tool.run(mlir::gemm::newGemmActionFactory(result).get()) != 0)
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
    return writeOutput(outputPath, text);
  }
  std::string options = scheduleOptions;
  if (!target.empty())
    options += " target=" + target;
  if (listOnly)
    options += " explain=" + std::to_string(candidates) +
               (explain ? "" : " explain-schedules=1");
  mlir::PassManager pm(&context);
  if (mlir::failed(mlir::parsePassPipeline(
          "gemm-select-schedule{" + options + "}", pm))) {
    return driverError("bad --schedule options '" + scheduleOptions + "'");
  }
  if (!referenceKernel && mlir::failed(pm.run(*module)))
    return 1;
  // The pass has printed the candidates.
  if (listOnly)
    return 0;
  if (emit == Emit::Cuda) {
    if (mlir::failed(mlir::gemm::emitLaunchers(*module, os)))
      return 1;
  } else {
    std::string launchers;
    raw_string_ostream los(launchers);
    if (mlir::failed(mlir::gemm::emitLaunchers(*module, los)))
      return 1;
    os << mlir::gemm::rewriteSource(result, launchers);
  }
  return writeOutput(outputPath, text);
}

} // namespace

int main(int argc, char **argv) {
  mlir::gemm::registerGemmOptPasses();
  if (isCppInvocation(argc, argv))
    return runCppMode(argc, const_cast<const char **>(argv));
  return runMlirOpt(argc, argv);
}
