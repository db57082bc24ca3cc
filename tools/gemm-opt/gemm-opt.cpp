//===- gemm-opt.cpp - The gemm-opt driver ---------------------------------===//
//
// `gemm-opt input.cpp -o out.cu` rewrites the GEMM loop nests of a C or C++
// file into launcher calls; `gemm-opt input.mlir ...` runs passes like
// mlir-opt, so each stage of the pipeline can be tested on its own.
//
//===----------------------------------------------------------------------===//

#include "BuildFlags.h"
#include "Remarks.h"

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

#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/xxhash.h"

using namespace llvm;

namespace {

void registerGemmOptDialects(mlir::DialectRegistry &registry) {
  registry.insert<mlir::gemm::GemmDialect, mlir::func::FuncDialect,
                  mlir::arith::ArithDialect, mlir::memref::MemRefDialect>();
}

void printVersion(raw_ostream &os) {
  os << "gemm-opt version " GEMM_OPT_VERSION " (" GEMM_OPT_GIT_COMMIT ")\n"
     << "LLVM version " LLVM_VERSION_STRING "\n";
}

/// The command line that gemm-opt is given.
enum class Mode {
  Source,   ///< Its own: a C or C++ input, or one of its own flags.
  Mlir,     ///< mlir-opt's: .mlir inputs and stdin.
  MlirHelp, ///< --mlir-help: mlir-opt's --help.
};

bool isSourceName(StringRef path) {
  return is_contained({".c", ".cc", ".cpp", ".cxx", ".C", ".c++"},
                      sys::path::extension(path));
}

/// The flags of Options (and of CommonOptionsParser) other than -o, which
/// both modes have: any of them selects the source mode.
constexpr StringLiteral ownFlags[] = {
    "emit",       "target",       "explain",
    "candidates", "schedule",     "reference-kernel",
    "Rpass",      "Rpass-missed", "Rpass-analysis",
    "MD",         "MF",           "x",
    "p",          "extra-arg",    "extra-arg-before",
    "cflags",     "libs",         "nvcc-flags",
    "cuda-arch",  "kernels"};

/// The source mode for a C or C++ input, any other existing file (which it
/// refuses without -x), one of its own flags or a bare --help; mlir-opt's for
/// the rest, .mlir inputs and stdin.
Mode selectMode(int argc, char **argv) {
  bool own = false, help = false, mlirInput = false, otherInput = false;
  for (int i = 1; i < argc; ++i) {
    StringRef arg(argv[i]);
    if (arg == "--")
      break;
    if (arg.size() > 1 && arg.starts_with("-")) {
      StringRef name = arg.ltrim('-').split('=').first;
      if (name == "mlir-help")
        return Mode::MlirHelp;
      help |= name.starts_with("help");
      own |= is_contained(ownFlags, name);
      // These take their value as the next argument.
      if (!arg.contains('=') && is_contained({"o", "p", "MF", "x"}, name))
        ++i;
      continue;
    }
    if (arg.ends_with(".mlir"))
      mlirInput = true;
    else if (isSourceName(arg) || sys::fs::exists(arg))
      otherInput = true;
  }
  return own || otherInput || (help && !mlirInput) ? Mode::Source : Mode::Mlir;
}

int runMlirOpt(int argc, char **argv) {
  mlir::DialectRegistry registry;
  registerGemmOptDialects(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "gemm-opt pass driver\n", registry));
}

enum class Emit { Source, Mlir, Cuda, Schedules };
enum class Language { FromName, C, Cxx };

