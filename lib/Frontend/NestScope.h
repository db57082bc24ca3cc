//===- NestScope.h - What a candidate loop nest contains --------*- C++ -*-===//
//
// The front end reads a candidate nest in three steps. First a walk records
// the loops, the assignments and the local declarations (LoopNest.cpp); then
// the loops' shapes become dimensions with exact domains (LoopShape.cpp);
// then the recogniser matches the statements against the GEMM forms
// (Recognizer.cpp), asking the scope which expressions are loop-invariant
// and how accesses linearise (Access.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_OPT_LIB_FRONTEND_NESTSCOPE_H
#define GEMM_OPT_LIB_FRONTEND_NESTSCOPE_H

#include "SymExpr.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseSet.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace mlir::gemm {

/// A loop as the source writes it (parseLoop, LoopHeader.cpp): a `for`,
/// `while`, `do` or range-`for` whose integer induction variable moves by a
/// step each iteration and is tested against a bound.
struct SourceLoop {
  const clang::Stmt *stmt;
  const clang::VarDecl *iv;
  /// The value iv starts from; null where the loop continues from the value
  /// that the loop `follows` (the one just before it) left in iv.
  const clang::Expr *start;
  int follows;
  /// The test `lhs op bound`, turned so that lhs holds iv: BO_LT, BO_LE,
  /// BO_NE, BO_GT or BO_GE; lhs is null for iv itself (a range-`for`).
  const clang::Expr *lhs, *bound;
  clang::BinaryOperatorKind op;
  const clang::Expr *step; ///< What an iteration adds; null for 1.
  bool down;               ///< The step is subtracted.
  bool atLeastOnce;        ///< A `do` loop: the body runs before the test.
  /// The test steps iv down (`while (n--)`): it stops at its bound, the
  /// last value the body sees, without wrapping below it; a `while`'s body
  /// first sees the start less 1.
  bool steppedByTest;
  int parent;              ///< The enclosing source loop, or -1.
  /// The source loop that is the statement before this one in its block, or
  /// -1.
  int previous;
  /// The statements of the body, without the step at its end (a `while`).
  std::vector<const clang::Stmt *> body;
};

/// One dimension of the iteration space (LoopShape.cpp): its value v runs
/// over first + step * t for t in [0, extent), each value once. v is the
/// sum of the induction variables of its members of weight 1; a member of
/// weight 0 (a loop over tiles whose point loop holds the value) must not
/// be read.
struct Loop {
  const clang::VarDecl *iv; ///< The anchor's, for messages.
  int anchor; ///< The source loop that holds the dimension's statements.
  std::vector<std::pair<int, int>> members; ///< (source loop, weight)
  SymExpr first, step, extent;
};

/// An assignment in the nest: `lhs op rhs` inside the listed loops.
struct Write {
  const clang::Expr *lhs;
  const clang::Expr *rhs;
  clang::BinaryOperatorKind op; ///< BO_Assign, BO_AddAssign, ...
  std::vector<int> loops;       ///< Enclosing loops, outermost first.
  unsigned order;               ///< Position in program order.
  /// Loops over tiles that enclose it but not their point loop: it runs
  /// once per tile (source loops).
  std::vector<int> perTile;
  /// The statement of the source that holds it, for rejections.
  const clang::Stmt *statement = nullptr;
};

/// The reference BLAS's scaling of C ahead of the update, `if (beta == 0)
/// C = 0; else if (beta != 1) C *= beta;`: the indices in NestScope::writes
/// of its two writes (`scale` absent without the else branch) and beta.
struct BetaBranch {
  size_t zero;
  std::optional<size_t> scale;
  const clang::Expr *beta;
};

/// A scalar declared inside the nest.
struct LocalDef {
  const clang::VarDecl *var;
  std::vector<int> loops;
  unsigned order;
  std::vector<int> perTile; ///< As Write::perTile.
};

