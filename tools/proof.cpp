#include "tools/proof.h"

#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#ifndef KSYNTH_VERSION
#define KSYNTH_VERSION "0"
#endif
#ifndef KSYNTH_GIT
#define KSYNTH_GIT "unknown"
#endif

namespace ksynth::cli {

namespace fs = std::filesystem;
using nlohmann::json;

// ---- SHA-256 (FIPS 180-4) ------------------------------------------------------------------

namespace {

constexpr std::array<uint32_t, 64> kRound = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

uint32_t rotr(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

} // namespace

std::string sha256Hex(const std::string &bytes) {
  std::array<uint32_t, 8> h = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                               0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  std::string msg = bytes;
  uint64_t bits = static_cast<uint64_t>(bytes.size()) * 8;
  msg.push_back(static_cast<char>(0x80));
  while (msg.size() % 64 != 56)
    msg.push_back(0);
  for (int i = 7; i >= 0; --i)
    msg.push_back(static_cast<char>((bits >> (8 * i)) & 0xff));
  for (size_t off = 0; off < msg.size(); off += 64) {
    std::array<uint32_t, 64> w{};
    for (int i = 0; i < 16; ++i)
      for (int b = 0; b < 4; ++b)
        w[i] = (w[i] << 8) | static_cast<uint8_t>(msg[off + 4 * i + b]);
    for (int i = 16; i < 64; ++i) {
      uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
      uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
      w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    std::array<uint32_t, 8> v = h;
    for (int i = 0; i < 64; ++i) {
      uint32_t S1 = rotr(v[4], 6) ^ rotr(v[4], 11) ^ rotr(v[4], 25);
      uint32_t ch = (v[4] & v[5]) ^ (~v[4] & v[6]);
      uint32_t t1 = v[7] + S1 + ch + kRound[i] + w[i];
      uint32_t S0 = rotr(v[0], 2) ^ rotr(v[0], 13) ^ rotr(v[0], 22);
      uint32_t maj = (v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]);
      uint32_t t2 = S0 + maj;
      v = {t1 + t2, v[0], v[1], v[2], v[3] + t1, v[4], v[5], v[6]};
    }
    for (int i = 0; i < 8; ++i)
      h[i] += v[i];
  }
  static const char *hex = "0123456789abcdef";
  std::string out;
  for (uint32_t x : h)
    for (int s = 28; s >= 0; s -= 4)
      out.push_back(hex[(x >> s) & 0xf]);
  return out;
}

namespace {

bool readFile(const fs::path &p, std::string &out) {
  std::ifstream f(p, std::ios::binary);
  if (!f)
    return false;
  std::ostringstream ss;
  ss << f.rdbuf();
  out = ss.str();
  return true;
}

// The hash that closes proof.json: over its canonical dump without the field itself.
std::string selfHash(json j) {
  j.erase("sha256");
  return sha256Hex(j.dump());
}

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
  p["ksynth"] = {{"version", KSYNTH_VERSION}, {"git", KSYNTH_GIT}};
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

// ---- check-proof -----------------------------------------------------------------------------

namespace {

bool onPath(const std::string &exe) {
  const char *path = getenv("PATH");
  if (!path)
    return false;
  std::stringstream ss(path);
  for (std::string d; std::getline(ss, d, ':');)
    if (!d.empty() && access((fs::path(d) / exe).c_str(), X_OK) == 0)
      return true;
  return false;
}

// Runs argv; its standard output (first 4 KiB), or why not. Killed after `seconds`.
bool runSolver(const std::vector<std::string> &argv, double seconds, std::string &out, std::string &why) {
  int pipefd[2];
  if (pipe(pipefd) != 0) {
    why = "pipe failed";
    return false;
  }
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, pipefd[1], 1);
  posix_spawn_file_actions_adddup2(&fa, pipefd[1], 2);
  posix_spawn_file_actions_addclose(&fa, pipefd[0]);
  std::vector<char *> args;
  for (const std::string &a : argv)
    args.push_back(const_cast<char *>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  int rc = posix_spawnp(&pid, args[0], &fa, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  close(pipefd[1]);
  if (rc != 0) {
    close(pipefd[0]);
    why = "cannot run " + argv[0];
    return false;
  }
  fcntl(pipefd[0], F_SETFL, O_NONBLOCK);
  auto start = std::chrono::steady_clock::now();
  int status = 0;
  bool done = false, killed = false;
  char buf[4096];
  while (!done) {
    ssize_t n;
    while ((n = read(pipefd[0], buf, sizeof buf)) > 0)
      if (out.size() < 4096)
        out.append(buf, static_cast<size_t>(n));
    pid_t w = waitpid(pid, &status, WNOHANG);
    if (w == pid) {
      done = true;
      break;
    }
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > seconds + 5) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      killed = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ssize_t n;
  while ((n = read(pipefd[0], buf, sizeof buf)) > 0)
    if (out.size() < 4096)
      out.append(buf, static_cast<size_t>(n));
  close(pipefd[0]);
  if (killed) {
    why = "killed after " + std::to_string(static_cast<int>(seconds + 5)) + " s";
    return false;
  }
  return true;
}

// The solver's answer: "unsat", "sat", "unknown", "timeout", or an error text.
std::string answerOnce(const std::vector<std::string> &argv, double seconds) {
  std::string out, why;
  if (!runSolver(argv, seconds, out, why))
    return why;
  std::istringstream is(out);
  std::string first;
  std::getline(is, first);
  while (!first.empty() && (first.back() == '\r' || first.back() == ' '))
    first.pop_back();
  if (first == "unsat" || first == "sat" || first == "unknown" || first == "timeout")
    return first;
  if (out.find("timeout") != std::string::npos || out.find("interrupted") != std::string::npos)
    return "timeout";
  return "error: " + out.substr(0, 200);
}

// Z3's configurations, tried in turn while the answer is neither sat nor unsat: its default,
// then its older arithmetic engine (smt.arith.solver=2), which answers some queries that need
// a product of equals (C*b = C*j from b = j) at once where the default one searches for
// minutes. Both are the same z3 executable deciding the same query; unsat from either is
// the query holding, and sat from either fails the check.
struct Answer {
  std::string text;   // "unsat", "sat", ...
  std::string option; // the z3 option that gave it, empty for the default
};

Answer answer(const std::string &solver, const fs::path &file, double seconds) {
  if (solver != "z3")
    return {answerOnce({"cvc5", "--lang=smt2", "--incremental",
                        "--tlimit=" + std::to_string(static_cast<long>(seconds * 1000)), file.string()},
                       seconds),
            ""};
  Answer a;
  for (const char *option : {"", "smt.arith.solver=2"}) {
    std::vector<std::string> argv{"z3", "-T:" + std::to_string(static_cast<int>(seconds + 0.999))};
    if (*option)
      argv.push_back(option);
    argv.push_back(file.string());
    std::string t = answerOnce(argv, seconds);
    if (a.text.empty() || t == "sat" || t == "unsat")
      a = {t, option};
    if (t == "sat" || t == "unsat")
      break;
  }
  return a;
}

int usageCheck(const std::string &msg) {
  std::cerr << "ksynth check-proof: " << msg << "\n"
            << "usage: ksynth check-proof DIR [--solver z3|cvc5|all] [--kernel FILE] [--spec FILE] [--timeout S]\n";
  return 64;
}

} // namespace

int checkProofMain(const std::vector<std::string> &args) {
  std::string dir, solverArg = "all", kernelFile, specFile;
  double timeoutS = 60;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string &a = args[i];
    auto value = [&](const std::string &flag, std::string &dest) {
      if (a == flag && i + 1 < args.size()) {
        dest = args[++i];
        return true;
      }
      if (a.rfind(flag + "=", 0) == 0) {
        dest = a.substr(flag.size() + 1);
        return true;
      }
      return false;
    };
    std::string t;
    if (value("--solver", solverArg) || value("--kernel", kernelFile) || value("--spec", specFile))
      continue;
    if (value("--timeout", t)) {
      try {
        timeoutS = std::stod(t);
      } catch (...) {
        timeoutS = -1;
      }
      if (timeoutS <= 0)
        return usageCheck("--timeout needs a positive number of seconds");
      continue;
    }
    if (!a.empty() && a[0] == '-')
      return usageCheck("unknown option '" + a + "'");
    if (!dir.empty())
      return usageCheck("more than one directory");
    dir = a;
  }
  if (dir.empty())
    return usageCheck("no proof directory");
  std::vector<std::string> solvers;
  if (solverArg == "all")
    solvers = {"z3", "cvc5"};
  else if (solverArg == "z3" || solverArg == "cvc5")
    solvers = {solverArg};
  else
    return usageCheck("--solver takes z3, cvc5 or all");

