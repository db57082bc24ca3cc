//===- Action.cpp - Find candidate nests and report on them ---------------===//
//
// A candidate is a `for` nest at least two deep whose body accumulates a
// product. Each gets exactly one remark at its outermost `for`: what was
// recognised, or why it was left as written.
//
//===----------------------------------------------------------------------===//

#include "gemm-opt/Frontend/Action.h"
#include "Callbacks.h"
#include "IncludedText.h"
#include "Inline.h"
#include "MacroText.h"
#include "OpenAcc.h"
#include "OpenTemplates.h"
#include "ParallelLoops.h"
#include "Pragmas.h"
#include "PrivateMembers.h"
#include "Recognizer.h"
#include "RealConj.h"
#include "TeamSingle.h"
#include "Unswitch.h"
#include "gemm-opt/Frontend/SourceRewriter.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtOpenMP.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Lex/Lexer.h"
#include "clang/Sema/SemaConsumer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SaveAndRestore.h"

using namespace clang;
using namespace mlir::gemm;

namespace {

int loopDepth(const Stmt *s) {
  if (!s)
    return 0;
  s = unwrapLoopWrappers(s);
  int inner = 0;
  for (const Stmt *child : s->children())
    inner = std::max(inner, loopDepth(child));
  return inner + (isLoop(s) && !overContainer(s) ? 1 : 0);
}

/// The opcode and right operand of a binary operator, or of a call of an
/// overloadable one: in a template, `a[k] * b[k]` over a dependent type is
/// such a call wherever some `operator*` is visible.
std::optional<std::pair<BinaryOperatorKind, const Expr *>>
binaryOperation(const Stmt *s) {
  if (const auto *op = dyn_cast<BinaryOperator>(s))
    return std::pair(op->getOpcode(), op->getRHS());
  if (const auto *call = dyn_cast<CXXOperatorCallExpr>(s);
      call && call->getNumArgs() == 2)
    return std::pair(BinaryOperator::getOverloadedOpcode(call->getOperator()),
                     call->getArg(1));
  return std::nullopt;
}

/// Whether `e` multiplies anything: a product of elements, of locals that
/// hold them, of casts of either.
bool hasProduct(const Stmt *e) {
  if (!e)
    return false;
  if (auto op = binaryOperation(e); op && op->first == BO_Mul)
    return true;
  return llvm::any_of(e->children(), hasProduct);
}

/// Whether the expression `s` adds a product into a sum: `x += ...*...`,
/// `x -= ...*...` or `x = x + ...*...` (not a product alone).
bool sumsProduct(const Stmt *s) {
  if (auto op = binaryOperation(s);
      op && (op->first == BO_AddAssign || op->first == BO_SubAssign))
    return hasProduct(op->second);
  const auto *op = dyn_cast<BinaryOperator>(s);
  const auto *sum =
      op ? dyn_cast<BinaryOperator>(stripCasts(op->getRHS())) : nullptr;
  return op && op->getOpcode() == BO_Assign && sum &&
         (sum->getOpcode() == BO_Add || sum->getOpcode() == BO_Sub) &&
         hasProduct(sum);
}

/// Whether `s` holds an update that accumulates a product: `x += ...*...`,
/// `x -= ...*...`, or `x = x + ...*...` (through any expression, local or
/// cast), or multiplies an array element (the forms an accumulator hides).
bool accumulatesProduct(const Stmt *s) {
  if (!s)
    return false;
  if (sumsProduct(s))
    return true;
  if (const auto *op = dyn_cast<BinaryOperator>(s)) {
    if (op->getOpcode() == BO_Mul) {
      auto hasAccess = [](const Expr *e) {
        while (const auto *inner = dyn_cast<BinaryOperator>(stripCasts(e)))
          e = inner->getLHS();
        return isMemoryAccess(e);
      };
      if (hasAccess(op->getLHS()) || hasAccess(op->getRHS()))
        return true;
    }
  }
  for (const Stmt *child : unwrapLoopWrappers(s)->children())
    if (accumulatesProduct(child))
      return true;
  return false;
}

/// Whether `s` calls a function whose visible body sums products in a loop
/// (a dot-product helper), or one without a body here that takes two
/// arrays of floating-point values (an axpy defined in another file): the
/// nest around the call may compute a product too.
bool callsProductLoop(const Stmt *s) {
  if (!s)
    return false;
  if (const auto *call = dyn_cast<CallExpr>(s))
    if (const FunctionDecl *callee = call->getDirectCallee()) {
      const FunctionDecl *definition = callee->getDefinition();
      if (definition && loopDepth(definition->getBody()) >= 1 &&
          accumulatesProduct(definition->getBody()))
        return true;
      if (!definition && !callee->getBuiltinID() &&
          llvm::count_if(call->arguments(), [](const Expr *arg) {
            QualType type = arg->getType();
            return type->isPointerType() &&
                   type->getPointeeType()->isRealFloatingType();
          }) >= 2)
        return true;
    }
  return llvm::any_of(s->children(), callsProductLoop);
}

/// A candidate nest: `minDepth` loops or more around an accumulated
/// product, in its body or in a function it calls. It gets a remark whether
/// or not it is rewritten.
bool isCandidate(const Stmt *loop, int minDepth) {
  return loopDepth(loop) >= minDepth &&
         (accumulatesProduct(loop) || callsProductLoop(loop));
}

class NestFinder : public RecursiveASTVisitor<NestFinder> {
public:
  NestFinder(ASTContext &ctx, FrontendResult &result,
             std::vector<NestPragma> &pragmas, const IncludeLog &includes,
             const OpenInstances &open)
      : ctx(ctx), sm(ctx.getSourceManager()), result(result), pragmas(pragmas),
        copies(sm, ctx.getLangOpts(), includes, result), open(open),
        passed(passedFunctions(ctx)) {
    DiagnosticsEngine &diags = ctx.getDiagnostics();
    passId = diags.getCustomDiagID(DiagnosticsEngine::Remark,
                                   "%0 [-Rpass=gemm]");
    missedId = diags.getCustomDiagID(DiagnosticsEngine::Remark,
                                     "%0 [-Rpass-missed=gemm]");
  }

