//===- SourceRewriter.cpp - Write the rewritten source --------------------===//
//
// Splices launcher calls into the original text rather than printing the AST,
// so comments, macros and formatting survive byte for byte.
//
//===----------------------------------------------------------------------===//

#include "gemm-opt/Frontend/SourceRewriter.h"
#include "IncludedText.h"
#include "gemm-opt/Dialect/Gemm/LauncherSignature.h"

#include "llvm/ADT/StringExtras.h"

#include "llvm/Support/raw_ostream.h"

#include <cctype>
#include <map>
#include <set>

using namespace mlir::gemm;

/// A non-type template parameter as the tag's value, as the template's
/// text names it (Nest::instance).
static std::string instanceValue(const std::string &spelling) {
  return "(long long)(" + spelling + ")";
}

std::string mlir::gemm::launcherCall(const Nest &nest) {
  auto binding = [&](llvm::StringRef name) -> const OperandBinding & {
    return name == "a" ? nest.a : name == "b" ? nest.b : name == "c" ? nest.c
                                                                      : *nest.bias;
  };
  llvm::SmallVector<std::string> args;
  std::vector<std::string> params = nest.activationParams();
  forEachLauncherParam(
      nest.c.sizes.size(), nest.bias.has_value(), params.size(),
      nest.scalarReads.size(),
      {nest.a.rows.has_value(), nest.b.rows.has_value(),
       nest.c.rows.has_value()},
      [&](const LauncherParam &param) {
        switch (param.kind) {
        case LauncherParam::Kind::Pointer:
          return args.push_back(binding(param.operand).ptr);
        case LauncherParam::Kind::Table: {
          // C converts `T **` to `const T *const *` only by a cast; C's own
          // table converts to `T *const *` as it is.
          const RowTableBinding &rows = *binding(param.operand).rows;
          if (rows.vectors || param.operand == "c")
            return args.push_back(rows.table);
          return args.push_back(std::string("(const ") +
                                (nest.isDouble ? "double" : "float") +
                                " *const *)(" + rows.table + ")");
        }
        case LauncherParam::Kind::RowOffset:
          return args.push_back(binding(param.operand).rows->offset);
        case LauncherParam::Kind::Size:
          return args.push_back(binding(param.operand).sizes[param.index]);
        case LauncherParam::Kind::Stride:
          return args.push_back(binding(param.operand).strides[param.index]);
        case LauncherParam::Kind::Alpha:
          return args.push_back(nest.alpha);
        case LauncherParam::Kind::Beta:
          return args.push_back(nest.beta);
        case LauncherParam::Kind::Param:
          return args.push_back(params[param.index]);
        case LauncherParam::Kind::Read:
          return args.push_back(nest.scalarReads[param.index].ptr);
        }
      });
  if (!nest.instance.empty()) {
    llvm::SmallVector<std::string> values;
    for (const auto &[spelling, value] : nest.instance)
      values.push_back(instanceValue(spelling));
    args.push_back(instanceTag.str() + "<" + llvm::join(values, ", ") +
                   ">()");
  }
  return nest.name + "(" + llvm::join(args, ", ") + ")";
}

std::string mlir::gemm::launchCondition(const Nest &nest) {
  std::string condition =
      nest.outsideParallel ? "!gemm_opt_in_parallel() && " : "";
  for (const std::string &precondition : nest.preconditions)
    condition += "(" + precondition + ") && ";
  for (const std::string &check : nest.sideChecks)
    condition += "(" + check + ") && ";
  return condition + launcherCall(nest);
}

std::string mlir::gemm::lineDirective(unsigned line, llvm::StringRef file) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "#line " << line << " \"";
  os.write_escaped(file);
  os << "\"\n";
  return text;
}

/// The start of the line that holds `offset`, and whether only blanks
/// precede `offset` on it.
static std::pair<size_t, bool> lineStartOf(llvm::StringRef source,
                                           size_t offset) {
  size_t start = source.rfind('\n', offset);
  start = start == llvm::StringRef::npos ? 0 : start + 1;
  return {start, source.slice(start, offset).trim().empty()};
}

