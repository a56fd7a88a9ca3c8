// `ksynth check-proof DIR [--solver z3|cvc5|all] [--kernel FILE] [--spec FILE] [--timeout S]
//                        [--timeout-for FILE=S] [--skip SOLVER:FILE] [--jobs N] [--no-batch]`:
// the options of bundle::checkBundle.
#include "cli/commands.h"
#include "cli/options.h"

#include "bundle/check.h"
#include "util/exit_codes.h"

#include <iostream>
#include <map>
#include <set>

namespace ksynth::cli {

namespace {

int usageCheck(const std::string &msg) {
  std::cerr << "ksynth check-proof: " << msg << "\n"
            << "usage: ksynth check-proof DIR [--solver z3|cvc5|all] [--kernel FILE] [--spec FILE] [--timeout S]\n"
            << "                          [--timeout-for [SOLVER:]QUERY_FILE=S ...] [--skip SOLVER:QUERY_FILE ...]\n"
            << "                          [--jobs N] [--no-batch]\n";
  return kExitUsage;
}

} // namespace

int checkProofCommand(const std::vector<std::string> &args) {
  std::string dir, solverArg = "all", kernelFile, specFile;
  double timeoutS = 60;
  int jobs = 0;
  bool batch = true;
  std::map<std::string, double> timeoutFor;
  std::set<std::string> skip;
  Options opt(args);
  while (opt.next()) {
    const std::string &a = opt.arg();
    auto value = [&](const std::string &flag, std::string &dest) {
      if (!opt.is(flag))
        return false;
      std::optional<std::string> v = opt.value(flag);
      if (!v)
        return false;
      dest = *v;
      return true;
    };
    std::string t;
    if (value("--solver", solverArg) || value("--kernel", kernelFile) || value("--spec", specFile))
      continue;
    if (value("--timeout", t)) {
      std::optional<double> n = parseNumber(t, 1e-3, 1e6);
      if (!n)
        return usageCheck("--timeout needs a positive number of seconds");
      timeoutS = *n;
      continue;
    }
    if (value("--timeout-for", t)) {
      size_t eq = t.rfind('=');
      std::optional<double> n = eq == std::string::npos ? std::nullopt : parseNumber(t.substr(eq + 1), 1e-3, 1e6);
      if (!n || eq == 0)
        return usageCheck("--timeout-for needs [SOLVER:]QUERY_FILE=SECONDS");
      timeoutFor[t.substr(0, eq)] = *n;
      continue;
    }
    if (value("--skip", t)) {
      size_t colon = t.find(':');
      if (colon == std::string::npos || colon == 0 || colon + 1 == t.size() ||
          (t.substr(0, colon) != "z3" && t.substr(0, colon) != "cvc5"))
        return usageCheck("--skip needs SOLVER:QUERY_FILE (SOLVER z3 or cvc5)");
      skip.insert(t);
      continue;
    }
    if (value("--jobs", t) || value("-j", t)) {
      std::optional<double> n = parseNumber(t, 1, 1024);
      if (!n || *n != static_cast<int>(*n))
        return usageCheck("--jobs needs a whole number from 1 to 1024");
      jobs = static_cast<int>(*n);
      continue;
    }
    if (opt.is("--no-batch")) {
      batch = false;
      continue;
    }
    if (opt.isOption())
      return usageCheck("unknown option '" + a + "'");
    if (!dir.empty())
      return usageCheck("more than one directory");
    dir = a;
  }
  if (dir.empty())
    return usageCheck("no proof directory");
  bundle::CheckOptions co;
  co.dir = dir;
  co.kernelFile = kernelFile;
  co.specFile = specFile;
  co.timeoutS = timeoutS;
  co.jobs = jobs;
  co.timeoutFor = timeoutFor;
  co.skip = skip;
  co.batch = batch;
  std::vector<std::string> &solvers = co.solvers;
  if (solverArg == "all")
    solvers = {"z3", "cvc5"};
  else if (solverArg == "z3" || solverArg == "cvc5")
    solvers = {solverArg};
  else
    return usageCheck("--solver takes z3, cvc5 or all");
  return bundle::checkBundle(co, std::cout, std::cerr);
}

} // namespace ksynth::cli
