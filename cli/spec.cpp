// `ksynth spec SPEC.smt [--print | --explain] [--json]`: parse a spec and check it is well
// formed; print it canonically, explain it in words, or summarise it as JSON.
#include "cli/commands.h"
#include "cli/options.h"

#include "util/exit_codes.h"
#include "verify/spec/check.h"
#include "verify/spec/parser.h"

#include <nlohmann/json.hpp>

#include <iostream>

namespace ksynth::cli {

// `ksynth spec SPEC.smt [--print | --explain] [--json]`
int specCommand(const std::vector<std::string> &args) {
  std::string file;
  bool print = false, explain = false, json = false;
  Options opt(args);
  while (opt.next()) {
    const std::string &a = opt.arg();
    if (a == "--print")
      print = true;
    else if (a == "--explain")
      explain = true;
    else if (a == "--json")
      json = true;
    else if (!a.empty() && a[0] == '-')
      return usage("unknown option '" + a + "' for 'ksynth spec'");
    else if (file.empty())
      file = a;
    else
      return usage("more than one spec file ('" + file + "', '" + a + "')");
  }
  if (file.empty())
    return usage("no spec file");
  spec::ParseResult r = spec::parseFile(file);
  std::vector<spec::Diagnostic> errors = r.errors;
  spec::CheckResult c;
  if (r.spec) {
    c = spec::checkSpec(*r.spec);
    errors.insert(errors.end(), c.errors.begin(), c.errors.end());
  }
  if (!errors.empty()) {
    nlohmann::json list = nlohmann::json::array();
    for (const spec::Diagnostic &d : errors) {
      std::cerr << spec::format(file, d) << "\n";
      list.push_back({{"line", d.loc.line}, {"col", d.loc.col}, {"message", d.message}});
    }
    if (json)
      std::cout << nlohmann::json{{"tool", "ksynth"}, {"spec", file}, {"verdict", "malformed"}, {"errors", list}}.dump(2)
                << "\n";
    else
      std::cerr << "ksynth: error: spec '" << file << "' is malformed\n";
    return kExitMalformed;
  }
  const spec::Spec &sp = *r.spec;
  std::string example;
  for (const spec::Dim &d : sp.dims)
    if (c.example.count(d.name))
      example += (example.empty() ? "" : ", ") + d.name + " = " + std::to_string(c.example.at(d.name));
  if (json) {
    nlohmann::json tensors = nlohmann::json::array();
    for (const spec::Tensor &t : sp.tensors) {
      nlohmann::json ext = nlohmann::json::array();
      for (const spec::TermPtr &e : t.extents)
        ext.push_back(spec::print(sp, *e, {}));
      tensors.push_back({{"name", t.name}, {"type", spec::elemTypeName(t.type)}, {"mode", spec::modeName(t.mode)},
                         {"extents", ext}});
    }
    nlohmann::json dims = nlohmann::json::array(), scalars = nlohmann::json::array();
    for (const spec::Dim &d : sp.dims)
      dims.push_back(d.name);
    for (const spec::Scalar &x : sp.scalars)
      scalars.push_back({{"name", x.name}, {"type", spec::elemTypeName(x.type)}});
    nlohmann::json out = {{"tool", "ksynth"}, {"spec", file},         {"name", sp.name},     {"verdict", "ok"},
                          {"dims", dims},     {"scalars", scalars},   {"tensors", tensors}, {"satisfiable", c.satisfiable},
                          {"example", c.example}, {"queries", c.queries}, {"time_ms", c.ms}};
    if (!sp.sizes.empty()) {
      nlohmann::json sz = nlohmann::json::object();
      for (const auto &[n, v] : sp.sizes)
        sz[n] = v;
      out["sizes"] = sz;
    }
    if (print)
      out["canonical"] = spec::print(sp);
    if (explain)
      out["explanation"] = spec::explain(sp);
    std::cout << out.dump(2) << "\n";
    return 0;
  }
  if (print)
    std::cout << spec::print(sp);
  if (explain)
    std::cout << spec::explain(sp);
  if (!print && !explain)
    std::cout << "spec " << sp.name << ": well formed (assumptions satisfiable" << (example.empty() ? "" : ", e.g. " + example)
              << "; " << c.queries << " queries)\n";
  return 0;
}

} // namespace ksynth::cli