/// The preprocessor directive a trimmed line holds (`if`, `endif`), or "".
static llvm::StringRef directiveOf(llvm::StringRef line) {
  if (!line.consume_front("#"))
    return "";
  line = line.ltrim();
  return line.take_while([](char c) { return std::isalpha(c); });
}

PragmaBlock mlir::gemm::pragmasAbove(llvm::StringRef source, size_t offset) {
  PragmaBlock block;
  auto [start, atLineStart] = lineStartOf(source, offset);
  block.top = offset;
  if (!atLineStart)
    return block;
  block.top = start;
  // Walking up: `depth` conditionals are open below the current line.
  int depth = 0;
  while (start > 0) {
    size_t prevStart = lineStartOf(source, start - 1).first;
    // A line continued by a backslash belongs to the line it continues.
    while (prevStart > 1 && source[prevStart - 2] == '\\')
      prevStart = lineStartOf(source, prevStart - 2).first;
    llvm::StringRef line = source.slice(prevStart, start).trim();
    llvm::StringRef directive = directiveOf(line);
    bool comment = line.starts_with("//") ||
                   (line.starts_with("/*") && line.ends_with("*/"));
    if (directive == "pragma") {
      block.pragmas.push_back(line);
      if (depth == 0)
        block.top = prevStart;
    } else if (directive == "endif") {
      ++depth;
    } else if (directive.starts_with("if") && depth > 0) {
      if (--depth == 0)
        block.top = prevStart;
    } else if (directive.starts_with("el") && depth > 0) {
      // Another branch of a conditional that is already open.
    } else if (!line.empty() && !comment) {
      break;
    }
    start = prevStart;
  }
  block.split = depth > 0 && !block.pragmas.empty();
  return block;
}

/// Where the guard goes: before the `for`, or before the pragmas above it,
/// which belong to the loop (pragmasAbove). Returns the offset and whether it
/// starts a line (only blanks before it).
static std::pair<size_t, bool> guardPosition(llvm::StringRef source,
                                             size_t forOffset) {
  auto [start, atLineStart] = lineStartOf(source, forOffset);
  if (!atLineStart)
    return {forOffset, false};
  PragmaBlock block = pragmasAbove(source, forOffset);
  return {block.pragmas.empty() ? start : block.top, true};
}

/// True if the next token after `offset` is `else`: the nest is the body of
/// an `if` with an else branch, which the guard's own `if` would capture.
static bool followedByElse(llvm::StringRef source, size_t offset) {
  llvm::StringRef rest = source.drop_front(offset);
  while (true) {
    rest = rest.ltrim();
    if (rest.consume_front("//"))
      rest = rest.drop_until([](char c) { return c == '\n'; });
    else if (rest.consume_front("/*"))
      rest = rest.split("*/").second;
    else
      break;
  }
  auto isIdentifierChar = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  };
  return rest.starts_with("else") &&
         (rest.size() == 4 || !isIdentifierChar(rest[4]));
}

/// The test that a template's instantiation is `nest`'s (Nest::instance).
static std::string instanceTest(const Nest &nest) {
  llvm::SmallVector<std::string> tests;
  for (const auto &[spelling, value] : nest.instance)
    tests.push_back(instanceValue(spelling) + " == " + std::to_string(value) +
                    "LL");
  return llvm::join(tests, " && ");
}

/// What the guard of the nests at one place tests: one nest's launch
/// condition, or the one that the instantiations of a template agree on;
/// else a choice made in each instantiation by the values of the template's
/// non-type parameters (C++17's `if constexpr`, whose discarded calls are
/// never instantiated). The front end leaves no two ways for one value.
static std::string guardCall(llvm::ArrayRef<Nest> nests) {
  const Nest &first = nests.front();
  std::string call = launchCondition(first);
  if (llvm::all_of(nests, [&](const Nest &n) {
        return launchCondition(n) == call;
      }))
    return first.preconditions.empty() && first.sideChecks.empty() &&
                   !first.outsideParallel
               ? call
               : "(" + call + ")";
  std::string choice = "([&]() -> bool { ";
  std::set<std::vector<std::pair<std::string, int64_t>>> seen;
  for (const Nest &n : nests) {
    if (!seen.insert(n.instance).second)
      continue;
    choice += "if constexpr (" + instanceTest(n) + ") return " +
              launchCondition(n) + "; else ";
  }
  return choice + "return false; }())";
}

