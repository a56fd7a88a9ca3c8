#include "synth/bench_report.h"

#include "synth/bench.h"

#include <cstdio>
#include <sstream>

namespace ksynth::synth::bench {

using nlohmann::json;

namespace {

std::string str(const json &j, const char *k) {
  return j.is_object() && j.contains(k) && j[k].is_string() ? j[k].get<std::string>() : "";
}

std::string label(const json &s) {
  std::string l = str(s, "label");
  if (l.empty())
    l = str(s, "model");
  if (l.empty())
    l = str(s, "provider");
  return l.empty() ? "run" : l;
}

// Where the replies came from, in words; never a live model's for a replay or a fixture.
std::string origin(const json &s) {
  std::string src = str(s, "source"), model = str(s, "model"), provider = str(s, "provider");
  std::string o;
  if (src == "replay")
    o = "replayed from the transcripts recorded by the run " + str(s, "replayed_from") +
        ": no model was asked anything in this run";
  else if (src == "fixture")
    o = "the bundled authored transcripts: replies written by hand for ksynth's demo, not a model's output";
  else {
    std::string ep = str(s, "endpoint");
    bool local = ep.find("://127.") != std::string::npos || ep.find("://localhost") != std::string::npos ||
                 ep.find("://[::1]") != std::string::npos;
    o = "live requests to " + (model.empty() ? std::string("the model") : model) + " through the " + provider +
        " provider" + (ep.empty() ? "" : " at " + ep) + (local ? " (a server on the machine that ran the bench)" : "");
  }
  if (!str(s, "note").empty())
    o += "; note given with the run: " + str(s, "note");
  return o;
}

std::string pct(const json &v) { return percentText(v, "–"); }

std::string fixed(double v, int digits) {
  char b[32];
  std::snprintf(b, sizeof b, "%.*f", digits, v);
  return b;
}

std::vector<std::string> stageColumns() {
  std::vector<std::string> c = kStages;
  c.push_back("allclose");
  return c;
}

std::string esc(const std::string &s) {
  std::string o;
  for (char c : s)
    switch (c) {
    case '&': o += "&amp;"; break;
    case '<': o += "&lt;"; break;
    case '>': o += "&gt;"; break;
    case '"': o += "&quot;"; break;
    default: o += c;
    }
  return o;
}

std::string mdCell(const std::string &s) {
  std::string o;
  for (char c : s)
    o += c == '|' ? std::string("\\|") : std::string(1, c);
  return o;
}

std::string kindsText(const json &byKind) {
  std::string t;
  for (const auto &[k, v] : byKind.items())
    t += (t.empty() ? "" : ", ") + k + " " + std::to_string(v.get<int>());
  return t.empty() ? "–" : t;
}

// The tables both pages show, as rows of cells (the first row the header).
using Table = std::vector<std::vector<std::string>>;

Table runsTable(const std::vector<json> &ss) {
  Table t = {{"run", "origin", "specs", "samples per spec", "repair rounds", "samples finished", "candidates", "tokens in / out", "model errors", "ksynth errors"}};
  for (const json &s : ss) {
    const json &tok = s["tokens"];
    t.push_back({label(s), origin(s), std::to_string(s.value("specs", 0)), std::to_string(s.value("samples", 0)),
                 std::to_string(s.value("rounds", 0)),
                 std::to_string(s.value("tasks_done", 0)) + " of " + std::to_string(s.value("tasks", 0)),
                 std::to_string(s.value("candidates", 0)),
                 tok.is_object() ? fixed(tok.value("input", 0.0), 0) + " / " + fixed(tok.value("output", 0.0), 0) : "not reported",
                 std::to_string(s.value("model_errors", 0)), std::to_string(s.value("verifier_errors", 0))});
  }
  return t;
}

Table passTable(const std::vector<json> &ss) {
  Table t = {{"run", "k"}};
  for (const std::string &c : stageColumns())
    t[0].push_back(c == "allclose" ? "plain test" : c);
  for (const json &s : ss)
    for (const json &k : s["ks"]) {
      std::string kk = std::to_string(k.get<int>());
      std::vector<std::string> row = {label(s), kk};
      for (const std::string &c : stageColumns())
        row.push_back(pct(s["pass_at_k"][c].value(kk, json())));
      t.push_back(row);
    }
  return t;
}

Table repairTable(const std::vector<json> &ss) {
  int maxR = 0;
  for (const json &s : ss)
    maxR = std::max(maxR, s.value("rounds", 0));
  Table t = {{"run", "pass@1 of"}};
  for (int r = 1; r <= maxR; ++r)
    t[0].push_back("rounds 1.." + std::to_string(r));
  for (const json &s : ss)
    for (const char *c : {"safe", "equivalent", "allclose"}) {
      std::vector<std::string> row = {label(s), std::string(c) == "allclose" ? "plain test" : c};
      const json &curve = s["repair"][c];
      for (int r = 0; r < maxR; ++r)
        row.push_back(r < static_cast<int>(curve.size()) ? pct(curve[static_cast<size_t>(r)]) : "–");
      t.push_back(row);
    }
  return t;
}

Table illusionTable(const std::vector<json> &ss) {
  Table t = {{"run", "candidates passing the plain test", "refuted by proof", "undecided", "proven", "illusion rate", "refuted: first failed obligation"}};
  for (const json &s : ss) {
    const json &i = s["illusion"];
    t.push_back({label(s), std::to_string(i.value("plain_passed", 0)), std::to_string(i.value("refuted", 0)),
                 std::to_string(i.value("undecided", 0)), std::to_string(i.value("proven", 0)), pct(i["rate"]),
                 kindsText(i["by_kind"])});
  }
  return t;
}

Table fastTable(const std::vector<json> &ss) {
  Table t = {{"run", "fast_0 (proven, ran on a GPU)", "fast_1 (and faster than the baseline)", "kernels run: GPU / interpreter"}};
  for (const json &s : ss) {
    const json &f = s["fast_p"];
    std::string runs = std::to_string(s["ran_on"].value("gpu", 0)) + " / " + std::to_string(s["ran_on"].value("interpreter", 0));
    if (f.value("available", false))
      t.push_back({label(s), pct(f["0"]), pct(f["1"]), runs});
    else
      t.push_back({label(s), "not available: " + str(f, "why"), "–", runs});
  }
  return t;
}

Table specTable(const json &s) {
  Table t = {{"spec", "samples"}};
  for (const std::string &c : stageColumns())
    t[0].push_back(c == "allclose" ? "plain test" : c);
  t[0].push_back("plain-test passes refuted");
  t[0].push_back("mean rounds to proof");
  for (const json &p : s["per_spec"]) {
    std::vector<std::string> row = {str(p, "spec"), std::to_string(p.value("samples", 0))};
    for (const std::string &c : stageColumns())
      row.push_back(std::to_string(p["reached"].value(c, 0)));
    row.push_back(std::to_string(p["illusions"].value("refuted", 0)) + " of " + std::to_string(p["illusions"].value("plain_passed", 0)));
    row.push_back(p["mean_rounds_to_proof"].is_number() ? fixed(p["mean_rounds_to_proof"].get<double>(), 2) : "–");
    t.push_back(row);
  }
  return t;
}

std::string markdownTable(const Table &t) {
  std::string o;
  for (size_t r = 0; r < t.size(); ++r) {
    o += "|";
    for (const std::string &c : t[r])
      o += " " + mdCell(c) + " |";
    o += "\n";
    if (r == 0) {
      o += "|";
      for (size_t i = 0; i < t[0].size(); ++i)
        o += "---|";
      o += "\n";
    }
  }
  return o;
}

std::string htmlTable(const Table &t) {
  std::string o = "<table>\n";
  for (size_t r = 0; r < t.size(); ++r) {
    o += "<tr>";
    for (const std::string &c : t[r])
      o += (r == 0 ? "<th>" : "<td>") + esc(c) + (r == 0 ? "</th>" : "</td>");
    o += "</tr>\n";
  }
  return o + "</table>\n";
}

const char *const kColours[] = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#9c755f"};
const char *colour(size_t i) { return kColours[i % (sizeof kColours / sizeof *kColours)]; }

// The y axis of a 0..100% plot: grid lines and labels.
std::string percentAxis(int x0, int x1, int y0, int h) {
  std::string o;
  for (int p = 0; p <= 100; p += 25) {
    int y = y0 + h - h * p / 100;
    o += "<line x1=\"" + std::to_string(x0) + "\" x2=\"" + std::to_string(x1) + "\" y1=\"" + std::to_string(y) +
         "\" y2=\"" + std::to_string(y) + "\" class=\"grid\"/>";
    o += "<text x=\"" + std::to_string(x0 - 6) + "\" y=\"" + std::to_string(y + 4) + "\" class=\"ylab\">" +
         std::to_string(p) + "%</text>";
  }
  return o;
}

std::string legend(const std::vector<std::string> &names, int x, int y) {
  std::string o;
  for (size_t i = 0; i < names.size(); ++i) {
    int yy = y + static_cast<int>(i) * 16;
    o += "<rect x=\"" + std::to_string(x) + "\" y=\"" + std::to_string(yy) + "\" width=\"10\" height=\"10\" fill=\"" +
         colour(i) + "\"/><text x=\"" + std::to_string(x + 14) + "\" y=\"" + std::to_string(yy + 9) +
         "\" class=\"leg\">" + esc(names[i]) + "</text>";
  }
  return o;
}

// pass@k per stage of one run: a group of bars per stage, one bar per k.
std::string passChart(const json &s) {
  std::vector<std::string> cols = stageColumns();
  const int left = 48, top = 16, h = 180, groupW = 84, w = left + groupW * static_cast<int>(cols.size()) + 110;
  std::string o = "<svg class=\"chart pass\" role=\"img\" width=\"" + std::to_string(w) + "\" height=\"" +
                  std::to_string(top + h + 40) + "\" viewBox=\"0 0 " + std::to_string(w) + " " +
                  std::to_string(top + h + 40) + "\"><title>pass@k per stage: " + esc(label(s)) + "</title>";
  o += percentAxis(left, left + groupW * static_cast<int>(cols.size()), top, h);
  std::vector<std::string> names;
  const json &ks = s["ks"];
  int nk = static_cast<int>(ks.size());
  for (size_t ki = 0; ki < ks.size(); ++ki)
    names.push_back("pass@" + std::to_string(ks[ki].get<int>()));
  for (size_t c = 0; c < cols.size(); ++c) {
    int gx = left + static_cast<int>(c) * groupW + 8;
    int bw = nk ? (groupW - 16) / nk : 0;
    for (int ki = 0; ki < nk; ++ki) {
      const json &v = s["pass_at_k"][cols[c]].value(std::to_string(ks[static_cast<size_t>(ki)].get<int>()), json());
      double p = v.is_number() ? v.get<double>() : 0;
      int bh = static_cast<int>(h * p + 0.5);
      o += "<rect class=\"bar\" x=\"" + std::to_string(gx + ki * bw) + "\" y=\"" + std::to_string(top + h - bh) +
           "\" width=\"" + std::to_string(bw - 2) + "\" height=\"" + std::to_string(bh) + "\" fill=\"" +
           colour(static_cast<size_t>(ki)) + "\"><title>" + esc(cols[c]) + " " + names[static_cast<size_t>(ki)] + ": " +
           pct(v) + "</title></rect>";
    }
    o += "<text x=\"" + std::to_string(gx + (groupW - 16) / 2) + "\" y=\"" + std::to_string(top + h + 16) +
         "\" class=\"xlab\">" + (cols[c] == "allclose" ? "plain test" : cols[c]) + "</text>";
  }
  o += legend(names, left + groupW * static_cast<int>(cols.size()) + 12, top);
  return o + "</svg>\n";
}

// Repair curves: pass@1 of "equivalent" (solid) and of the plain test (dashed) after each
// round, one colour per run.
std::string repairChart(const std::vector<json> &ss) {
  int maxR = 1;
  for (const json &s : ss)
    maxR = std::max(maxR, s.value("rounds", 1));
  const int left = 48, top = 16, h = 180, w = 420, plotW = w - left - 170;
  std::string o = "<svg class=\"chart repair\" role=\"img\" width=\"" + std::to_string(w) + "\" height=\"" +
                  std::to_string(top + h + 40) + "\" viewBox=\"0 0 " + std::to_string(w) + " " +
                  std::to_string(top + h + 40) + "\"><title>repair rounds</title>";
  o += percentAxis(left, left + plotW, top, h);
  auto xOf = [&](int r) { return left + (maxR == 1 ? plotW / 2 : (r - 1) * plotW / (maxR - 1)); };
  for (int r = 1; r <= maxR; ++r)
    o += "<text x=\"" + std::to_string(xOf(r)) + "\" y=\"" + std::to_string(top + h + 16) + "\" class=\"xlab\">" +
         std::to_string(r) + "</text>";
  o += "<text x=\"" + std::to_string(left + plotW / 2) + "\" y=\"" + std::to_string(top + h + 32) +
       "\" class=\"xlab\">rounds</text>";
  std::vector<std::string> names;
  for (size_t i = 0; i < ss.size(); ++i) {
    for (const char *c : {"equivalent", "allclose"}) {
      const json &curve = ss[i]["repair"][c];
      std::string pts;
      for (size_t r = 0; r < curve.size(); ++r) {
        double p = curve[r].is_number() ? curve[r].get<double>() : 0;
        int x = xOf(static_cast<int>(r) + 1), y = top + h - static_cast<int>(h * p + 0.5);
        pts += std::to_string(x) + "," + std::to_string(y) + " ";
        o += "<circle cx=\"" + std::to_string(x) + "\" cy=\"" + std::to_string(y) + "\" r=\"3\" fill=\"" + colour(i) +
             "\"><title>" + esc(label(ss[i])) + ", " + (std::string(c) == "allclose" ? "plain test" : c) +
             ", rounds 1.." + std::to_string(r + 1) + ": " + pct(curve[r]) + "</title></circle>";
      }
      o += "<polyline class=\"curve\" fill=\"none\" stroke=\"" + std::string(colour(i)) + "\" stroke-width=\"2\"" +
           (std::string(c) == "allclose" ? " stroke-dasharray=\"5,4\"" : "") + " points=\"" + pts + "\"/>";
    }
    names.push_back(label(ss[i]));
  }
  o += legend(names, left + plotW + 16, top);
  o += "<text x=\"" + std::to_string(left + plotW + 16) + "\" y=\"" + std::to_string(top + 16 * static_cast<int>(names.size()) + 14) +
       "\" class=\"leg\">solid: proven equivalent</text>";
  o += "<text x=\"" + std::to_string(left + plotW + 16) + "\" y=\"" + std::to_string(top + 16 * static_cast<int>(names.size()) + 30) +
       "\" class=\"leg\">dashed: plain test passed</text>";
  return o + "</svg>\n";
}

// The correctness-illusion rate per run: one horizontal bar each.
std::string illusionChart(const std::vector<json> &ss) {
  const int left = 160, top = 10, barH = 22, plotW = 300;
  int h = top + static_cast<int>(ss.size()) * (barH + 8) + 30;
  std::string o = "<svg class=\"chart illusion\" role=\"img\" width=\"" + std::to_string(left + plotW + 80) +
                  "\" height=\"" + std::to_string(h) + "\" viewBox=\"0 0 " + std::to_string(left + plotW + 80) + " " +
                  std::to_string(h) + "\"><title>correctness-illusion rate per run</title>";
  for (int p = 0; p <= 100; p += 25) {
    int x = left + plotW * p / 100;
    o += "<line x1=\"" + std::to_string(x) + "\" x2=\"" + std::to_string(x) + "\" y1=\"" + std::to_string(top) +
         "\" y2=\"" + std::to_string(h - 24) + "\" class=\"grid\"/><text x=\"" + std::to_string(x) + "\" y=\"" +
         std::to_string(h - 10) + "\" class=\"xlab\">" + std::to_string(p) + "%</text>";
  }
  for (size_t i = 0; i < ss.size(); ++i) {
    const json &il = ss[i]["illusion"];
    double rate = il["rate"].is_number() ? il["rate"].get<double>() : 0;
    int y = top + static_cast<int>(i) * (barH + 8);
    o += "<text x=\"" + std::to_string(left - 8) + "\" y=\"" + std::to_string(y + 15) + "\" class=\"ylab\">" +
         esc(label(ss[i])) + "</text>";
    o += "<rect class=\"bar\" x=\"" + std::to_string(left) + "\" y=\"" + std::to_string(y) + "\" width=\"" +
         std::to_string(static_cast<int>(plotW * rate + 0.5)) + "\" height=\"" + std::to_string(barH) + "\" fill=\"" +
         colour(i) + "\"><title>" + esc(label(ss[i])) + ": " + std::to_string(il.value("refuted", 0)) + " of " +
         std::to_string(il.value("plain_passed", 0)) + " plain-test passes refuted</title></rect>";
    o += "<text x=\"" + std::to_string(left + static_cast<int>(plotW * rate) + 6) + "\" y=\"" + std::to_string(y + 15) +
         "\" class=\"val\">" + pct(il["rate"]) + " (" + std::to_string(il.value("refuted", 0)) + "/" +
         std::to_string(il.value("plain_passed", 0)) + ")</text>";
  }
  return o + "</svg>\n";
}

const char *const kDefinitions =
    "pass@k: the unbiased estimator 1 - C(n-c,k)/C(n,k) per spec (n samples, c of them reaching the stage in any "
    "round), averaged over specs. Stages: extracted (a kernel in the reply), parses (compiles and is read by the "
    "verifier), safe (no race, barrier divergence, out-of-bounds access or overflow, proven over all sizes), "
    "equivalent (every obligation proven, equivalence with the spec included), ran (the proven kernel's `ksynth run` "
    "agreed with the spec: on a GPU where there is one, else on the CPU interpreter), faster (timed on a GPU, faster "
    "than the given baseline at the same sizes). Plain test: the candidate run once at the default shape on fresh "
    "random inputs and compared with the spec, as a harness without proofs would. Correctness illusion: a candidate "
    "that passes the plain test and that the proof refutes; undecided candidates are not counted as illusions.";

} // namespace

std::string percentText(const json &v, const std::string &none) {
  if (!v.is_number())
    return none;
  char b[32];
  std::snprintf(b, sizeof b, "%.1f%%", 100 * v.get<double>());
  return b;
}

std::string markdownReport(const std::vector<json> &ss) {
  std::ostringstream o;
  o << "# ksynth bench report\n\n" << markdownTable(runsTable(ss)) << "\n" << kDefinitions << "\n\n";
  o << "## pass@k per stage\n\n" << markdownTable(passTable(ss)) << "\n";
  o << "## Repair rounds\n\n" << markdownTable(repairTable(ss)) << "\n";
  o << "## Correctness illusion\n\n" << markdownTable(illusionTable(ss)) << "\n";
  o << "## fast_p\n\n" << markdownTable(fastTable(ss)) << "\n";
  for (const json &s : ss)
    o << "## Per spec: " << label(s) << "\n\n" << markdownTable(specTable(s)) << "\n";
  return o.str();
}

std::string htmlReport(const std::vector<json> &ss) {
  std::ostringstream o;
  o << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>ksynth bench report</title>\n"
       "<style>body{font-family:sans-serif;margin:24px;max-width:1200px;color:#222}"
       "table{border-collapse:collapse;margin:8px 0 20px}td,th{border:1px solid #ccc;padding:3px 8px;"
       "font-size:13px;text-align:left}th{background:#f3f3f3}.origin{background:#fff7e0;border:1px solid #e0c060;"
       "padding:6px 10px;margin:4px 0}.grid{stroke:#ddd}.xlab{font-size:11px;text-anchor:middle}"
       ".ylab{font-size:11px;text-anchor:end}.leg,.val{font-size:11px}p.def{font-size:13px;color:#444}</style>\n"
       "</head><body>\n<h1>ksynth bench report</h1>\n";
  for (const json &s : ss)
    o << "<div class=\"origin\"><b>" << esc(label(s)) << "</b>: " << esc(origin(s)) << "</div>\n";
  o << htmlTable(runsTable(ss)) << "<p class=\"def\">" << esc(kDefinitions) << "</p>\n";
  o << "<h2>pass@k per stage</h2>\n";
  for (const json &s : ss)
    o << "<h3>" << esc(label(s)) << "</h3>\n" << passChart(s);
  o << htmlTable(passTable(ss));
  o << "<h2>Repair rounds</h2>\n" << repairChart(ss) << htmlTable(repairTable(ss));
  o << "<h2>Correctness illusion</h2>\n" << illusionChart(ss) << htmlTable(illusionTable(ss));
  o << "<h2>fast_p</h2>\n" << htmlTable(fastTable(ss));
  for (const json &s : ss)
    o << "<h2>Per spec: " << esc(label(s)) << "</h2>\n" << htmlTable(specTable(s));
  o << "</body></html>\n";
  return o.str();
}

} // namespace ksynth::synth::bench
