#include "problems/io/probe_sanitizer.h"

#include <unistd.h>

#include <array>
#include <cstring>
#include <string>

// Present only in sanitized builds (weak: null otherwise).
extern "C" void __sanitizer_set_death_callback(void (*callback)()) __attribute__((weak));
extern "C" void __asan_set_error_report_callback(void (*callback)(const char*))
    __attribute__((weak));

namespace ncp {
namespace {

int g_report_fd = -1;
void (*g_on_own_error)() = nullptr;
bool g_librarys = false;  // the last AddressSanitizer report was a library's

bool Contains(std::string_view s, std::string_view part) {
  return s.find(part) != std::string_view::npos;
}

}  // namespace

bool SanitizerReportIsALibrarys(std::string_view report) {
  // Frames of the runtime itself: an interceptor (memcpy called by libhdf5) is not the culprit.
  constexpr std::array<std::string_view, 6> kRuntime = {
      " in __interceptor_", " in __asan", " in __sanitizer", " in __ubsan", "/libasan.so",
      "/libubsan.so"};
  constexpr std::array<std::string_view, 5> kLibraries = {"/libhdf5", "/libfclib", "/libz.so",
                                                          "/libsz.so", "/libaec.so"};
  std::size_t at = 0;
  while (at < report.size()) {
    std::size_t end = report.find('\n', at);
    if (end == std::string_view::npos) end = report.size();
    const std::string_view line = report.substr(at, end - at);
    at = end + 1;
    const std::size_t first = line.find_first_not_of(' ');
    if (first == std::string_view::npos || line[first] != '#') continue;  // not a frame
    bool runtime = false;
    for (const std::string_view r : kRuntime) runtime = runtime || Contains(line, r);
    if (runtime) continue;
    for (const std::string_view lib : kLibraries) {
      if (Contains(line, lib)) return true;
    }
    return false;  // the first frame of the suite's code (or of another library)
  }
  return false;
}

void WatchSanitizerReports(int report_fd, void (*on_own_error)()) {
  if (__sanitizer_set_death_callback == nullptr) return;
  g_report_fd = report_fd;
  g_on_own_error = on_own_error;
  if (__asan_set_error_report_callback != nullptr) {
    __asan_set_error_report_callback([](const char* report) {
      g_librarys = SanitizerReportIsALibrarys(report);
      if (g_librarys || g_report_fd < 0) return;
      (void)!write(g_report_fd, report, std::strlen(report));
    });
  }
  // UndefinedBehaviorSanitizer reports only on instrumented code (the suite's): always its own.
  __sanitizer_set_death_callback([] {
    if (!g_librarys && g_on_own_error != nullptr) g_on_own_error();
  });
}

}  // namespace ncp