/// Assertions of the values the nests were lifted with, for the start of
/// the guard's block: a build with other values stops here, at the nest's
/// line, not with wrong results from kernels specialised on the old ones.
/// A template's instantiation asserts its own values only.
static std::string assumptionChecks(llvm::ArrayRef<Nest> nests, bool isC) {
  std::string text;
  llvm::raw_string_ostream os(text);
  std::set<std::pair<std::string, int64_t>> seen;
  for (const Nest &nest : nests)
    for (const auto &[spelling, value] : nest.assumptions) {
      std::string only =
          nest.instance.empty() ? "" : "!(" + instanceTest(nest) + ") || ";
      if (!seen.insert({only + spelling, value}).second)
        continue;
      os << (isC ? " _Static_assert(" : " static_assert(") << only << "("
         << spelling << ") == " << value
         << ", \"gemm-opt lifted this nest with ";
      os.write_escaped(spelling);
      os << " == " << value << "; run gemm-opt again\");";
    }
  return text;
}

std::string mlir::gemm::rewriteSource(const FrontendResult &result,
                                      llvm::StringRef launchers) {
  // The runtime's test for an active OpenMP team (Nest::outsideParallel).
  bool team = llvm::any_of(result.nests, [](const Nest &nest) {
    return nest.outsideParallel;
  });
  bool madeRows = llvm::any_of(result.nests, [](const Nest &nest) {
    return llvm::any_of(std::initializer_list<const OperandBinding *>{
                            &nest.a, &nest.b, &nest.c},
                        [](const OperandBinding *operand) {
                          return operand->rows && operand->rows->made;
                        });
  });
  // Temporaries are malloc'ed (Nest::temporaryType).
  bool temporaries = llvm::any_of(result.nests, [](const Nest &nest) {
    return !nest.temporaryType.empty();
  });
  // Guarded: a rewritten header may be included beside another.
  std::string rowPointersDefinition =
      "#ifndef GEMM_OPT_ROW_POINTERS\n#define GEMM_OPT_ROW_POINTERS\n"
      "#include <iterator>\n#include <vector>\n"
      "template <class Rows> static auto " +
      rowPointers.str() +
      "(Rows &rows) {\n"
      "  std::vector<decltype(std::begin(rows[0]))> starts;\n"
      "  for (auto &row : rows)\n    starts.push_back(std::begin(row));\n"
      "  return starts;\n}\n#endif\n";
  return launchers.str() +
         (team ? "#ifdef __cplusplus\nextern \"C\"\n#endif\n"
                 "int gemm_opt_in_parallel(void);\n"
               : "") +
         (madeRows ? rowPointersDefinition : "") +
         (temporaries ? "#include <stdlib.h>\n" : "") +
         lineDirective(1, result.fileName) + guardNests(result, 0);
}

