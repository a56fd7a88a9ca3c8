#include "util/files.h"

#include <fstream>
#include <sstream>

namespace ksynth::util {

bool readFile(const std::filesystem::path &path, std::string &out) {
  std::ifstream f(path, std::ios::binary);
  if (!f)
    return false;
  std::ostringstream ss;
  ss << f.rdbuf();
  out = ss.str();
  return true;
}

bool writeFileAtomic(const std::filesystem::path &path, const std::string &text) {
  std::filesystem::path tmp = path;
  tmp += ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out)
      return false;
    out << text;
    if (!out.flush())
      return false;
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  return !ec;
}

} // namespace ksynth::util
