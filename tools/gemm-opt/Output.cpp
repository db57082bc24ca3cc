//===- Output.cpp - Errors and output files of the driver -----------------===//

#include "Output.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace gemm_opt {

int driverError(const Twine &message) {
  WithColor::error(errs(), "gemm-opt") << message << "\n";
  return 1;
}

namespace {

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

} // namespace

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

std::string spelledFrom(StringRef includer, StringRef dir) {
  SmallString<128> from(includer);
  if (includer == "-" || sys::fs::make_absolute(from))
    return dir.str();
  sys::path::remove_dots(from, /*remove_dot_dot=*/true);
  sys::path::remove_filename(from);
  auto f = sys::path::begin(from), fe = sys::path::end(from);
  auto d = sys::path::begin(dir), de = sys::path::end(dir);
  for (; f != fe && d != de && *f == *d; ++f, ++d)
    ;
  SmallString<128> spelled;
  for (; f != fe; ++f)
    sys::path::append(spelled, "..");
  for (; d != de; ++d)
    sys::path::append(spelled, *d);
  return spelled.empty() ? "." : spelled.str().str();
}

int writeKernelFiles(const mlir::gemm::KernelFiles *files) {
  if (!files)
    return 0;
  if (std::error_code ec = sys::fs::create_directories(files->dir))
    return driverError("--kernel-dir: cannot make '" + files->dir +
                       "': " + ec.message());
  for (const auto &[name, text] : files->texts) {
    SmallString<128> path(files->dir);
    sys::path::append(path, name);
    ErrorOr<std::unique_ptr<MemoryBuffer>> old =
        MemoryBuffer::getFile(path, /*IsText=*/true);
    if (old && (*old)->getBuffer() == text)
      continue;
    if (int failed = writeOutput(path, text))
      return failed;
  }
  return 0;
}

} // namespace gemm_opt
