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
  IncludeLogger(const SourceManager &sm, IncludeLog &log) : sm(sm), log(log) {}
  void InclusionDirective(SourceLocation hash, const Token &, StringRef spelled,
                          bool angled, CharSourceRange name,
                          OptionalFileEntryRef file, StringRef searchPath,
                          StringRef, const Module *, bool,
                          SrcMgr::CharacteristicKind) override {
    if (!file)
      return;
    ++log.directives[&file->getFileEntry()];
    OptionalFileEntryRef includer = sm.getFileEntryRefForID(sm.getFileID(hash));
    log.includes.push_back(
        {hash, name, spelled.str(),
         !angled && includer && searchPath == includer->getDir().getName()});
  }

private:
  const SourceManager &sm;
  IncludeLog &log;
};

/// The preprocessor directives of `text` that a copy elsewhere would read
/// differently: `#pragma once` lines, and `#include_next` (which searches
/// the directories after the including file's).
struct PlaceBound {
  llvm::SmallVector<llvm::StringRef> once;
  bool next = false;
};

PlaceBound placeBound(llvm::StringRef text) {
  static const llvm::Regex once(
      "^([ \t]*#[ \t]*pragma[ \t]+once)([^A-Za-z0-9_]|$)");
  static const llvm::Regex next("^[ \t]*#[ \t]*include_next");
  PlaceBound bound;
  llvm::SmallVector<llvm::StringRef> lines;
  text.split(lines, '\n');
  for (llvm::StringRef line : lines) {
    llvm::SmallVector<llvm::StringRef> match;
    if (once.match(line, &match))
      bound.once.push_back(match[1]);
    bound.next |= next.match(line);
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
  pp.addPPCallbacks(
      std::make_unique<IncludeLogger>(pp.getSourceManager(), log));
}

std::optional<std::string>
IncludedCopies::obstacle(SourceLocation begin, SourceLocation end) const {
  FileID file = sm.getFileID(sm.getExpansionLoc(begin));
  std::string name = "'" + fileName(sm, file, result.fileName) + "'";
  if (sm.getFileID(sm.getExpansionLoc(end)) != file)
    return "its text starts in " + name + " and ends in another file";
  // Each file from the nest's up to the main file is copied in place of
  // the #include line that read it.
  for (FileID at = file, below; at != sm.getMainFileID();
       below = at, at = includerOf(at))
    if (std::optional<std::string> why = copyObstacle(at, below))
      return "its text is in " + name +
             (at == file ? ", which "
                         : ", included by way of '" +
                               fileName(sm, at, result.fileName) +
                               "', which ") +
             *why;
  return std::nullopt;
}

const IncludeLog::Directive *IncludedCopies::directiveOf(FileID file) const {
  SourceLocation at = sm.getIncludeLoc(file);
  FileID includer = includerOf(file);
  for (const IncludeLog::Directive &include : log.includes)
    if (sm.getFileID(include.hash) == includer &&
        sm.getExpansionLineNumber(include.hash) ==
            sm.getExpansionLineNumber(at))
      return &include;
  return nullptr;
}

std::string IncludedCopies::spelledPath(FileID file) const {
  const IncludeLog::Directive *include =
      file == sm.getMainFileID() ? nullptr : directiveOf(file);
  if (!include)
    return "";
  if (!include->beside)
    return include->spelled;
  llvm::SmallString<128> path(
      llvm::sys::path::parent_path(spelledPath(includerOf(file))));
  llvm::sys::path::append(path, include->spelled);
  return std::string(path);
}

std::optional<std::string>
IncludedCopies::renamed(const IncludeLog::Directive &include) const {
  // The name as written in the directive, not through a macro.
  SourceLocation at = include.name.getBegin();
  if (!at.isFileID() || sm.getFileID(at) != sm.getFileID(include.hash) ||
      !Lexer::getSourceText(include.name, sm, lang).starts_with("\""))
    return std::nullopt;
  llvm::SmallString<128> path(llvm::sys::path::parent_path(
      spelledPath(sm.getFileID(include.hash))));
  llvm::sys::path::append(path, include.spelled);
  return std::string(path);
}

FileID IncludedCopies::includerOf(FileID file) const {
  return sm.getFileID(sm.getExpansionLoc(sm.getIncludeLoc(file)));
}

std::optional<std::string> IncludedCopies::copyObstacle(FileID file,
                                                         FileID below) const {
  std::string path = fileName(sm, file, result.fileName);
  // How to get it rewritten where no copy can be made.
  std::string runOn = " (to rewrite it, run gemm-opt on that file itself: "
                      "gemm-opt -x " +
                      std::string(result.isC ? "c " : "c++ ") + path +
                      " -o " + llvm::sys::path::stem(path).str() +
                      ".cuh -- <flags>)";
  PlaceBound bound = placeBound(sm.getBufferData(file));
  if (bound.next)
    return "has an '#include_next'; a copy in the main file would search "
           "other directories" +
           runOn;
  OptionalFileEntryRef entry = sm.getFileEntryRefForID(file);
  // A file found beside its includer is searched for beside the main file
  // once the includer is copied there: the copy names it by the path its
  // includer was found by (IncludedCopy::renamed), which a name that a
  // macro spells cannot be.
  bool besideMain =
      &entry->getDir().getDirEntry() ==
      &sm.getFileEntryRefForID(sm.getMainFileID())->getDir().getDirEntry();
  for (const IncludeLog::Directive &include : log.includes)
    if (include.beside && !besideMain &&
        sm.getFileID(include.hash) == file && !renamed(include) &&
        !(below.isValid() && directiveOf(below) == &include))
      return "includes '" + include.spelled +
             "' with quotes from its own directory, by a name that a macro "
             "spells, which a copy in the main file cannot rename" +
             runOn;
  if (!bound.once.empty() && log.directives.lookup(&entry->getFileEntry()) > 1)
    return "has '#pragma once' and is included again; in a copy in the main "
           "file the pragma would not keep the file from being read twice" +
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
  if (begin.isMacroID()) {
    FileID expansion = sm.getFileID(begin);
    auto [at, fresh] = made.try_emplace(expansion, result.copies.size() + 1);
    if (fresh)
      result.copies.push_back(macroCopy(expansion));
    return at->second;
  }
  return fileCopy(sm.getFileID(sm.getExpansionLoc(begin)));
}

unsigned IncludedCopies::fileCopy(FileID file) {
  if (file == sm.getMainFileID())
    return 0;
  if (unsigned made = this->made.lookup(file))
    return made;
  // The file that includes it first, so that its copy holds this one's.
  unsigned parent = fileCopy(includerOf(file));
  IncludedCopy copy = includeCopy(file);
  copy.parent = parent;
  result.copies.push_back(std::move(copy));
  return made[file] = result.copies.size();
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
  auto [includer, offset] =
      sm.getDecomposedLoc(sm.getExpansionLoc(sm.getIncludeLoc(file)));
  llvm::StringRef source = sm.getBufferData(includer);
  size_t start = source.rfind('\n', offset);
  copy.lineBegin = start == llvm::StringRef::npos ? 0 : start + 1;
  size_t stop = source.find('\n', offset);
  copy.lineEnd = stop == llvm::StringRef::npos ? source.size() : stop + 1;
  copy.line = 1 + source.take_front(offset).count('\n');
  for (const IncludeLog::Directive &include : log.includes)
    if (std::optional<std::string> name =
            include.beside && sm.getFileID(include.hash) == file
                ? renamed(include)
                : std::nullopt) {
      unsigned begin = sm.getFileOffset(include.name.getBegin());
      unsigned size = Lexer::getSourceText(include.name, sm, lang).size();
      copy.renamed.push_back({{begin, begin + size}, "\"" + *name + "\""});
    }
  return copy;
}

std::string mlir::gemm::withCopies(const FrontendResult &result,
                                   unsigned owner, llvm::StringRef text,
                                   size_t offset) {
  // What replaces a byte range of the text: a copy for its #include line
  // or its macro's name, a name for a quoted #include's.
  struct Edit {
    unsigned begin, end;
    std::string with;
  };
  std::vector<Edit> edits;
  const std::string &ownerName =
      owner ? result.copies[owner - 1].fileName : result.fileName;
  auto inText = [&](unsigned begin, unsigned end) {
    return begin >= offset && end <= offset + text.size();
  };
  for (unsigned i = 0; i < result.copies.size(); ++i) {
    const IncludedCopy &copy = result.copies[i];
    if (copy.parent != owner || !inText(copy.lineBegin, copy.lineEnd))
      continue;
    llvm::StringRef replaced =
        text.slice(copy.lineBegin - offset, copy.lineEnd - offset).trim();
    // A macro's name is in the middle of a line: the rest of it follows
    // on a line of its own.
    std::string with =
        (copy.macro ? "\n// gemm-opt: the macro " : "// gemm-opt: ") +
        replaced.str() + ", its text with its nests rewritten\n" +
        lineDirective(copy.firstLine, copy.fileName);
    std::string body = guardNests(result, i + 1);
    if (!body.empty() && body.back() != '\n')
      body += '\n';
    edits.push_back({copy.lineBegin, copy.lineEnd,
                     with + body +
                         lineDirective(copy.line + !copy.macro, ownerName)});
  }
  if (owner)
    for (const auto &[range, name] : result.copies[owner - 1].renamed)
      if (inText(range.first, range.second))
        edits.push_back({range.first, range.second, name});
  llvm::sort(edits,
             [](const Edit &x, const Edit &y) { return x.begin < y.begin; });
  std::string out;
  size_t copied = offset;
  for (const Edit &edit : edits) {
    // A name on a line that a copy replaces goes with the line.
    if (edit.begin < copied)
      continue;
    out += text.slice(copied - offset, edit.begin - offset).str() + edit.with;
    copied = edit.end;
  }
  return out + text.drop_front(copied - offset).str();
}
