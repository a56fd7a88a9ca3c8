// The `ksynth` command line: which command the arguments name, and the small ones inline
// (help, version, the prelude, the GPU runner's child processes).
#include "cli/commands.h"

#include "gpu/device.h"
#include "gpu/run.h"
#include "util/exit_codes.h"
#include "util/version.h"
#include "verify/frontend/frontend.h"
#include "verify/smt/solver.h"

#include <pthread.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include <iostream>

namespace ksynth::cli {

namespace {

// `ksynth --spec SPEC.smt --prove ...` (also `--resume DIR`) is the synthesis loop.
bool isProve(const std::vector<std::string> &args) {
  if (!args.empty() && args[0] == "bench") // `ksynth bench --resume RUN` is bench's own
    return false;
  for (const std::string &a : args)
    if (a == "--prove" || a == "--resume" || a.rfind("--resume=", 0) == 0)
      return true;
  return !args.empty() && (args[0] == "--spec" || args[0].rfind("--spec=", 0) == 0);
}

} // namespace

namespace {

int dispatch(const std::vector<std::string> &args);

// Every command runs on a thread with a large stack (address space reserved, pages touched
// only as used): parsing, lowering, term building and printing recurse over the input's
// nesting, which the frontend and the spec reader bound (kMaxNesting), and the bound must
// fit with room to spare.
constexpr size_t kCommandStack = size_t{1} << 30;

struct CommandCall {
  const std::vector<std::string> *args;
  int code = kExitInternal;
};

void *commandThread(void *p) {
  auto *c = static_cast<CommandCall *>(p);
  c->code = dispatch(*c->args);
  return nullptr;
}

} // namespace

int main(int argc, char **argv) {
#if defined(__GLIBC__)
  // Every Z3 context fills about 8 MB of tables when it is made and frees them when it ends. On
  // the command's thread (below) glibc's default gave that thread an arena of its own, which
  // hands freed memory back to the system at once, so each new context faulted its 8 MB in
  // again: a file of 213 template instances spent 5 s of 20 in the kernel (730,000 page
  // faults). One arena that keeps up to 1 GB of freed memory (and blocks up to 32 MB, glibc's
  // largest mmap threshold, from the heap): 26,000 faults and 9 s. Where glibc refuses a
  // setting, the default stays: slower, not wrong.
  mallopt(M_ARENA_MAX, 1);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
#endif
  std::vector<std::string> args(argv + 1, argv + argc);
  CommandCall call{&args};
  pthread_attr_t attr;
  pthread_t th;
  if (pthread_attr_init(&attr) == 0 && pthread_attr_setstacksize(&attr, kCommandStack) == 0 &&
      pthread_create(&th, &attr, commandThread, &call) == 0) {
    pthread_attr_destroy(&attr);
    pthread_join(th, nullptr);
    return call.code;
  }
  return dispatch(args); // no room for the large stack: the ordinary one
}

namespace {

int dispatch(const std::vector<std::string> &args) {
  if (isProve(args))
    return proveCommand(args, std::cout, std::cerr);
  if (args.empty())
    return usage("no command (try 'ksynth verify FILE.cu' or 'ksynth help')");
  const std::string cmd = args[0];
  std::vector<std::string> rest(args.begin() + 1, args.end());
  if (cmd == "help" || cmd == "--help" || cmd == "-h") {
    printHelp(std::cout);
    printProveHelp(std::cout);
    return kExitProven;
  }
  if (cmd == "--version" || cmd == "version") {
    std::cout << "ksynth " << util::version() << " (" << smt::Solver::version() << ", clang 19)\n";
    return kExitProven;
  }
  if (cmd == "--print-prelude") {
    std::cout << frontend::preludeText();
    return kExitProven;
  }
  if (cmd == "verify")
    return verifyCommand(rest, std::cout, std::cerr);
  if (cmd == "spec")
    return specCommand(rest);
  if (cmd == "check-proof")
    return checkProofCommand(rest);
  if (cmd == "run")
    return runCommand(rest);
  // The GPU runner's child processes (gpu/run.h, gpu/device.h); not for people.
  if (cmd == "__gpu-probe")
    return gpu::probeMain();
  if (cmd == "__gpu-run" && rest.size() == 1)
    return gpu::gpuRunMain(rest[0]);
  if (cmd == "bench")
    return benchCommand(rest, std::cout, std::cerr);
  return usage("unknown command '" + cmd + "'");
}

} // namespace

} // namespace ksynth::cli
