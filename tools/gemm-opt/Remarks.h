//===- Remarks.h - Which gemm remarks are printed ---------------*- C++ -*-===//
//
// -Rpass=, -Rpass-missed= and -Rpass-analysis= as in clang: each takes a
// regular expression that selects remarks of its kind by pass name ("gemm").
// With neither -Rpass nor -Rpass-missed, both kinds print, so every candidate
// nest is reported; analysis remarks (the schedules) print only when asked.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_OPT_TOOLS_REMARKS_H
#define GEMM_OPT_TOOLS_REMARKS_H

#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gemm_opt {

/// The kinds of remark to print.
struct RemarkSelection {
  bool pass = true, missed = true, analysis = false;
};

/// A gemm remark as the front end reported it, printed or not.
struct RemarkRecord {
  std::string file;
  unsigned line = 0, column = 0;
  std::string function; ///< That holds the nest, qualified, as written.
  bool rewritten = false; ///< -Rpass (else -Rpass-missed).
  std::string message; ///< Without the flag in brackets.
};

/// The selection that the flags' values make; a flag not given is nullopt.
/// Fails on a value that is not a regular expression.
llvm::Expected<RemarkSelection>
selectRemarks(std::optional<llvm::StringRef> pass,
              std::optional<llvm::StringRef> missed,
              std::optional<llvm::StringRef> analysis);

/// Wraps `factory` so that its actions print only the selected kinds of the
/// front end's remarks, and append every one to `log` if it is given; every
/// other diagnostic passes unchanged.
std::unique_ptr<clang::tooling::FrontendActionFactory>
filterRemarks(std::unique_ptr<clang::tooling::FrontendActionFactory> factory,
              RemarkSelection selection,
              std::vector<RemarkRecord> *log = nullptr);

} // namespace gemm_opt

#endif // GEMM_OPT_TOOLS_REMARKS_H
