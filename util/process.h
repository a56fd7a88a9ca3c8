// Child processes (nvcc, the GPU runner, the solver executables) under a wall-clock limit:
// a compiler, kernel or solver that hangs is killed and reported, and ksynth never hangs.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace ksynth::util {

struct ProcessResult {
  bool started = false;  // false: the program could not be started (see output)
  bool timedOut = false; // killed (SIGKILL) after the limit
  int exitCode = -1;     // when it exited normally
  int signal = 0;        // when a signal ended it
  std::string output;    // stdout and stderr together
  double ms = 0;
  bool ok() const { return started && !timedOut && signal == 0 && exitCode == 0; }
  // "exit 3", "killed by signal 11", "did not finish within 60 s", ...
  std::string how(double timeoutS) const;
};

// Runs argv[0] (a path) with stdin from /dev/null; kills it and its process group after
// `timeoutS` seconds.
ProcessResult runProcess(const std::vector<std::string> &argv, double timeoutS);

// Runs `work` in a forked copy of this process under the same limit and supervision: what
// it returns is the result's output (a crash, a kill or a hang is the result's outcome, and
// this process goes on). The child runs only the forking thread, exits without destructors,
// and must not rely on locks other threads may hold.
ProcessResult runInChild(const std::function<std::string()> &work, double timeoutS);

// The program `name` on PATH, or empty.
std::string findOnPath(const std::string &name);

} // namespace ksynth::util
