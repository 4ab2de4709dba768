#include "harness/machine_peaks.h"

#include <omp.h>
#include <unistd.h>

#include <Eigen/Dense>
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cmath>
#include <fstream>
#include <memory>
#include <vector>

#include <fmt/format.h>

#include "common/error.h"
#include "common/file_write.h"
#include "common/parse_number.h"
#include "harness/system_info.h"

namespace ncp {

namespace {

using Clock = std::chrono::steady_clock;

double Seconds(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

double LastLevelCacheBytes() {
  long bytes = sysconf(_SC_LEVEL3_CACHE_SIZE);
  if (bytes <= 0) bytes = sysconf(_SC_LEVEL2_CACHE_SIZE);
  return bytes > 0 ? static_cast<double>(bytes) : 32.0 * (1 << 20);
}

double DefaultArrayBytes() {
  const double memory =
      static_cast<double>(sysconf(_SC_PHYS_PAGES)) * static_cast<double>(sysconf(_SC_PAGE_SIZE));
  double bytes = std::max(4.0 * LastLevelCacheBytes(), 64.0 * (1 << 20));
  if (memory > 0) bytes = std::min(bytes, memory / 8.0);
  return bytes;
}

// STREAM triad a = b + s c on `threads` threads, best of the passes after a first one; the
// arrays are first touched by the threads that use them (pages land near them).
double TriadGbs(std::size_t n, int threads) {
  std::unique_ptr<double[]> a(new double[n]), b(new double[n]), c(new double[n]);
  double* pa = a.get();
  double* pb = b.get();
  double* pc = c.get();
  const long len = static_cast<long>(n);
#pragma omp parallel for num_threads(threads) schedule(static)
  for (long i = 0; i < len; ++i) pa[i] = 0.0, pb[i] = 1.0, pc[i] = 2.0;
  double best = 0.0;
  for (int pass = 0; pass < 6; ++pass) {
    const auto t0 = Clock::now();
#pragma omp parallel for num_threads(threads) schedule(static)
    for (long i = 0; i < len; ++i) pa[i] = pb[i] + 3.0 * pc[i];
    const double s = Seconds(t0, Clock::now());
    if (pass > 0 && s > 0) best = std::max(best, 24.0 * static_cast<double>(n) / s * 1e-9);
  }
  if (!(pa[len / 2] == 7.0)) throw Error("peaks: the triad computed a wrong value");
  return best;
}

// A dense product C = A B of n × n matrices on `threads` threads (Eigen's blocked kernel), best
// of three.
double GemmGflops(int n, int threads) {
  const int saved = Eigen::nbThreads();
  Eigen::setNbThreads(threads);
  const Eigen::MatrixXd A = Eigen::MatrixXd::Constant(n, n, 0.5);
  const Eigen::MatrixXd B = Eigen::MatrixXd::Constant(n, n, 0.25);
  Eigen::MatrixXd C(n, n);
  double best = 0.0;
  for (int pass = 0; pass < 4; ++pass) {
    const auto t0 = Clock::now();
    C.noalias() = A * B;
    const double s = Seconds(t0, Clock::now());
    if (pass > 0 && s > 0) best = std::max(best, 2.0 * n * n * static_cast<double>(n) / s * 1e-9);
  }
  Eigen::setNbThreads(saved);
  if (!(C(n / 2, n / 3) == 0.125 * n)) throw Error("peaks: the product computed a wrong value");
  return best;
}

std::string Format(double x) { return fmt::format("{:.6g}", x); }

}  // namespace

MachinePeaks MeasurePeaks(double array_bytes) {
  if (array_bytes <= 0) array_bytes = DefaultArrayBytes();
  const std::size_t n = std::max<std::size_t>(1024, static_cast<std::size_t>(array_bytes / 24.0));
  MachinePeaks p;
  p.threads = HostThreads();
  p.array_bytes = 24.0 * static_cast<double>(n);
  p.bandwidth_gbs_1 = TriadGbs(n, 1);
  p.bandwidth_gbs = TriadGbs(n, p.threads);
  p.gflops_1 = GemmGflops(768, 1);
  p.gflops = GemmGflops(768, p.threads);
  p.measured = NowIso8601();
  return p;
}

std::string PeaksCachePath() {
  std::string dir;
  if (const char* d = std::getenv("NCPBENCH_CACHE_DIR"); d && *d) {
    dir = d;
  } else if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) {
    dir = std::string(x) + "/ncpbench";
  } else if (const char* h = std::getenv("HOME"); h && *h) {
    dir = std::string(h) + "/.cache/ncpbench";
  } else {
    return "";
  }
  return fmt::format("{}/peaks-{}.txt", dir,
                     HashHex(CpuModel() + "|" + std::to_string(HostThreads())));
}

namespace {

// The peaks from key=value pairs (a cache file's lines, a results file's attributes): the
// numbers positive and finite; `where` names the source in errors.
MachinePeaks PeaksFrom(const std::string& where, const std::map<std::string, std::string>& kv) {
  auto number = [&](const char* key) {
    double v = 0.0;
    const auto it = kv.find(key);
    if (it == kv.end() || !ParseDecimal(it->second, &v) || !(v > 0))
      throw Error(
          fmt::format("{}: {} = '{}': must be a positive number (run `ncpbench peaks "
                      "--remeasure`)",
                      where, key, it == kv.end() ? "" : it->second.substr(0, 80)));
    return v;
  };
  MachinePeaks p;
  p.bandwidth_gbs_1 = number(kRunAttrPeakBandwidth1);
  p.bandwidth_gbs = number(kRunAttrPeakBandwidth);
  p.gflops_1 = number(kRunAttrPeakFlops1);
  p.gflops = number(kRunAttrPeakFlops);
  const double threads = number(kRunAttrPeakThreads);
  if (threads != std::floor(threads) || threads > 1 << 20)
    throw Error(
        fmt::format("{}: {} = '{}': must be a whole number of threads in [1, 2^20] (run "
                    "`ncpbench peaks --remeasure`)",
                    where, kRunAttrPeakThreads, kv.at(kRunAttrPeakThreads)));
  p.threads = static_cast<int>(threads);
  if (const auto it = kv.find("array_bytes"); it != kv.end()) p.array_bytes = number("array_bytes");
  if (const auto it = kv.find(kRunAttrPeaksMeasured); it != kv.end()) p.measured = it->second;
  return p;
}

}  // namespace

std::optional<MachinePeaks> CachedPeaks() {
  const std::string path = PeaksCachePath();
  if (path.empty()) return std::nullopt;
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::map<std::string, std::string> kv;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.empty() || line[0] == '#') continue;
    const auto eq = line.find('=');
    if (eq == std::string::npos)
      throw Error(fmt::format("{}: line {} '{}{}': must be key=value", path, number,
                              line.substr(0, 80), line.size() > 80 ? "..." : ""));
    kv[line.substr(0, eq)] = line.substr(eq + 1);
  }
  return PeaksFrom(path, kv);
}

