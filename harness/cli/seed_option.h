// --seed, as every command that generates takes it.
#pragma once

#include <CLI/CLI.hpp>
#include <charconv>
#include <cstdint>
#include <string>

namespace ncp::cli {

// An integer in [0, 2⁶⁴ − 1], checked on the text before CLI11 converts it: CLI11 reads "-1"
// into an unsigned seed as 2⁶⁴ − 1 (and seed + i then wraps to 0) and 2⁶⁴ as 2⁶⁴ − 1.
inline CLI::Option* AddSeedOption(CLI::App* cmd, std::uint64_t& seed, const std::string& help) {
  const CLI::Validator in_range(
      [](std::string& text) -> std::string {
        std::uint64_t value = 0;
        const char* end = text.data() + text.size();
        const auto [ptr, ec] = std::from_chars(text.data(), end, value);
        if (ec == std::errc() && ptr == end) return "";
        const bool negative = text.find('-') != std::string::npos;
        return "seed " + text + (negative ? " is negative" : " is not such an integer") +
               ": must be an integer in [0, 2^64 - 1]";
      },
      "", "an integer in [0, 2^64 - 1]");
  return cmd->add_option("--seed", seed, help)->check(in_range)->capture_default_str();
}

}  // namespace ncp::cli
