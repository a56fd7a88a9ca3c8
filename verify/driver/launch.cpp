#include "verify/driver/launch.h"

#include <cctype>
#include <fstream>

namespace ksynth::driver {

std::vector<std::string> splitDims(std::string s) {
  if (!s.empty() && (s.front() == '[' || s.front() == '(')) {
    s = s.substr(1);
    if (!s.empty() && (s.back() == ']' || s.back() == ')'))
      s.pop_back();
  }
  std::vector<std::string> out;
  int depth = 0;
  std::string cur;
  for (char c : s) {
    if (c == '(')
      ++depth;
    if (c == ')')
      --depth;
    if (c == ',' && depth == 0) {
      out.push_back(cur);
      cur.clear();
      continue;
    }
    cur += c;
  }
  out.push_back(cur);
  for (std::string &x : out) {
    size_t a = x.find_first_not_of(" \t"), b = x.find_last_not_of(" \t");
    x = a == std::string::npos ? "" : x.substr(a, b - a + 1);
  }
  return out;
}

LaunchLine findLaunchLine(const std::string &file) {
  LaunchLine ll;
  std::ifstream in(file);
  std::string line;
  unsigned n = 0;
  while (std::getline(in, line)) {
    ++n;
    size_t p = line.find("ksynth:launch");
    if (p == std::string::npos || line.find("//") > p)
      continue;
    ll.found = true;
    ll.line = n;
    std::string rest = line.substr(p + 13);
    auto grab = [&](const std::string &key) -> std::vector<std::string> {
      size_t k = rest.find(key + "=");
      if (k == std::string::npos)
        return {};
      size_t i = k + key.size() + 1;
      std::string val;
      if (i < rest.size() && rest[i] == '(') {
        int depth = 0;
        for (; i < rest.size(); ++i) {
          val += rest[i];
          if (rest[i] == '(')
            ++depth;
          if (rest[i] == ')' && --depth == 0)
            break;
        }
      } else {
        while (i < rest.size() && !isspace(static_cast<unsigned char>(rest[i])))
          val += rest[i++];
      }
      return splitDims(val);
    };
    ll.grid = grab("grid");
    ll.block = grab("block");
    std::vector<std::string> shared = grab("shared");
    if (shared.size() == 1)
      ll.shared = shared[0];
    break;
  }
  return ll;
}

} // namespace ksynth::driver
