//===- SplitOff.cpp - A product beside another computation ----------------===//
//
// Loop distribution, as far as the rewrite needs it. The nest N runs, in
// each iteration, the product's statements P and a statement S beside them.
// Where S reads no scalar that P sets (the accumulator) and assigns no
// scalar outside itself, the only ties between the two are through memory:
// S's stores against what P reads and writes, S's loads against what P
// writes (C). Where those spans are disjoint, running all of P (the
// launcher) and then all of S in the nest's loops computes what N does.
// The spans are affine over the box, so their extremes are sums of
// per-dimension extremes; the guard compares them before the launcher and
// runs the original loops where they overlap. The side copy of the nest is
// its text with everything but S, the loops around it and the declarations
// it reads blanked out.
//
//===----------------------------------------------------------------------===//

#include "SplitOff.h"
#include "MacroText.h"
#include "OpenAcc.h"

#include "LoopHeader.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang;
using namespace mlir::gemm;

namespace {

bool holdsLoop(const Stmt *s) {
  return isLoop(s) || llvm::any_of(s->children(), [](const Stmt *child) {
           return child && holdsLoop(child);
         });
}

bool storesToMemory(const Stmt *s) {
  if (const auto *op = dyn_cast<BinaryOperator>(s);
      op && op->isAssignmentOp() && isMemoryAccess(op->getLHS()))
    return true;
  return llvm::any_of(s->children(), [](const Stmt *child) {
    return child && storesToMemory(child);
  });
}

/// The statements that a loop (its body) or a block runs.
std::vector<const Stmt *> statementsOf(const Stmt *s) {
  s = unwrapLoopWrappers(s);
  if (isLoop(s))
    return {loopBody(s)};
  if (const auto *block = dyn_cast<CompoundStmt>(s))
    return {block->body_begin(), block->body_end()};
  return {};
}

void collectCandidates(const Stmt *s, std::vector<const Stmt *> &out) {
  for (const Stmt *child : statementsOf(s)) {
    const Stmt *inner = unwrapLoopWrappers(child);
    if (isLoop(inner) || isa<CompoundStmt>(inner))
      collectCandidates(inner, out);
    else if (!isa<DeclStmt>(inner) && !holdsLoop(inner) &&
             storesToMemory(inner))
      out.push_back(inner);
  }
}

class Splitter {
public:
  Splitter(NestScope &scope, ArrayRef<const Access *> operands, Nest &nest)
      : scope(scope), ctx(scope.ctx), sm(ctx.getSourceManager()),
        operands(operands), nest(nest), side(scope.side) {}