/// A memory access `base[...]` as a linear index into one strided buffer,
/// or into one row of a table of separately allocated rows (`A[i][k]` of
/// `float **A` or of a vector of vectors).
struct Access {
  const clang::Expr *expr;
  std::string root;    ///< The buffer or table as printed, for identity checks.
  /// Address of element 0, or of a table's row 0, valid before the nest.
  std::string basePtr;
  AffineForm index; ///< Within the row, for a table.
  clang::QualType elementType;
  /// For a table: the row's index in it (the `i` of `A[i][k]`).
  std::optional<AffineForm> rowIndex;
  bool vectorRows = false; ///< The table's rows are std::vectors.
  /// The table's rows are std::valarrays, passed as a table of their
  /// buffers that the call makes (SourceRewriter.h, rowPointers).
  bool madeRows = false;

  /// True if loop `l`'s induction variable moves the access.
  bool movesWith(size_t l) const {
    return !index.ivCoeffs[l].isZero() ||
           (rowIndex && !rowIndex->ivCoeffs[l].isZero());
  }
};

/// Why a nest was not rewritten. `peelable` marks failures of the outermost
/// loop alone (it is no GEMM dimension, or holds several nests), after which
/// the nests inside it are tried on their own.
struct Rejection {
  std::string reason;
  bool peelable = false;
  /// The statement of the nest (not a loop) that the reason is about, or
  /// null where it is no one statement's: the nests beside it are
  /// candidates of their own.
  const clang::Stmt *obstacle = nullptr;
};

/// A statement before a loop that gives its induction variable the value
/// it starts from (`int k = 0;` before `while (k < K)`).
struct LoopStart {
  const clang::Stmt *statement = nullptr;
  const clang::Expr *value = nullptr;
};

class NestScope {
public:
  NestScope(clang::ASTContext &ctx, const clang::Stmt *outer)
      : ctx(ctx), outer(outer) {}
  /// Puts back what the walk's normalisations changed in the AST for this
  /// recognition (PartialSums.cpp): the nest is tried again loop by loop.
  ~NestScope() {
    for (auto it = restore.rbegin(); it != restore.rend(); ++it)
      (*it)();
  }
  NestScope(const NestScope &) = delete;
  NestScope &operator=(const NestScope &) = delete;
  std::vector<std::function<void()>> restore;
  /// Puts `with` in `slot` until the scope ends.
  void replace(clang::Stmt **slot, clang::Stmt *with) {
    clang::Stmt *old = *slot;
    restore.push_back([slot, old] { *slot = old; });
    *slot = with;
  }
  /// Why a local array of the nest is no set of partial sums of one sum
  /// (PartialSums.cpp): the remark where the walk meets its declaration.
  llvm::DenseMap<const clang::VarDecl *, std::string> laneObstacles;

