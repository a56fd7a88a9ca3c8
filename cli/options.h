// The option reader every `ksynth` command uses: `--flag VALUE` and `--flag=VALUE`, bare
// switches, `-DNAME`/`-D NAME`, positional arguments, and numbers read whole and range-checked.
#pragma once

#include "verify/frontend/frontend.h"

#include <atomic>
#include <optional>
#include <string>
#include <vector>

namespace ksynth::cli {

class Options {
public:
  explicit Options(std::vector<std::string> args) : args_(std::move(args)) {}

  // Moves to the next argument; false after the last.
  bool next() { return ++i_ < args_.size(); }
  const std::string &arg() const { return args_[i_]; }

  // The argument is `flag` or `flag=...`.
  bool is(const std::string &flag) const;
  // The value of `flag`: after '=' or the next argument (consumed); nullopt when the
  // argument is not `flag` or no value follows.
  std::optional<std::string> value(const std::string &flag);
  // A short option with its value attached or following (`-DX=1`, `-D X=1`); nullopt when
  // the argument is not `prefix` or no value follows (then `missing` is set).
  std::optional<std::string> attached(const std::string &prefix, bool &missing);
  bool isOption() const { return !arg().empty() && arg()[0] == '-'; }

  // The NAME=VALUE arguments that follow (consumed), up to the first that is an option or
  // has no '='.
  std::vector<std::string> assignmentsFollowing();

private:
  std::vector<std::string> args_;
  size_t i_ = static_cast<size_t>(-1);
};

// The preprocessor options ksynth shares with nvcc and clang: -I DIR (--include-path),
// -isystem DIR, -D NAME[=VALUE] (--define-macro), -U NAME (--undefine-macro), --cuda-path DIR
// (or none). True when the current argument is one (its value consumed); `err` is set when the
// value is missing or names no CUDA toolkit.
bool preprocessorOption(Options &opt, frontend::Options &fe, std::string &err);

// The whole of `text` as a double ("inf" and "nan" included); nullopt when it is not one.
std::optional<double> parseDouble(const std::string &text);
// The whole of `text` as a finite number within [lo, hi]; nullopt otherwise ("10s", "nan",
// "inf" and out-of-range values included).
std::optional<double> parseNumber(const std::string &text, double lo, double hi);
// The whole of `text` as an integer within [lo, hi].
std::optional<long long> parseInteger(const std::string &text, long long lo, long long hi);

// The environment variable's value, "" when it is not set.
std::string envOr(const char *name);

// Ctrl-C for the long commands (--prove, bench): the first sets interruptFlag() and says that
// the command stops after its current stage (a model request in flight finishes and is
// recorded); a second one has the default action, at once. The run directory is consistent
// either way and --resume continues it.
std::atomic<bool> &interruptFlag();
void catchInterrupt();

} // namespace ksynth::cli
