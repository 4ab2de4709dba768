#include "fuzz/entries.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string_view>

#include "common/error.h"
#include "harness/distribute/shard.h"
#include "harness/results_store.h"
#include "problems/io/dataset_hdf5.h"
#include "problems/io/fclib_io.h"
#include "problems/io/guarded_read.h"
#include "solvers/settings.h"

namespace ncp::fuzz {
namespace {

// One file per process, rewritten for every input (in /dev/shm when there is one).
const std::string& ScratchPath() {
  static const std::string path = [] {
    const std::filesystem::path dir =
        std::filesystem::exists("/dev/shm") ? "/dev/shm" : std::filesystem::temp_directory_path();
    return (dir / ("ncpbench-fuzz-" + std::to_string(getpid()) + ".h5")).string();
  }();
  // Removed when the fuzzer ends by itself (probe children end with _exit and keep it).
  static const bool removed_at_exit = (std::atexit([] { std::remove(path.c_str()); }), true);
  (void)removed_at_exit;
  return path;
}

const std::string& WriteScratch(const std::uint8_t* data, std::size_t size) {
  // An input that loops inside libhdf5 is refused after 0.25 s instead of 3 s: a small input
  // reads in milliseconds under the sanitizers, and a looping one's mutations mostly loop too.
  static const bool short_probes = (SetProbeTimeBase(0.25), true);
  (void)short_probes;
  const std::string& path = ScratchPath();
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) std::abort();  // the harness, not the input, failed
  if (size > 0 && std::fwrite(data, 1, size, f) != size) std::abort();
  std::fclose(f);
  return path;
}

// A refusal must be one line: the contract of every reader.
void CheckOneLine(const Error& e) {
  if (std::strchr(e.what(), '\n') != nullptr) {
    std::fprintf(stderr, "multi-line error: %s\n", e.what());
    std::abort();
  }
}

template <typename Read>
void Guard(Read read) {
  try {
    read();
  } catch (const Error& e) {
    CheckOneLine(e);
  }
}

}  // namespace

void Dataset(const std::uint8_t* data, std::size_t size) {
  const std::string& path = WriteScratch(data, size);
  Guard([&] { ReadDataset(path); });
}

void Fclib(const std::uint8_t* data, std::size_t size) {
  const std::string& path = WriteScratch(data, size);
  Guard([&] { ReadFclib(path); });
}

void Results(const std::uint8_t* data, std::size_t size) {
  const std::string& path = WriteScratch(data, size);
  Guard([&] { ReadResultsFile(path); });
}

void Options(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  // Every kind of setting a solver declares: bounds open and closed, integers, choices.
  static const std::vector<SettingSpec> specs = {
      {.name = "omega", .default_value = 1.0, .min = 0.0, .max = 2.0, .min_open = true},
      {.name = "inner", .default_value = 10, .min = 1, .max = 1000, .integer = true},
      {.name = "step", .default_value = 0, .choices = {"power", "frobenius", "bb"}},
      {.name = "beta", .default_value = 1.0, .min = 1e-12, .max = 1e12}};
  Guard([&] { Settings::Parse("fuzz", specs, ParseKeyValues(text)).ToString(); });
  Guard([&] { ParseShard(text).OutPath("results.h5"); });
}

Entry FindEntry(const std::string& target) {
  if (target == "dataset") return &Dataset;
  if (target == "fclib") return &Fclib;
  if (target == "results") return &Results;
  if (target == "options") return &Options;
  return nullptr;
}

}  // namespace ncp::fuzz