void StorePeaks(const MachinePeaks& p) {
  const std::string path = PeaksCachePath();
  if (path.empty())
    throw Error("peaks: no cache folder (set NCPBENCH_CACHE_DIR, XDG_CACHE_HOME or HOME)");
  CreateParentFolders(path);
  WriteFileAtomically(
      path,
      fmt::format("# ncpbench peaks of {} ({} threads)\n{}={}\n{}={}\n{}={}\n{}={}\n{}={}\n"
                  "array_bytes={}\n{}={}\n",
                  CpuModel(), p.threads, kRunAttrPeakBandwidth1, Format(p.bandwidth_gbs_1),
                  kRunAttrPeakBandwidth, Format(p.bandwidth_gbs), kRunAttrPeakFlops1,
                  Format(p.gflops_1), kRunAttrPeakFlops, Format(p.gflops), kRunAttrPeakThreads,
                  p.threads, Format(p.array_bytes), kRunAttrPeaksMeasured, p.measured));
}

void AddPeakAttrs(std::map<std::string, std::string>& attrs) {
  std::optional<MachinePeaks> p;
  try {
    p = CachedPeaks();
  } catch (const Error&) {
    return;  // a corrupt cache costs the report its fractions, not the run
  }
  if (!p) return;
  attrs[kRunAttrPeakBandwidth1] = Format(p->bandwidth_gbs_1);
  attrs[kRunAttrPeakBandwidth] = Format(p->bandwidth_gbs);
  attrs[kRunAttrPeakFlops1] = Format(p->gflops_1);
  attrs[kRunAttrPeakFlops] = Format(p->gflops);
  attrs[kRunAttrPeakThreads] = std::to_string(p->threads);
  attrs[kRunAttrPeaksMeasured] = p->measured;
}

std::optional<MachinePeaks> PeaksFromAttrs(const std::map<std::string, std::string>& attrs,
                                           std::string* why) {
  if (!attrs.count(kRunAttrPeakBandwidth)) return std::nullopt;
  try {
    return PeaksFrom("results file attributes", attrs);
  } catch (const Error& e) {
    if (why) *why = e.what();
    return std::nullopt;  // a file with broken peak attributes is read without fractions
  }
}

}  // namespace ncp