/// gemm-opt's own options. They are made on first use, in the source mode
/// only, so that they never meet MlirOptMain's -o in the global registry.
struct Options {
  cl::OptionCategory category{"gemm-opt options"};
  cl::opt<std::string> output{"o", cl::desc("Output file (default: stdout)"),
                              cl::value_desc("file"), cl::init("-"),
                              cl::cat(category)};
  cl::opt<Emit> emit{
      "emit", cl::desc("What to print"), cl::init(Emit::Source),
      cl::values(
          clEnumValN(Emit::Source, "source", "the rewritten source (default)"),
          clEnumValN(Emit::Mlir, "mlir",
                     "the lifted gemm module (a fast dry run)"),
          clEnumValN(Emit::Cuda, "cuda", "the generated launchers and kernels"),
          clEnumValN(Emit::Schedules, "schedules",
                     "each nest's best --schedule options (see --candidates)")),
      cl::cat(category)};
  cl::opt<std::string> target{
      "target",
      cl::desc("GPU that the cost model tunes for: fermi-c2050, fermi-gtx580, "
               "gt200-gtx280, ampere-a100, hopper-h100 (default), hopper-h200"),
      cl::value_desc("name"), cl::cat(category)};
  cl::opt<bool> explain{
      "explain",
      cl::desc("Print each nest's ranked schedules with every bound of the "
               "cost model, instead of the output"),
      cl::cat(category)};
  cl::opt<unsigned> candidates{
      "candidates",
      cl::desc("Schedules per nest for --explain and --emit=schedules "
               "(default: 10)"),
      cl::init(10), cl::cat(category)};
  cl::opt<std::string> schedule{
      "schedule",
      cl::desc("Fix schedule parameters for every nest, e.g. "
               "'block=64,64,16 thread=4,4 prefetch=regs'"),
      cl::cat(category)};
  cl::opt<bool> referenceKernel{
      "reference-kernel",
      cl::desc("Skip schedule selection: every launcher runs the runtime's "
               "reference kernel (fast; for testing recognition)"),
      cl::cat(category)};
  cl::opt<std::string> rpass{
      "Rpass", cl::desc("Report the rewritten nests (pass 'gemm')"),
      cl::value_desc("regex"), cl::cat(category)};
  cl::opt<std::string> rpassMissed{
      "Rpass-missed",
      cl::desc("Report the nests left as written, and why (pass 'gemm')"),
      cl::value_desc("regex"), cl::cat(category)};
  cl::opt<std::string> rpassAnalysis{
      "Rpass-analysis",
      cl::desc("Report each nest's schedule and its predicted GFLOP/s "
               "(pass 'gemm')"),
      cl::value_desc("regex"), cl::cat(category)};
  cl::opt<bool> md{"MD",
                   cl::desc("Write the files that the output depends on, as "
                            "a make rule, to <output>.d"),
                   cl::cat(category)};
  cl::opt<std::string> mf{"MF",
                          cl::desc("Write the -MD rule to <file> instead "
                                   "(implies -MD)"),
                          cl::value_desc("file"), cl::cat(category)};
  cl::opt<std::string> kernels{
      "kernels",
      cl::desc("Write the kernels and their launchers to <file>, for nvcc, "
               "and the output in the input's language, for its own "
               "compiler (C sources need this)"),
      cl::value_desc("file"), cl::cat(category)};
  cl::opt<Language> language{
      "x", cl::desc("Language of the input, whatever its name (or stdin)"),
      cl::init(Language::FromName),
      cl::values(clEnumValN(Language::C, "c", "C"),
                 clEnumValN(Language::Cxx, "c++", "C++")),
      cl::cat(category)};
  cl::opt<bool> cflags{
      "cflags", cl::desc("Print the nvcc flags that compile gemm-opt output"),
      cl::cat(category)};
  cl::opt<bool> libs{"libs",
                     cl::desc("Print the flags that link it (nvcc or a host "
                              "compiler)"),
                     cl::cat(category)};
  cl::opt<bool> nvccFlags{"nvcc-flags", cl::desc("Print both, in one line"),
                          cl::cat(category)};
  cl::opt<unsigned> cudaArch{
      "cuda-arch",
      cl::desc("The sm_NN that --cflags names (default: --target's GPU)"),
      cl::value_desc("NN"), cl::init(0), cl::cat(category)};
  cl::extrahelp notes{R"(
Flags after -- go to clang (-I, -D, -std=...); -p reads them from
build-dir/compile_commands.json. Inputs are C by the name .c, C++ by .cc, .cpp,
.cxx, .C or .c++; -x c or -x c++ sets it for any other name and for stdin.
Build and run the output:
  nvcc -c out.cu $(gemm-opt --cflags) -o out.o && nvcc out.o $(gemm-opt --libs)
  GEMM_OPT_TRACE=1 ./a.out    where each nest ran, or why it ran its loop
  GEMM_OPT_DISABLE=1 ./a.out  every nest runs its original loop

Each candidate nest gets one remark: -Rpass=gemm if it was rewritten,
-Rpass-missed=gemm if not. Both kinds print unless -Rpass or -Rpass-missed
is given; then only the kinds given print.

A .mlir input (or stdin without -x) runs passes like mlir-opt, e.g.
`gemm-opt file.mlir -split-input-file -verify-diagnostics`; its options are
in `gemm-opt --mlir-help` (or `gemm-opt file.mlir --help`).
)"};
};

