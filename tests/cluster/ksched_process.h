// Child processes and waits shared by the tests that run `ksched run` (or a
// stand-in scheduler) against a real API server.
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace ksched::testing {

using namespace std::chrono_literals;

// Polls `done` every 100 ms until it holds or `timeout` passes.
inline bool WaitFor(const std::function<bool()>& done, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    if (done()) return true;
    std::this_thread::sleep_for(100ms);
  }
  return done();
}

inline std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// `ksched run ARGS...` (or, with `command` given, COMMAND ARGS...: another
// scheduler standing in) as a child process, stderr into a log file.
class KschedProcess {
 public:
  KschedProcess(const std::string& log, std::vector<std::string> args,
                std::vector<std::string> command = {KSCHED_BINARY, "run"})
      : log_(log) {
    std::vector<std::string> argv = std::move(command);
    argv.insert(argv.end(), args.begin(), args.end());
    // `ksched run` serves HTTPS on 10259 by default: tests that run several
    // at once turn it off unless they ask for it.
    if (argv.size() >= 2 && argv[1] == "run" &&
        std::find(argv.begin(), argv.end(), "--secure-port") == argv.end()) {
      argv.push_back("--secure-port");
      argv.push_back("0");
    }
    pid_ = fork();
    if (pid_ == 0) {
      int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      dup2(fd, 2);
      dup2(fd, 1);
      std::vector<char*> cargv;
      for (std::string& a : argv) cargv.push_back(a.data());
      cargv.push_back(nullptr);
      execv(cargv[0], cargv.data());
      _exit(127);
    }
  }
  ~KschedProcess() {
    if (pid_ > 0 && !exited_) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
  }
  void Signal(int sig) { kill(pid_, sig); }
  // SIGTERM, then Wait(timeout).
  int Terminate(std::chrono::milliseconds timeout) {
    Signal(SIGTERM);
    return Wait(timeout);
  }
  // The exit status, or -1 if it did not exit within `timeout`.
  int Wait(std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < deadline) {
      int status = 0;
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        exited_ = true;
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      }
      std::this_thread::sleep_for(50ms);
    }
    return -1;
  }
  std::string Log() const { return ReadFile(log_); }

 private:
  std::string log_;
  pid_t pid_ = -1;
  bool exited_ = false;
};

}  // namespace ksched::testing