  // Functions of the user's headers and included files are scanned too, so
  // that their nests get a remark (placement leaves them as written).
  bool VisitFunctionDecl(FunctionDecl *function) {
    if (function->doesThisDeclarationHaveABody() &&
        !sm.isInSystemHeader(function->getLocation()))
      scan(function->getBody(), function);
    return true;
  }

private:
  ASTContext &ctx;
  SourceManager &sm;
  FrontendResult &result;
  std::vector<NestPragma> &pragmas;
  IncludedCopies copies; ///< Where nests of included files are rewritten.
  const OpenInstances &open; ///< Instantiations that gemm-opt made.
  /// Functions whose address the program passes on (Callbacks.h).
  const llvm::DenseSet<const FunctionDecl *> passed;
  unsigned passId, missedId;
  unsigned launchers = 0; ///< Launcher names handed out.
  /// The statements around the scan, outermost first.
  std::vector<const Stmt *> enclosing;
  /// What openmpObstacle found for the nest being handled: an orphaned
  /// `for` on its loop, and the pragma of a region that only shares out
  /// loops around it (Nest::openmpRegion), or "".
  bool callerTeam = false;
  std::string regionPragma;
  /// The loops that got a remark, in order.
  std::vector<const Stmt *> remarked;
  /// The `parallel` region whose team meets the nest's own `for`, with no
  /// other directive between (TeamSingle.h): its block, pragma line and
  /// line number; null where there is none.
  const Stmt *teamBlock = nullptr;
  std::string teamPragma;
  unsigned teamLine = 0;
  /// The OpenMP loop whose iterations each launch the nest being handled
  /// ("'parallel for' loop (line 12)"), or "".
  std::string perIterationOf;
  /// The precision the nest being handled asks for: its pragma's, else the
  /// file's (--precision).
  std::string askedPrecision;
  /// Per file text: the line of its first OpenACC directive, or 0.
  llvm::DenseMap<const char *, size_t> openaccLines;
  /// Where the first OpenACC directive of the nest being handled lies
  /// ("line 17"), in its file or else in the main file, or "" where
  /// neither has one (Nest::openaccFile).
  std::string accDirective;
  /// Two loops make a candidate; inside a peeled loop, only a whole GEMM
  /// nest (three) stands for it, else the peeled loop gets the remark.
  int minDepth = 2;

  void scan(const Stmt *s, const FunctionDecl *function) {
    if (!s)
      return;
    const Stmt *inner = unwrapLoopWrappers(s);
    if (isLoop(inner) && !overContainer(inner) &&
        (isCandidate(inner, minDepth) || instanceIsCandidate(inner, function)))
      return handle(inner, function);
    // A callback's one loop, which sums the products of one element.
    if (isLoop(inner) && !overContainer(inner) && function &&
        loopDepth(function->getBody()) == 1 && accumulatesProduct(inner))
      if (std::optional<std::string> why =
              elementOfCallersNest(inner, function, passed))
        return missed(inner, *why);
    scanInside(inner, [&](const Stmt *child) { scan(child, function); });
  }

  /// In a template, whether some instantiation of `loop` is a candidate:
  /// a call that is dependent in the template (`row(m, i).plus_assign(a(i,
  /// k) * row(b, k))`) is a product loop only where it is instantiated.
  bool instanceIsCandidate(const Stmt *loop, const FunctionDecl *function) {
    if (!function || !function->isTemplated())
      return false;
    std::optional<std::vector<const FunctionDecl *>> instances =
        instancesOf(function);
    return instances &&
           llvm::any_of(*instances, [&](const FunctionDecl *instance) {
             const Stmt *copy =
                 instance->getBody()
                     ? loopAt(instance->getBody(), loop->getBeginLoc())
                     : nullptr;
             return copy && isCandidate(copy, minDepth);
           });
  }

  /// Calls `each` on the statements directly inside `s`, with `s` enclosing
  /// them.
  template <class Each> void scanInside(const Stmt *s, Each each) {
    // The body of an OpenMP region (`omp parallel`, not a loop directive) is
    // not among its children().
    const Stmt *body = s;
    if (const auto *directive = dyn_cast<OMPExecutableDirective>(s);
        directive && directive->hasAssociatedStmt())
      body = directive->getRawStmt();
    enclosing.push_back(s);
    if (body != s)
      each(body);
    else
      for (const Stmt *child : s->children())
        each(child);
    enclosing.pop_back();
  }

  /// Tries the nests inside `loop` beside `obstacle`, a statement of the
  /// loop's that stopped it (all of them where it is null), each on its
  /// own.
  void openInside(const Stmt *loop, const FunctionDecl *function,
                  const Stmt *obstacle) {
    llvm::SaveAndRestore peeled(minDepth, 3);
    enclosing.push_back(loop);
    scanBeside(loopBody(loop), function, obstacle);
    enclosing.pop_back();
  }

  /// Scans the nests of `s` that do not hold `obstacle`, a statement that
  /// kept the nest around them from being one product: each is a candidate
  /// of its own (all of them where it is null).
  void scanBeside(const Stmt *s, const FunctionDecl *function,
                  const Stmt *obstacle) {
    if (!s)
      return;
    const Stmt *inner = unwrapLoopWrappers(s);
    if (!obstacle || !holds(inner, obstacle))
      return scan(inner, function);
    scanInside(inner, [&](const Stmt *child) {
      scanBeside(child, function, obstacle);
    });
  }

  /// The text of the file that holds `loc`'s expansion, and `loc`'s offset
  /// in it.
  std::pair<StringRef, unsigned> textAt(SourceLocation loc) {
    auto [file, offset] = sm.getDecomposedExpansionLoc(loc);
    return {sm.getBufferData(file), offset};
  }

  /// The line of the first OpenACC directive in `text`, or 0.
  size_t openaccLine(StringRef text) {
    auto [cached, fresh] = openaccLines.try_emplace(text.data(), 0);
    if (fresh)
      cached->second = firstOpenaccLine(text);
    return cached->second;
  }