Options &options() {
  static Options options;
  return options;
}

/// A user-facing error without a source location (driver-level problems).
int driverError(const Twine &message) {
  WithColor::error(errs(), "gemm-opt") << message << "\n";
  return 1;
}

/// Prints a command-line parse error. Its lines already start with the
/// program's name, so they become one error and its notes.
int commandLineError(Error error) {
  std::string message = toString(std::move(error));
  SmallVector<StringRef> lines;
  StringRef(message).trim().split(lines, '\n');
  for (auto [i, line] : enumerate(lines)) {
    line.consume_front("gemm-opt: ");
    (i == 0 ? WithColor::error(errs(), "gemm-opt")
            : WithColor::note(errs(), "gemm-opt"))
        << line.trim() << "\n";
  }
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
    return driverError("cannot create a temporary file beside output '" + path +
                       "': " + ec.message());
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

/// --cflags, --libs and --nvcc-flags, on one line.
int printBuildFlags(const Options &opts, const char *argv0) {
  gemm_opt::RuntimePaths runtime = gemm_opt::findRuntime(argv0);
  SmallVector<std::string> flags;
  if (opts.cflags || opts.nvccFlags) {
    Expected<unsigned> arch = gemm_opt::cudaArchFor(opts.target, opts.cudaArch);
    if (!arch)
      return driverError(toString(arch.takeError()));
    flags.push_back(gemm_opt::compileFlags(runtime, *arch));
  }
  if (opts.libs || opts.nvccFlags)
    flags.push_back(gemm_opt::linkFlags(runtime));
  outs() << join(flags, " ") << "\n";
  return 0;
}

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

/// The -R flags' values, nullopt for one not given.
Expected<gemm_opt::RemarkSelection> remarkSelection(const Options &opts) {
  auto given =
      [](const cl::opt<std::string> &flag) -> std::optional<StringRef> {
    if (!flag.getNumOccurrences())
      return std::nullopt;
    return StringRef(flag);
  };
  return gemm_opt::selectRemarks(given(opts.rpass), given(opts.rpassMissed),
                                 given(opts.rpassAnalysis));
}

int runSourceMode(int argc, const char **argv) {
  Options &opts = options();
  // Without -p or `--`, parse with no extra flags instead of searching for a
  // compilation database, which CommonOptionsParser would complain about.
  SmallVector<const char *> args(argv, argv + argc);
  bool hasDashDash =
      llvm::any_of(args, [](const char *a) { return StringRef(a) == "--"; });
  bool hasBuildPath = llvm::any_of(args, [](const char *a) {
    StringRef s(a);
    return s == "-p" || s.starts_with("-p=");
  });
  if (!hasDashDash && !hasBuildPath)
    args.push_back("--");
  int n = args.size();
  auto parser = clang::tooling::CommonOptionsParser::create(
      n, args.data(), opts.category, cl::ZeroOrMore,
      "gemm-opt: rewrite the GEMM loop nests of C and C++ files into CUDA\n");
  if (!parser)
    return commandLineError(parser.takeError());
  if (opts.cflags || opts.libs || opts.nvccFlags)
    return printBuildFlags(opts, argv[0]);
  Expected<gemm_opt::RemarkSelection> remarks = remarkSelection(opts);
  if (!remarks)
    return driverError(toString(remarks.takeError()));

  const auto &sources = parser->getSourcePathList();
  bool fromStdin =
      sources.empty() || (sources.size() == 1 && sources.front() == "-");
  if (sources.size() > 1 || (fromStdin && opts.language == Language::FromName))
    return driverError("expected exactly one input file (stdin needs -x c "
                       "or -x c++)");
  std::string input;
  std::unique_ptr<MemoryBuffer> stdinText;
  if (fromStdin) {
    ErrorOr<std::unique_ptr<MemoryBuffer>> text = MemoryBuffer::getSTDIN();
    if (!text)
      return driverError("cannot read standard input: " +
                         text.getError().message());
    stdinText = std::move(*text);
    // Clang's name for it; the tool maps it at an absolute path.
    SmallString<128> path;
    sys::fs::current_path(path);
    sys::path::append(path, "<stdin>");
    input = path.str().str();
  } else {
    input = sources.front();
    if (!sys::fs::exists(input))
      return driverError("no such file: '" + input + "'");
    // Clang's tooling turns every '\\' of a path into '/' before it opens
    // the file, so such a name would fail later with a misleading message.
    if (StringRef(input).contains('\\'))
      return driverError("cannot read '" + input +
                         "': clang's tooling takes '\\' in a file name for a "
                         "path separator; rename the file");
    if (opts.language == Language::FromName && !isSourceName(input) &&
        !StringRef(input).ends_with(".mlir"))
      return driverError("cannot tell the language of '" + input +
                         "' from its name; pass -x c or -x c++");
  }
  const std::string &outputPath = opts.output;
  if (outputPath != "-") {
    if (sys::fs::equivalent(input, outputPath))
      return driverError("output '" + outputPath +
                         "' is the input file; refusing to overwrite it");
    StringRef dir = sys::path::parent_path(outputPath);
    if (!dir.empty() && !sys::fs::is_directory(dir))
      return driverError("output directory '" + dir + "' does not exist");
  }
  const std::string &kernelsPath = opts.kernels;
  if (!kernelsPath.empty()) {
    if (opts.emit != Emit::Source || opts.explain)
      return driverError("--kernels splits the rewritten source; it does not "
                         "go with --emit or --explain");
    if (kernelsPath == "-" || kernelsPath == outputPath ||
        sys::fs::equivalent(input, kernelsPath))
      return driverError("--kernels needs a file of its own, not '" +
                         kernelsPath + "'");
    StringRef dir = sys::path::parent_path(kernelsPath);
    if (!dir.empty() && !sys::fs::is_directory(dir))
      return driverError("kernels directory '" + dir + "' does not exist");
  }
  std::string depfile =
      opts.mf.empty() && opts.md ? outputPath + ".d" : opts.mf;
  if (!depfile.empty() && outputPath == "-")
    return driverError("-MD and -MF need -o: the output file is the target "
                       "of the dependencies");

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
  mlir::ScopedDiagnosticHandler passRemarks(&context, [&](mlir::Diagnostic &d) {
    return mlir::success(d.getSeverity() == mlir::DiagnosticSeverity::Remark &&
                         !remarks->analysis);
  });
  Emit emit = opts.emit;
  bool listOnly = opts.explain || emit == Emit::Schedules;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  mlir::gemm::FrontendResult result;
  bool fromMlir = opts.language == Language::FromName &&
                  StringRef(input).ends_with(".mlir");
  if (fromMlir) {
    if (emit == Emit::Source && !listOnly)
      return driverError("a .mlir input has no source to rewrite; use "
                         "--emit=cuda or --emit=mlir");
    if (!depfile.empty())
      return driverError("-MD and -MF need a C or C++ input");
    module = mlir::parseSourceFile<mlir::ModuleOp>(input, sourceMgr, &context);
  } else {
    using clang::tooling::ArgumentInsertPosition;
    using clang::tooling::getInsertArgumentAdjuster;
    clang::tooling::ClangTool tool(parser->getCompilations(), {input});
    // Clang has printed the diagnostics of a failure; the tool's "Error
    // while processing" line would only repeat it.
    tool.setPrintErrorMessage(false);
    if (stdinText)
      tool.mapVirtualFile(input, stdinText->getBuffer());
    if (opts.language != Language::FromName)
      tool.appendArgumentsAdjuster(getInsertArgumentAdjuster(
          {"-x", opts.language == Language::C ? "c" : "c++"},
          ArgumentInsertPosition::BEGIN));
    tool.appendArgumentsAdjuster(
        getInsertArgumentAdjuster("-resource-dir=" GEMM_OPT_CLANG_RESOURCE_DIR,
                                  ArgumentInsertPosition::END));
    // Clang writes the depfile itself. This adjuster runs after the tool's
    // own, which strip the dependency flags of compile commands; -MQ quotes
    // the target for make.
    if (!depfile.empty()) {
      std::vector<std::string> flags = {"-MD", "-MF", depfile, "-MQ",
                                        outputPath};
      if (!kernelsPath.empty())
        flags.insert(flags.end(), {"-MQ", kernelsPath});
      tool.appendArgumentsAdjuster(
          getInsertArgumentAdjuster(flags, ArgumentInsertPosition::END));
    }
    if (!kernelsPath.empty())
      result.launcherPrefix = externalLauncherPrefix(kernelsPath);
    // As the command line names it, not as clang's tooling (absolute), so
    // that out.cu does not carry this machine's paths.
    result.fileName = stdinText ? "<stdin>" : sources.front();
    if (tool.run(gemm_opt::filterRemarks(
                     mlir::gemm::newGemmActionFactory(result), *remarks)
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
    return writeOutput(outputPath, text);
  }
  std::string passOptions = opts.schedule;
  if (!opts.target.empty())
    passOptions += " target=" + opts.target;
  if (listOnly)
    passOptions += " explain=" + std::to_string(opts.candidates) +
                   (opts.explain ? "" : " explain-schedules=1");
  mlir::PassManager pm(&context);
  if (mlir::failed(mlir::parsePassPipeline(
          "gemm-select-schedule{" + passOptions + "}", pm))) {
    return driverError("bad --schedule options '" + opts.schedule + "'");
  }
  if (!opts.referenceKernel && mlir::failed(pm.run(*module)))
    return 1;
  // The pass has printed the candidates.
  if (listOnly)
    return 0;
  if (emit == Emit::Cuda) {
    if (mlir::failed(mlir::gemm::emitLaunchers(*module, os)))
      return 1;
  } else if (!kernelsPath.empty()) {
    // The host file is the user's compiler's, in the input's language: it
    // declares the launchers that the kernels file defines.
    std::string kernels, declarations;
    raw_string_ostream kos(kernels), dos(declarations);
    if (mlir::failed(mlir::gemm::emitLaunchers(
            *module, kos, mlir::gemm::LauncherLinkage::External)) ||
        mlir::failed(mlir::gemm::emitLauncherDeclarations(*module, dos)))
      return 1;
    if (int failed = writeOutput(kernelsPath, kernels))
      return failed;
    os << mlir::gemm::rewriteSource(result, declarations);
  } else {
    std::string launchers;
    raw_string_ostream los(launchers);
    if (mlir::failed(mlir::gemm::emitLaunchers(*module, los)))
      return 1;
    // A host compiler would stop deep inside the kernels; say at the top
    // what builds the file.
    os << "#ifndef __CUDACC__\n"
          "#error \"gemm-opt output must be compiled with nvcc (see gemm-opt "
          "--cflags)\"\n"
          "#endif\n";
    os << mlir::gemm::rewriteSource(result, launchers);
  }
  return writeOutput(outputPath, text);
}

} // namespace

int main(int argc, char **argv) {
  cl::SetVersionPrinter(printVersion);
  mlir::gemm::registerGemmOptPasses();
  switch (selectMode(argc, argv)) {
  case Mode::Source:
    return runSourceMode(argc, const_cast<const char **>(argv));
  case Mode::Mlir:
    return runMlirOpt(argc, argv);
  case Mode::MlirHelp: {
    char help[] = "--help";
    char *args[] = {argv[0], help};
    return runMlirOpt(2, args);
  }
  }
  llvm_unreachable("every mode is handled");
}
