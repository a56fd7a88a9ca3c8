#include "verify/driver/report.h"

#include "util/exit_codes.h"

#include <algorithm>
#include <map>

namespace ksynth::driver {

using nlohmann::json;

const char *const kModel =
    "threads interleave arbitrarily between barriers (no lock-step warps); a race is two accesses of "
    "different threads to one address, at least one a write, not both atomic, with no barrier between them "
    "(shared memory: same block; global memory: any two threads of the grid); problem sizes and unspecified "
    "launch dimensions are symbolic; signed integer overflow, division by zero and out-of-range shifts are "
    "errors; unsigned arithmetic wraps";

namespace {

check::Status statusFromName(const std::string &s) {
  for (check::Status st : {check::Status::Proven, check::Status::Refuted, check::Status::Unknown, check::Status::Bounded})
    if (s == check::statusName(st))
      return st;
  throw json::other_error::create(501, "unknown status '" + s + "'", nullptr);
}

} // namespace

json obligationJson(const check::Obligation &o) {
  json j = {{"kind", check::kindName(o.kind)},
            {"name", o.name},
            {"status", check::statusName(o.status)},
            {"time_ms", o.ms}};
  if (!o.reason.empty())
    j["reason"] = o.reason;
  if (o.status == check::Status::Bounded)
    j["bound"] = o.bound;
  if (!o.queries.empty())
    j["queries"] = o.queries;
  if (o.loc.valid())
    j["line"] = o.loc.line, j["col"] = o.loc.col;
  if (!o.loc.file.empty())
    j["file"] = o.loc.file;
  if (!o.notes.empty()) {
    json notes = json::array();
    for (const check::Note &n : o.notes)
      notes.push_back(n.text);
    j["notes"] = notes;
  }
  if (!o.witness.is_null())
    j["witness"] = o.witness;
  return j;
}

check::Obligation obligationFromJson(const json &j) {
  check::Obligation o;
  if (!check::kindFromName(j.at("kind").get<std::string>(), o.kind))
    throw json::other_error::create(501, "unknown obligation kind '" + j.at("kind").get<std::string>() + "'", &j);
  o.name = j.at("name").get<std::string>();
  o.status = statusFromName(j.at("status").get<std::string>());
  o.ms = j.at("time_ms").get<double>();
  o.reason = j.value("reason", "");
  o.bound = j.value("bound", 0);
  o.queries = j.value("queries", std::vector<std::string>{});
  if (j.contains("line"))
    o.loc.line = j.at("line").get<unsigned>(), o.loc.col = j.at("col").get<unsigned>();
  o.loc.file = j.value("file", "");
  for (const json &n : j.value("notes", json::array()))
    o.notes.push_back({ir::Loc{}, n.get<std::string>()});
  if (j.contains("witness"))
    o.witness = j.at("witness");
  return o;
}

json queryStats(const std::vector<KernelResult> &kernels, size_t slowest) {
  std::vector<const smt::QueryRecord *> all;
  for (const KernelResult &k : kernels)
    for (const smt::QueryRecord &q : k.queries)
      all.push_back(&q);
  double ms = 0;
  std::map<std::string, int> byStatus = {{"sat", 0}, {"unsat", 0}, {"unknown", 0}};
  int dumped = 0, repeated = 0, sliced = 0;
  for (const smt::QueryRecord *q : all) {
    ms += q->ms;
    byStatus[smt::statusName(q->status)]++;
    dumped += !q->file.empty();
    repeated += q->repeated;
    sliced += q->sliced;
  }
  std::stable_sort(all.begin(), all.end(), [](auto *a, auto *b) { return a->ms > b->ms; });
  json slow = json::array();
  for (size_t i = 0; i < all.size() && i < slowest; ++i)
    slow.push_back({{"name", all[i]->name}, {"status", smt::statusName(all[i]->status)}, {"time_ms", all[i]->ms}});
  return {{"queries", all.size()}, {"answers", byStatus}, {"written", dumped}, {"repeated", repeated},
          {"sliced", sliced}, {"solver_ms", ms}, {"slowest", slow}};
}

int FileReport::exitCode() const {
  switch (outcome) {
  case Outcome::Malformed: return kExitMalformed;
  case Outcome::Usage: return kExitUsage;
  case Outcome::Internal: return kExitInternal;
  case Outcome::Verified: break;
  }
  switch (verdict) {
  case check::Status::Proven: return kExitProven;
  case check::Status::Refuted: return kExitRefuted;
  case check::Status::Unknown:
  case check::Status::Bounded: return kExitUnknown;
  }
  return kExitInternal;
}

std::vector<std::string> FileReport::assumptions() const {
  std::vector<std::string> out;
  for (const KernelResult &r : kernels)
    for (const std::string &a : r.report.assumptions)
      if (std::find(out.begin(), out.end(), a) == out.end())
        out.push_back(a);
  return out;
}

json FileReport::toJson() const {
  if (outcome == Outcome::Malformed) {
    if (malformedPart.empty())
      return nullptr;
    json j = {{"tool", "ksynth"}, {"verdict", "malformed"}, {"errors", malformedErrors}};
    if (malformedPart != "spec")
      j["file"] = file;
    if (malformedPart != "kernel")
      j["spec"] = specFile;
    return j;
  }
  if (outcome != Outcome::Verified)
    return nullptr;
  json ks = json::array();
  for (const KernelResult &r : kernels) {
    json obl = json::array();
    for (const check::Obligation &o : r.report.obligations)
      obl.push_back(obligationJson(o));
    json diags = json::array();
    for (const frontend::Diagnostic &d : r.notes)
      diags.push_back({{"severity", d.severity}, {"line", d.line}, {"col", d.col}, {"message", d.message}});
    ks.push_back({{"name", r.report.name},
                  {"verdict", check::statusName(r.report.verdict)},
                  {"launch", r.report.launch},
                  {"obligations", obl},
                  {"abstractions", r.report.abstractions},
                  {"diagnostics", diags},
                  {"assumptions", r.report.assumptions},
                  {"time_ms", r.ms}});
  }
  json out = {{"tool", "ksynth"}, {"version", version},         {"solver", solver},
              {"file", file},     {"verdict", check::statusName(verdict)}, {"checks", checks},
              {"kernels", ks},    {"assumptions", assumptions()}, {"model", kModel},
              {"time_ms", ms}};
  if (!specFile.empty())
    out["spec"] = {{"file", specFile}, {"name", specName}};
  out["headers"] = {{"cuda_toolkit", cudaToolkit.empty() ? json(nullptr) : json(cudaToolkit)},
                    {"notes", headerNotes}};
  if (withStats)
    out["stats"] = queryStats(kernels);
  return out;
}

FileReport FileReport::fromJson(const json &j) {
  FileReport r;
  if (j.at("verdict").get<std::string>() == "malformed") {
    r.outcome = Outcome::Malformed;
    r.file = j.value("file", "");
    r.specFile = j.value("spec", "");
    r.malformedPart = !j.contains("file") ? "spec" : !j.contains("spec") ? "kernel" : "binding";
    r.malformedErrors = j.at("errors");
    return r;
  }
  r.file = j.at("file").get<std::string>();
  r.version = j.at("version").get<std::string>();
  r.solver = j.at("solver").get<std::string>();
  r.verdict = statusFromName(j.at("verdict").get<std::string>());
  r.checks = j.at("checks").get<std::set<std::string>>();
  r.ms = j.at("time_ms").get<double>();
  if (j.contains("headers")) {
    const json &h = j.at("headers");
    if (h.contains("cuda_toolkit") && h.at("cuda_toolkit").is_string())
      r.cudaToolkit = h.at("cuda_toolkit").get<std::string>();
    r.headerNotes = h.value("notes", std::vector<std::string>{});
  }
  if (j.contains("spec")) {
    r.specFile = j.at("spec").at("file").get<std::string>();
    r.specName = j.at("spec").at("name").get<std::string>();
  }
  for (const json &k : j.at("kernels")) {
    KernelResult kr;
    kr.report.name = k.at("name").get<std::string>();
    kr.report.verdict = statusFromName(k.at("verdict").get<std::string>());
    kr.report.launch = k.at("launch").get<std::string>();
    for (const json &o : k.at("obligations"))
      kr.report.obligations.push_back(obligationFromJson(o));
    kr.report.abstractions = k.at("abstractions").get<std::vector<std::string>>();
    kr.report.assumptions = k.at("assumptions").get<std::vector<std::string>>();
    for (const json &d : k.at("diagnostics"))
      kr.notes.push_back({r.file, d.at("line").get<unsigned>(), d.at("col").get<unsigned>(),
                          d.at("severity").get<std::string>(), d.at("message").get<std::string>()});
    kr.ms = k.at("time_ms").get<double>();
    r.kernels.push_back(std::move(kr));
  }
  return r;
}

} // namespace ksynth::driver
