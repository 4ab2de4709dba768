#include "problems/io/file_write.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "common/error.h"

namespace ncp {

void RemoveEntryAt(const std::string& path) {
  std::error_code ec;
  const std::filesystem::file_status st = std::filesystem::symlink_status(path, ec);
  if (!ec && std::filesystem::exists(st) && !std::filesystem::is_directory(st))
    std::filesystem::remove(path, ec);
}

void WriteNewFile(const std::string& path, std::string_view bytes) {
  if (path.empty()) throw Error("output path '': must name a file");
  std::error_code ec;
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent, ec);
  RemoveEntryAt(path);
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

void WriteFileAtomically(const std::string& path, std::string_view bytes) {
  if (path.empty()) throw Error("output path '': must name a file");
  const std::string tmp = fmt::format("{}.tmp.{}", path, static_cast<long>(getpid()));
  WriteNewFile(tmp, bytes);
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    const std::string why = ec.message();
    std::filesystem::remove(tmp, ec);
    throw Error(fmt::format("{}: cannot replace it with {}: {}", path, tmp, why));
  }
}

}  // namespace ncp
