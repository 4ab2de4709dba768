#include "problems/io/probe_sanitizer.h"

#include <dlfcn.h>
#include <link.h>
#include <unistd.h>

#include <array>
#include <cstring>
#include <string>

// Present only in sanitized builds (weak: null otherwise).
extern "C" void __sanitizer_set_death_callback(void (*callback)()) __attribute__((weak));
extern "C" void __sanitizer_set_report_fd(void* fd) __attribute__((weak));
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

// A frame of a C library function the sanitizer intercepts, under its own name (clang's runtime,
// linked into the executable, names its interceptors so: "#0 … in strdup (fuzz_dataset+…)").
bool InterceptedLibcFrame(std::string_view line) {
  constexpr std::array<std::string_view, 16> kIntercepted = {
      "memcpy", "memmove", "memset", "memcmp",  "strdup", "strndup", "strlen",  "strnlen",
      "strcpy", "strncpy", "strcmp", "strncmp", "malloc", "calloc",  "realloc", "free"};
  const std::size_t in = line.find(" in ");
  if (in == std::string_view::npos) return false;
  const std::string_view rest = line.substr(in + 4);
  const std::string_view name = rest.substr(0, rest.find(' '));
  for (const std::string_view f : kIntercepted)
    if (name == f) return true;
  return false;
}

}  // namespace

bool SanitizerReportIsALibrarys(std::string_view report) {
  // Frames of the runtime itself: an interceptor (memcpy called by libhdf5) is not the culprit.
  constexpr std::array<std::string_view, 6> kRuntime = {" in __interceptor_", " in __asan",
                                                        " in __sanitizer",    " in __ubsan",
                                                        "/libasan.so",        "/libubsan.so"};
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
    bool runtime = InterceptedLibcFrame(line);
    for (const std::string_view r : kRuntime) runtime = runtime || Contains(line, r);
    if (runtime) continue;
    for (const std::string_view lib : kLibraries) {
      if (Contains(line, lib)) return true;
    }
    return false;  // the first frame of the suite's code (or of another library)
  }
  return false;
}

namespace {

using SetDeathCallback = void (*)(void (*)());
using SetReportFd = void (*)(void*);
using SetAsanReportCallback = void (*)(void (*)(const char*));

void OnAsanReport(const char* report) {
  g_librarys = SanitizerReportIsALibrarys(report);
  if (g_librarys || g_report_fd < 0) return;
  (void)!write(g_report_fd, report, std::strlen(report));
}

// UndefinedBehaviorSanitizer reports only on instrumented code (the suite's): always its own.
void OnDeath() {
  if (!g_librarys && g_on_own_error != nullptr) g_on_own_error();
}

// One sanitizer runtime's entry points (null where it has none).
void Watch(SetDeathCallback set_death, SetReportFd set_report_fd,
           SetAsanReportCallback set_asan_report) {
  if (set_death == nullptr) return;
  if (set_asan_report != nullptr) {
    set_asan_report(&OnAsanReport);  // ASan's reports: printed by OnAsanReport when the suite's
  } else if (set_report_fd != nullptr && g_report_fd >= 0) {
    // A runtime without ASan reports only on instrumented code: print all of it.
    set_report_fd(reinterpret_cast<void*>(static_cast<std::intptr_t>(g_report_fd)));
  }
  set_death(&OnDeath);
}

// gcc links UBSan as its own shared runtime (libubsan.so) beside ASan's: its reports end the
// process through its own copy of the death callback, which the symbols above (bound to
// libasan.so) do not reach.
int FindUbsanRuntime(dl_phdr_info* info, std::size_t, void* out) {
  const char* name = info->dlpi_name;
  if (name == nullptr || std::strstr(name, "/libubsan.so") == nullptr) return 0;
  *static_cast<std::string*>(out) = name;
  return 1;
}

}  // namespace

void WatchSanitizerReports(int report_fd, void (*on_own_error)()) {
  g_report_fd = report_fd;
  g_on_own_error = on_own_error;
  // The runtime linked into the executable (clang) or the first shared one (gcc's libasan.so).
  Watch(__sanitizer_set_death_callback, __sanitizer_set_report_fd,
        __asan_set_error_report_callback);
  std::string ubsan;
  dl_iterate_phdr(&FindUbsanRuntime, &ubsan);
  if (ubsan.empty()) return;
  void* handle = dlopen(ubsan.c_str(), RTLD_NOLOAD | RTLD_LAZY);
  if (handle == nullptr) return;
  Watch(reinterpret_cast<SetDeathCallback>(dlsym(handle, "__sanitizer_set_death_callback")),
        reinterpret_cast<SetReportFd>(dlsym(handle, "__sanitizer_set_report_fd")), nullptr);
}

}  // namespace ncp
