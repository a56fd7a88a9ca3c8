#include "synth/feedback.h"

#include <map>
#include <sstream>

namespace ksynth::synth {

using nlohmann::json;

namespace {

const char *const kKinds[] = {"race", "barrier", "bounds", "overflow", "assert", "warp", "align", "coverage", "equivalence"};

const json &obligations(const CheckOutcome &c) {
  static const json empty = json::array();
  if (!c.report.is_object() || !c.report.contains("kernels") || c.report["kernels"].empty())
    return empty;
  const json &k = c.report["kernels"][0];
  return k.contains("obligations") ? k["obligations"] : empty;
}

std::string sourceLine(const std::string &code, int line) {
  std::stringstream in(code);
  std::string l;
  for (int i = 1; std::getline(in, l); ++i)
    if (i == line) {
      size_t a = l.find_first_not_of(" \t");
      return a == std::string::npos ? "" : l.substr(a);
    }
  return "";
}

std::string shorten(const std::string &s, size_t n) {
  if (s.size() <= n)
    return s;
  return s.substr(0, n) + "...";
}

// "thread 128 of block 0 writes C[128] (as C[i]) (i=128)" -> "thread 128 of block 0 writes C[128]"
std::string noteHead(const std::string &note) {
  size_t p = note.find(" (as ");
  return p == std::string::npos ? note : note.substr(0, p);
}

std::string firstLine(const std::string &s) {
  size_t nl = s.find('\n');
  return nl == std::string::npos ? s : s.substr(0, nl);
}

// The sizes the witness ran at: the last note usually ends with them ("...; blockDim=...,
// N=129, __len(A)=129"). Keeps the problem sizes, drops the derived __len facts.
std::string sizesOf(const json &o) {
  if (!o.contains("witness") || !o["witness"].contains("params"))
    return "";
  std::string s;
  for (auto &[k, v] : o["witness"]["params"].items())
    s += (s.empty() ? "" : ", ") + k + "=" + v.dump();
  return s;
}

std::string headline(const json &o) {
  std::string kind = o.value("kind", "");
  std::vector<std::string> notes;
  if (o.contains("notes"))
    for (const json &n : o["notes"])
      notes.push_back(n.get<std::string>());
  std::string where = o.contains("line") ? "line " + std::to_string(o["line"].get<int>()) + ": " : "";
  if ((kind == "race" || kind == "barrier") && notes.size() >= 2) {
    std::string s = where + noteHead(notes[0]) + "; " + noteHead(notes[1]);
    std::string sizes = sizesOf(o);
    return s + (sizes.empty() ? "" : " at " + sizes);
  }
  if ((kind == "bounds" || kind == "overflow" || kind == "assert") && !notes.empty()) {
    std::string sizes = sizesOf(o);
    return where + noteHead(notes[0]) + (sizes.empty() ? "" : " at " + sizes);
  }
  return where + o.value("reason", "");
}

} // namespace

std::string CheckOutcome::verdict() const {
  if (report.is_object() && report.contains("verdict")) {
    std::string v = report["verdict"].get<std::string>();
    return v;
  }
  if (exitCode == 65 || exitCode == 64)
    return "malformed";
  return "error";
}

int CheckOutcome::proven() const {
  int n = 0;
  for (const json &o : obligations(*this))
    n += o.value("status", "") == "proven";
  return n;
}

int CheckOutcome::total() const { return static_cast<int>(obligations(*this).size()); }

int CheckOutcome::refuted() const {
  int n = 0;
  for (const json &o : obligations(*this))
    n += o.value("status", "") == "refuted";
  return n;
}

std::string progressSummary(const CheckOutcome &c) {
  std::string v = c.verdict();
  if (v == "malformed" || v == "error") {
    std::string why = firstLine(c.errors);
    if (c.report.is_object() && c.report.contains("errors") && c.report["errors"].is_array() &&
        !c.report["errors"].empty())
      why = c.report["errors"][0].value("message", why);
    return std::string(v == "malformed" ? "not checked" : "verifier failed") + " (" + shorten(why, 120) + ")";
  }
  const json &obl = obligations(c);
  if (v == "proven" && !obl.empty())
    return "all " + std::to_string(obl.size()) + " obligations proven";
  std::map<std::string, char> mark; // worst per kind: 'x' refuted, '?' unknown, 'v' proven
  const json *first = nullptr, *firstUnknown = nullptr;
  for (const json &o : obl) {
    std::string kind = o.value("kind", ""), st = o.value("status", "");
    char m = st == "proven" ? 'v' : st == "refuted" ? 'x' : '?';
    char &cur = mark.try_emplace(kind, 'v').first->second;
    if (m == 'x' || (m == '?' && cur == 'v'))
      cur = m;
    if (m == 'x' && !first)
      first = &o;
    if (m == '?' && !firstUnknown)
      firstUnknown = &o;
  }
  std::string s;
  for (const char *k : kKinds) {
    auto it = mark.find(k);
    if (it == mark.end())
      continue;
    s += (s.empty() ? "" : " ") + std::string(k) + " " +
         (it->second == 'v' ? "\u2713" : it->second == 'x' ? "\u2717" : "?");
  }
  if (first)
    s += "  (" + shorten(headline(*first), 160) + ")";
  else if (firstUnknown)
    s += "  (" + firstUnknown->value("name", "") + " unknown: " + shorten(firstUnknown->value("reason", ""), 120) + ")";
  return s;
}

std::string failureDetails(const CheckOutcome &c, const std::string &code) {
  std::string out;
  std::string v = c.verdict();
  if (v == "malformed" || v == "error") {
    out += "The verifier could not check it:\n";
    if (c.report.is_object() && c.report.contains("errors") && c.report["errors"].is_array()) {
      for (const json &e : c.report["errors"])
        out += "- line " + std::to_string(e.value("line", 0)) + ": " + e.value("message", "") + "\n";
    } else if (c.report.is_object() && c.report.contains("errors") && c.report["errors"].is_string()) {
      out += c.report["errors"].get<std::string>();
    } else {
      out += c.errors;
    }
    if (!out.empty() && out.back() != '\n')
      out += '\n';
    return out;
  }
  if (c.report.is_object() && c.report.contains("kernels") && !c.report["kernels"].empty()) {
    const json &k = c.report["kernels"][0];
    if (k.contains("diagnostics"))
      for (const json &d : k["diagnostics"])
        out += "- " + d.value("severity", "note") + " at line " + std::to_string(d.value("line", 0)) + ": " +
               d.value("message", "") + "\n";
  }
  int shown = 0, refuted = 0, unknown = 0;
  for (const json &o : obligations(c)) {
    std::string st = o.value("status", "");
    if (st == "proven")
      continue;
    (st == "refuted" ? refuted : unknown)++;
    if (++shown > 8)
      continue;
    out += "- " + o.value("kind", "") + " (" + o.value("name", "") + ") " +
           (st == "refuted" ? "REFUTED" : st == "bounded" ? "BOUNDED (holds only for small sizes)" : "UNKNOWN");
    if (o.contains("line")) {
      int line = o["line"].get<int>();
      std::string src = sourceLine(code, line);
      out += " at line " + std::to_string(line) + (src.empty() ? "" : " `" + src + "`");
    }
    out += ": " + shorten(o.value("reason", ""), 600) + "\n";
    if (o.contains("notes"))
      for (const json &n : o["notes"])
        out += "    " + shorten(n.get<std::string>(), 400) + "\n";
  }
  if (shown > 8)
    out += "- ... and " + std::to_string(shown - 8) + " more (listed below)\n";
  if (refuted)
    out += "Each counterexample above was replayed on ksynth's concrete interpreter: it is a real execution, "
           "not a guess.\n";
  else if (unknown)
    out += "Nothing was refuted, but these obligations could not be proven; a kernel is accepted only when every "
           "obligation is proven, so write the kernel in a form the verifier can prove (see the task).\n";
  return out;
}

std::string obligationTable(const CheckOutcome &c) {
  std::string out;
  for (const json &o : obligations(c)) {
    out += "  " + o.value("name", "") + ": " + o.value("status", "");
    if (o.contains("line") && o.value("status", "") != "proven")
      out += " (line " + std::to_string(o["line"].get<int>()) + ")";
    out += "\n";
  }
  if (out.empty())
    out = "  (none: the kernel was not checked)";
  while (!out.empty() && out.back() == '\n')
    out.pop_back();
  return out;
}

std::vector<std::string> failingObligations(const CheckOutcome &c) {
  std::vector<std::string> out;
  for (const json &o : obligations(c))
    if (o.value("status", "") != "proven")
      out.push_back(o.value("name", "") + ": " + o.value("status", "") +
                    (o.contains("reason") ? " (" + shorten(o.value("reason", ""), 200) + ")" : ""));
  return out;
}

} // namespace ksynth::synth