  std::vector<std::string> failures;
  auto fail = [&](const std::string &m) { failures.push_back(m); };
  std::string text;
  json p;
  if (!readFile(fs::path(dir) / "proof.json", text)) {
    std::cerr << "ksynth check-proof: error: no proof.json in '" << dir << "'\n";
    return 1;
  }
  try {
    p = json::parse(text);
  } catch (const std::exception &e) {
    std::cerr << "ksynth check-proof: error: proof.json does not parse: " << e.what() << "\n";
    return 1;
  }
  if (!p.is_object() || p.value("format", "") != "ksynth-proof-1") {
    std::cerr << "ksynth check-proof: error: proof.json is not a ksynth-proof-1 bundle\n";
    return 1;
  }
  if (p.value("sha256", "") != selfHash(p))
    fail("proof.json: its sha256 does not match its content (edited after it was written)");

  auto checkSource = [&](const char *key, const std::string &given) {
    if (!p.contains(key))
      return;
    const json &s = p[key];
    fs::path f = given.empty() ? fs::path(dir) / s.value("file", "") : fs::path(given);
    std::string body;
    if (!readFile(f, body))
      fail(std::string(key) + ": cannot read '" + f.string() + "'");
    else if (sha256Hex(body) != s.value("sha256", ""))
      fail(std::string(key) + ": '" + f.string() + "' has changed since the proof (sha256 " +
           sha256Hex(body).substr(0, 12) + "..., the proof has " + s.value("sha256", "").substr(0, 12) + "...)");
  };
  checkSource("kernel", kernelFile);
  checkSource("spec", specFile);