  /// Sets accDirective for the nest at `loop`, and says why OpenACC leaves
  /// it as written: its function is an `acc routine`. Elsewhere a build
  /// without OpenACC ignores the directives (data regions are no-ops), so
  /// the launcher is right there; one with OpenACC compiles the nest as
  /// written (Nest::openaccFile).
  std::optional<std::string> openaccObstacle(const Stmt *loop,
                                             const FunctionDecl *function) {
    accDirective.clear();
    if (size_t line = openaccLine(textAt(loop->getBeginLoc()).first))
      accDirective = "line " + std::to_string(line);
    else if (size_t line = openaccLine(sm.getBufferData(sm.getMainFileID())))
      accDirective =
          "line " + std::to_string(line) + " of " +
          sm.getFileEntryRefForID(sm.getMainFileID())->getName().str();
    if (accDirective.empty())
      return std::nullopt;
    if (size_t line = routineLine(function, sm))
      return "its function is marked '#pragma acc routine' (line " +
             std::to_string(line) +
             "): it is device code, which OpenACC compute regions call for "
             "iterations of their loops, so a launcher would launch the "
             "whole product once per iteration";
    return std::nullopt;
  }

  /// What the remark of a rewritten nest says of where it runs: an
  /// orphaned `for` (callerTeam), a file with OpenACC (accDirective).
  std::string placementNotes() const {
    std::string notes =
        callerTeam ? "; its OpenMP 'for' shares the loop with a caller's "
                     "team where one is active: the launcher runs only "
                     "outside parallel regions"
                   : "";
    if (!perIterationOf.empty())
      notes += "; launched once per iteration of the OpenMP " +
               perIterationOf + ", by the thread that runs it";
    if (!accDirective.empty())
      notes += "; builds with OpenACC (_OPENACC) compile the nest as "
               "written, with its directives (the first OpenACC directive "
               "is at " +
               accDirective + ")";
    return notes;
  }

  /// The `#pragma omp parallel` line of the region around `loop` where the
  /// region's block holds only loops, each shared out by an `omp for`
  /// without `nowait`, `loop` one of them: the team runs them one after
  /// the other, each as a `parallel for` would. Its clauses must be ones a
  /// region of one loop keeps as they are (no reduction, no copyin).
  std::optional<std::string> sharedRegion(const Stmt *loop) {
    const auto *block = enclosing.empty()
                            ? nullptr
                            : dyn_cast<CompoundStmt>(enclosing.back());
    if (!block || llvm::none_of(block->body(), [&](const Stmt *s) {
          return unwrapLoopWrappers(s) == loop;
        }))
      return std::nullopt;
    // The one OpenMP directive above `s`, with its line.
    auto directiveAbove = [&](const Stmt *s)
        -> std::optional<std::pair<std::string, StringRef>> {
      auto [text, at] = textAt(s->getBeginLoc());
      std::optional<std::pair<std::string, StringRef>> found;
      for (StringRef pragma : pragmasAbove(text, at).pragmas)
        if (std::optional<std::string> name = openmpDirective(pragma)) {
          if (found)
            return std::nullopt;
          found = {*name, pragma};
        }
      return found;
    };
    auto region = directiveAbove(block);
    if (!region || region->first != "parallel" ||
        region->second.contains("reduction") ||
        region->second.contains("copyin"))
      return std::nullopt;
    for (const Stmt *s : block->body()) {
      if (isa<NullStmt>(s))
        continue;
      const Stmt *inner = unwrapLoopWrappers(s);
      auto shares = isLoop(inner) ? directiveAbove(inner) : std::nullopt;
      if (!shares || (shares->first != "for" && shares->first != "for simd") ||
          shares->second.contains("nowait"))
        return std::nullopt;
    }
    return region->second.str();
  }

  /// Whether `s` is the OpenMP directive whose region's block is `block`.
  static bool isRegionOf(const Stmt *s, const Stmt *block) {
    const auto *directive = dyn_cast<OMPExecutableDirective>(s);
    return directive && directive->hasAssociatedStmt() &&
           directive->getRawStmt() == block;
  }

