//===- IncludedText.cpp - Nests whose text is in an included file ---------===//
//
// A copy in place of the #include line is preprocessed where the original
// was, so the nests recognised in that inclusion (with the macros of that
// site: a body stamped out per type is one copy per #include) read the same
// there. What a copy cannot keep is the file's place on disk: its quoted
// includes are searched from the output's directory, and a `#pragma once`
// in the main file stops nothing.
//
//===----------------------------------------------------------------------===//

#include "IncludedText.h"
#include "gemm-opt/Frontend/SourceRewriter.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"

using namespace clang;
using namespace mlir::gemm;

namespace {

class IncludeLogger : public PPCallbacks {
public:
  explicit IncludeLogger(IncludeLog &log) : log(log) {}
  void InclusionDirective(SourceLocation, const Token &, StringRef, bool,
                          CharSourceRange, OptionalFileEntryRef file,
                          StringRef, StringRef, const Module *, bool,
                          SrcMgr::CharacteristicKind) override {
    if (file)
      ++log.directives[&file->getFileEntry()];
  }

private:
  IncludeLog &log;
};

/// The preprocessor directives of `text` that a copy elsewhere would read
/// differently: `#pragma once` lines, and #include lines that search the
/// including file's directory (quoted) or the directories after it
/// (`#include_next`).
struct PlaceBound {
  llvm::SmallVector<llvm::StringRef> once;
  bool quoted = false, next = false;
};

PlaceBound placeBound(llvm::StringRef text) {
  static const llvm::Regex once(
      "^([ \t]*#[ \t]*pragma[ \t]+once)([^A-Za-z0-9_]|$)");
  static const llvm::Regex include(
      "^[ \t]*#[ \t]*(include_next|include|import)[ \t]*(.)");
  PlaceBound bound;
  llvm::SmallVector<llvm::StringRef> lines;
  text.split(lines, '\n');
  for (llvm::StringRef line : lines) {
    llvm::SmallVector<llvm::StringRef> match;
    if (once.match(line, &match))
      bound.once.push_back(match[1]);
    else if (include.match(line, &match)) {
      bound.next |= match[1] == "include_next";
      bound.quoted |= match[2] == "\"";
    }
  }
  return bound;
}

/// The file's name for remarks and the output's #line directives: relative
/// to the main file as the command line names it, where it lies in the main
/// file's directory tree (so the output holds no absolute paths of this
/// machine).
std::string fileName(const SourceManager &sm, FileID file,
                     llvm::StringRef mainName) {
  llvm::StringRef name = sm.getFileEntryRefForID(file)->getName();
  llvm::StringRef mainDir = llvm::sys::path::parent_path(
      sm.getFileEntryRefForID(sm.getMainFileID())->getName());
  llvm::StringRef below = name;
  if (mainDir.empty() || !below.consume_front(mainDir) ||
      !below.consume_front("/"))
    return name.str();
  llvm::SmallString<128> path(llvm::sys::path::parent_path(mainName));
  llvm::sys::path::append(path, below);
  return std::string(path);
}

} // namespace

void mlir::gemm::logIncludes(Preprocessor &pp, IncludeLog &log) {
  pp.addPPCallbacks(std::make_unique<IncludeLogger>(log));
}

