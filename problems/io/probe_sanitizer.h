// What a sanitizer's report inside the probe's child (guarded_read.h) means. In a sanitized build
// (tests under `make sanitize`, the fuzzers) AddressSanitizer also watches libhdf5 through its
// interceptors: a libhdf5 memory error on a corrupt file (a use-after-free inside H5Aexists is
// seen) is the library's, and the file is corrupt; a report whose faulting frame is the suite's
// own code, or any UndefinedBehaviorSanitizer report, is a bug that the probe must not hide.
#pragma once

#include <string_view>

namespace ncp {

// True when the report's first frame outside the sanitizer runtime lies in a library the readers
// call (libhdf5, libfclib, zlib, szip): a fault of that library on a corrupt file.
bool SanitizerReportIsALibrarys(std::string_view report);

// In the probe's child (a no-op in an unsanitized build): a report on the suite's own code is
// written to `report_fd` and `on_own_error` is called before the child ends; a library's report
// is dropped and the child ends as after any other fault. Both runtimes of a gcc build (ASan's
// and UBSan's shared libraries) are watched.
void WatchSanitizerReports(int report_fd, void (*on_own_error)());

}  // namespace ncp
