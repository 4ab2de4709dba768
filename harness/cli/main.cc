// ncpbench: generate or load frozen contact problems, run solvers under identical budgets,
// write results and reports. Bad input: one line on stderr, exit code 2.
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <functional>
#include <new>
#include <fmt/format.h>
#include <hdf5.h>
#include <string>

#include "common/error.h"
#include "common/file_write.h"
#include "harness/cli/commands.h"
#include "harness/distribute/cluster.h"
#include "harness/isolated_run.h"
#include "harness/system_info.h"

namespace {

// CLI11 says "Could not convert: --iters = 99999999999" and not what the option takes: the
// rule is added from the option's declared type (INT, FLOAT, ...), found by its name.
std::string ConversionMessage(const CLI::App& app, const std::string& what) {
  const std::string prefix = "Could not convert: ";
  const std::size_t eq = what.find(" = ");
  if (what.rfind(prefix, 0) != 0 || eq == std::string::npos) return what;
  const std::string name = what.substr(prefix.size(), eq - prefix.size());
  std::string type;
  for (const CLI::App* sub : app.get_subcommands()) {
    if (const CLI::Option* o = sub->get_option_no_throw(name)) type = o->get_type_name();
  }
  if (const CLI::Option* o = app.get_option_no_throw(name); type.empty() && o)
    type = o->get_type_name();
  std::string rule;
  if (type.rfind("INT", 0) == 0)
    rule = "must be a whole number from -2147483648 to 2147483647 (and within the option's range)";
  else if (type.rfind("UINT", 0) == 0)
    rule = "must be a whole number >= 0 small enough for the option";
  else if (type.rfind("FLOAT", 0) == 0)
    rule = "must be a number (e.g. 1e-8)";
  else
    return what.substr(prefix.size()) + ": could not be read as " +
           (type.empty() ? "the option's type" : type);
  return what.substr(prefix.size()) + ": " + rule;
}

// FNV-1a over the arguments after the program's name, each ended by a NUL.
std::uint64_t ArgumentsHash(int argc, char** argv) {
  std::uint64_t h = ncp::kFnvOffset;
  for (int i = 1; i < argc; ++i)
    h = ncp::Fnv1a(std::string_view(argv[i], std::strlen(argv[i]) + 1), h);
  return h;
}

// In an MPI job an error on one rank ends every rank: the others would wait for it forever.
// The other ranks name themselves: they usually repeat rank 0's line.
int Fail(int code, const char* kind, const char* what) {
  if (ncp::Cluster::leader() || !ncp::Cluster::active())
    std::fprintf(stderr, "ncpbench: %s: %s\n", kind, what);
  else
    std::fprintf(stderr, "ncpbench (rank %d): %s: %s\n", ncp::Cluster::rank(), kind, what);
  if (ncp::Cluster::active()) ncp::Cluster::Abort(code);
  return code;
}

}  // namespace

