// --seed, as every command that generates takes it.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>

namespace ncp::cli {

// A non-negative integer. CLI11 reads "-1" into an unsigned seed as 2⁶⁴ − 1 (and seed + i then
// wraps to 0): the sign is refused on the text, before the conversion.
inline CLI::Option* AddSeedOption(CLI::App* cmd, std::uint64_t& seed, const std::string& help) {
  const CLI::Validator non_negative(
      [](std::string& text) -> std::string {
        return text.find('-') == std::string::npos
                   ? ""
                   : "seed " + text + " is negative: must be an integer in [0, 2^64 - 1]";
      },
      "", "non-negative");
  return cmd->add_option("--seed", seed, help)->check(non_negative)->capture_default_str();
}

}  // namespace ncp::cli
