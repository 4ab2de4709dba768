// Replays the fuzz regression corpus (fuzz/corpus/<target>/) and the shipped sample files through
// the fuzz targets' entries: each input is read or refused with one line, never a crash (which
// would end this binary) nor an exception of another kind.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "fuzz/entries.h"

namespace ncp {
namespace {

namespace fs = std::filesystem;

std::vector<std::uint8_t> Bytes(const fs::path& path) {
  std::ifstream f(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

void Replay(const std::string& target, const fs::path& file) {
  const fuzz::Entry entry = fuzz::FindEntry(target);
  ASSERT_NE(entry, nullptr) << target;
  const std::vector<std::uint8_t> bytes = Bytes(file);
  SCOPED_TRACE(file.string());
  EXPECT_NO_THROW(entry(bytes.data(), bytes.size()));  // an ncp::Error is handled inside
}

TEST(FuzzCorpus, EveryRegressionInputIsReadOrRefusedInOneLine) {
  int replayed = 0;
  for (const char* target : {"dataset", "fclib", "results", "options"}) {
    const fs::path dir = fs::path(NCP_SOURCE_DIR) / "fuzz" / "corpus" / target;
    if (!fs::is_directory(dir)) continue;
    for (const fs::directory_entry& e : fs::directory_iterator(dir)) {
      if (!e.is_regular_file()) continue;
      Replay(target, e.path());
      ++replayed;
    }
  }
  EXPECT_GT(replayed, 0) << "the corpus folders are empty";
}

TEST(FuzzCorpus, ShippedSamplesAndTheirTruncationsReadOrRefuse) {
  for (const fs::directory_entry& e : fs::directory_iterator(NCP_FCLIB_DIR)) {
    if (e.path().extension() != ".hdf5") continue;
    Replay("fclib", e.path());
    // Truncated at a few places: the reader must refuse each in one line.
    const std::vector<std::uint8_t> bytes = Bytes(e.path());
    for (double cut : {0.0, 0.01, 0.5, 0.99}) {
      const std::size_t n = static_cast<std::size_t>(cut * bytes.size());
      EXPECT_NO_THROW(fuzz::Fclib(bytes.data(), n)) << e.path() << " cut at " << n;
    }
  }
}

TEST(FuzzCorpus, UnknownTargetIsNull) { EXPECT_EQ(fuzz::FindEntry("nope"), nullptr); }

}  // namespace
}  // namespace ncp