int main(int argc, char** argv) {
  // A file-size limit (ulimit -f) then fails the write (EFBIG) like a full disk does, which every
  // writer reports in one line, instead of killing the process mid-write.
  std::signal(SIGXFSZ, SIG_IGN);
  // A file whose write failed at its close (h5::CloseWritten reports it) stays open inside
  // libhdf5, and its exit-time cleanup crashes on it; every file is closed explicitly, so the
  // operating system's cleanup at exit is enough.
  H5dont_atexit();
  ncp::RemoveTemporariesOnSignals();  // Ctrl-C during a write leaves no partial temporary file
  try {
    ncp::Cluster::Init(&argc, &argv);
  } catch (const ncp::Error& e) {
    std::fprintf(stderr, "ncpbench: error: %s\n", e.what());
    return 2;
  }
  // Ranks given different commands (mpirun's A : B form) would wait on each other forever or
  // read each other's jobs out of range: every rank checks, before anything runs.
  if (ncp::Cluster::active() && !ncp::Cluster::SameOnEveryRank(ArgumentsHash(argc, argv))) {
    if (ncp::Cluster::leader())
      std::fprintf(stderr,
                   "ncpbench: error: mpirun: the ranks were given different arguments: every "
                   "rank must run the same command\n");
    ncp::Cluster::Finalize();
    return 2;
  }
  CLI::App app{"ncpbench: benchmark and comparison suite for multi-contact frictional contact"};
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all", "help for every command");
  app.set_version_flag("--version", std::function<std::string()>(ncp::VersionLine),
                       "print the version, compiler, peers, MPI and CUDA");
  ncp::cli::Action action;
  ncp::cli::AddList(app, action);
  ncp::cli::AddGenerate(app, action);
  ncp::cli::AddRun(app, action);
  ncp::cli::AddReport(app, action);
  ncp::cli::AddExport(app, action);
  ncp::cli::AddConvert(app, action);
  ncp::cli::AddInfo(app, action);
  ncp::cli::AddSimulate(app, action);
  ncp::cli::AddReproduce(app, action);
  ncp::cli::AddClaims(app, action);
  ncp::cli::AddProfile(app, action);
  ncp::cli::AddBaseline(app, action);
  ncp::cli::AddCompare(app, action);
  ncp::cli::AddSweep(app, action);
  ncp::cli::AddMerge(app, action);
  ncp::cli::AddPeaks(app, action);
  ncp::cli::AddIsolatedJob(app, action);
  // Peer solvers that may end their process run as `<this executable> isolated-job`.
  {
    std::error_code ec;
    const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (!ec) ncp::EnableIsolation(self.string());
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    const int rc = app.exit(e);
    ncp::Cluster::Finalize();
    return rc;
  } catch (const CLI::CallForVersion& e) {
    const int rc = app.exit(e);
    ncp::Cluster::Finalize();
    return rc;
  } catch (const CLI::CallForAllHelp& e) {
    const int rc = app.exit(e);
    ncp::Cluster::Finalize();
    return rc;
  } catch (const CLI::ConversionError& e) {
    return Fail(2, "error", ConversionMessage(app, e.what()).c_str());
  } catch (const CLI::ParseError& e) {
    return Fail(2, "error", e.what());
  }
  try {
    // The commands that share their jobs among MPI ranks; any other would run N times over.
    const std::string command = app.get_subcommands().front()->get_name();
    // Decided by the arguments, which every rank shares: one line, from rank 0.
    if (ncp::Cluster::active() && command != "run" && command != "sweep" && command != "profile" &&
        command != "baseline")
      throw ncp::EveryRankError(
          fmt::format("mpirun: `{}` runs in one process; under mpirun only run, "
                      "sweep, profile and baseline share their jobs among ranks",
                      command));
    const int rc = action();
    ncp::Cluster::Finalize();
    return rc;
  } catch (const ncp::EveryRankError& e) {
    if (ncp::Cluster::leader()) std::fprintf(stderr, "ncpbench: error: %s\n", e.what());
    ncp::Cluster::Finalize();
    return 2;
  } catch (const ncp::Error& e) {
    return Fail(2, "error", e.what());
  } catch (const std::bad_alloc&) {
    // Sizes within their bounds can still exceed this machine's memory (a scene of 10^5 pieces):
    // the command's inputs, not a defect, so exit 2 as for other inputs that cannot be run.
    return Fail(2, "error",
                fmt::format("{}: out of memory (std::bad_alloc): the problem sizes asked for do "
                            "not fit in this machine's memory; ask for smaller ones",
                            app.get_subcommands().front()->get_name())
                    .c_str());
  } catch (const std::exception& e) {
    return Fail(3, "internal error", e.what());
  } catch (...) {  // a plug-in's `throw 42` outside its solver's calls
    return Fail(3, "internal error", "an exception that is not a std::exception");
  }
}