  clang::ASTContext &ctx;
  const clang::Stmt *outer;
  /// The function that holds the nest, or null.
  const clang::FunctionDecl *function = nullptr;
  /// The statement before the nest that starts its outermost loop (`int i =
  /// 0;` before `while (i < m)`), if any: it stays where it is, before the
  /// guard, and counts as part of the nest.
  LoopStart outerStart;
  /// A statement beside the product that the walk leaves out, to run after
  /// the launcher (SplitOff.cpp); null for the whole nest.
  const clang::Stmt *side = nullptr;
  /// The K loop of a product that goes through a temporary (Temporary.cpp):
  /// the walk reads it and the loops and blocks around it, and takes the
  /// declarations beside those for locals; null for the whole nest.
  const clang::Stmt *temporary = nullptr;
  /// The loops as written (walkNest), then the dimensions they make
  /// (shapeLoops): the loops of writes and locals are dimensions.
  std::vector<SourceLoop> sourceLoops;
  /// Loops that run a pointer to an end (PointerBounds.cpp), read once,
  /// before pointer walks remove the pointer's steps: each as a counted
  /// loop without its body, or why it is none.
  struct PointerCount {
    std::optional<SourceLoop> loop;
    std::string why;
  };
  llvm::DenseMap<const clang::Stmt *, PointerCount> pointerCounts;
  std::vector<Loop> loops;
  std::vector<Write> writes;
  std::vector<LocalDef> locals;
  std::vector<BetaBranch> betaBranches;
  /// The factors of `if (factor != 0)` skips around the update.
  std::vector<std::string> zeroSkips;
  llvm::DenseSet<const clang::VarDecl *> written; ///< IVs and scalar targets.
  /// Every element the nest writes is floating-point, so by C's aliasing
  /// rule no write changes an integer read through a pointer (`*n`, f2c's
  /// bounds): such reads are invariant. Set once the walk is complete.
  bool integerReadsInvariant = false;
  /// No scalar that the nest assigns can be reached through a pointer (each
  /// is declared in the nest, or is a local of the function whose address
  /// is never taken), so a floating-point read through a pointer (`*alpha`,
  /// f2c style) changes only if the nest's stores to C reach it: such reads
  /// are invariant, and recorded in scalarReads for the launcher to check
  /// at run time. Set once the walk is complete.
  bool floatReadsChecked = false;
  /// Else the scalar that a pointer may reach, for messages.
  const clang::VarDecl *reachableScalar = nullptr;
  /// The `*p` reads that isInvariant took for invariant under
  /// floatReadsChecked, each once.
  mutable std::vector<const clang::UnaryOperator *> scalarReads;
  std::optional<Rejection> rejection;
  /// The statement the walk (walkNest) stands on, for the rejection.
  const clang::Stmt *walking = nullptr;
  /// Values the nest was lifted with that the source spells as other than a
  /// literal (macros, enumerators, sizeof, array bounds): the spelling and
  /// the value. The rewrite asserts them, so a build with other -D values
  /// stops instead of computing with stale sizes.
  std::vector<std::pair<std::string, int64_t>> assumptions;
  /// Reads of integer temporaries that the nest assigns before each use
  /// (f2c's `i__2 = *m;`), with the value each reads, and those assignments,
  /// which are no statements of the nest (BoundTemporaries.cpp).
  llvm::DenseMap<const clang::DeclRefExpr *, const clang::Expr *> boundValues;
  /// Private members of the operands' classes that inlined accessors read:
  /// printed as reads through member pointers (PrivateMembers.h).
  std::vector<const clang::FieldDecl *> privateMembers;
  std::vector<const clang::Expr *> boundAssignments;
  /// How the nest reads the condition of each `switch` whose case the
  /// recognition assumes, at each place it runs (Unswitch.cpp).
  std::vector<std::pair<const clang::SwitchStmt *, const clang::Expr *>>
      switchReads;
  /// What the remark adds about forms folded on the way (a store branch on
  /// beta).
  std::vector<std::string> notes;
  /// Conditions, valid before the nest, under which the dimensions are the
  /// loops' exact iteration space (`n % 8 == 0` for tiles that are not
  /// clipped at n): the launcher runs only where they hold.
  std::vector<std::string> preconditions;
  /// How loops were grouped into dimensions, for the remark ("'i' runs
  /// within the tiles of 'ii'").
  std::vector<std::string> shapes;

  /// Records the first reason the nest cannot be rewritten; returns nullopt so
  /// callers can `return scope.reject(...)`.
  /// The obstacle is `at`, else the statement the walk stands on.
  std::nullopt_t reject(const std::string &reason, bool peelable = false,
                        const clang::Stmt *at = nullptr);
  bool failed() const { return rejection.has_value(); }

  /// The source loop of an induction variable (innermost active one), or -1.
  int ivIndex(const clang::VarDecl *var) const;
  const LocalDef *findLocal(const clang::VarDecl *var) const;
  /// The value of `var` where it is a pointer declared in the nest with a
  /// value that has no effect and nothing in the nest moves (`float *c =
  /// &C[i * ldc + j];`): a name for that address. Else null.
  const clang::Expr *fixedPointer(const clang::VarDecl *var) const;
  std::string print(const clang::Expr *e) const;

