#include "cli/options.h"

#include <cerrno>
#include <cmath>
#include <cctype>
#include <cstdlib>

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

} // namespace ksynth::cli