  /// Why OpenMP makes the nest at `loop` more than one product that one
  /// call computes, or nullopt. The directives are read from the text, so
  /// that a file parsed without -fopenmp (where clang drops them) is judged
  /// as one parsed with it: any directive around the nest (a launcher there
  /// would run on every thread that reaches it), and on or in the nest any
  /// directive that does more than run a loop's iterations on threads or
  /// lanes of its own (classifyLoopDirective).
  std::optional<std::string> openmpObstacle(const Stmt *loop) {
    callerTeam = false;
    teamBlock = nullptr;
    regionPragma = sharedRegion(loop).value_or("");
    auto line = [](StringRef text, size_t offset) {
      return std::to_string(1 + text.take_front(offset).count('\n'));
    };
    // A `parallel` region around the nest's own `for`: one thread launches
    // for the team, where nothing else between shares or spawns.
    auto [loopText, loopAt] = textAt(loop->getBeginLoc());
    bool ownFor =
        llvm::any_of(pragmasAbove(loopText, loopAt).pragmas, [](StringRef p) {
          std::optional<std::string> name = openmpDirective(p);
          return name && (*name == "for" || *name == "for simd");
        });
    auto team = [&](StringRef name, const Stmt *block, StringRef text,
                    size_t at) {
      if (!ownFor || name != "parallel" || teamBlock)
        return false;
      teamBlock = block;
      teamPragma = text.drop_front(at).take_until([](char c) {
        return c == '\n';
      }).str();
      teamLine = 1 + text.take_front(at).count('\n');
      return true;
    };
    // A region that only shares out loops is one `parallel for` per loop.
    const Stmt *shared = regionPragma.empty() ? nullptr : enclosing.back();
    auto region = [&](StringRef directive, const std::string &at) {
      return "it is inside an OpenMP '" + directive.str() + "' region (line " +
             at + "), where every thread that reaches it would launch the "
             "whole product";
    };
    perIterationOf.clear();
    // Inside a block that one thread runs once (a task, a single), the
    // team around it launches nothing more than the block's one run does.
    auto runOnce = [&](const Stmt *s) {
      if (const auto *directive = dyn_cast<OMPExecutableDirective>(s))
        return runsOnce(
            llvm::omp::getOpenMPDirectiveName(directive->getDirectiveKind()));
      auto [text, at] = textAt(s->getBeginLoc());
      return llvm::any_of(pragmasAbove(text, at).pragmas, [](StringRef p) {
        std::optional<std::string> name = openmpDirective(p);
        return name && runsOnce(*name);
      });
    };
    // Such a directive on the nest's own loop too (parsed without -fopenmp).
    size_t first = runOnce(loop) ? enclosing.size() : 0;
    for (size_t e = first; e < enclosing.size(); ++e)
      if (runOnce(enclosing[e]))
        first = e + 1;
    for (size_t e = first; e < enclosing.size(); ++e) {
      const Stmt *s = enclosing[e];
      if ((shared && (s == shared || isRegionOf(s, shared))) ||
          (teamBlock && s == teamBlock))
        continue;
      auto [text, at] = textAt(s->getBeginLoc());
      // A loop directive whose iterations each launch their own product
      // (ParallelLoops.h); its loop, parsed with -fopenmp, follows it.
      auto perIteration = [&](StringRef name, unsigned loops,
                              const Stmt *outer, size_t offset) {
        if (!launchedPerIteration(name, loops, outer, loop))
          return false;
        perIterationOf = "'" + name.str() + "' loop (line " +
                         line(text, offset) + ")";
        return true;
      };
      if (const auto *directive = dyn_cast<OMPExecutableDirective>(s)) {
        const auto *looped = dyn_cast<OMPLoopDirective>(directive);
        const auto outer = std::find_if(
            enclosing.begin() + e, enclosing.end(),
            [](const Stmt *inner) { return isa<ForStmt>(inner); });
        StringRef name =
            llvm::omp::getOpenMPDirectiveName(directive->getDirectiveKind());
        if (looped && outer != enclosing.end() &&
            perIteration(name, looped->getLoopsNumber(), *outer, at))
          continue;
        if (!looped && team(name, directive->getRawStmt(), text, at))
          continue;
        return region(name, line(text, at));
      }
      for (StringRef pragma : pragmasAbove(text, at).pragmas)
        if (std::optional<std::string> name = openmpDirective(pragma)) {
          if (perIteration(*name, collapsedLoops(pragma), s,
                           pragma.data() - text.data()) ||
              (isa<CompoundStmt>(s) &&
               team(*name, s, text, pragma.data() - text.data())))
            continue;
          return region(*name, line(text, pragma.data() - text.data()));
        }
    }
    // The pragma lines on the outermost loop, outermost first (as clang
    // nests their directives), then those in the nest.
    auto [text, begin] = textAt(loop->getBeginLoc());
    SmallVector<StringRef> pragmas(
        llvm::reverse(pragmasAbove(text, begin).pragmas));
    // A macro's text holds no pragma lines (its _Pragma is an obstacle).
    SmallVector<StringRef> lines;
    if (!loop->getBeginLoc().isMacroID())
      text.slice(begin, textAt(endOfNest(loop)).second).split(lines, '\n');
    for (StringRef pragma : lines)
      pragmas.push_back(pragma);
    for (StringRef pragma : pragmas) {
      std::optional<std::string> name = openmpDirective(pragma);
      if (!name || (runsOnce(*name) && pragma.data() < text.data() + begin))
        continue;
      std::string at = line(text, pragma.data() - text.data());
      switch (classifyLoopDirective(*name)) {
      case LoopDirective::Alone:
        continue;
      case LoopDirective::Shared:
        if (shared && pragma.data() < text.data() + begin)
          continue;
        // An orphaned `for` on the nest's own loop: the launcher runs only
        // where no team is active (Nest::outsideParallel).
        if (pragma.data() < text.data() + begin &&
            (*name == "for" || *name == "for simd")) {
          if (!teamBlock) {
            callerTeam = true;
            continue;
          }
          if (std::optional<std::string> why = sharedForObstacle(pragma))
            return *why;
          if (std::optional<std::string> why =
                  teamObstacle(loop, teamBlock, teamPragma, teamLine))
            return why;
          continue;
        }
        return "its OpenMP '" + *name + "' directive (line " + at +
               ") shares a loop with the threads of an enclosing region, "
               "perhaps a caller's, and each of them would launch the whole "
               "product";
      case LoopDirective::Other:
        if (pragma.data() < text.data() + begin)
          return region(*name, at);
        return "it holds an OpenMP '" + *name + "' directive (line " + at +
               "); of OpenMP, only loop directives that start their own "
               "threads or lanes (parallel for, simd, taskloop) leave a nest "
               "one product";
      }
    }
    return std::nullopt;
  }

  /// Whether `s` (inside a loop that was opened) holds an accumulated
  /// product that none of the nests remarked since the `from`th remark
  /// holds (a blocked kernel in a branch too shallow to be a nest of its
  /// own, beside edge nests that got theirs): the opened loop's remark then
  /// stands for it.
  bool productsBeside(const Stmt *s, size_t from) const {
    for (const Stmt *child : s->children()) {
      // A loop's header only counts (`at += m * n`): its body computes.
      if (!child || (isLoop(s) && child != loopBody(s)) ||
          llvm::any_of(llvm::drop_begin(remarked, from),
                                 [&](const Stmt *nest) {
                                   return holds(nest, child);
                                 }))
        continue;
      if (isa<Expr>(child) ? sumsProduct(child)
                           : productsBeside(child, from))
        return true;
    }
    return false;
  }

  void missed(const Stmt *loop, const std::string &reason) {
    remarked.push_back(loop);
    ctx.getDiagnostics().Report(loop->getBeginLoc(), missedId)
        << "loop nest not rewritten: " + reason;
  }

