#include "synth/extract.h"

#include <cctype>
#include <regex>
#include <sstream>

namespace ksynth::synth {

namespace {

struct Block {
  std::string lang;
  std::string text;
  int firstLine = 0; // of the reply, 1-based, of the fence
  bool closed = true;
};

std::string trim(const std::string &s) {
  size_t a = s.find_first_not_of(" \t\r"), b = s.find_last_not_of(" \t\r");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

std::vector<std::string> lines(const std::string &s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  std::string l;
  while (std::getline(in, l))
    out.push_back(l);
  return out;
}

// Markdown fences: ``` or ~~~ (3 or more), up to 3 spaces of indent, closed by a fence of
// the same character at least as long.
std::vector<Block> fencedBlocks(const std::string &reply) {
  std::vector<Block> blocks;
  std::vector<std::string> ls = lines(reply);
  for (size_t i = 0; i < ls.size(); ++i) {
    std::string l = ls[i];
    size_t ind = l.find_first_not_of(' ');
    if (ind == std::string::npos || ind > 3)
      continue;
    char c = l[ind];
    if (c != '`' && c != '~')
      continue;
    size_t n = 0;
    while (ind + n < l.size() && l[ind + n] == c)
      ++n;
    if (n < 3)
      continue;
    Block b;
    b.lang = trim(l.substr(ind + n));
    b.firstLine = static_cast<int>(i + 1);
    b.closed = false;
    size_t j = i + 1;
    for (; j < ls.size(); ++j) {
      std::string t = trim(ls[j]);
      if (t.size() >= n && t.find_first_not_of(c) == std::string::npos) {
        b.closed = true;
        break;
      }
      b.text += ls[j] + "\n";
    }
    blocks.push_back(b);
    i = j;
  }
  return blocks;
}

// `code` with comments and string/char literals blanked (newlines kept, so offsets and
// line numbers stay).
std::string stripCommentsAndStrings(const std::string &code) {
  std::string out = code;
  enum { Code, Line, Block, Str, Chr } st = Code;
  for (size_t i = 0; i < out.size(); ++i) {
    char c = code[i], n = i + 1 < code.size() ? code[i + 1] : '\0';
    switch (st) {
    case Code:
      if (c == '/' && n == '/')
        st = Line, out[i] = ' ';
      else if (c == '/' && n == '*')
        st = Block, out[i] = ' ';
      else if (c == '"')
        st = Str;
      else if (c == '\'')
        st = Chr;
      break;
    case Line:
      if (c == '\n')
        st = Code;
      else
        out[i] = ' ';
      break;
    case Block:
      if (c == '*' && n == '/') {
        out[i] = out[i + 1] = ' ';
        ++i;
        st = Code;
      } else if (c != '\n') {
        out[i] = ' ';
      }
      break;
    case Str:
    case Chr:
      if (c == '\\' && n) {
        out[i] = ' ';
        if (n != '\n')
          out[i + 1] = ' ';
        ++i;
      } else if (c == (st == Str ? '"' : '\'')) {
        st = Code;
      } else if (c != '\n') {
        out[i] = ' ';
      }
      break;
    }
  }
  return out;
}

int lineOf(const std::string &s, size_t pos) {
  int n = 1;
  for (size_t i = 0; i < pos && i < s.size(); ++i)
    n += s[i] == '\n';
  return n;
}

// Launch lines: `// ksynth:launch ...` anywhere in a line.
std::vector<std::string> launchLines(const std::string &text) {
  std::vector<std::string> out;
  for (const std::string &l : lines(text)) {
    size_t p = l.find("ksynth:launch");
    if (p != std::string::npos && l.rfind("//", p) != std::string::npos)
      out.push_back(trim(l.substr(l.rfind("//", p))));
  }
  return out;
}

std::string quoteList(const std::vector<std::string> &xs) {
  std::string s;
  for (size_t i = 0; i < xs.size(); ++i)
    s += (i ? ", " : "") + ("`" + xs[i] + "`");
  return s;
}

} // namespace

std::vector<std::string> globalKernels(const std::string &code) {
  std::string s = stripCommentsAndStrings(code);
  std::vector<std::string> names;
  static const std::regex launchBounds(R"(__launch_bounds__\s*\([^)]*\))");
  size_t pos = 0;
  while ((pos = s.find("__global__", pos)) != std::string::npos) {
    size_t end = pos + 10;
    bool word = (pos == 0 || !(std::isalnum(static_cast<unsigned char>(s[pos - 1])) || s[pos - 1] == '_')) &&
                (end >= s.size() || !(std::isalnum(static_cast<unsigned char>(s[end])) || s[end] == '_'));
    pos = end;
    if (!word)
      continue;
    // The declarator: up to the first '(' that is not __launch_bounds__'s, then the
    // identifier right before it. A declaration without a body (`;` first) is no kernel.
    std::string rest = std::regex_replace(s.substr(end, 400), launchBounds, " ");
    size_t paren = rest.find('(');
    if (paren == std::string::npos)
      continue;
    size_t e = paren;
    while (e > 0 && std::isspace(static_cast<unsigned char>(rest[e - 1])))
      --e;
    size_t b = e;
    while (b > 0 && (std::isalnum(static_cast<unsigned char>(rest[b - 1])) || rest[b - 1] == '_'))
      --b;
    if (b == e)
      continue;
    // Body or declaration: the first of '{' and ';' after the parameter list.
    int depth = 0;
    size_t i = end + paren;
    for (; i < s.size(); ++i) {
      if (s[i] == '(')
        ++depth;
      else if (s[i] == ')' && --depth == 0)
        break;
    }
    size_t brace = s.find_first_of("{;", i);
    if (brace == std::string::npos || s[brace] != '{')
      continue;
    names.push_back(rest.substr(b, e - b));
  }
  return names;
}

Extracted extractCandidate(const std::string &reply, const std::string &specName) {
  Extracted ex;
  std::vector<Block> blocks = fencedBlocks(reply);
  std::string code;
  if (trim(reply).empty()) {
    ex.problems.push_back("The reply is empty.");
    return ex;
  }
  if (blocks.empty()) {
    if (globalKernels(reply).empty()) {
      ex.problems.push_back("The reply holds no code: no ```cuda fenced block and no `__global__` kernel.");
      return ex;
    }
    code = reply;
    ex.notes.push_back("the reply has no fenced code block; its whole text was taken as the code");
  } else {
    std::vector<size_t> withKernel;
    for (size_t i = 0; i < blocks.size(); ++i)
      if (!globalKernels(blocks[i].text).empty())
        withKernel.push_back(i);
    if (withKernel.empty()) {
      ex.problems.push_back("None of the reply's " + std::to_string(blocks.size()) +
                            " code block(s) defines a `__global__` kernel (with a body).");
      return ex;
    }
    if (withKernel.size() > 1) {
      std::string which;
      for (size_t i = 0; i < withKernel.size(); ++i)
        which += (i ? (i + 1 == withKernel.size() ? " and " : ", ") : "") +
                 std::string("the block at line ") + std::to_string(blocks[withKernel[i]].firstLine);
      ex.problems.push_back("The reply has " + std::to_string(withKernel.size()) +
                            " code blocks that define `__global__` kernels (" + which +
                            "); ksynth checks exactly one candidate, so send one block.");
      return ex;
    }
    const Block &b = blocks[withKernel[0]];
    code = b.text;
    if (!b.closed)
      ex.notes.push_back("the code block starting at line " + std::to_string(b.firstLine) +
                         " of the reply is not closed; the rest of the reply was taken as code");
    // A launch line the reply gave outside the kernel's block (prose or another block).
    if (launchLines(code).empty()) {
      std::vector<std::string> elsewhere = launchLines(reply);
      if (elsewhere.size() == 1) {
        code = elsewhere[0] + "\n" + code;
        ex.notes.push_back("the `// ksynth:launch` line was outside the kernel's code block; it was moved above it");
      }
    }
  }

  std::vector<std::string> kernels = globalKernels(code);
  if (kernels.size() > 1) {
    ex.problems.push_back("The code defines " + std::to_string(kernels.size()) + " `__global__` kernels (" +
                          quoteList(kernels) + "); ksynth launches exactly one kernel, `" + specName +
                          "`: keep that one and turn the others into `__device__` functions or remove them.");
  } else if (kernels.empty()) {
    ex.problems.push_back("The code defines no `__global__` kernel with a body.");
  } else {
    ex.kernelName = kernels[0];
    if (kernels[0] != specName)
      ex.notes.push_back("the kernel is named `" + kernels[0] + "`, not `" + specName + "`; it was checked all the same");
  }

  std::vector<std::string> launch = launchLines(code);
  if (launch.empty()) {
    ex.problems.push_back("There is no launch line. Put `// ksynth:launch grid=(...) block=(...)` directly above the "
                          "kernel: the grid as C integer expressions over the sizes, the block as integer constants.");
  } else if (launch.size() > 1) {
    ex.problems.push_back("There are " + std::to_string(launch.size()) + " launch lines (" + quoteList(launch) +
                          "); keep exactly one.");
  } else {
    const std::string &l = launch[0];
    std::string missing;
    if (l.find("grid=") == std::string::npos)
      missing += "`grid=(...)`";
    if (l.find("block=") == std::string::npos)
      missing += std::string(missing.empty() ? "" : " and ") + "`block=(...)`";
    if (!missing.empty())
      ex.problems.push_back("The launch line `" + l + "` lacks " + missing + ".");
  }

  std::string bare = stripCommentsAndStrings(code);
  std::vector<std::string> host;
  static const std::regex mainRe(R"(\bint\s+main\s*\()"), launchRe(R"(<<<)"),
      apiRe(R"(\bcuda(Malloc|Memcpy|Free|DeviceSynchronize)\w*\s*\()");
  std::smatch m;
  if (std::regex_search(bare, m, mainRe))
    host.push_back("`main` at line " + std::to_string(lineOf(bare, m.position(0))));
  if (std::regex_search(bare, m, launchRe))
    host.push_back("a `<<<...>>>` launch at line " + std::to_string(lineOf(bare, m.position(0))));
  if (std::regex_search(bare, m, apiRe))
    host.push_back("CUDA runtime calls (first at line " + std::to_string(lineOf(bare, m.position(0))) + ")");
  if (!host.empty()) {
    std::string h;
    for (size_t i = 0; i < host.size(); ++i)
      h += (i ? ", " : "") + host[i];
    ex.notes.push_back("the code also holds host code (" + h +
                       "); the verifier ignores it, only the kernel is checked; send only the kernel");
  }

  if (!code.empty() && code.back() != '\n')
    code += '\n';
  ex.code = code;
  ex.ok = ex.problems.empty();
  return ex;
}

} // namespace ksynth::synth
