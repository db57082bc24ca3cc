//===- Remarks.cpp - Which gemm remarks are printed -----------------------===//
//
// The front end reports each nest with a custom clang diagnostic whose format
// ends in its flag, "[-Rpass=gemm]" or "[-Rpass-missed=gemm]"; a consumer in
// front of clang's printer drops the kinds that were not selected.
//
//===----------------------------------------------------------------------===//
#include "Remarks.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticIDs.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "llvm/Support/Regex.h"

using namespace llvm;

namespace gemm_opt {

namespace {

/// Whether the -R flag's `value`, a regular expression, selects the pass.
Expected<bool> selects(StringRef flag, StringRef value) {
  Regex regex(value);
  std::string error;
  if (!regex.isValid(error))
    return createStringError("bad regular expression in " + flag + "=" + value +
                             ": " + error);
  return regex.match("gemm");
}

/// The innermost function definition whose text holds a location, found
/// by entering only the declarations around it: templates as written and
/// lambdas as part of their function, as the front end scans them.
class FunctionAt : public clang::RecursiveASTVisitor<FunctionAt> {
public:
  FunctionAt(const clang::SourceManager &sm, clang::SourceLocation loc)
      : sm(sm), loc(sm.getExpansionLoc(loc)) {}

  bool TraverseDecl(clang::Decl *decl) {
    if (decl && !isa<clang::TranslationUnitDecl>(decl) &&
        !holds(decl->getSourceRange()))
      return true;
    return RecursiveASTVisitor::TraverseDecl(decl);
  }

  bool VisitFunctionDecl(clang::FunctionDecl *function) {
    // Visited outermost first.
    if (function->doesThisDeclarationHaveABody())
      found = function;
    return true;
  }

  const clang::FunctionDecl *found = nullptr;

private:
  const clang::SourceManager &sm;
  clang::SourceLocation loc;

  bool holds(clang::SourceRange range) const {
    clang::CharSourceRange text = sm.getExpansionRange(range);
    return text.isValid() &&
           sm.isPointWithin(loc, text.getBegin(), text.getEnd());
  }
};

/// The qualified name of the function whose body holds `loc`, as clang's
/// diagnostics name it; empty outside any.
std::string functionAt(clang::ASTContext &ctx, clang::SourceLocation loc) {
  FunctionAt finder(ctx.getSourceManager(), loc);
  finder.TraverseDecl(ctx.getTranslationUnitDecl());
  std::string name;
  if (finder.found) {
    raw_string_ostream os(name);
    finder.found->getNameForDiagnostic(os, ctx.getPrintingPolicy(),
                                       /*Qualified=*/true);
  }
  return name;
}

/// Forwards every diagnostic to `next` except unselected gemm remarks.
class RemarkFilter : public clang::DiagnosticConsumer {
public:
  RemarkFilter(clang::DiagnosticConsumer &next,
               std::unique_ptr<clang::DiagnosticConsumer> owned,
               RemarkSelection selection, std::vector<RemarkRecord> *log,
               clang::CompilerInstance &ci)
      : next(next), owned(std::move(owned)), selection(selection), log(log),
        ci(ci) {}

  void BeginSourceFile(const clang::LangOptions &langOpts,
                       const clang::Preprocessor *pp) override {
    next.BeginSourceFile(langOpts, pp);
  }
  void EndSourceFile() override { next.EndSourceFile(); }
  void finish() override { next.finish(); }

  void HandleDiagnostic(clang::DiagnosticsEngine::Level level,
                        const clang::Diagnostic &info) override {
    if (level == clang::DiagnosticsEngine::Remark && log)
      record(info);
    if (level == clang::DiagnosticsEngine::Remark && !selected(info))
      return;
    // The compiler instance reads the counts from this consumer.
    DiagnosticConsumer::HandleDiagnostic(level, info);
    next.HandleDiagnostic(level, info);
  }

private:
  clang::DiagnosticConsumer &next;
  std::unique_ptr<clang::DiagnosticConsumer> owned; ///< `next`, if owned.
  RemarkSelection selection;
  std::vector<RemarkRecord> *log;
  /// Its AST names the function around a remark.
  clang::CompilerInstance &ci;