  std::map<std::string, bool> present;
  for (const std::string &s : solvers) {
    present[s] = onPath(s);
    if (!present[s])
      fail(s + " is not on PATH (Debian package: " + s + "); its column shows 'missing'");
  }

  std::cout << "proof " << dir << ": verdict " << p.value("verdict", "?") << ", ksynth "
            << p["ksynth"].value("version", "?") << " (" << p["ksynth"].value("git", "?") << "), "
            << p.value("solver", "") << "\n";
  std::printf("%-34s %-9s %6s", "obligation", "recorded", "files");
  for (const std::string &s : solvers)
    std::printf(" %-10s", s.c_str());
  std::printf(" result\n");
  int rechecked = 0, queries = 0;
  std::map<std::pair<std::string, std::string>, Answer> answered; // (solver, file) -> answer
  for (const json &k : p.value("kernels", json::array())) {
    for (const json &o : k.value("obligations", json::array())) {
      std::string name = k.value("name", "") + ":" + o.value("name", "");
      std::string st = o.value("status", "");
      const json &qs = o.value("queries", json::array());
      std::map<std::string, std::string> worst; // solver -> first non-unsat answer
      std::set<std::string> viaOption;          // "z3 OPTION" that answered unsat where the default did not
      bool ok = true;
      std::string note;
      if (st == "proven") {
        for (const json &q : qs) {
          fs::path f = fs::path(dir) / q.value("file", "");
          std::string body;
          if (!readFile(f, body)) {
            fail(name + ": query file '" + q.value("file", "") + "' is missing");
            ok = false;
            note = "missing file";
            continue;
          }
          if (sha256Hex(body) != q.value("sha256", "")) {
            fail(name + ": query file '" + q.value("file", "") + "' has changed since the proof");
            ok = false;
            note = "changed file";
            continue;
          }
          ++queries;
          for (const std::string &s : solvers) {
            if (!present[s])
              continue;
            auto key = std::make_pair(s, f.string());
            auto hit = answered.find(key);
            Answer ans = hit != answered.end() ? hit->second : answered[key] = answer(s, f, timeoutS);
            const std::string &a = ans.text;
            if (a == "unsat" && !ans.option.empty())
              viaOption.insert(s + " " + ans.option);
            if (a != "unsat") {
              if (!worst.count(s))
                worst[s] = a;
              fail(name + ": " + s + " answers '" + a + "' on " + q.value("file", "") + " (unsat is needed)");
              ok = false;
            }
          }
        }
        if (ok)
          ++rechecked;
        note = ok ? (qs.empty() ? "no query (decided without one)" : "re-checked") : "FAILED" + (note.empty() ? "" : " (" + note + ")");
        for (const std::string &v : viaOption)
          note += " (" + v + " on a query the default did not answer)";
      } else {
        note = "not re-checked: recorded as " + st + " (never upgraded)";
      }
      std::printf("%-34s %-9s %6zu", name.substr(0, 34).c_str(), st.c_str(), qs.size());
      for (const std::string &s : solvers) {
        std::string cell = st != "proven" || qs.empty() ? "-" : !present[s] ? "missing" : worst.count(s) ? worst[s] : "unsat";
        std::printf(" %-10s", cell.substr(0, 10).c_str());
      }
      std::printf(" %s\n", note.c_str());
    }
  }
  std::cout << rechecked << " proven obligation(s) re-checked, " << queries << " query file(s)\n";
  for (const std::string &f : failures)
    std::cout << "check-proof: error: " << f << "\n";
  if (!failures.empty()) {
    std::cout << "CHECK-PROOF: FAILED\n";
    return 1;
  }
  bool proven = p.value("verdict", "") == "proven";
  std::cout << "CHECK-PROOF: " << (proven ? "OK" : "OK (recorded verdict " + p.value("verdict", "") + ", not proven)")
            << "\n";
  return proven ? 0 : 2;
}

} // namespace ksynth::cli