  std::optional<std::string> run() {
    std::string what = quoted(text(side));
    // The dimensions whose loops run the side statement.
    std::vector<int> context;
    for (size_t d = 0; d < scope.loops.size(); ++d)
      for (auto [l, weight] : scope.loops[d].members)
        if (holds(loopBody(scope.sourceLoops[l].stmt), side) &&
            !llvm::is_contained(context, int(d)))
          context.push_back(d);
    if (!readsOf(side, true))
      return std::nullopt;
    // The nest's locals it reads, and theirs, keep their declarations.
    for (size_t n = 0; n < needed.size(); ++n) {
      const VarDecl *var = needed[n];
      bool index = llvm::any_of(scope.sourceLoops, [&](const SourceLoop &l) {
        return l.iv == var;
      });
      if (scope.written.contains(var) && !index)
        return scope.reject(what + " reads '" + var->getNameAsString() +
                            "', which the product's statements set, so it "
                            "depends on the product");
      if (var->getInit() && !readsOf(var->getInit(), false))
        return std::nullopt;
    }
    const Access &c = *operands[2];
    std::vector<Span> cSpan = {span(c)}, all;
    for (const Access *op : operands)
      all.push_back(span(*op));
    // The scalars the product reads through pointers (`*alpha`).
    for (const UnaryOperator *read : scope.scalarReads)
      all.push_back({scope.print(read->getSubExpr()), "0", "0"});
    const Access &a = *operands[0];
    std::vector<std::string> bounds;
    for (auto &[e, store] : accesses) {
      std::optional<Access> access = scope.decomposeAccess(e, context);
      if (!access)
        return std::nullopt;
      // A copy of the finished row of C into A's row (PolyBench's doitgen).
      const Access &owner = store ? a : c;
      if (!access->rowIndex && access->root == owner.root &&
          rowOf(*access, owner, context, bounds) &&
          (!store || aLaidOutLikeC(bounds))) {
        for (const Span &theirs : all)
          if (store && theirs.base != a.basePtr)
            addCheck(disjoint(span(*access), theirs));
        continue;
      }
      if (access->rowIndex || access->root == c.root)
        return scope.reject(what + (store ? " stores to '" : " reads '") +
                            scope.print(e) + "', " +
                            (access->rowIndex ? "a row of a table, whose "
                                                "span is not one range"
                                              : "an element of C"));
      for (const Access *op : operands)
        if (store && access->root == op->root)
          return scope.reject(what + " stores to '" + scope.print(e) +
                              "', an element of '" + op->root +
                              "', which the product reads");
      Span mine = span(*access);
      for (const Span &theirs : store ? all : cSpan)
        addCheck(disjoint(mine, theirs));
    }
    if (!sideText())
      return std::nullopt;
    for (const std::string &bound : bounds)
      addCheck(bound);
    return what + " runs beside the product: it runs as written after the "
                  "launcher, in the nest's loops, where its memory and the "
                  "product's do not overlap" +
           (bounds.empty() ? ""
                           : " and " + llvm::join(bounds, " and ")) +
           " (elsewhere the loop runs)";
  }

private:
  NestScope &scope;
  ASTContext &ctx;
  SourceManager &sm;
  ArrayRef<const Access *> operands;
  Nest &nest;
  const Stmt *side;
  std::vector<std::pair<const Expr *, bool>> accesses; ///< (access, store)
  std::vector<const VarDecl *> needed;
  llvm::SmallPtrSet<const VarDecl *, 4> headerVars;
  llvm::SmallPtrSet<const VarDecl *, 8> ownLocals;

  void addCheck(const std::string &check) {
    if (!llvm::is_contained(nest.sideChecks, check))
      nest.sideChecks.push_back(check);
  }

  /// Whether dimension `inner` runs over the first values of `outer`: true
  /// where the extents are one expression, else `bounds` gets the test.
  bool within(int inner, int outer, std::vector<std::string> &bounds) {
    const Loop &i = scope.loops[inner], &o = scope.loops[outer];
    if (!(i.first == o.first) || !(i.step == o.step))
      return false;
    std::string test = "(" + i.extent.str() + ") <= (" + o.extent.str() + ")";
    if (!(i.extent == o.extent) && !llvm::is_contained(bounds, test))
      bounds.push_back(test);
    return true;
  }

  /// Whether `access`, in the side statement, reaches of `owner` (C, or A)
  /// only the row that the product's iteration around the statement
  /// finishes before it: owner's own form in the loops around both, and a
  /// loop of the statement's own in place of owner's one loop outside them
  /// (C's N, A's K), over no more values. In that iteration the product has
  /// written that row of C and read that row of A for the last time, and no
  /// other iteration touches them (C is one-to-one, and so is an A laid out
  /// like C): the statement may run after the whole product.
  bool rowOf(const Access &access, const Access &owner,
             const std::vector<int> &context,
             std::vector<std::string> &bounds) {
    if (access.basePtr != owner.basePtr ||
        !(access.index.constant == owner.index.constant) ||
        !scope.ctx.getSourceManager().isBeforeInTranslationUnit(
            owner.expr->getEndLoc(), side->getBeginLoc()))
      return false;
    std::optional<int> own, along;
    for (int d = 0; d < int(scope.loops.size()); ++d) {
      const SymExpr &mine = access.index.ivCoeffs[d];
      bool product = llvm::any_of(
          operands, [&](const Access *op) { return op->movesWith(d); });
      if (!llvm::is_contained(context, d)) {
        if (!owner.index.ivCoeffs[d].isZero() && (along || !mine.isZero()))
          return false;
        if (!owner.index.ivCoeffs[d].isZero())
          along = d;
      } else if (!product) {
        if (!mine.isZero() && own)
          return false;
        if (!mine.isZero())
          own = d;
      } else if (!(mine == owner.index.ivCoeffs[d]) ||
                 !operands[2]->movesWith(d)) {
        return false;
      }
    }
    return own && along &&
           access.index.ivCoeffs[*own] == owner.index.ivCoeffs[*along] &&
           within(*own, *along, bounds);
  }

