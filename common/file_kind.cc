#include "common/file_kind.h"

#include <fmt/format.h>

#include <filesystem>

#include "common/error.h"

namespace ncp {

std::string NonRegularKind(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);  // through links: what the name stands for
  if (ec || !fs::exists(st) || fs::is_regular_file(st)) return "";
  return fs::is_directory(st)        ? "a folder"
         : fs::is_character_file(st) ? "a character device"
         : fs::is_block_file(st)     ? "a block device"
         : fs::is_fifo(st)           ? "a FIFO"
         : fs::is_socket(st)         ? "a socket"
                                     : "not a regular file";
}

void RefuseNulInPath(const std::string& path) {
  const std::size_t at = path.find('\0');
  if (at == std::string::npos) return;
  std::string shown = path;
  for (char& c : shown)
    if (c == '\0') c = '?';
  throw Error(
      fmt::format("'{}': a path with a NUL character (at byte {}) would name '{}', another "
                  "file: refused",
                  shown, at, path.substr(0, at)));
}

void RefuseNonRegularInput(const std::string& path) {
  RefuseNulInPath(path);
  const std::string kind = NonRegularKind(path);
  if (kind.empty()) return;
  if (kind == "a folder") throw Error(fmt::format("{}: cannot open: is a directory", path));
  throw Error(fmt::format(
      "{}: cannot open: is {}: inputs are read from regular files (a pipe or a device cannot be "
      "read twice); save it to a file first",
      path, kind));
}

}  // namespace ncp
