#include "common/file_write.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "common/error.h"
#include "common/file_kind.h"

namespace ncp {

void CreateParentFolders(const std::string& path) {
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  std::error_code ec;
  if (parent.empty() || std::filesystem::is_directory(parent, ec)) return;
  if (!std::filesystem::create_directories(parent, ec) || ec)
    throw Error(fmt::format("{}: cannot create the folder '{}': {}", path, parent.string(),
                            ec ? ec.message() : "a file of that name exists"));
}

void RemoveEntryAt(const std::string& path) {
  std::error_code ec;
  const std::filesystem::file_status st = std::filesystem::symlink_status(path, ec);
  if (!ec && std::filesystem::exists(st) && !std::filesystem::is_directory(st))
    std::filesystem::remove(path, ec);
}

void WriteNewFile(const std::string& path, std::string_view bytes) {
  if (path.empty()) throw Error("output path '': must name a file");
  CreateParentFolders(path);
  RemoveEntryAt(path);
  std::error_code ec;
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) throw Error(fmt::format("{}: cannot create: {}", path, std::strerror(errno)));
  auto fail = [&](int err) {
    close(fd);
    std::filesystem::remove(path, ec);
    throw Error(fmt::format("{}: write failed: {}; nothing written", path, std::strerror(err)));
  };
  for (std::size_t done = 0; done < bytes.size();) {
    const ssize_t n = write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail(n < 0 ? errno : ENOSPC);
    done += static_cast<std::size_t>(n);
  }
  if (fsync(fd) != 0 && errno != EINVAL && errno != EROFS) fail(errno);  // ENOSPC can come late
  if (close(fd) != 0) {
    const int err = errno;
    std::filesystem::remove(path, ec);
    throw Error(fmt::format("{}: write failed: {}; nothing written", path, std::strerror(err)));
  }
}

namespace {

// fsync, so that a rename never publishes a file whose bytes are not yet on disk.
void SyncFile(const std::string& path) {
  const int fd = open(path.c_str(), O_RDONLY | O_NOFOLLOW);
  if (fd < 0)
    throw Error(fmt::format("{}: cannot open it to sync it: {}", path, std::strerror(errno)));
  const int rc = fsync(fd);
  const int err = errno;
  close(fd);
  if (rc != 0 && err != EINVAL && err != EROFS)
    throw Error(fmt::format("{}: cannot sync it to disk: {}", path, std::strerror(err)));
}

// Best effort: some file systems do not sync directories.
void SyncDir(const std::filesystem::path& dir) {
  const int fd = open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY);
  if (fd < 0) return;
  fsync(fd);
  close(fd);
}

// The rename that replaces an output would put a plain file where a device, a FIFO or a folder
// was (/dev/null among them): such a target is refused before anything is written.
void RefuseNonRegularTarget(const std::string& path) {
  const std::string kind = NonRegularKind(path);
  if (kind.empty()) return;
  throw Error(fmt::format(
      "{}: is {}: an output replaces a regular file, and nothing else; write to a file path", path,
      kind));
}

}  // namespace

void ReplaceFile(const std::string& path,
                 const std::function<void(const std::string& tmp)>& write) {
  if (path.empty()) throw Error("output path '': must name a file");
  RefuseNonRegularTarget(path);
  static std::atomic<unsigned> counter{0};
  const std::string tmp = fmt::format("{}.tmp.{}.{}", path, static_cast<long>(getpid()), counter++);
  std::error_code ec;
  try {
    RemoveEntryAt(tmp);
    write(tmp);
    SyncFile(tmp);
  } catch (...) {
    std::filesystem::remove(tmp, ec);
    throw;
  }
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    const std::string why = ec.message();
    std::filesystem::remove(tmp, ec);
    throw Error(fmt::format("{}: cannot replace it with {}: {}", path, tmp, why));
  }
  SyncDir(std::filesystem::path(path).parent_path());
}

void WriteFileAtomically(const std::string& path, std::string_view bytes) {
  ReplaceFile(path, [&](const std::string& tmp) { WriteNewFile(tmp, bytes); });
}

}  // namespace ncp