std::string mlir::gemm::guardNests(const FrontendResult &result,
                                   unsigned copy) {
  llvm::StringRef source =
      copy ? result.copies[copy - 1].text : result.source;
  llvm::StringRef fileName =
      copy ? result.copies[copy - 1].fileName : result.fileName;
  unsigned firstLine = copy ? result.copies[copy - 1].firstLine : 1;
  auto lineAt = [&](size_t offset) -> unsigned {
    return firstLine + source.take_front(offset).count('\n');
  };
  // The text between nests holds the included copies.
  auto original = [&](size_t from, size_t to) {
    return withCopies(result, copy, source.slice(from, to), from);
  };
  // Declarations go before the functions whose launcher calls need them
  // (Nest::declarations), each once, then the numbering goes on.
  std::map<size_t, std::string> declarations;
  std::set<std::string> declared;
  for (const Nest &nest : result.nests)
    if (nest.copy == copy)
      for (llvm::StringRef line : llvm::split(nest.declarations, '\n'))
        if (!line.empty() && declared.insert(line.str()).second)
          declarations[nest.declarationsOffset] += line.str() + "\n";
  auto between = [&](size_t from, size_t to) {
    std::string out;
    for (auto it = declarations.lower_bound(from);
         it != declarations.end() && it->first < to; ++it) {
      out += original(from, it->first) + "\n" + it->second +
             lineDirective(lineAt(it->first), fileName);
      from = it->first;
    }
    return out + original(from, to);
  };
  std::string out;
  size_t copied = 0;
  for (size_t n = 0; n < result.nests.size(); ++n) {
    const Nest &nest = result.nests[n];
    // A template's instantiations follow one another: one guard calls the
    // launcher their overloads share.
    if (nest.copy != copy || nest.beginOffset < copied)
      continue;
    auto [begin, atLineStart] = guardPosition(source, nest.beginOffset);
    out += between(copied, begin);
    unsigned number = lineAt(begin);
    std::string text = source.slice(begin, nest.endOffset).str();
    // A loop of a region that only shares out loops runs as written in a
    // region of its own (Nest::openmpRegion).
    const std::string &region = nest.openmpRegion;
    if (!region.empty())
      text = region + "\n{\n" + lineDirective(number, fileName) + text + "\n}";
    // The nest under `if (!launcher(...))`, or as written without a nest.
    // The nests of one place: a template's instantiations, or one nest.
    size_t last = n + 1;
    while (last < result.nests.size() &&
           result.nests[last].copy == copy &&
           result.nests[last].beginOffset == nest.beginOffset &&
           result.nests[last].versionChoices.empty())
      ++last;
    auto guarded = [&, begin = begin, atLineStart = atLineStart](
                       const Nest *nest, bool brace) {
      if (!nest)
        return text;
      llvm::ArrayRef<Nest> group =
          nest == &result.nests[n]
              ? llvm::ArrayRef(result.nests).slice(n, last - n)
              : llvm::ArrayRef(*nest);
      std::string condition = guardCall(group);
      std::string guard = (brace ? "{ if (!" : "if (!") + condition + ") {";
      // One thread of the team launches and tells the others
      // (TeamSingle.h); `single` ends in the barrier that the `for` had.
      if (nest->teamSingle)
        guard = std::string(brace ? "{ " : "") +
                "{ int gemm_opt_launched = 0;\n#pragma omp single "
                "copyprivate(gemm_opt_launched)\ngemm_opt_launched = " +
                condition + ";\nif (!gemm_opt_launched) {";
      std::string out;
      if (atLineStart) {
        // On lines of their own, indented like the nest, then back to the
        // original numbering.
        llvm::StringRef line = source.drop_front(begin);
        std::string indent =
            line.take_front(line.find_first_not_of(" \t")).str();
        out += indent + guard + "\n";
        // The checks on one line of their own that reads as the nest's.
        std::string checks = assumptionChecks(group, result.isC);
        if (!checks.empty())
          out +=
              lineDirective(number, fileName) + indent + " " + checks + "\n";
        out += lineDirective(number, fileName);
      } else {
        out += guard + assumptionChecks(group, result.isC) +
               (nest->teamSingle ? "\n" + lineDirective(number, fileName)
                                 : " ");
      }
      out += text + (nest->teamSingle ? " } }" : " }");
      // A statement split off runs after the launcher, in loops of its own
      // with the nest's lines; the lines after keep their numbers.
      if (!nest->sideText.empty())
        out += " else {\n" + lineDirective(nest->sideLine, fileName) +
               nest->sideText + "\n}\n" +
               lineDirective(lineAt(nest->endOffset), fileName);
      // A temporary lives in a block around the guard, until the nest's
      // copy has read it.
      if (!nest->temporaryType.empty()) {
        const std::string &type = nest->temporaryType;
        std::string name = temporaryName.str();
        out = "{ " + type + " *" + name + " = (" + type + " *)malloc(sizeof(" +
              type + ") * " + nest->temporarySize + "); " + out + " free(" +
              name + "); }";
      }
      return out + (brace ? " }" : "");
    };
    std::string piece;
    if (!nest.versionChoices.empty()) {
      // A nest versioned on branches and switches (Unswitch.cpp): each
      // condition is tested once, in nested tests, the first choice's
      // outermost; a combination that no version covers runs the original
      // loops.
      size_t end = n + 1;
      while (end < result.nests.size() && result.nests[end].copy == copy &&
             result.nests[end].beginOffset == nest.beginOffset)
        ++end;
      llvm::ArrayRef<Nest> versions =
          llvm::ArrayRef(result.nests).slice(n, end - n);
      auto arm = [&](const Nest *armNest) {
        return (atLineStart && armNest ? "" : lineDirective(number, fileName)) +
               guarded(armNest, false);
      };
      const std::vector<VersionChoice> &choices = nest.versionChoices;
      // The first version that takes the ways `ways` of the first choices.
      auto covering = [&](llvm::ArrayRef<size_t> ways) {
        return llvm::find_if(versions, [&](const Nest &version) {
          return llvm::ArrayRef(version.versionWays)
                     .take_front(ways.size())
                     .equals(ways);
        });
      };
      // The tests below the ways `ways` of the first choices.
      auto tests = [&](auto &self, std::vector<size_t> &ways) -> std::string {
        if (covering(ways) == versions.end())
          return arm(nullptr);
        if (ways.size() == choices.size())
          return arm(&*covering(ways));
        const VersionChoice &choice = choices[ways.size()];
        auto below = [&](size_t way) {
          ways.push_back(way);
          std::string text = self(self, ways);
          ways.pop_back();
          return text;
        };
        if (choice.cases.empty())
          return "if (" + choice.condition + ") {\n" + below(0) +
                 "\n} else {\n" + below(1) + " }";
        std::string text =
            "switch ((long long)(" + choice.condition + ")) {\n";
        std::string loopCases;
        for (auto [way, cases] : llvm::enumerate(choice.cases)) {
          std::vector<size_t> next = ways;
          next.push_back(way);
          if (covering(next) == versions.end())
            loopCases += cases;
          else
            text += cases + "{\n" + below(way) + "\n} break;\n";
        }
        if (!loopCases.empty())
          text += loopCases + "{\n" + arm(nullptr) + "\n}\n";
        return text + "}";
      };
      std::vector<size_t> ways;
      std::string tested = tests(tests, ways);
      // The loops evaluate the condition only once every extent is
      // positive (it may dereference what an empty nest never reads):
      // otherwise the original loops run.
      std::string extents;
      for (llvm::StringRef size : llvm::concat<const std::string>(
               nest.c.sizes, llvm::ArrayRef(nest.a.sizes).take_back()))
        extents += (extents.empty() ? "(" : " && (") + size.str() + ") > 0";
      piece = "{ if (!(" + extents + ")) {\n" + arm(nullptr) + "\n} else " +
              tested + " }";
    } else {
      // Braced where an `else` follows, so that it keeps its own `if`; after
      // a nest that ends a macro's text, the `else` is after the macro's
      // use (`if (x) BODY else ...`).
      const IncludedCopy *macro =
          copy && result.copies[copy - 1].macro ? &result.copies[copy - 1]
                                                : nullptr;
      bool elseFollows =
          followedByElse(source, nest.endOffset) ||
          (macro && source.drop_front(nest.endOffset).trim().empty() &&
           followedByElse(result.source, macro->lineEnd));
      piece = guarded(&nest, elseFollows);
    }
    // The region ends before the guard and opens again after it.
    if (!region.empty())
      piece = "}\n" + piece + "\n" + region + "\n{\n" +
              lineDirective(lineAt(nest.endOffset), fileName);
    // A build with OpenACC compiles the nest as written, the directives
    // above it still on its loop (Nest::openaccFile).
    if (nest.openaccFile)
      piece = std::string(atLineStart ? "" : "\n") + "#ifndef _OPENACC\n" +
              lineDirective(number, fileName) + piece + "\n#else\n" +
              lineDirective(number, fileName) +
              source.slice(begin, nest.endOffset).str() + "\n#endif\n" +
              lineDirective(lineAt(nest.endOffset), fileName);
    out += piece;
    copied = nest.endOffset;
  }
  return out + between(copied, source.size());
}
