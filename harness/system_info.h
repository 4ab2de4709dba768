// Facts about the machine, the checkout and the inputs that a results file records next to its
// numbers, so that absolute times are read with the CPU they were measured on.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace ncp {

// The "model name" line of /proc/cpuinfo, or "unknown" where there is none.
std::string CpuModel();

// The current UTC time as "YYYY-MM-DDThh:mm:ssZ".
std::string NowIso8601();

// Hardware threads this process may run on (its CPU affinity mask), at least 1.
int HostThreads();

// The OpenMP settings of the environment that move threaded timings, as the runtime read them at
// start-up: "OMP_WAIT_POLICY=active, OMP_PROC_BIND=true", or "defaults" when none is set (a
// team's barriers and region starts cost several times more when waiting threads sleep).
std::string OpenMpEnvironment();

// 64-bit FNV-1a of `bytes`, continued from `h` (a hash of several pieces: each fed in turn).
inline constexpr std::uint64_t kFnvOffset = 14695981039346656037ull;
std::uint64_t Fnv1a(std::string_view bytes, std::uint64_t h = kFnvOffset);

// 64-bit FNV-1a of `bytes` as 16 lowercase hex digits: a cheap identity, not a secure hash.
std::string HashHex(std::string_view bytes);

// HashHex of a file's bytes, read in chunks. Throws ncp::Error when the file cannot be read.
std::string FileHash(const std::string& path);

// The run attributes that describe this host and build: version, git_revision, date, cpu,
// host_threads, openmp_env (keys as in results_store.h).
std::map<std::string, std::string> HostRunAttrs(const std::string& source_dir);

// The revision of the source tree this binary was built from ("unknown" outside a checkout).
std::string BuildRevision();

// `ncpbench --version`: the suite's version, its compiler, the peers built in, and whether MPI
// and CUDA were (scripts check the latter before using mpirun).
std::string VersionLine();
// The widest vector instruction set this build was compiled for (NCPBENCH_MARCH): "SIMD baseline",
// "SIMD AVX", "SIMD AVX2" or "SIMD AVX-512". Iterates of two builds that differ here may differ at
// rounding level; the version line and every results file name it with the compiler.
const char* VectorInstructionSet();

}  // namespace ncp
