#include "harness/reproduce/plot_script.h"

#include <fcntl.h>
#include <spawn.h>
#include <unistd.h>

#include <cerrno>

#include <fmt/format.h>

#include "common/wait_pid.h"

extern char** environ;

namespace ncp {
namespace {
namespace plot_script {

constexpr const char* kPython = "/usr/bin/python3";

// Reads the child's standard output to its end (EINTR retried).
std::string ReadAll(int fd) {
  std::string out;
  char buf[4096];
  for (;;) {
    const ssize_t n = read(fd, buf, sizeof buf);
    if (n > 0) {
      out.append(buf, static_cast<std::size_t>(n));
    } else if (n == 0 || errno != EINTR) {
      return out;
    }
  }
}

}  // namespace plot_script
}  // namespace

std::optional<std::string> RunPlotScript(std::string_view script,
                                         const std::vector<std::string>& args) {
  using namespace plot_script;
  std::vector<std::string> words = {kPython,
                                    fmt::format("{}/plots/{}", NCPBENCH_SOURCE_DIR, script)};
  words.insert(words.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  int pipe_fd[2];
  if (pipe2(pipe_fd, O_CLOEXEC) != 0) return std::nullopt;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipe_fd[1], STDOUT_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  pid_t pid = -1;
  const int spawned = posix_spawn(&pid, kPython, &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(pipe_fd[1]);
  std::string printed = spawned == 0 ? ReadAll(pipe_fd[0]) : std::string();
  close(pipe_fd[0]);
  if (spawned != 0) return std::nullopt;
  int status = 0;
  if (WaitPid(pid, &status, 0) < 0) return std::nullopt;
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return std::nullopt;
  return printed;
}

std::string FigureSentence(bool drawn, const std::string& png, std::string_view script) {
  if (drawn) return fmt::format("; figure: `{}`.\n", png);
  return fmt::format(" (the figure needs /usr/bin/python3 with matplotlib: plots/{}).\n", script);
}

}  // namespace ncp