std::optional<std::string>
IncludedCopies::obstacle(SourceLocation begin, SourceLocation end) const {
  FileID file = sm.getFileID(sm.getExpansionLoc(begin));
  FileID main = sm.getMainFileID();
  std::string path = fileName(sm, file, result.fileName);
  std::string name = "'" + path + "'";
  if (sm.getFileID(sm.getExpansionLoc(end)) != file)
    return "its text starts in " + name + " and ends in another file";
  if (file == main)
    return std::nullopt;
  // How to get it rewritten where no copy can be made.
  std::string runOn = " (to rewrite it, run gemm-opt on that file itself: "
                      "gemm-opt -x " +
                      std::string(result.isC ? "c " : "c++ ") + path +
                      " -o " + llvm::sys::path::stem(path).str() +
                      ".cuh -- <flags>)";
  FileID site = sm.getFileID(sm.getExpansionLoc(sm.getIncludeLoc(file)));
  if (site != main)
    return "its text is in " + name + ", which '" +
           fileName(sm, site, result.fileName) +
           "' includes; gemm-opt rewrites the main file and the files that "
           "the main file itself includes" +
           runOn;
  PlaceBound bound = placeBound(sm.getBufferData(file));
  if (bound.next)
    return "its text is in " + name +
           ", which has an '#include_next'; a copy in the main file would "
           "search other directories" +
           runOn;
  OptionalFileEntryRef entry = sm.getFileEntryRefForID(file);
  if (bound.quoted &&
      &entry->getDir().getDirEntry() !=
          &sm.getFileEntryRefForID(main)->getDir().getDirEntry())
    return "its text is in " + name +
           ", which includes files with quotes from a directory other than "
           "the main file's; a copy in the main file would search the "
           "main file's directory for them" +
           runOn;
  if (!bound.once.empty() && log.directives.lookup(&entry->getFileEntry()) > 1)
    return "its text is in " + name +
           ", which has '#pragma once' and is included again; in a copy in "
           "the main file the pragma would not keep the file from being "
           "read twice" +
           runOn;
  return std::nullopt;
}

std::optional<std::string>
IncludedCopies::macroObstacle(SourceLocation begin, SourceLocation end) const {
  FileID expansion = sm.getFileID(begin);
  const SrcMgr::ExpansionInfo &info = sm.getSLocEntry(expansion).getExpansion();
  std::string name =
      "'" + Lexer::getImmediateMacroName(begin, sm, lang).str() + "'";
  if (info.isMacroArgExpansion())
    return "it is written as an argument of the macro " + name +
           ", which places it in the macro's text; only a macro's own text "
           "is copied to where it is used";
  if (!info.getExpansionLocStart().isFileID())
    return "it is written in the macro " + name +
           ", which the text of another macro uses; only a macro that the "
           "main file uses is copied there";
  if (sm.getFileID(info.getExpansionLocStart()) != sm.getMainFileID())
    return "it is written in the macro " + name + ", used in '" +
           fileName(sm, sm.getFileID(info.getExpansionLocStart()),
                    result.fileName) +
           "'; only the main file's uses of a macro are copied";
  CharSourceRange use = sm.getExpansionRange(begin);
  if (Lexer::getSourceText(use, sm, lang) != name.substr(1, name.size() - 2))
    return "it is written in the function-like macro " + name +
           ", whose text copied to its use would not have its arguments";
  // The end as the macro's text spells it (through a macro used there).
  while (end.isMacroID() && sm.getFileID(end) != expansion)
    end = sm.getImmediateExpansionRange(end).getEnd();
  if (sm.getFileID(end) != expansion)
    return "it starts in the text of the macro " + name + " and ends outside";
  llvm::StringRef text = macroText(expansion);
  if (text.contains("_Pragma"))
    return "the macro " + name +
           " holds a '_Pragma', which a parse without its flag (-fopenmp) "
           "drops, so what it asks of the nest is unknown";
  llvm::Regex word("(^|[^A-Za-z0-9_])" +
                                name.substr(1, name.size() - 2) +
                                "([^A-Za-z0-9_]|$)");
  if (word.match(text))
    return "the macro " + name +
           " names itself, which its text at its use would expand again";
  return std::nullopt;
}

llvm::StringRef IncludedCopies::macroText(FileID expansion) const {
  const SrcMgr::ExpansionInfo &info = sm.getSLocEntry(expansion).getExpansion();
  auto [file, start] = sm.getDecomposedLoc(info.getSpellingLoc());
  return sm.getBufferData(file).substr(start, sm.getFileIDSize(expansion));
}