  /// Whether A's rows are laid out as C's: A one-to-one where C is, so
  /// that a row of A belongs to one iteration of the product alone.
  bool aLaidOutLikeC(std::vector<std::string> &bounds) {
    const Access &a = *operands[0], &c = *operands[2];
    std::optional<int> k, n;
    for (int d = 0; d < int(scope.loops.size()); ++d) {
      bool inA = a.movesWith(d), inC = c.movesWith(d);
      if (inA && inC && !(a.index.ivCoeffs[d] == c.index.ivCoeffs[d]))
        return false;
      if (inA != inC && (inA ? k : n))
        return false;
      if (inA != inC)
        (inA ? k : n) = d;
    }
    return k && n && a.index.ivCoeffs[*k] == c.index.ivCoeffs[*n] &&
           within(*k, *n, bounds);
  }

  /// `s` as written, on one line.
  std::string text(const Stmt *s) {
    CharSourceRange range =
        nestSpelling(sm, ctx.getLangOpts(), s->getSourceRange());
    SmallVector<StringRef> words;
    Lexer::getSourceText(range, sm, ctx.getLangOpts())
        .split(words, ' ', -1, false);
    std::string out;
    for (StringRef word : words)
      out += (out.empty() ? "" : " ") + word.trim().str();
    return out;
  }

  /// Records the memory `s` reads and stores, and the nest's locals it
  /// reads; false (with the obstacle) for what has no span or an effect
  /// besides its stores.
  bool readsOf(const Stmt *s, bool inSide) {
    if (const auto *decl = dyn_cast<DeclStmt>(s))
      for (const Decl *d : decl->decls())
        if (const auto *var = dyn_cast<VarDecl>(d))
          ownLocals.insert(var);
    if (const auto *e = dyn_cast<Expr>(s); e && isMemoryAccess(e)) {
      accesses.push_back({stripCasts(e), false});
      namesIn(e);
      return true;
    }
    std::string what = quoted(text(side));
    if (const auto *op = dyn_cast<BinaryOperator>(s);
        op && op->isAssignmentOp()) {
      const VarDecl *target = referencedVar(op->getLHS());
      if (isMemoryAccess(op->getLHS())) {
        accesses.push_back({stripCasts(op->getLHS()), true});
        if (op->isCompoundAssignmentOp())
          accesses.push_back({stripCasts(op->getLHS()), false});
        namesIn(op->getLHS());
        return readsOf(op->getRHS(), inSide);
      }
      if (!inSide || !target || !ownLocals.contains(target))
        return scope.reject(what + " assigns '" + scope.print(op->getLHS()) +
                            "', which it shares with the product"),
               false;
    }
    if (const auto *unary = dyn_cast<UnaryOperator>(s);
        unary && (unary->isIncrementDecrementOp() ||
                  unary->getOpcode() == UO_Deref))
      return scope.reject(what + " " +
                          (unary->getOpcode() == UO_Deref
                               ? "reads through '" +
                                     scope.print(unary->getSubExpr()) +
                                     "', whose span gemm-opt does not bound"
                               : "steps '" +
                                     scope.print(unary->getSubExpr()) + "'")),
             false;
    if (const auto *call = dyn_cast<CallExpr>(s);
        call && !asMathCall(call) && !asMinMaxCall(call))
      return scope.reject(what + " calls a function beside the product"),
             false;
    if (isa<MemberExpr>(s))
      return scope.reject(what + " reads a member, whose span gemm-opt does "
                                 "not bound"),
             false;
    namesIn(s, false);
    return llvm::all_of(s->children(), [&](const Stmt *child) {
      return !child || readsOf(child, inSide);
    });
  }

