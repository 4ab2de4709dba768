#include "harness/distribute/shard.h"

#include <charconv>
#include <cstdint>
#include <filesystem>
#include <fmt/format.h>

#include "common/error.h"
#include "harness/system_info.h"

namespace ncp {

bool Shard::Selects(const std::string& key) const {
  if (count <= 1) return true;
  const std::uint64_t h = std::stoull(HashHex(key), nullptr, 16);
  return static_cast<int>(h % static_cast<std::uint64_t>(count)) == index - 1;
}

std::string Shard::OutPath(const std::string& out) const {
  if (count <= 1) return out;
  const std::filesystem::path p(out);
  const std::string name =
      fmt::format("{}.shard-{}-of-{}{}", p.stem().string(), index, count, p.extension().string());
  return (p.parent_path() / name).string();
}

Shard ParseShard(const std::string& text) {
  const auto bad = [&](const char* rule) {
    return Error(fmt::format("--shard = '{}': {}", text, rule));
  };
  const std::size_t slash = text.find('/');
  if (slash == std::string::npos) throw bad("must be K/N, e.g. 2/8");
  Shard s;
  const auto parse = [&](std::string_view part, int& out) {
    const auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), out);
    if (ec == std::errc::result_out_of_range) throw bad("N must be in 1..100000, K in 1..N");
    if (ec != std::errc() || end != part.data() + part.size())
      throw bad("K and N must be integers");
  };
  parse(std::string_view(text).substr(0, slash), s.index);
  parse(std::string_view(text).substr(slash + 1), s.count);
  if (s.count < 1 || s.count > 100000) throw bad("N must be in 1..100000");
  if (s.index < 1 || s.index > s.count) throw bad("K must be in 1..N");
  return s;
}

}  // namespace ncp