  /// The loop of an instantiated body that was written at `at`.
  static const Stmt *loopAt(const Stmt *s, SourceLocation at) {
    if (!s)
      return nullptr;
    if (isLoop(s) && s->getBeginLoc() == at)
      return s;
    for (const Stmt *child : s->children())
      if (const Stmt *found = loopAt(child, at))
        return found;
    return nullptr;
  }

  /// The instantiations of a templated function: a function template's
  /// specializations, a class template member's copy in each
  /// specialization of its class, or the specializations of a member
  /// template's copy in each; nullopt for other templated functions.
  static std::optional<std::vector<const FunctionDecl *>>
  instancesOf(const FunctionDecl *function) {
    std::vector<const FunctionDecl *> instances;
    const auto *method = dyn_cast<CXXMethodDecl>(function);
    const ClassTemplateDecl *owner =
        method ? method->getParent()->getDescribedClassTemplate() : nullptr;
    if (const FunctionTemplateDecl *pattern =
            function->getDescribedFunctionTemplate()) {
      llvm::append_range(instances, pattern->specializations());
      if (!owner)
        return instances;
      for (const ClassTemplateSpecializationDecl *spec :
           owner->specializations())
        for (const Decl *member : spec->decls())
          if (const auto *copy = dyn_cast<FunctionTemplateDecl>(member);
              copy && copy->getInstantiatedFromMemberTemplate() &&
              copy->getInstantiatedFromMemberTemplate()->getCanonicalDecl() ==
                  pattern->getCanonicalDecl())
            llvm::append_range(instances, copy->specializations());
      return instances;
    }
    if (!owner)
      return std::nullopt;
    for (const ClassTemplateSpecializationDecl *spec :
         owner->specializations())
      for (const CXXMethodDecl *copy : spec->methods())
        if (const FunctionDecl *from = copy->getInstantiatedFromMemberFunction();
            from && from->getCanonicalDecl() == method->getCanonicalDecl())
          instances.push_back(copy);
    return instances;
  }

  /// The named non-type template parameters of `function`'s template (or
  /// its class template's) with integer values in `instance`, spelled as
  /// the template's text names them, with those values.
  static std::vector<std::pair<std::string, int64_t>>
  instanceTag(const FunctionDecl *function, const FunctionDecl *instance) {
    const TemplateParameterList *params = nullptr;
    const TemplateArgumentList *args = nullptr;
    if (const FunctionTemplateDecl *pattern =
            function->getDescribedFunctionTemplate()) {
      params = pattern->getTemplateParameters();
      args = instance->getTemplateSpecializationArgs();
    } else if (const auto *spec = dyn_cast<ClassTemplateSpecializationDecl>(
                   cast<CXXMethodDecl>(instance)->getParent())) {
      // A member defined out of its class names the parameters its own way
      // (`template <class U, int K> void L<U, K>::f()`).
      params = function->getNumTemplateParameterLists()
                   ? function->getTemplateParameterList(0)
                   : spec->getSpecializedTemplate()->getTemplateParameters();
      args = &spec->getTemplateArgs();
    }
    std::vector<std::pair<std::string, int64_t>> tag;
    if (!params || !args || params->size() != args->size())
      return tag;
    for (unsigned i = 0; i < params->size(); ++i) {
      const auto *param =
          dyn_cast<NonTypeTemplateParmDecl>(params->getParam(i));
      const TemplateArgument &arg = args->get(i);
      if (param && !param->getName().empty() &&
          arg.getKind() == TemplateArgument::Integral)
        tag.push_back({param->getNameAsString(),
                       arg.getAsIntegral().getExtValue()});
    }
    return tag;
  }

  /// Why a template's launchers could take the calls of an instantiation
  /// they were not lifted from, where it has several type parameters: a
  /// parameter that is the element type of no operand of `r` (an
  /// accumulator's `<float, double>` would call the float launcher).
  static std::optional<std::string>
  looseParameter(const FunctionDecl *function, const Recognition &r) {
    const FunctionTemplateDecl *pattern = function->getDescribedFunctionTemplate();
    if (!pattern || pattern->getTemplateParameters()->size() < 2)
      return std::nullopt;
    for (const NamedDecl *param : *pattern->getTemplateParameters())
      if (!llvm::is_contained(r.elementParams, param))
        return "its template parameter '" + param->getNameAsString() +
               "' is the element type of none of A, B, C and the bias, so "
               "an instantiation that differs from the float or the double "
               "one in '" + param->getNameAsString() +
               "' alone would call that one's launcher";
    return std::nullopt;
  }

