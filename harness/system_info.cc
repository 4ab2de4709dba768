#include "harness/system_info.h"

#ifdef NCP_WITH_MUJOCO
#include <mujoco/mujoco.h>
#endif

#include <fmt/format.h>
#include <sched.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <string_view>
#include <utility>
#include <thread>

#include "build_revision.h"  // NCPBENCH_BUILD_REVISION, generated at build time
#include "common/error.h"
#include "harness/results_store.h"

#ifndef NCPBENCH_VERSION
#define NCPBENCH_VERSION "unknown"
#endif
#ifndef NCPBENCH_SOURCE_DIR  // builds of the readers alone (fuzz/) know no source tree
#define NCPBENCH_SOURCE_DIR ""
#endif

// Builds that record no peer version (the fuzz targets compile this file on its own).
#ifndef NCPBENCH_SICONOS_VERSION
#define NCPBENCH_SICONOS_VERSION ""
#endif
#ifndef NCPBENCH_BULLET_VERSION
#define NCPBENCH_BULLET_VERSION ""
#endif
#ifndef NCPBENCH_DART_VERSION
#define NCPBENCH_DART_VERSION ""
#endif

namespace ncp {
namespace {

std::string Trim(const std::string& s) {
  const auto begin = s.find_first_not_of(" \t\r\n");
  if (begin == std::string::npos) return "";
  const auto end = s.find_last_not_of(" \t\r\n");
  return s.substr(begin, end - begin + 1);
}

}  // namespace

std::uint64_t Fnv1a(std::string_view bytes, std::uint64_t h) {
  constexpr std::uint64_t kFnvPrime = 1099511628211ull;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= kFnvPrime;
  }
  return h;
}

std::string CpuModel() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) != 0) continue;
    const auto colon = line.find(':');
    if (colon != std::string::npos) return Trim(line.substr(colon + 1));
  }
  return "unknown";
}

std::string NowIso8601() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  std::array<char, 32> text;
  std::strftime(text.data(), text.size(), "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text.data();
}

int HostThreads() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0) return CPU_COUNT(&set);
  const unsigned n = std::thread::hardware_concurrency();
  return n > 0 ? static_cast<int>(n) : 1;
}

std::string OpenMpEnvironment() {
  std::string out;
  for (const char* name : {"OMP_WAIT_POLICY", "OMP_PROC_BIND", "OMP_PLACES", "OMP_DYNAMIC",
                           "GOMP_SPINCOUNT", "GOMP_CPU_AFFINITY"}) {
    const char* value = std::getenv(name);
    if (value && *value) out += fmt::format("{}{}={}", out.empty() ? "" : ", ", name, value);
  }
  return out.empty() ? "defaults" : out;
}

std::string HashHex(std::string_view bytes) {
  return fmt::format("{:016x}", Fnv1a(bytes, kFnvOffset));
}

std::string FileHash(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(fmt::format("cannot read '{}' to hash it", path));
  std::uint64_t h = kFnvOffset;
  std::array<char, 1 << 16> buffer;
  while (in.read(buffer.data(), buffer.size()) || in.gcount() > 0) {
    h = Fnv1a(std::string_view(buffer.data(), static_cast<std::size_t>(in.gcount())), h);
  }
  if (in.bad()) throw Error(fmt::format("read error while hashing '{}'", path));
  return fmt::format("{:016x}", h);
}

namespace {

// What built this binary: compiler, its vector instruction set and the peers compiled in (run
// attribute keys).
std::map<std::string, std::string> BuildVersions() {
  std::map<std::string, std::string> attrs = {{kRunAttrVersion, NCPBENCH_VERSION}};
#if defined(__clang__)
  attrs[kRunAttrVersionCompiler] =
      fmt::format("clang {}, {}", __clang_version__, VectorInstructionSet());
#elif defined(__GNUC__)
  attrs[kRunAttrVersionCompiler] = fmt::format("gcc {}, {}", __VERSION__, VectorInstructionSet());
#endif
#ifdef NCP_WITH_MUJOCO
  attrs[kRunAttrVersionMujoco] = mj_versionString();
#endif
  // The peers' Debian packages, as the build recorded them ("" or undefined: not built in).
  for (const auto& [key, version] : {std::pair{kRunAttrVersionSiconos, NCPBENCH_SICONOS_VERSION},
                                     std::pair{kRunAttrVersionBullet, NCPBENCH_BULLET_VERSION},
                                     std::pair{kRunAttrVersionDart, NCPBENCH_DART_VERSION}})
    if (std::string_view(version).size() > 0) attrs[key] = version;
  return attrs;
}

}  // namespace

std::map<std::string, std::string> HostRunAttrs(const std::string& source_dir) {
  std::map<std::string, std::string> attrs = BuildVersions();
  // The binary's revision: a run records the code that ran, whatever the checkout holds now.
  attrs[kRunAttrGitRevision] = source_dir.empty() ? "unknown" : NCPBENCH_BUILD_REVISION;
  attrs[kRunAttrDate] = NowIso8601();
  attrs[kRunAttrCpu] = CpuModel();
  attrs[kRunAttrHostThreads] = std::to_string(HostThreads());
  attrs[kRunAttrOpenMpEnv] = OpenMpEnvironment();
  return attrs;
}

const char* VectorInstructionSet() {
#if defined(__AVX512F__)
  return "SIMD AVX-512";
#elif defined(__AVX2__)
  return "SIMD AVX2";
#elif defined(__AVX__)
  return "SIMD AVX";
#else
  return "SIMD baseline";
#endif
}

std::string BuildRevision() {
  return std::string(NCPBENCH_SOURCE_DIR).empty() ? "unknown" : NCPBENCH_BUILD_REVISION;
}

std::string VersionLine() {
  const std::map<std::string, std::string> a = BuildVersions();
  // The revision of the source tree the binary was built from, as results files record it.
  std::string line =
      fmt::format("ncpbench {} (revision {})", a.at(kRunAttrVersion), BuildRevision());
  if (a.count(kRunAttrVersionCompiler)) line += ", " + a.at(kRunAttrVersionCompiler);
  if (a.count(kRunAttrVersionSiconos)) line += ", Siconos Numerics " + a.at(kRunAttrVersionSiconos);
  if (a.count(kRunAttrVersionMujoco)) line += ", MuJoCo " + a.at(kRunAttrVersionMujoco);
  if (a.count(kRunAttrVersionBullet)) line += ", Bullet " + a.at(kRunAttrVersionBullet);
  if (a.count(kRunAttrVersionDart)) line += ", DART " + a.at(kRunAttrVersionDart);
#ifdef NCPBENCH_HAVE_MPI
  line += ", MPI yes";
#else
  line += ", MPI no";
#endif
#ifdef NCPBENCH_HAVE_CUDA
  line += ", CUDA yes";
#else
  line += ", CUDA no";
#endif
  return line;
}

}  // namespace ncp
