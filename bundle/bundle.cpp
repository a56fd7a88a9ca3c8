#include "bundle/bundle.h"

#include "util/files.h"
#include "util/sha256.h"
#include "util/version.h"

#include <filesystem>
#include <fstream>
#include <set>

namespace ksynth::bundle {

namespace fs = std::filesystem;
using nlohmann::json;
using util::readFile;
using util::sha256Hex;

std::string selfHash(json j) {
  j.erase("sha256");
  return sha256Hex(j.dump());
}

namespace {

std::string argumentFor(const json &o, bool specObligation) {
  std::string st = o.value("status", "");
  if (st == "proven") {
    if (!o.contains("queries") || o["queries"].empty())
      return "decided without a solver query: no candidate violation (no pair of accesses, or every site is "
             "safe by its integer ranges)";
    return specObligation ? "every query is unsat; by ksynth's proof rules for coverage and equivalence "
                            "(verify/equiv/prove.h) they establish the obligation, the safety queries included"
                          : "the query is unsat: no admitted launch, size and thread pair violates the obligation";
  }
  if (st == "bounded")
    return "bounded only: holds for every size with each dim <= " + std::to_string(o.value("bound", 0)) +
           " (the bounded check on symbolic inputs; no solver query to re-check)";
  return st + ": " + o.value("reason", "");
}

} // namespace

bool writeProofBundle(const std::string &dir, const json &report, const std::string &kernelPath,
                      const std::string &specPath, const std::vector<std::string> &command, std::string &why) {
  std::error_code ec;
  fs::create_directories(fs::path(dir) / "queries", ec);
  if (ec) {
    why = "cannot create '" + dir + "': " + ec.message();
    return false;
  }
  std::string kernelText, specText;
  if (!readFile(kernelPath, kernelText)) {
    why = "cannot read '" + kernelPath + "'";
    return false;
  }
  if (!specPath.empty() && !readFile(specPath, specText)) {
    why = "cannot read '" + specPath + "'";
    return false;
  }
  std::ofstream(fs::path(dir) / "kernel.cu", std::ios::binary) << kernelText;
  if (!specPath.empty())
    std::ofstream(fs::path(dir) / "spec.smt", std::ios::binary) << specText;

  json p;
  p["format"] = "ksynth-proof-1";
  p["ksynth"] = {{"version", util::version()}, {"git", util::gitRevision()}};
  p["solver"] = report.value("solver", "");
  p["command"] = command;
  p["kernel"] = {{"file", "kernel.cu"}, {"source", kernelPath}, {"sha256", sha256Hex(kernelText)}};
  if (!specPath.empty())
    p["spec"] = {{"file", "spec.smt"}, {"source", specPath}, {"sha256", sha256Hex(specText)}};
  p["verdict"] = report.value("verdict", "unknown");
  p["checks"] = report.value("checks", json::array());
  p["model"] = report.value("model", "");
  p["assumptions"] = report.value("assumptions", json::array());
  json kernels = json::array();
  for (const json &k : report.value("kernels", json::array())) {
    json ko = {{"name", k.value("name", "")},
               {"verdict", k.value("verdict", "")},
               {"launch", k.value("launch", "")},
               {"assumptions", k.value("assumptions", json::array())}};
    json obl = json::array();
    for (const json &o : k.value("obligations", json::array())) {
      std::string kind = o.value("kind", "");
      json e = {{"name", o.value("name", "")},
                {"kind", kind},
                {"status", o.value("status", "")},
                {"time_ms", o.value("time_ms", 0.0)}};
      for (const char *f : {"reason", "bound", "line", "witness"})
        if (o.contains(f))
          e[f] = o[f];
      json qs = json::array();
      for (const json &q : o.value("queries", json::array())) {
        std::string file = q.get<std::string>(), text;
        if (!readFile(fs::path(dir) / "queries" / file, text)) {
          why = "query file '" + file + "' of " + o.value("name", "") + " was not written";
          return false;
        }
        qs.push_back({{"file", "queries/" + file}, {"sha256", sha256Hex(text)}});
      }
      e["queries"] = qs;
      e["argument"] = argumentFor(o, kind == "coverage" || kind == "equivalence");
      obl.push_back(e);
    }
    ko["obligations"] = obl;
    kernels.push_back(ko);
  }
  p["kernels"] = kernels;
  // Queries no obligation rests on (search steps answered sat or unknown) leave the bundle.
  std::set<std::string> used; // relative to DIR
  for (const json &k : kernels)
    for (const json &o : k["obligations"])
      for (const json &q : o["queries"])
        used.insert(q.value("file", ""));
  std::vector<fs::path> unused;
  for (const auto &entry : fs::recursive_directory_iterator(fs::path(dir) / "queries", ec))
    if (entry.is_regular_file() && !used.count(fs::relative(entry.path(), dir).string()))
      unused.push_back(entry.path());
  for (const fs::path &f : unused)
    fs::remove(f, ec);
  p["sha256"] = selfHash(p);
  std::ofstream out(fs::path(dir) / "proof.json");
  out << p.dump(2) << "\n";
  if (!out) {
    why = "cannot write '" + (fs::path(dir) / "proof.json").string() + "'";
    return false;
  }
  return true;
}

} // namespace ksynth::bundle