  /// The flag that ends a gemm remark's format, or nullopt for any other
  /// diagnostic.
  static std::optional<StringRef> gemmFlag(const clang::Diagnostic &info) {
    StringRef format =
        info.getDiags()->getDiagnosticIDs()->getDescription(info.getID());
    for (StringRef flag : {" [-Rpass=gemm]", " [-Rpass-missed=gemm]"})
      if (format.ends_with(flag))
        return flag;
    return std::nullopt;
  }

  static bool isRewritten(StringRef flag) { return flag == " [-Rpass=gemm]"; }

  bool selected(const clang::Diagnostic &info) const {
    std::optional<StringRef> flag = gemmFlag(info);
    return !flag || (isRewritten(*flag) ? selection.pass : selection.missed);
  }

  void record(const clang::Diagnostic &info) {
    std::optional<StringRef> flag = gemmFlag(info);
    if (!flag)
      return;
    bool rewritten = isRewritten(*flag);
    RemarkRecord r;
    clang::PresumedLoc where =
        info.getSourceManager().getPresumedLoc(info.getLocation());
    r.file = where.getFilename();
    r.line = where.getLine();
    r.column = where.getColumn();
    // The front end remarks while it walks the AST.
    if (ci.hasASTContext())
      r.function = functionAt(ci.getASTContext(), info.getLocation());
    r.rewritten = rewritten;
    SmallString<256> message;
    info.FormatDiagnostic(message);
    r.message = StringRef(message).rsplit(*flag).first.str();
    log->push_back(std::move(r));
  }
};

/// Runs the wrapped action with a RemarkFilter in front of the instance's
/// diagnostic consumer, which the tool set up from the command line.
class FilterAction : public clang::WrapperFrontendAction {
public:
  FilterAction(std::unique_ptr<clang::FrontendAction> action,
               RemarkSelection selection, std::vector<RemarkRecord> *log)
      : WrapperFrontendAction(std::move(action)), selection(selection),
        log(log) {}

  bool BeginInvocation(clang::CompilerInstance &ci) override {
    clang::DiagnosticsEngine &diags = ci.getDiagnostics();
    std::unique_ptr<clang::DiagnosticConsumer> owned = diags.takeClient();
    diags.setClient(
        new RemarkFilter(*diags.getClient(), std::move(owned), selection, log,
                         ci),
        /*ShouldOwnClient=*/true);
    return WrapperFrontendAction::BeginInvocation(ci);
  }

private:
  RemarkSelection selection;
  std::vector<RemarkRecord> *log;
};

class FilterFactory : public clang::tooling::FrontendActionFactory {
public:
  FilterFactory(std::unique_ptr<FrontendActionFactory> factory,
                RemarkSelection selection, std::vector<RemarkRecord> *log)
      : factory(std::move(factory)), selection(selection), log(log) {}

  std::unique_ptr<clang::FrontendAction> create() override {
    return std::make_unique<FilterAction>(factory->create(), selection, log);
  }

private:
  std::unique_ptr<FrontendActionFactory> factory;
  RemarkSelection selection;
  std::vector<RemarkRecord> *log;
};

} // namespace

Expected<RemarkSelection> selectRemarks(std::optional<StringRef> pass,
                                        std::optional<StringRef> missed,
                                        std::optional<StringRef> analysis) {
  RemarkSelection selection;
  auto apply = [](StringRef flag, std::optional<StringRef> value,
                  bool &kind) -> Error {
    if (!value)
      return Error::success();
    Expected<bool> on = selects(flag, *value);
    if (!on)
      return on.takeError();
    kind = *on;
    return Error::success();
  };
  // Asking for either of the two kinds that are on by default asks for it
  // alone.
  if (pass || missed)
    selection.pass = selection.missed = false;
  if (Error e = apply("-Rpass", pass, selection.pass))
    return std::move(e);
  if (Error e = apply("-Rpass-missed", missed, selection.missed))
    return std::move(e);
  if (Error e = apply("-Rpass-analysis", analysis, selection.analysis))
    return std::move(e);
  return selection;
}

std::unique_ptr<clang::tooling::FrontendActionFactory>
filterRemarks(std::unique_ptr<clang::tooling::FrontendActionFactory> factory,
              RemarkSelection selection, std::vector<RemarkRecord> *log) {
  return std::make_unique<FilterFactory>(std::move(factory), selection, log);
}

} // namespace gemm_opt
