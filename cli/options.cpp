#include "cli/options.h"

#include <cerrno>
#include <cmath>
#include <cctype>
#include <cstdlib>
#include <signal.h>
#include <unistd.h>

namespace ksynth::cli {

bool Options::is(const std::string &flag) const {
  const std::string &a = arg();
  return a == flag || a.rfind(flag + "=", 0) == 0;
}

std::optional<std::string> Options::value(const std::string &flag) {
  const std::string &a = arg();
  if (a == flag) {
    if (i_ + 1 >= args_.size())
      return std::nullopt;
    return args_[++i_];
  }
  if (a.rfind(flag + "=", 0) == 0)
    return a.substr(flag.size() + 1);
  return std::nullopt;
}

std::optional<std::string> Options::attached(const std::string &prefix, bool &missing) {
  missing = false;
  const std::string &a = arg();
  if (a.rfind(prefix, 0) != 0)
    return std::nullopt;
  if (a.size() > prefix.size())
    return a.substr(prefix.size());
  if (i_ + 1 < args_.size() && !args_[i_ + 1].empty())
    return args_[++i_];
  missing = true;
  return std::nullopt;
}

bool preprocessorOption(Options &opt, frontend::Options &fe, std::string &err) {
  struct Form {
    const char *shortForm, *longForm;
    std::vector<std::string> frontend::Options::*dest;
    const char *what;
  };
  static const Form kForms[] = {
      {"-I", "--include-path", &frontend::Options::includeDirs, "a directory"},
      {"-isystem", nullptr, &frontend::Options::systemIncludeDirs, "a directory"},
      {"-D", "--define-macro", &frontend::Options::defines, "NAME[=VALUE]"},
      {"-U", "--undefine-macro", &frontend::Options::undefines, "NAME"},
  };
  for (const Form &f : kForms) {
    bool missing = false;
    std::optional<std::string> v;
    const char *flag = f.shortForm;
    if (f.longForm && opt.is(f.longForm)) {
      flag = f.longForm;
      v = opt.value(f.longForm);
      missing = !v;
    } else if (opt.arg().rfind("--", 0) != 0) {
      v = opt.attached(f.shortForm, missing);
    }
    if (!v && !missing)
      continue;
    if (!v || v->empty()) {
      err = std::string(flag) + " needs " + f.what;
      return true;
    }
    (fe.*f.dest).push_back(*v);
    return true;
  }
  if (opt.is("--cuda-path")) {
    auto v = opt.value("--cuda-path");
    if (!v || v->empty()) {
      err = "--cuda-path needs the CUDA toolkit's folder, or none";
    } else if (*v != "none" && frontend::findCudaToolkit(*v).includeDir.empty()) {
      err = "--cuda-path " + *v + ": no CUDA toolkit there (no include/cuda_runtime_api.h naming a CUDART_VERSION)";
    } else {
      fe.cudaPath = *v;
    }
    return true;
  }
  return false;
}

std::vector<std::string> Options::assignmentsFollowing() {
  std::vector<std::string> out;
  while (i_ + 1 < args_.size() && args_[i_ + 1].find('=') != std::string::npos && args_[i_ + 1][0] != '-')
    out.push_back(args_[++i_]);
  return out;
}

std::optional<double> parseDouble(const std::string &text) {
  if (text.empty() || std::isspace(static_cast<unsigned char>(text[0])))
    return std::nullopt;
  char *end = nullptr;
  double x = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size())
    return std::nullopt;
  return x;
}

std::optional<double> parseNumber(const std::string &text, double lo, double hi) {
  std::optional<double> x = parseDouble(text);
  if (!x || !std::isfinite(*x) || *x < lo || *x > hi)
    return std::nullopt;
  return x;
}

std::optional<long long> parseInteger(const std::string &text, long long lo, long long hi) {
  if (text.empty())
    return std::nullopt;
  char *end = nullptr;
  errno = 0;
  long long x = std::strtoll(text.c_str(), &end, 10);
  if (errno != 0 || end != text.c_str() + text.size() || x < lo || x > hi)
    return std::nullopt;
  return x;
}

namespace {

std::atomic<bool> gInterrupted{false};

void onInterrupt(int) {
  gInterrupted.store(true);
  const char msg[] = "\nksynth: interrupt: stopping after the current stage (Ctrl-C again stops now; --resume DIR "
                     "continues the run)\n";
  ssize_t n = ::write(2, msg, sizeof msg - 1);
  (void)n;
}

} // namespace

std::atomic<bool> &interruptFlag() { return gInterrupted; }

std::string envOr(const char *name) {
  const char *v = std::getenv(name);
  return v ? v : "";
}

void catchInterrupt() {
  struct sigaction sa {};
  sa.sa_handler = onInterrupt;
  sa.sa_flags = SA_RESETHAND;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
}

} // namespace ksynth::cli
