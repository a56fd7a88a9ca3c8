#include "verify/driver/launch.h"

#include <cctype>
#include <fstream>
#include <sstream>

namespace ksynth::driver {

std::vector<std::string> splitDims(std::string s) {
  // "(64, 4)" and "[64,4]" are the tuple; "(n + 255) / 256" is one expression whose first
  // parenthesis closes before its end.
  if (!s.empty() && (s.front() == '[' || s.front() == '(')) {
    int depth = 0;
    size_t close = std::string::npos;
    for (size_t i = 0; i < s.size() && close == std::string::npos; ++i) {
      depth += s[i] == '(' || s[i] == '[';
      depth -= s[i] == ')' || s[i] == ']';
      if (depth == 0)
        close = i;
    }
    if (close == std::string::npos) // unclosed: as before, the bracket dropped
      s = s.substr(1);
    else if (close + 1 == s.size())
      s = s.substr(1, s.size() - 2);
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

namespace {

// Words of a flag comment; a bracketed value ("[64, 64]") stays one word.
std::vector<std::string> flagWords(const std::string &text) {
  std::vector<std::string> words;
  std::string cur;
  int depth = 0;
  for (char c : text) {
    if (c == '[')
      ++depth;
    if (c == ']' && depth > 0)
      --depth;
    if (isspace(static_cast<unsigned char>(c)) && depth == 0) {
      if (!cur.empty())
        words.push_back(cur);
      cur.clear();
      continue;
    }
    if (!isspace(static_cast<unsigned char>(c)))
      cur += c;
  }
  if (!cur.empty())
    words.push_back(cur);
  return words;
}

// GPUVerify's options in one comment's text; true when it names a block or grid.
bool gpuVerifyFlags(const std::string &text, LaunchLine &ll) {
  std::vector<std::string> w = flagWords(text);
  LaunchLine got;
  bool launch = false;
  for (size_t i = 0; i < w.size(); ++i) {
    const std::string &x = w[i];
    bool dim = false;
    for (std::string key : {"--blockDim", "--gridDim"}) {
      std::string value;
      if (x.rfind(key + "=", 0) == 0)
        value = x.substr(key.size() + 1);
      else if (x == key && i + 1 < w.size())
        value = w[++i];
      else
        continue;
      (key == "--blockDim" ? got.block : got.grid) = splitDims(value);
      dim = launch = true;
      break;
    }
    if (dim)
      continue;
    if (x == "-D" && i + 1 < w.size())
      got.defines.push_back(w[++i]);
    else if (x.rfind("-D", 0) == 0 && x.size() > 2)
      got.defines.push_back(x.substr(2));
    else if (x.rfind("-", 0) == 0)
      got.ignored.push_back(x);
    else
      return false; // prose that happens to mention a flag is not a flag line
  }
  if (!launch)
    return false;
  ll.block = got.block;
  ll.grid = got.grid;
  ll.defines = got.defines;
  ll.ignored = got.ignored;
  return true;
}

// The leading comment block's first GPUVerify flag comment, if any.
void findGpuVerifyLine(const std::string &text, LaunchLine &ll) {
  std::istringstream in(text);
  std::string line;
  unsigned n = 0;
  bool inBlock = false;
  while (std::getline(in, line)) {
    ++n;
    std::string rest = line;
    // A line may hold several comments: "/* a */ // b"; code anywhere ends the block.
    while (true) {
      size_t a = rest.find_first_not_of(" \t\r");
      if (!inBlock && a == std::string::npos)
        break;
      std::string comment;
      if (inBlock) {
        size_t e = rest.find("*/");
        comment = rest.substr(0, e);
        if (e == std::string::npos) {
          rest.clear();
        } else {
          inBlock = false;
          rest = rest.substr(e + 2);
        }
      } else if (rest.compare(a, 2, "//") == 0) {
        comment = rest.substr(a + 2);
        rest.clear();
      } else if (rest.compare(a, 2, "/*") == 0) {
        inBlock = true;
        rest = rest.substr(a + 2);
        continue;
      } else {
        return; // the first line of code
      }
      size_t b = comment.find_first_not_of(" \t*");
      if (b != std::string::npos && gpuVerifyFlags(comment.substr(b), ll)) {
        ll.found = true;
        ll.gpuverify = true;
        ll.line = n;
        return;
      }
      if (rest.empty())
        break;
    }
  }
}

} // namespace

LaunchLine findLaunchLine(const std::string &file) {
  std::ifstream in(file);
  std::stringstream ss;
  ss << in.rdbuf();
  return findLaunchLineIn(ss.str());
}

LaunchLine findLaunchLineIn(const std::string &text) {
  LaunchLine ll;
  std::istringstream in(text);
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
  if (!ll.found)
    findGpuVerifyLine(text, ll);
  return ll;
}

namespace {
std::string defineName(const std::string &d) { return d.substr(0, d.find('=')); }
} // namespace

void addLineDefines(LaunchLine &ll, std::vector<std::string> &defines) {
  std::vector<std::string> used;
  for (const std::string &d : ll.defines) {
    bool given = false;
    for (const std::string &have : defines)
      given = given || defineName(have) == defineName(d);
    if (given) {
      ll.ignored.push_back("-D" + d + " (the command line defines " + defineName(d) + ")");
    } else {
      defines.push_back(d);
      used.push_back(d);
    }
  }
  ll.defines = used;
}

std::string dimsText(const std::vector<std::string> &dims) {
  std::string s;
  for (const std::string &x : dims)
    s += (s.empty() ? "" : ",") + (x.empty() ? std::string("?") : x);
  return "(" + s + ")";
}

std::string launchLineNote(const LaunchLine &ll, bool blockSet, bool gridSet) {
  if (!ll.gpuverify || ((blockSet || ll.block.empty()) && (gridSet || ll.grid.empty()) && ll.defines.empty()))
    return "";
  std::string note = "from the GPUVerify flag comment on line " + std::to_string(ll.line) + ":";
  if (!ll.block.empty() && !blockSet)
    note += " block=" + dimsText(ll.block);
  if (!ll.grid.empty() && !gridSet)
    note += " grid=" + dimsText(ll.grid);
  for (const std::string &d : ll.defines)
    note += " -D" + d;
  if (!ll.ignored.empty()) {
    note += "; ignored:";
    for (const std::string &x : ll.ignored)
      note += " " + x;
  }
  return note;
}

} // namespace ksynth::driver