IncludedCopy IncludedCopies::macroCopy(FileID expansion) const {
  const SrcMgr::ExpansionInfo &info = sm.getSLocEntry(expansion).getExpansion();
  auto [file, start] = sm.getDecomposedLoc(info.getSpellingLoc());
  IncludedCopy copy;
  copy.macro = true;
  copy.fileName = fileName(sm, file, result.fileName);
  copy.firstLine = sm.getLineNumber(file, start);
  copy.text = macroText(expansion).str();
  // A continuation's backslash, blanked, keeps every offset; the lines then
  // hold the guard's #line directives.
  for (size_t at = copy.text.find('\\'); at != std::string::npos;
       at = copy.text.find('\\', at + 1))
    if (llvm::StringRef(copy.text).drop_front(at + 1).ltrim(" \t\r")
            .starts_with("\n"))
      copy.text[at] = ' ';
  CharSourceRange use = sm.getExpansionRange(info.getExpansionLocStart());
  auto [main, offset] = sm.getDecomposedLoc(use.getBegin());
  copy.lineBegin = offset;
  copy.lineEnd = sm.getFileOffset(use.getEnd()) +
                 (use.isTokenRange()
                      ? Lexer::MeasureTokenLength(use.getEnd(), sm, lang)
                      : 0);
  copy.line = sm.getLineNumber(main, offset);
  return copy;
}

unsigned IncludedCopies::offsetInText(SourceLocation loc) const {
  if (loc.isFileID())
    return sm.getFileOffset(loc);
  // A token of a macro's text: its place in that text.
  const SrcMgr::ExpansionInfo &info =
      sm.getSLocEntry(sm.getFileID(loc)).getExpansion();
  return sm.getFileOffset(sm.getSpellingLoc(loc)) -
         sm.getFileOffset(info.getSpellingLoc());
}

unsigned IncludedCopies::copyFor(SourceLocation begin) {
  FileID file = begin.isMacroID() ? sm.getFileID(begin)
                                  : sm.getFileID(sm.getExpansionLoc(begin));
  if (file == sm.getMainFileID())
    return 0;
  auto [at, fresh] = made.try_emplace(file, result.copies.size() + 1);
  if (fresh)
    result.copies.push_back(begin.isMacroID() ? macroCopy(file)
                                              : includeCopy(file));
  return at->second;
}

IncludedCopy IncludedCopies::includeCopy(FileID file) const {
  IncludedCopy copy;
  copy.fileName = fileName(sm, file, result.fileName);
  llvm::StringRef text = sm.getBufferData(file);
  copy.text = text.str();
  // In the main file `#pragma once` means nothing (compilers warn); the
  // file is read only here (obstacle), so it can go.
  for (llvm::StringRef once : placeBound(text).once)
    std::fill_n(copy.text.begin() + (once.data() - text.data()), once.size(),
                ' ');
  auto [main, offset] =
      sm.getDecomposedLoc(sm.getExpansionLoc(sm.getIncludeLoc(file)));
  llvm::StringRef source = sm.getBufferData(main);
  size_t start = source.rfind('\n', offset);
  copy.lineBegin = start == llvm::StringRef::npos ? 0 : start + 1;
  size_t stop = source.find('\n', offset);
  copy.lineEnd = stop == llvm::StringRef::npos ? source.size() : stop + 1;
  copy.line = 1 + source.take_front(offset).count('\n');
  return copy;
}

std::string mlir::gemm::withCopies(const FrontendResult &result,
                                   llvm::StringRef text, size_t offset) {
  llvm::SmallVector<unsigned> inText;
  for (unsigned i = 0; i < result.copies.size(); ++i)
    if (result.copies[i].lineBegin >= offset &&
        result.copies[i].lineEnd <= offset + text.size())
      inText.push_back(i);
  llvm::sort(inText, [&](unsigned x, unsigned y) {
    return result.copies[x].lineBegin < result.copies[y].lineBegin;
  });
  std::string out;
  size_t copied = offset;
  for (unsigned i : inText) {
    const IncludedCopy &copy = result.copies[i];
    out += text.slice(copied - offset, copy.lineBegin - offset).str();
    llvm::StringRef replaced =
        text.slice(copy.lineBegin - offset, copy.lineEnd - offset).trim();
    // A macro's name is in the middle of a line: the rest of it follows
    // on a line of its own.
    out += (copy.macro ? "\n// gemm-opt: the macro " : "// gemm-opt: ") +
           replaced.str() + ", its text with its nests rewritten\n";
    out += lineDirective(copy.firstLine, copy.fileName);
    std::string body = guardNests(result, i + 1);
    if (!body.empty() && body.back() != '\n')
      body += '\n';
    out += body + lineDirective(copy.line + !copy.macro, result.fileName);
    copied = copy.lineEnd;
  }
  return out + text.drop_front(copied - offset).str();
}