  /// True if `e` has the same value everywhere in the nest: no induction
  /// variables, no variables written or declared inside, no memory reads,
  /// no side effects.
  bool isInvariant(const clang::Expr *e) const;
  /// The first variable of `e` that makes it vary, for messages.
  const clang::VarDecl *findVaryingVar(const clang::Expr *e) const;
  /// What makes `var` (a findVaryingVar) vary, for messages: "the loop
  /// index 'b'", "'x', which is assigned inside the nest", ...
  std::string describeVarying(const clang::VarDecl *var) const;

  /// The initialiser that a local declared in the nest and never assigned
  /// stands for (forward substitution): a pointer's, or an integer's that
  /// the integer holds exactly; null otherwise.
  const clang::Expr *substitutableInit(const clang::VarDecl *var) const;
  /// The initialiser of `var` where it is an integer local of the function
  /// that nothing changes after it (no assignment, increment, address or
  /// reference): `PTR rowBytes = ld << 3;`. Where `exact`, also the
  /// variables it reads are never changed in the function and it reads no
  /// memory, so that it is the variable's value wherever it is read. Else
  /// null.
  const clang::Expr *fixedInit(const clang::VarDecl *var,
                               bool exact = false) const;
  /// How the source spells the constant `e` where that is not a literal
  /// (for `assumptions`), or nullopt.
  std::optional<std::string> spelledValue(const clang::Expr *e) const;
  /// The value of the constant integer expression `e`, its spelling noted
  /// in `assumptions`; nullopt where `e` is no constant.
  std::optional<int64_t> constantNoted(const clang::Expr *e);
  /// Whether the array variable or member `array` is declared with every
  /// bound a literal, so that its rows' sizes need no assertion.
  bool boundsSpelledAsLiterals(const clang::Expr *array) const;
  /// `e` as an affine function of the induction variables of the source
  /// loops, inside the `context` source loops where given.
  std::optional<AffineForm> linearize(const clang::Expr *e);
  std::optional<AffineForm> linearize(const clang::Expr *e,
                                      const std::vector<int> &context);
  /// A form over the source loops as one over the dimensions; rejects (for
  /// `e`, the expression it indexes) a form that reads a member of a
  /// dimension other than through the dimension's value.
  std::optional<AffineForm> project(const AffineForm &form,
                                    const clang::Expr *e);
  /// An invariant integer expression as a SymExpr.
  std::optional<SymExpr> symbolic(const clang::Expr *e);
  /// `e` as an element of a strided float/double buffer, for an access
  /// inside the `context` loops (sibling loops may share an induction
  /// variable).
  std::optional<Access> decomposeAccess(const clang::Expr *e,
                                        const std::vector<int> &context);
  /// `e` as decomposeAccess reads it, its indices over the source loops,
  /// for an access inside the sorted `around` source loops (the loops
  /// before they are shaped into dimensions).
  std::optional<Access> sourceAccess(const clang::Expr *e,
                                     const std::vector<int> &around);

private:
  /// Source loops around the expression being linearized; induction
  /// variables resolve to the innermost of them.
  const std::vector<int> *activeLoops = nullptr;
};

/// Strips parentheses, implicit casts and value-preserving explicit casts.
const clang::Expr *stripCasts(const clang::Expr *e);

/// The variable `e` names (through casts and parentheses), or null.
const clang::VarDecl *referencedVar(const clang::Expr *e);

/// True if `s` names `var`.
bool mentions(const clang::Stmt *s, const clang::VarDecl *var);
/// Whether an OpenMP directive in `s` names `var` (a clause may share or
/// reduce it).
bool namedByDirective(const clang::Stmt *s, const clang::VarDecl *var);

/// The first variable that `e` reads and `wanted` accepts, or null.
const clang::VarDecl *
findVar(const clang::Expr *e,
        llvm::function_ref<bool(const clang::VarDecl *)> wanted);

