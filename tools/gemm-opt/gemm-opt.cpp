//===- gemm-opt.cpp - The gemm-opt driver ---------------------------------===//
//
// `gemm-opt input.cpp -o out.cu` rewrites the GEMM loop nests of a C or C++
// file into launcher calls; `gemm-opt input.mlir ...` runs passes like
// mlir-opt, so each stage of the pipeline can be tested on its own.
//
//===----------------------------------------------------------------------===//

#include "BuildFlags.h"
#include "Output.h"
#include "Record.h"
#include "Remarks.h"
#include "Rewrite.h"

#include "gemm-opt/Target/TuningDb.h"
#include "gemm-opt-abi/TuningFormat.h"
#include "gemm-opt/Transforms/Passes.h"

#include "mlir/Tools/mlir-opt/MlirOptMain.h"

#include "clang/Tooling/CommonOptionsParser.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"

#include <cstdlib>
#include <optional>

using namespace llvm;
using gemm_opt::driverError;
using gemm_opt::Emit;
using gemm_opt::Language;

namespace {


void printVersion(raw_ostream &os) {
  os << "gemm-opt version " GEMM_OPT_VERSION " (" GEMM_OPT_GIT_COMMIT ")\n"
     << "kernel templates " << mlir::gemm::templatesHash() << "\n"
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

/// The tuning database that --tuning-db names; else the one that
/// $GEMM_OPT_TUNING_DB names, or the user's cache file
/// (gemm_tuning::defaultPath), where it exists, so that a database a tuning
/// program has yet to write does not stop a build; else the one that ships
/// for `target`; empty for none. The passes refuse a named database that
/// cannot be read or holds a malformed line; the cache file is a cache:
/// such a file gets a warning and is not used (docs/tuning.md).
std::string tuningDbPath(StringRef flag, StringRef target, const char *argv0) {
  if (flag == "none")
    return "";
  if (!flag.empty())
    return flag.str();
  const char *env = std::getenv("GEMM_OPT_TUNING_DB");
  const bool named = env && *env;
  std::string path = gemm_tuning::defaultPath();
  if (path.empty())
    return "";
  if (!sys::fs::exists(path))
    return named ? "" : gemm_opt::shippedTuningDb(argv0, target);
  if (named)
    return path;
  Expected<mlir::gemm::TuningDb> db = mlir::gemm::TuningDb::load(path);
  if (db)
    return path;
  WithColor::warning(errs(), "gemm-opt")
      << toString(db.takeError())
      << "; the default tuning database is ignored and the cost model "
         "chooses (name it with --tuning-db to make this an error)\n";
  return "";
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
    "cuda-arch",  "kernels",      "kernel-dir",
    "fsave-optimization-record",
    "foptimization-record-file",
    "tuning-db",  "tune-problems", "tune-top", "tune-shapes",
    "stream-k",   "precision"};

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
  gemm_opt::registerGemmOptDialects(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "gemm-opt pass driver\n", registry));
}

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
                     "each nest's best --schedule options (see --candidates)"),
          clEnumValN(Emit::Tune, "tune",
                     "a program that times each nest's first schedules on "
                     "the GPU into a tuning database (docs/tuning.md)")),
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
  cl::opt<std::string> tuningDb{
      "tuning-db",
      cl::desc("Take the fastest kernels measured on the target GPU for "
               "nests of static extents from <file> (docs/tuning.md); by "
               "default $GEMM_OPT_TUNING_DB, else the user's "
               "~/.cache/gemm-opt/tuning.csv where it exists (ignored with "
               "a warning if malformed); 'none': no database"),
      cl::value_desc("file"), cl::cat(category)};
  cl::list<std::string> tuneProblems{
      "tune-problems",
      cl::desc("--emit=tune: the problems to time nests of dynamic extents "
               "on, comma-separated [LAYOUT:][BATCHx]MxNxK: BATCHx for "
               "batched nests, LAYOUT (rrr, rcr, ...; docs/tuning.md) for "
               "nests of that layout only (a nest of static extents is timed "
               "on its own)"),
      cl::value_desc("list"), cl::CommaSeparated, cl::cat(category)};
  cl::opt<unsigned> tuneTop{
      "tune-top",
      cl::desc("--emit=tune: the model's first schedules timed per problem "
               "(default: 16)"),
      cl::init(16), cl::cat(category)};
  cl::opt<unsigned> tuneShapes{
      "tune-shapes",
      cl::desc("--emit=tune: after the first, the model's best schedule of "
               "each of this many further tile shapes (default: 0)"),
      cl::init(0), cl::cat(category)};
  cl::opt<std::string> precision{
      "precision",
      cl::desc("What float nests are computed in, where no #pragma gemm_opt "
               "precision says otherwise: fp32 (the default), tf32 (one "
               "TF32 tensor-core product, 10-bit mantissas) or 3xtf32 "
               "(three, FP32-accurate); on sm_90 GPUs"),
      cl::init("fp32"), cl::value_desc("fp32|tf32|3xtf32"), cl::cat(category)};
  cl::opt<bool> streamK{
      "stream-k",
      cl::desc("Compile every kernel's stream-K form, for GEMM_OPT_TUNE and "
               "GEMM_OPT_STREAM at run time (default: only those that a "
               "tuning database chose; each costs nvcc about as much as its "
               "kernel)"),
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
  cl::opt<std::string> kernelDir{
      "kernel-dir",
      cl::desc("Write each kernel into files of its own in <dir>, named "
               "after its text, which the output includes and lists: a "
               "build compiles each once for all the files that launch it "
               "and keeps it until its text changes"),
      cl::value_desc("dir"), cl::cat(category)};
  cl::opt<std::string> record{
      "fsave-optimization-record",
      cl::desc("Write every nest's verdict, shape, layout, schedules and "
               "predicted rate as LLVM remarks in <format>, yaml (the "
               "default) or bitstream, to <output>.opt.<format>"),
      cl::value_desc("format"), cl::ValueOptional, cl::cat(category)};
  cl::opt<std::string> recordFile{
      "foptimization-record-file",
      cl::desc("Write the optimization record to <file> (implies "
               "-fsave-optimization-record)"),
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

/// Whether the input is C, by -x or by its name.
bool isC(const Options &opts, StringRef input) {
  return opts.language == Language::C ||
         (opts.language == Language::FromName &&
          sys::path::extension(input) == ".c");
}

/// Several inputs: each is written into the directory -o names (default:
/// the current one), under its file name with .gemm.cu added, or for C,
/// .gemm.c and .kernels.cu (--kernels).
int planSeveral(const Options &opts, ArrayRef<std::string> sources,
                std::vector<gemm_opt::RewriteJob> &jobs) {
  bool listOnly = opts.explain || opts.emit == Emit::Schedules;
  if (opts.emit != Emit::Source && !listOnly)
    return driverError("several inputs are rewritten each to its own "
                       "output; --emit=mlir and --emit=cuda take one");
  if (!opts.kernels.empty() || !opts.mf.empty())
    return driverError("with several inputs, -o names a directory and each "
                       "input's outputs are named after it; --kernels and "
                       "-MF take one input");
  std::string dir = opts.output == "-" ? "." : opts.output.getValue();
  if (!listOnly && !sys::fs::is_directory(dir))
    return driverError("with several inputs, -o names a directory, and '" +
                       dir + "' is not one");
  StringSet<> names;
  for (const std::string &input : sources) {
    StringRef name = sys::path::filename(input);
    if (!names.insert(name).second)
      return driverError("two inputs are named '" + name +
                         "'; their outputs would be one file");
    SmallString<128> output(dir), kernels;
    sys::path::append(output, name);
    if (isC(opts, input)) {
      kernels = output;
      kernels += ".kernels.cu";
      output += ".gemm.c";
    } else {
      output += ".gemm.cu";
    }
    jobs.push_back({input, nullptr, listOnly ? "-" : output.str().str(),
                    listOnly ? "" : kernels.str().str(), ""});
  }
  return 0;
}

/// Refuses a file whose directory does not exist (`what` names the file).
int checkDirectory(StringRef path, StringRef what) {
  StringRef dir = sys::path::parent_path(path);
  if (!dir.empty() && !sys::fs::is_directory(dir))
    return driverError(what + " directory '" + dir + "' does not exist");
  return 0;
}

/// The errors one job can be told without parsing anything.
int checkJob(const Options &opts, const gemm_opt::RewriteJob &job) {
  const std::string &input = job.input;
  if (!job.stdinText) {
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
  if (job.output != "-") {
    if (sys::fs::equivalent(input, job.output))
      return driverError("output '" + job.output +
                         "' is the input file; refusing to overwrite it");
    if (int failed = checkDirectory(job.output, "output"))
      return failed;
  }
  if (!job.kernels.empty()) {
    if (opts.emit != Emit::Source || opts.explain)
      return driverError("--kernels splits the rewritten source; it does not "
                         "go with --emit or --explain");
    if (job.kernels == "-" || job.kernels == job.output ||
        sys::fs::equivalent(input, job.kernels))
      return driverError("--kernels needs a file of its own, not '" +
                         job.kernels + "'");
    if (int failed = checkDirectory(job.kernels, "kernels"))
      return failed;
  }
  if (!job.depfile.empty() && job.output == "-")
    return driverError("-MD and -MF need -o: the output file is the target "
                       "of the dependencies");
  return 0;
}

/// The directory that -p names, if it is given before `--`.
std::optional<std::string> buildPath(ArrayRef<const char *> args) {
  for (size_t i = 1; i < args.size(); ++i) {
    StringRef arg(args[i]);
    if (arg == "--")
      break;
    if (arg == "-p" && i + 1 < args.size())
      return std::string(args[i + 1]);
    if (arg.consume_front("-p="))
      return arg.str();
  }
  return std::nullopt;
}

/// Refuses a -p that names no compilation database; clang's tooling would
/// only warn and parse without the project's flags.
int checkBuildPath(StringRef dir) {
  if (!sys::fs::is_directory(dir))
    return driverError("-p: build directory '" + dir + "' does not exist");
  std::string why;
  if (!clang::tooling::CompilationDatabase::autoDetectFromDirectory(dir, why))
    return driverError("-p: no compile_commands.json in '" + dir +
                       "' or a directory above it");
  return 0;
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
  if (std::optional<std::string> dir = buildPath(args))
    if (int failed = checkBuildPath(*dir))
      return failed;
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

  if (opts.emit != Emit::Tune &&
      (opts.tuneProblems.getNumOccurrences() ||
       opts.tuneTop.getNumOccurrences() || opts.tuneShapes.getNumOccurrences()))
    return driverError(
        "--tune-problems, --tune-top and --tune-shapes go with --emit=tune");
  if (opts.emit == Emit::Tune && opts.referenceKernel)
    return driverError("--emit=tune times the model's kernels; it does not go "
                       "with --reference-kernel");

  gemm_opt::RewriteOptions rewrite;
  rewrite.emit = opts.emit;
  rewrite.explain = opts.explain;
  rewrite.candidates = opts.candidates;
  rewrite.schedule = opts.schedule;
  rewrite.target = opts.target;
  rewrite.tuningDb = tuningDbPath(opts.tuningDb, opts.target, argv[0]);
  rewrite.tuneProblems = opts.tuneProblems;
  rewrite.tuneTop = opts.tuneTop;
  rewrite.tuneShapes = opts.tuneShapes;
  rewrite.referenceKernel = opts.referenceKernel;
  rewrite.streamK = opts.streamK;
  rewrite.precision = opts.precision;
  if (!opts.kernelDir.empty()) {
    if (opts.emit == Emit::Mlir || opts.emit == Emit::Tune ||
        opts.emit == Emit::Schedules || opts.explain)
      return driverError("--kernel-dir holds the kernels of rewritten "
                         "sources; it does not go with --emit=mlir, "
                         "schedules or tune, or --explain");
    SmallString<128> dir(opts.kernelDir.getValue());
    if (std::error_code ec = sys::fs::make_absolute(dir))
      return driverError("--kernel-dir: " + ec.message());
    sys::path::remove_dots(dir, /*remove_dot_dot=*/true);
    rewrite.kernelDir = dir.str().str();
  }
  rewrite.language = opts.language;
  rewrite.remarks = *remarks;
  if (Error bad = gemm_opt::checkRewriteOptions(rewrite))
    return driverError(toString(std::move(bad)));
  Expected<remarks::Format> recordFormat =
      gemm_opt::parseRecordFormat(opts.record);
  if (!recordFormat)
    return driverError(toString(recordFormat.takeError()));

  const auto &sources = parser->getSourcePathList();
  std::unique_ptr<MemoryBuffer> stdinText;
  std::vector<gemm_opt::RewriteJob> jobs;
  if (sources.empty() || (sources.size() == 1 && sources.front() == "-")) {
    if (opts.language == Language::FromName)
      return driverError("standard input needs -x c or -x c++");
    ErrorOr<std::unique_ptr<MemoryBuffer>> text = MemoryBuffer::getSTDIN();
    if (!text)
      return driverError("cannot read standard input: " +
                         text.getError().message());
    stdinText = std::move(*text);
    // Clang's name for it; the tool maps it at an absolute path.
    SmallString<128> path;
    sys::fs::current_path(path);
    sys::path::append(path, "<stdin>");
    jobs.push_back({path.str().str(), stdinText.get(), opts.output,
                    opts.kernels, ""});
  } else if (sources.size() == 1) {
    jobs.push_back({sources.front(), nullptr, opts.output, opts.kernels, ""});
  } else if (int failed = planSeveral(opts, sources, jobs)) {
    return failed;
  }
  if (jobs.size() > 1 && !opts.recordFile.empty())
    return driverError("-foptimization-record-file=<file> takes one input; "
                       "without it each output gets its own record");
  for (gemm_opt::RewriteJob &job : jobs) {
    job.depfile = opts.mf.empty() && opts.md ? job.output + ".d" : opts.mf;
    if (!opts.recordFile.empty())
      job.record = opts.recordFile;
    else if (opts.record.getNumOccurrences())
      job.record = (job.output != "-" ? job.output
                                      : sys::path::filename(job.input).str()) +
                   gemm_opt::recordSuffix(*recordFormat);
    job.recordFormat = *recordFormat;
    if (int failed = checkJob(opts, job))
      return failed;
  }
  int status = 0;
  for (const gemm_opt::RewriteJob &job : jobs)
    status |= gemm_opt::rewriteFile(rewrite, job, parser->getCompilations());
  return status;
}

} // namespace

int main(int argc, char **argv) {
  cl::SetVersionPrinter(printVersion);
  mlir::gemm::registerGemmOptPasses();
  mlir::gemm::registerGemmPipeline();
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
