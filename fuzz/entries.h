// What each fuzz target feeds its input to: the readers of the three file formats the suite
// accepts (ncpbench datasets, fclib files, results files) and the parsers of settings and
// options. Shared by the libFuzzer targets (fuzz/*_fuzz.cc, `make fuzz`) and the replay of the
// committed regression corpus in `make test` (tests/fuzz/fuzz_corpus_test.cc).
//
// Each entry returns normally when the input was read or refused with a one-line ncp::Error;
// anything else (a crash, a sanitizer report, another exception, a multi-line error) is a bug.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace ncp::fuzz {

// The file readers write the bytes to a temporary file first: libhdf5 and libfclib read paths.
void Dataset(const std::uint8_t* data, std::size_t size);
void Fclib(const std::uint8_t* data, std::size_t size);
void Results(const std::uint8_t* data, std::size_t size);
void Options(const std::uint8_t* data, std::size_t size);

// The entry by target name ("dataset", "fclib", "results", "options"); null when unknown.
using Entry = void (*)(const std::uint8_t*, std::size_t);
Entry FindEntry(const std::string& target);

}  // namespace ncp::fuzz
