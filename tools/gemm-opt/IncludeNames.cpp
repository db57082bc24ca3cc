//===- IncludeNames.cpp - Header names as GCC builds them -----------------===//

#include "IncludeNames.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace gemm_opt {
namespace {

class GccIncludeNames : public vfs::ProxyFileSystem {
public:
  GccIncludeNames() : ProxyFileSystem(vfs::getRealFileSystem()) {}

  ErrorOr<vfs::Status> status(const Twine &path) override {
    ErrorOr<vfs::Status> found = ProxyFileSystem::status(path);
    if (std::optional<std::string> joined = retry(path, found.getError()))
      return exposed(ProxyFileSystem::status(*joined));
    return found;
  }

  ErrorOr<std::unique_ptr<vfs::File>>
  openFileForRead(const Twine &path) override {
    ErrorOr<std::unique_ptr<vfs::File>> found =
        ProxyFileSystem::openFileForRead(path);
    if (std::optional<std::string> joined = retry(path, found.getError())) {
      found = ProxyFileSystem::openFileForRead(*joined);
      if (found)
        found = std::unique_ptr<vfs::File>(new Exposed(std::move(*found)));
    }
    return found;
  }

private:
  /// The file goes by its real name (in -MD's dependencies, in remarks), as
  /// a redirecting overlay's files do.
  static ErrorOr<vfs::Status> exposed(ErrorOr<vfs::Status> status) {
    if (status)
      status->ExposesExternalVFSPath = true;
    return status;
  }

  class Exposed : public vfs::File {
  public:
    explicit Exposed(std::unique_ptr<vfs::File> file) : file(std::move(file)) {}
    ErrorOr<vfs::Status> status() override { return exposed(file->status()); }
    ErrorOr<std::string> getName() override { return file->getName(); }
    ErrorOr<std::unique_ptr<MemoryBuffer>>
    getBuffer(const Twine &name, int64_t size, bool requiresNullTerminator,
              bool isVolatile) override {
      return file->getBuffer(name, size, requiresNullTerminator, isVolatile);
    }
    std::error_code close() override { return file->close(); }

  private:
    std::unique_ptr<vfs::File> file;
  };

  /// The name to try instead: a missing file whose name has spaces, without
  /// them. Other failures, and names without spaces, stand.
  static std::optional<std::string> retry(const Twine &path,
                                          std::error_code error) {
    if (error != std::errc::no_such_file_or_directory)
      return std::nullopt;
    SmallString<256> name;
    path.toVector(name);
    StringRef file = sys::path::filename(name);
    if (!file.contains(' '))
      return std::nullopt;
    std::string joined(sys::path::parent_path(name));
    if (!joined.empty())
      joined += sys::path::get_separator();
    llvm::copy_if(file, std::back_inserter(joined),
                  [](char c) { return c != ' '; });
    return joined;
  }
};

} // namespace

IntrusiveRefCntPtr<vfs::FileSystem> gccIncludeNames() {
  return makeIntrusiveRefCnt<GccIncludeNames>();
}

} // namespace gemm_opt