  /// Notes the nest's locals that `s` names (all of its subtree, or `s`
  /// alone): their declarations stay in the side copy. So for variables
  /// declared before the nest that it sets (an accumulator declared at the
  /// top of the function), which run() then refuses.
  void namesIn(const Stmt *s, bool deep = true) {
    if (const auto *ref = dyn_cast<DeclRefExpr>(s))
      if (const auto *var = dyn_cast<VarDecl>(ref->getDecl());
          var && (scope.findLocal(var) || scope.written.contains(var)) &&
          !ownLocals.contains(var) && !llvm::is_contained(needed, var))
        needed.push_back(var);
    if (deep)
      for (const Stmt *child : s->children())
        if (child)
          namesIn(child);
  }

  Span span(const Access &a) { return spanOf(scope, a); }

  /// The nest's text with only the side statement, the loops and blocks
  /// around it and the declarations it reads; the rest is blanked to `;`.
  bool sideText() {
    std::optional<NestText> original =
        nestText(scope, "the statement beside the product");
    if (!original)
      return false;
    const Stmt *outer = unwrapLoopWrappers(scope.outer);
    std::vector<std::pair<unsigned, unsigned>> blanks;
    collectHeaders(outer);
    blank(outer, blanks);
    llvm::sort(blanks);
    nest.sideText =
        original->with(blanks, [](size_t) { return std::string(";"); });
    nest.sideLine = original->line;
    return true;
  }

  /// The variables that the headers of the loops around the side statement
  /// read: a bound temporary (`i__3 = M;` before the loop), a `while`
  /// loop's index, its start and its step.
  void collectHeaderVars(const Stmt *s) {
    if (const auto *ref = dyn_cast<DeclRefExpr>(s))
      if (const auto *var = dyn_cast<VarDecl>(ref->getDecl()))
        headerVars.insert(var);
    for (const Stmt *child : s->children())
      if (child)
        collectHeaderVars(child);
  }

  /// headerVars of the loops in `s` around the side statement.
  void collectHeaders(const Stmt *s) {
    for (const Stmt *child : statementsOf(s)) {
      const Stmt *inner = unwrapLoopWrappers(child);
      if (!(isLoop(inner) || isa<CompoundStmt>(inner)) || !holds(inner, side))
        continue;
      if (isLoop(inner))
        for (const Stmt *part : inner->children())
          if (part && part != loopBody(inner))
            collectHeaderVars(part);
      collectHeaders(inner);
    }
  }

  /// True if `s` only sets a variable the loops' headers read, which the
  /// copy must then set as the nest does.
  bool setsHeaderVar(const Stmt *s) const {
    const Expr *target = nullptr;
    if (const auto *op = dyn_cast<BinaryOperator>(s); op && op->isAssignmentOp())
      target = op->getLHS();
    else if (const auto *op = dyn_cast<UnaryOperator>(s);
             op && op->isIncrementDecrementOp())
      target = op->getSubExpr();
    const auto *ref =
        target ? dyn_cast<DeclRefExpr>(target->IgnoreParenImpCasts()) : nullptr;
    return ref && headerVars.contains(dyn_cast<VarDecl>(ref->getDecl()));
  }

