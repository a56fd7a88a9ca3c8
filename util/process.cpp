#include "util/process.h"

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <functional>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace ksynth::util {

std::string ProcessResult::how(double timeoutS) const {
  if (!started)
    return "could not be started";
  if (timedOut) {
    std::ostringstream os;
    os << "did not finish within " << timeoutS << " s and was killed";
    return os.str();
  }
  if (signal != 0)
    return std::string("was killed by signal ") + std::to_string(signal) + " (" + strsignal(signal) + ")";
  return "exited with status " + std::to_string(exitCode);
}

namespace {

// Reads the child's output from `readFd` (closed here) until it exits, killing it and its
// process group after `timeoutS` seconds from `t0`; fills in r's outcome.
void supervise(ProcessResult &r, pid_t pid, int readFd, double timeoutS, std::chrono::steady_clock::time_point t0,
               size_t maxOutput) {
  ::fcntl(readFd, F_SETFL, O_NONBLOCK);
  bool open = true;
  int status = 0;
  bool exited = false;
  while (true) {
    double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!exited && elapsed > timeoutS) {
      ::kill(-pid, SIGKILL);
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      r.timedOut = true;
      exited = true;
      break;
    }
    if (open) {
      pollfd p = {readFd, POLLIN, 0};
      ::poll(&p, 1, 20);
      char buf[65536];
      while (true) {
        ssize_t n = ::read(readFd, buf, sizeof buf);
        if (n > 0) {
          if (r.output.size() < maxOutput) // keep the first maxOutput bytes of a chatty child
            r.output.append(buf, static_cast<size_t>(n));
          continue;
        }
        if (n == 0)
          open = false;
        break;
      }
    } else {
      ::usleep(5000);
    }
    if (::waitpid(pid, &status, WNOHANG) == pid) {
      exited = true;
      // Drain what is left (a grandchild holding the pipe open is not waited for).
      char buf[65536];
      ssize_t n;
      while (open && (n = ::read(readFd, buf, sizeof buf)) > 0)
        r.output.append(buf, static_cast<size_t>(n));
      break;
    }
  }
  ::close(readFd);
  if (!r.timedOut) {
    if (WIFEXITED(status))
      r.exitCode = WEXITSTATUS(status);
    else if (WIFSIGNALED(status))
      r.signal = WTERMSIG(status);
  }
}

} // namespace

ProcessResult runProcess(const std::vector<std::string> &args, double timeoutS) {
  ProcessResult r;
  auto t0 = std::chrono::steady_clock::now();
  int pipefd[2];
  // O_CLOEXEC: a child spawned at the same time by another thread must not inherit this
  // pipe's write end (the reader would then wait for that child too).
  if (args.empty() || ::pipe2(pipefd, O_CLOEXEC) != 0) {
    r.output = "cannot create a pipe";
    return r;
  }
  std::vector<std::string> copy = args;
  std::vector<char *> argv;
  for (std::string &a : copy)
    argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&fa, pipefd[1], 1);
  posix_spawn_file_actions_adddup2(&fa, pipefd[1], 2);
  posix_spawn_file_actions_addclose(&fa, pipefd[0]);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP); // its own group: kill takes its children too
  posix_spawnattr_setpgroup(&attr, 0);
  pid_t pid = 0;
  int rc = posix_spawn(&pid, argv[0], &fa, &attr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  ::close(pipefd[1]);
  if (rc != 0) {
    ::close(pipefd[0]);
    r.output = std::string("cannot start ") + args[0] + ": " + strerror(rc);
    return r;
  }
  r.started = true;
  supervise(r, pid, pipefd[0], timeoutS, t0, 16u << 20);
  r.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

ProcessResult runInChild(const std::function<std::string()> &work, double timeoutS) {
  ProcessResult r;
  auto t0 = std::chrono::steady_clock::now();
  int pipefd[2];
  if (::pipe2(pipefd, O_CLOEXEC) != 0) {
    r.output = "cannot create a pipe";
    return r;
  }
  pid_t pid = ::fork();
  if (pid < 0) {
    ::close(pipefd[0]);
    ::close(pipefd[1]);
    r.output = std::string("cannot fork: ") + strerror(errno);
    return r;
  }
  if (pid == 0) {
    ::setpgid(0, 0); // its own group, as runProcess's children
    ::close(pipefd[0]);
    std::string out = work();
    for (size_t done = 0; done < out.size();) {
      ssize_t n = ::write(pipefd[1], out.data() + done, out.size() - done);
      if (n <= 0)
        ::_exit(70);
      done += static_cast<size_t>(n);
    }
    ::_exit(0); // no destructors, no stdio flush: the parent's buffers are the parent's
  }
  ::close(pipefd[1]);
  r.started = true;
  supervise(r, pid, pipefd[0], timeoutS, t0, size_t{1} << 30);
  r.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

std::string findOnPath(const std::string &name) {
  const char *path = std::getenv("PATH");
  if (!path)
    return "";
  std::stringstream ss(path);
  std::string dir;
  while (std::getline(ss, dir, ':')) {
    if (dir.empty())
      continue;
    std::filesystem::path p = std::filesystem::path(dir) / name;
    if (::access(p.c_str(), X_OK) == 0)
      return p.string();
  }
  return "";
}

} // namespace ksynth::util