  /// Recognises the nest of a function template, or of a member of a class
  /// template, in each of its instantiations in this file, whose launchers
  /// then overload one name; returns why not where an instantiation fails,
  /// there is none, or their calls would differ (one guard serves them all).
  /// Instantiations that gemm-opt made (OpenTemplates.h), and those of a
  /// template of type parameters for other types than all float or all
  /// double, leave calls to the catch-all overload (Nest::openTemplate),
  /// which `note` then says.
  std::optional<std::string>
  recognizeInstances(const Stmt *loop, const FunctionDecl *function,
                     std::vector<Recognition> &out, std::string &note) {
    bool others = false;
    std::vector<const Type *> types; ///< Of `out`'s instantiations.
    std::vector<std::string> made;   ///< The types of those gemm-opt made.
    std::string madeFailure; ///< Why one that gemm-opt made is no GEMM.
    std::optional<std::vector<const FunctionDecl *>> instances =
        instancesOf(function);
    if (!instances)
      return std::string("it is in a template that is neither a function "
                         "template nor a member of a class template (a "
                         "generic lambda)");
    for (const FunctionDecl *instance : *instances) {
      auto ours = open.find(instance);
      if (!instance->hasBody() || (ours != open.end() && !ours->second))
        continue;
      std::string which;
      llvm::raw_string_ostream os(which);
      instance->getNameForDiagnostic(os, ctx.getPrintingPolicy(),
                                     isa<CXXMethodDecl>(instance));
      const Stmt *same = loopAt(instance->getBody(), loop->getBeginLoc());
      Recognition r = same ? recognizeNest(same, instance, ctx) : Recognition{};
      // A template is not versioned (one guard serves all its
      // instantiations): where it would be, the remark says on what.
      if (std::optional<Versions> versions =
              same && !r.nest
                  ? versionNest(same, instance, ctx, {}, r.rejection)
                  : std::nullopt)
        r.rejection.reason = "it would be versioned on " + versions->on +
                             ", which gemm-opt does not do in a template";
      std::optional<const Type *> typed = typeArgument(instance);
      const Type *type = typed.value_or(nullptr);
      // Arguments of several types are another type's instantiation where
      // none of them is float or double.
      if (!r.nest && typed &&
          !(type ? type->isSpecificBuiltinType(BuiltinType::Float) ||
                       type->isSpecificBuiltinType(BuiltinType::Double)
                 : floatingArgument(instance))) {
        others = true;
        continue;
      }
      std::string why = "in its instantiation '" + which + "': " +
                        (same ? r.rejection.reason
                              : "the loop is not instantiated");
      // One that gemm-opt made only widens the launchers to other types:
      // without it, the file's own are rewritten and no other type's.
      if (!r.nest && ours != open.end()) {
        madeFailure = why;
        continue;
      }
      if (!r.nest)
        return why;
      r.nest->instance = instanceTag(function, instance);
      if (ours != open.end())
        made.push_back(r.nest->isDouble ? "double" : "float");
      // Instantiations with other values of the non-type parameters may
      // call their launchers differently: C++17 picks the call at compile
      // time (SourceRewriter.cpp, guardCall).
      bool clash = llvm::any_of(out, [&](const Recognition &other) {
        bool sameTag = other.nest->instance == r.nest->instance;
        return (sameTag && other.nest->isDouble == r.nest->isDouble &&
                other.nest->sumsInDouble == r.nest->sumsInDouble) ||
               ((sameTag || !ctx.getLangOpts().CPlusPlus17) &&
                launchCondition(*other.nest) != launchCondition(*r.nest));
      });
      if (clash)
        return "its instantiations lift to different launcher calls, or two "
               "to one element type ('" +
               which + "'); one guard cannot serve them";
      out.push_back(std::move(r));
      types.push_back(type);
    }
    if (out.empty() && !madeFailure.empty())
      return madeFailure;
    if (out.empty())
      return others ? "no instantiation of its template in this file is a "
                      "float or double GEMM"
                    : "it is in a template that this file never "
                      "instantiates; run gemm-opt on a file that "
                      "instantiates it for float or double and has it in "
                      "its own text or in a file it includes itself";
    if (!others && made.empty())
      return std::nullopt;
    // Other types' calls go to the catch-all only if their arguments fit
    // no launcher: the float instantiation lifts to f32 and the double one
    // to f64, so every operand's element type is the type argument.
    bool f32 = false, f64 = false;
    for (auto [r, type] : llvm::zip(out, types)) {
      f32 |= type && type->isSpecificBuiltinType(BuiltinType::Float) &&
             !r.nest->isDouble && !r.nest->sumsInDouble;
      f64 |= type && type->isSpecificBuiltinType(BuiltinType::Double) &&
             r.nest->isDouble;
    }
    // Or the operands' types say so themselves (where gemm-opt's own
    // instantiation of the other type is no GEMM).
    bool typed = llvm::all_of(
        out, [](const Recognition &r) { return r.typedByParams; });
    if ((!f32 || !f64) && !(typed && !madeFailure.empty()))
      return std::string(
          "its float and double instantiations do not lift to f32 and f64 "
          "GEMMs, so a launcher could take the calls of an instantiation "
          "for another type");
    for (const Recognition &r : out)
      if (std::optional<std::string> why = looseParameter(function, r))
        return why;
    for (Recognition &r : out)
      r.nest->openTemplate = true;
    note = " (" +
           (made.empty() ? std::string()
                         : "gemm-opt instantiated it for " +
                               llvm::join(made, " and ") +
                               ", which the file does not; ") +
           "instantiations of other types run the nest as written)";
    return std::nullopt;
  }

