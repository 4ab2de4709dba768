#include "harness/text_file.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "common/error.h"

namespace ncp {

void WriteTextFile(const std::string& path, const std::string& text) {
  if (path.empty()) throw Error("output path '': must name a file");
  const std::string tmp = fmt::format("{}.tmp.{}", path, static_cast<long>(getpid()));
  std::error_code ec;
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent, ec);
  std::filesystem::remove(tmp, ec);  // a stale one of this pid, or a link: the name itself
  const int fd = open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) throw Error(fmt::format("{}: cannot create {}: {}", path, tmp, std::strerror(errno)));
  auto fail = [&](const char* what, int err) {
    close(fd);
    std::filesystem::remove(tmp, ec);
    throw Error(fmt::format("{}: {}: {}; nothing written", path, what, std::strerror(err)));
  };
  for (std::size_t done = 0; done < text.size();) {
    const ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail("write failed", n < 0 ? errno : ENOSPC);
    done += static_cast<std::size_t>(n);
  }
  if (fsync(fd) != 0 && errno != EINVAL) fail("write failed", errno);  // ENOSPC can come late
  if (close(fd) != 0) {
    const int err = errno;
    std::filesystem::remove(tmp, ec);
    throw Error(fmt::format("{}: write failed: {}; nothing written", path, std::strerror(err)));
  }
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    const std::string why = ec.message();
    std::filesystem::remove(tmp, ec);
    throw Error(fmt::format("{}: cannot replace it with {}: {}", path, tmp, why));
  }
}

}  // namespace ncp