/// Whether `s` assigns `var`, bumps it or takes its address.
bool assigns(const clang::Stmt *s, const clang::VarDecl *var);

/// The container or array that `e` indexes, if it is an element access
/// (`c[i]`, or a standard container's `operator[]`), else null.
const clang::Expr *indexed(const clang::Expr *e);

/// The variable whose memory the access or address `e` names (`c` of
/// `c[i * ldc + j]`, `*(p + k)`, `&b[k]`, `m[i][j]`; `m` of `m.a[i]` and
/// `m->a[i]`), or null.
const clang::VarDecl *rootOf(const clang::Expr *e);

/// Whether `s` may write memory: an element of `root` where given, else
/// any; an element of an unknown root, or a call, may be anything.
bool writesMemory(const clang::Stmt *s, const clang::VarDecl *root = nullptr);

/// Whether a pointer may reach `var`: it is no local of the function whose
/// body is `body` (static, a reference, global), or `body` takes its
/// address (`&var`, a reference bound to it).
bool reachable(const clang::VarDecl *var, const clang::Stmt *body);
/// Whether no store of a floating-point value changes what `e` reads, by
/// C's aliasing rule: every object it reads is an integer (no character) or
/// a pointer, and it calls nothing.
bool keptByFloatStores(const clang::Expr *e);
/// Whether `s`, in the function whose body is `body`, stores only into
/// floating-point objects and into variables that no pointer reaches, and
/// calls nothing: then what keptByFloatStores accepts keeps its value.
bool storesOnlyFloats(const clang::Stmt *s, const clang::Stmt *body);

/// True if `e` is an integer or floating literal of the given value (`0`,
/// `1.0f`, `0.5`), through casts.
bool isLiteral(const clang::Expr *e, double value);
/// A floating-point literal zero of `type` (a real floating type) at `loc`.
clang::Expr *zeroOf(clang::ASTContext &ctx, clang::QualType type,
                    clang::SourceLocation loc);

/// Whether the integer type `type` holds every value of the integer type
/// `from`, so that a variable of it stands for an expression of `from`.
bool holdsEveryValue(const clang::ASTContext &ctx, clang::QualType type,
                     clang::QualType from);

/// The other side of `x op literal` (either order), or null.
const clang::Expr *comparedWith(const clang::Expr *cond,
                                clang::BinaryOperatorKind op, int literal);

/// True if `e` looks like a memory access (subscript or vector operator[]).
bool isMemoryAccess(const clang::Expr *e);

/// A call of fmaxf, fminf, fmax, fmin, fmaxl or fminl (C's or std::'s), or
/// of std::max or std::min with two arguments: pure, so a nest may hold it
/// (as an activation).
struct MinMaxCall {
  bool upper;      ///< A min.
  bool keepsFirst; ///< std::max/min: a NaN first argument is the result.
  const clang::Expr *lhs, *rhs;
};
std::optional<MinMaxCall> asMinMaxCall(const clang::Expr *e);

/// A call of a libm function of one argument that activations and their
/// constants use (tanh, exp, erf, sqrt; C's float, double and long double
/// names or std::'s): pure, so a nest may hold it.
struct MathCall {
  llvm::StringRef name; ///< "tanh", "exp", "erf" or "sqrt", whatever type.
  const clang::Expr *arg;
  const clang::CallExpr *call;
};
std::optional<MathCall> asMathCall(const clang::Expr *e);

/// Whether `type` is a standard container whose elements are one buffer
/// that operator[] indexes: std::vector, std::array, std::valarray or
/// std::span.
bool isStdContainer(clang::QualType type);

/// The statement an OpenMP directive, a loop attribute or a label that no
/// jump names (isJumpTarget) applies to, or `s`.
const clang::Stmt *unwrapLoopWrappers(const clang::Stmt *s);

/// Whether a jump may land on `s`: a `case` or `default`, or a label that a
/// `goto`, `&&label` or `asm goto` names. A label nothing names (HLS sources
/// name every loop) is no target: the statement runs as if unlabelled.
bool isJumpTarget(const clang::Stmt *s);