  void handle(const Stmt *loop, const FunctionDecl *function) {
    SmallVector<NestPragma *> above = pragmasOn(loop);
    if (llvm::any_of(above, [](const NestPragma *pragma) {
          return pragma->precision.empty();
        }))
      return missed(loop, "'#pragma gemm_opt off' asks to leave it as written");
    askedPrecision = result.precision;
    for (const NestPragma *pragma : above)
      askedPrecision = pragma->precision;
    if (std::optional<std::string> why = openaccObstacle(loop, function))
      return missed(loop, *why);
    if (std::optional<std::string> why = openmpObstacle(loop)) {
      // Each product inside it gets a remark of its own (a repeat loop in
      // a parallel region, a blocked driver around tasks); the loop one
      // only where none does.
      size_t before = remarked.size();
      openInside(loop, function, nullptr);
      if (remarked.size() == before)
        missed(loop, *why);
      return;
    }
    // A nest may end in a macro expansion (`C(i, j) += A(i, l) * B(l, j);`
    // with accessor macros): the splice then ends after the invocation.
    SourceLocation end = endOfStmt(loop);
    if (loop->getBeginLoc().isMacroID()) {
      if (std::optional<std::string> why =
              copies.macroObstacle(loop->getBeginLoc(), end))
        return missed(loop, *why);
    } else if (end.isMacroID() &&
               !Lexer::isAtEndOfMacroExpansion(end, sm, ctx.getLangOpts())) {
      return missed(loop, "it ends inside a macro's expansion, whose text "
                          "the guard around the nest would split");
    }
    MacroHome home(sm, loop->getBeginLoc());
    if (std::optional<std::string> why =
            copies.obstacle(loop->getBeginLoc(), end))
      return missed(loop, *why);
    if (auto [text, at] = textAt(loop->getBeginLoc());
        pragmasAbove(text, at).split)
      return missed(loop, "the pragmas above it are in a preprocessor "
                          "conditional that opens above other code, so no "
                          "guard can enclose them");
    std::vector<Recognition> recognized;
    std::string openNote;
    if (function->isTemplated()) {
      if (std::optional<std::string> why =
              recognizeInstances(loop, function, recognized, openNote))
        return missed(loop, *why);
    } else {
      // Read once: it may walk the blocks around the loop (startAbove).
      const LoopStart start = startBefore(loop);
      Recognition r = recognizeNest(loop, function, ctx, start);
      // Where one thread launches for the team, a plain product only: no
      // versions, and no statements after the launch, which each thread
      // would run.
      const bool team = teamBlock;
      if (team && r.nest && !r.nest->sideText.empty())
        return missed(loop, "it is inside an OpenMP 'parallel' region (line " +
                                std::to_string(teamLine) +
                                "), and each thread would run the statements "
                                "split off beside the product");
      if (!r.nest) {
        std::optional<Versions> versions =
            team ? std::nullopt
                 : versionNest(loop, function, ctx, start, r.rejection);
        if (versions)
          return handleVersions(loop, function, *versions);
        // A peeled loop opens whole; else only beside the obstacle.
        const Stmt *obstacle =
            r.rejection.peelable ? nullptr : r.rejection.obstacle;
        size_t before = remarked.size();
        if (r.rejection.peelable || (obstacle && holds(loop, obstacle)))
          openInside(loop, function, obstacle);
        // The products inside that got remarks stand for the loop, unless
        // it holds one that none of them holds (a blocked kernel in one
        // branch, too shallow to be a nest of its own, beside its edges'
        // nest in the other): then the loop gets its remark too.
        if (remarked.size() != before && !productsBeside(loop, before))
          return;
        if (remarked.size() != before || team)
          return missed(loop, r.rejection.reason);
        // Its product may go through a temporary (Temporary.cpp).
        Recognition through = recognizeThroughTemporary(
            loop, function, ctx, r.rejection.reason, start);
        if (!through.nest)
          return missed(loop, r.rejection.reason);
        r = std::move(through);
      }
      recognized.push_back(std::move(r));
    }
    std::string name = newLauncherName();
    std::string summary = recognized.front().summary + placementNotes();
    if (recognized.size() > 1)
      summary += "; and in the template's other " +
                 std::to_string(recognized.size() - 1) +
                 " instantiation(s), one launcher overload each";
    // Instantiations of other types call the name too.
    bool openTemplate = recognized.front().nest->openTemplate;
    summary += openNote;
    SmallVector<Nest *> nests;
    for (Recognition &r : recognized)
      nests.push_back(&*r.nest);
    summary += applyPrecision(nests);
    for (Recognition &r : recognized) {
      std::string symbol = name;
      if (recognized.size() > 1 || !r.nest->instance.empty() || openTemplate)
        symbol += r.nest->isDouble       ? "_f64"
                  : r.nest->sumsInDouble ? "_f32f64"
                                         : "_f32";
      for (const auto &[spelling, value] : r.nest->instance)
        symbol += (value < 0 ? "_m" : "_") + std::to_string(std::abs(value));
      place(loop, function, *r.nest, name, symbol);
    }
    remarked.push_back(loop);
    ctx.getDiagnostics().Report(loop->getBeginLoc(), passId)
        << summary + "; rewritten to call " + name;
  }

  std::string newLauncherName() {
    return result.launcherPrefix + "nest_" + std::to_string(launchers++);
  }

  /// Hands a recognised nest at `loop` to the rewrite.
  void place(const Stmt *loop, const FunctionDecl *function, Nest &nest,
             const std::string &name, const std::string &symbol) {
    PresumedLoc where = sm.getPresumedLoc(loop->getBeginLoc());
    nest.name = name;
    nest.symbol = symbol;
    nest.file = where.getFilename();
    nest.line = where.getLine();
    nest.column = where.getColumn();
    nest.beginOffset = copies.offsetInText(loop->getBeginLoc());
    nest.endOffset = copies.offsetInText(endOfNest(loop));
    nest.copy = copies.copyFor(loop->getBeginLoc());
    nest.openmpRegion = regionPragma;
    nest.outsideParallel = callerTeam;
    nest.teamSingle = teamBlock != nullptr;
    nest.openaccFile = !accDirective.empty();
    if (!nest.declarations.empty())
      nest.declarationsOffset = copies.offsetInText(
          sm.getExpansionLoc(outermostDecl(function)->getBeginLoc()));
    result.nests.push_back(std::move(nest));
  }

  /// A nest versioned on loop-invariant branches or switches: each version
  /// that is a GEMM gets a launcher; the remark says what became of each.
  void handleVersions(const Stmt *loop, const FunctionDecl *function,
                      Versions &versions) {
    std::string remark = "versioned on " + versions.on + placementNotes();
    SmallVector<Nest *> nests;
    for (Version &version : versions.versions)
      if (version.recognition.nest)
        nests.push_back(&*version.recognition.nest);
    std::string precision = applyPrecision(nests);
    for (Version &version : versions.versions) {
      Recognition &r = version.recognition;
      remark += "; where " + version.when + ", ";
      if (!r.nest) {
        remark += "left as written: " + r.rejection.reason;
        continue;
      }
      std::string name = newLauncherName();
      r.nest->versionChoices = versions.choices;
      r.nest->versionWays = version.ways;
      remark += r.summary + ", rewritten to call " + name;
      place(loop, function, *r.nest, name, name);
    }
    remark += precision;
    remarked.push_back(loop);
    ctx.getDiagnostics().Report(loop->getBeginLoc(), passId) << remark;
  }

  /// The statement ahead of `loop` that starts its induction variable
  /// (`int i = 0;` before `while (i < m)`), if any.
  LoopStart startBefore(const Stmt *loop) const {
    return startAbove(enclosing, loop);
  }

