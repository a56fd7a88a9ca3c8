#include "synth/compile.h"

#include <chrono>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <regex>
#include <signal.h>
#include <spawn.h>
#include <sstream>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

extern char **environ;

namespace ksynth::synth {

namespace fs = std::filesystem;

std::optional<std::string> findNvcc(const std::string &requested) {
  if (requested == "none")
    return std::nullopt;
  if (!requested.empty())
    return requested;
  const char *path = std::getenv("PATH");
  if (!path)
    return std::nullopt;
  std::stringstream ss(path);
  std::string dir;
  while (std::getline(ss, dir, ':')) {
    if (dir.empty())
      continue;
    fs::path p = fs::path(dir) / "nvcc";
    if (::access(p.c_str(), X_OK) == 0)
      return p.string();
  }
  return std::nullopt;
}

CompileResult compileCheck(const std::string &nvcc, const std::string &cuFile, double timeoutS) {
  CompileResult r;
  auto t0 = std::chrono::steady_clock::now();
  fs::path dir = fs::path(cuFile).parent_path();
  std::string log = (dir / ".nvcc-output.txt").string();
  std::string obj = (dir / ".nvcc-candidate.o").string();
  std::vector<std::string> args = {nvcc, "-c", "--resource-usage", "-o", obj, cuFile};
  std::vector<char *> argv;
  for (std::string &a : args)
    argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  pid_t pid = 0;
  int rc = posix_spawn(&pid, nvcc.c_str(), &fa, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) {
    r.status = CompileResult::Status::Skipped;
    r.note = "could not start " + nvcc;
    return r;
  }
  int status = 0;
  bool timedOut = false;
  while (true) {
    pid_t w = ::waitpid(pid, &status, WNOHANG);
    if (w == pid)
      break;
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() > timeoutS) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      timedOut = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  std::ifstream in(log);
  std::stringstream buf;
  buf << in.rdbuf();
  r.output = buf.str();
  std::error_code ec;
  fs::remove(log, ec);
  fs::remove(obj, ec);
  // Paths in nvcc's messages: the candidate's file name only.
  std::string full = cuFile, base = fs::path(cuFile).filename().string();
  for (size_t p; (p = r.output.find(full)) != std::string::npos;)
    r.output.replace(p, full.size(), base);
  r.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  if (timedOut) {
    r.status = CompileResult::Status::Skipped;
    r.note = "nvcc did not finish within " + std::to_string(static_cast<int>(timeoutS)) + " s";
    return r;
  }
  r.status = WIFEXITED(status) && WEXITSTATUS(status) == 0 ? CompileResult::Status::Ok : CompileResult::Status::Failed;
  static const std::regex regs(R"(Used (\d+) registers)"), smem(R"((\d+) bytes smem)");
  std::smatch m;
  if (std::regex_search(r.output, m, regs))
    r.registers = std::stoi(m[1]);
  if (std::regex_search(r.output, m, smem))
    r.sharedBytes = std::stoi(m[1]);
  return r;
}

} // namespace ksynth::synth