  void blank(const Stmt *s, std::vector<std::pair<unsigned, unsigned>> &out) {
    for (const Stmt *child : statementsOf(s)) {
      if (child == side)
        continue;
      const Stmt *inner = unwrapLoopWrappers(child);
      if ((isLoop(inner) || isa<CompoundStmt>(inner)) &&
          holds(inner, side)) {
        blank(inner, out);
        continue;
      }
      if (setsHeaderVar(inner))
        continue;
      // The declarations the statement or the loops' headers read.
      if (const auto *decl = dyn_cast<DeclStmt>(inner);
          decl && llvm::any_of(decl->decls(), [&](const Decl *d) {
            const auto *var = dyn_cast<VarDecl>(d);
            return headerVars.contains(var) || llvm::is_contained(needed, var);
          }))
        continue;
      CharSourceRange range = sm.getExpansionRange(
          SourceRange(child->getBeginLoc(), endOfStmt(child)));
      out.push_back({sm.getFileOffset(range.getBegin()),
                     sm.getFileOffset(Lexer::getLocForEndOfToken(
                         range.getEnd(), 0, sm, ctx.getLangOpts()))});
    }
  }
};

} // namespace

Span mlir::gemm::spanOf(const NestScope &scope, const Access &a) {
  Span out{a.basePtr, a.index.constant.str(), a.index.constant.str()};
  for (size_t d = 0; d < scope.loops.size(); ++d) {
    const SymExpr &coeff = a.index.ivCoeffs[d];
    if (coeff.isZero())
      continue;
    std::string s = parenthesize(coeff.str());
    std::string reach = "(long long)" + s + " * ((long long)" +
                        parenthesize(scope.loops[d].extent.str()) + " - 1)";
    std::optional<int64_t> sign = coeff.getConstant();
    if (!sign || *sign < 0)
      out.low += sign ? " + " + reach
                      : " + (" + s + " < 0 ? " + reach + " : 0)";
    if (!sign || *sign > 0)
      out.high += sign ? " + " + reach
                       : " + (" + s + " > 0 ? " + reach + " : 0)";
  }
  return out;
}

static std::string at(const Span &s, const std::string &offset) {
  return "(unsigned long long)(" + parenthesize(s.base) + " + (" + offset +
         "))";
}

std::string mlir::gemm::disjoint(const Span &x, const Span &y) {
  return at(x, x.high + " + 1") + " <= " + at(y, y.low) + " || " +
         at(y, y.high + " + 1") + " <= " + at(x, x.low);
}

std::optional<NestText> mlir::gemm::nestText(NestScope &scope,
                                             const std::string &what) {
  SourceManager &sm = scope.ctx.getSourceManager();
  const LangOptions &lang = scope.ctx.getLangOpts();
  const Stmt *outer = unwrapLoopWrappers(scope.outer);
  SourceLocation begin = outer->getBeginLoc(), end = endOfStmt(outer);
  if (begin.isMacroID() || end.isMacroID() || !sm.isWrittenInMainFile(begin))
    return scope.reject("the nest is written in a macro or an included "
                        "file, so no copy of it can run " + what);
  NestText out;
  out.from = sm.getFileOffset(begin);
  unsigned to =
      sm.getFileOffset(Lexer::getLocForEndOfToken(end, 0, sm, lang));
  out.text =
      sm.getBufferData(sm.getMainFileID()).slice(out.from, to).str();
  out.line = sm.getExpansionLineNumber(begin);
  // OpenACC directives make the file's rewrites build only without
  // OpenACC (OpenAcc.cpp), where a directive before a blanked loop is
  // ignored.
  if (!onlyOpenaccLines(out.text))
    return scope.reject("a preprocessor line stands inside the nest, "
                        "which a copy without the product could not keep");
  return out;
}

std::string NestText::with(
    ArrayRef<std::pair<unsigned, unsigned>> ranges,
    const std::function<std::string(size_t)> &replacement) const {
  std::string out;
  unsigned done = from;
  for (auto [n, range] : llvm::enumerate(ranges)) {
    out += text.substr(done - from, range.first - done) + replacement(n);
    done = range.second;
  }
  return out + text.substr(done - from);
}

std::vector<const Stmt *> mlir::gemm::sideCandidates(const Stmt *outer) {
  std::vector<const Stmt *> out;
  collectCandidates(outer, out);
  if (out.size() > 3)
    out.resize(3);
  return out;
}

std::optional<std::string>
mlir::gemm::splitOff(NestScope &scope, ArrayRef<const Access *> operands,
                     Nest &nest) {
  return Splitter(scope, operands, nest).run();
}