  /// The `#pragma gemm_opt` directives above the loop, with nothing but
  /// comments, blank lines and other pragmas between, which are then used.
  SmallVector<NestPragma *> pragmasOn(const Stmt *loop) {
    auto [text, at] = textAt(loop->getBeginLoc());
    FileID file = sm.getFileID(sm.getExpansionLoc(loop->getBeginLoc()));
    SmallVector<NestPragma *> found;
    for (StringRef pragma : pragmasAbove(text, at).pragmas)
      for (NestPragma &candidate : pragmas) {
        auto [where, offset] = sm.getDecomposedExpansionLoc(candidate.loc);
        if (where == file && offset == size_t(pragma.data() - text.data())) {
          candidate.used = true;
          found.push_back(&candidate);
        }
      }
    return found;
  }

  /// Sets askedPrecision on the recognised `nests` where it applies; what
  /// their remark says of it.
  std::string applyPrecision(ArrayRef<Nest *> nests) {
    const std::string &asked = askedPrecision;
    if (asked == "fp32")
      return "";
    std::string why;
    bool applied = false;
    for (Nest *nest : nests) {
      if (nest->isDouble)
        why = "does not apply to an f64 product";
      else if (nest->sumsInDouble)
        why = "does not apply: the nest sums floats in double";
      else if (!result.targetHasTf32)
        why = "asked, but the target " + result.targetName +
              " has no TF32 tensor-core kernel: FP32";
      else
        nest->precision = asked, applied = true;
    }
    std::string note =
        asked == "tf32"
            ? "TF32 tensor cores on sm_90 GPUs, 10-bit mantissas"
            : "three TF32 products on sm_90 GPUs' tensor cores, FP32-accurate";
    if (!applied)
      return "; precision " + asked + " " + why;
    return "; precision " + asked + " (" + note +
           "; FP32 kernels for calls with a bias, an activation or a "
           "batch, and on other GPUs)" +
           (why.empty() ? "" : "; the f64 instantiations stay f64");
  }

  /// The end of the nest's last token, including the `;` that ends a body
  /// without braces (it is not part of the statement's source range). In a
  /// macro's text, that text's spelling is read, and the end is in the same
  /// expansion as the nest's start.
  SourceLocation endOfNest(const Stmt *loop) {
    const LangOptions &lang = ctx.getLangOpts();
    SourceLocation end = endOfStmt(loop), begin = loop->getBeginLoc();
    if (begin.isMacroID())
      end = nestSpelling(sm, lang, SourceRange(end, end)).getEnd();
    SourceLocation after = Lexer::findLocationAfterToken(
        end, tok::semi, sm, lang, /*SkipTrailingWhitespaceAndNewLine=*/false);
    if (after.isInvalid())
      after = Lexer::getLocForEndOfToken(end, 0, sm, lang);
    if (!begin.isMacroID())
      return after;
    return begin.getLocWithOffset(sm.getFileOffset(after) -
                                  sm.getFileOffset(sm.getSpellingLoc(begin)));
  }
};

class GemmConsumer : public SemaConsumer {
public:
  GemmConsumer(FrontendResult &result, std::vector<NestPragma> &pragmas,
               const IncludeLog &includes)
      : result(result), pragmas(pragmas), includes(includes) {}

  void HandleTranslationUnit(ASTContext &ctx) override {
    forgetInlinedCalls();
    startRealParts(ctx);
    DiagnosticsEngine &diags = ctx.getDiagnostics();
    if (diags.hasErrorOccurred())
      return;
    const SourceManager &sm = ctx.getSourceManager();
    result.source = sm.getBufferData(sm.getMainFileID()).str();
    result.isC = !ctx.getLangOpts().CPlusPlus;
    OpenInstances open = instantiateOpenTemplates(*sema);
    NestFinder(ctx, result, pragmas, includes, open)
        .TraverseDecl(ctx.getTranslationUnitDecl());
    unsigned unused = diags.getCustomDiagID(
        DiagnosticsEngine::Warning,
        "'#pragma gemm_opt %0' has no effect: no loop nest that gemm-opt "
        "considers follows it (only comments, blank lines and other pragmas "
        "may stand between)");
    for (const NestPragma &pragma : pragmas)
      if (!pragma.used)
        diags.Report(pragma.loc, unused)
            << (pragma.precision.empty()
                    ? std::string("off")
                    : "precision(" + pragma.precision + ")");
  }

  void InitializeSema(Sema &s) override { sema = &s; }
  void ForgetSema() override { sema = nullptr; }

private:
  FrontendResult &result;
  std::vector<NestPragma> &pragmas;
  const IncludeLog &includes;
  Sema *sema = nullptr;
};

class GemmAction : public ASTFrontendAction {
public:
  explicit GemmAction(FrontendResult &result) : result(result) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &,
                                                 StringRef) override {
    return std::make_unique<GemmConsumer>(result, pragmas, includes);
  }
  bool BeginSourceFileAction(CompilerInstance &ci) override {
    // A header run on its own (`gemm-opt -x c++ matrix.hpp`, as remarks
    // advise) is parsed as a header: its `#pragma once` holds, so a header
    // that includes it back does not define everything twice (GCC keeps
    // it too).
    if (isHeaderName(getCurrentFile()))
      ci.getLangOpts().IsHeaderFile = true;
    addGemmOptPragmaHandler(ci.getPreprocessor(), pragmas);
    logIncludes(ci.getPreprocessor(), includes);
    return true;
  }

private:
  FrontendResult &result;
  std::vector<NestPragma> pragmas; ///< Met by the preprocessor.
  IncludeLog includes;          ///< Likewise.
};

class GemmActionFactory : public tooling::FrontendActionFactory {
public:
  explicit GemmActionFactory(FrontendResult &result) : result(result) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<GemmAction>(result);
  }

private:
  FrontendResult &result;
};

} // namespace

std::unique_ptr<tooling::FrontendActionFactory>
mlir::gemm::newGemmActionFactory(FrontendResult &result) {
  return std::make_unique<GemmActionFactory>(result);
}

bool mlir::gemm::isHeaderName(StringRef path) {
  return llvm::is_contained({".h", ".hh", ".hpp", ".hxx", ".cuh", ".inc",
                             ".inl", ".ipp", ".tcc"},
                            llvm::sys::path::extension(path));
}