/// Where `s` ends in the source. Unlike getEndLoc(), this sees through the
/// OpenMP directives on inner loops, whose own range is the pragma line.
clang::SourceLocation endOfStmt(const clang::Stmt *s);

/// Whether `s` is or holds `e`.
bool holds(const clang::Stmt *s, const clang::Stmt *e);

/// Whether `s` is a loop: a `for`, `while`, `do` or range-`for`.
bool isLoop(const clang::Stmt *s);
/// Whether `s` is a range-`for` over the elements of a container, not over
/// integers (std::views::iota): no counted loop, so no candidate's loop.
bool overContainer(const clang::Stmt *s);
/// The body of the loop `s`.
const clang::Stmt *loopBody(const clang::Stmt *s);
/// The test of the `for`, `while` or `do` loop `s`, or null.
const clang::Expr *loopTest(const clang::Stmt *s);
/// The parts of a comma expression (`i++, p += ld`), in order; `e` alone
/// where it is none.
std::vector<clang::Expr *> commaParts(clang::Expr *e);

/// The local arrays that `statements`, one block, declares, with the index
/// of each declaration.
std::vector<std::pair<size_t, clang::VarDecl *>>
localArrays(llvm::ArrayRef<const clang::Stmt *> statements);

/// Where statements[n] of a block gives an integer variable the value that a
/// later loop of the block starts from (a `while`, a `do` or a `for`
/// without a start of its own that tests it, with no statement between
/// that names it): that loop and the value; else nulls.
std::pair<const clang::Stmt *, const clang::Expr *>
startOfLoop(llvm::ArrayRef<const clang::Stmt *> statements, size_t n);

/// The statement that gives the counter of `loop` (a `while`, a `do` or a
/// `for` without a start of its own) the value it starts from, and the
/// value, where that statement lies in a block of `enclosing` (the
/// statements around the loop, outermost first), ahead of the loop through
/// blocks and if-branches, and nothing between names the counter or
/// changes the value; else nulls.
LoopStart startAbove(llvm::ArrayRef<const clang::Stmt *> enclosing,
                     const clang::Stmt *loop);
/// The statement that gives a variable `wanted` accepts its value when
/// `loop` starts, and the value: the loop's init (a `for`'s), or a statement
/// ahead of it as startAbove finds one; else nulls.
LoopStart setAhead(llvm::ArrayRef<const clang::Stmt *> enclosing,
                   const clang::Stmt *loop,
                   llvm::function_ref<bool(const clang::VarDecl *)> wanted);

/// Walks the nest rooted at scope.outer, filling sourceLoops, writes and
/// locals (over source loops). Returns false (with scope.rejection set) on
/// statements no GEMM contains.
bool walkNest(NestScope &scope);

/// Turns the source loops into dimensions with exact domains (strip-mined
/// and tiled loops, unrolled loops with their remainders), filling
/// scope.loops and scope.preconditions, and maps the loops of writes and
/// locals to dimensions (LoopShape.cpp).
bool shapeLoops(NestScope &scope);

/// Whether the statements `copies`, in source loop `copyLoop`, are `count`
/// copies of `body`, in source loop `bodyLoop`, with the induction variable
/// moved on by 0, 1, ..., count - 1 (Unrolled.cpp): statement by statement,
/// or as one accumulation whose terms are the copies of the body's one
/// accumulation. Where `body` is `copies` itself (one compound
/// accumulation), its terms are copies of one of them, stored in `first`.
bool areCopies(NestScope &scope, llvm::ArrayRef<const clang::Stmt *> copies,
               int copyLoop, llvm::ArrayRef<const clang::Stmt *> body,
               int bodyLoop, int64_t count,
               const clang::Expr **first = nullptr);

} // namespace mlir::gemm

#endif // GEMM_OPT_LIB_FRONTEND_NESTSCOPE_H
