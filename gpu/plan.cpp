#include "gpu/plan.h"

#include "gpu/values.h"
#include "verify/interp/interp.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>
#include <set>

namespace ksynth::gpu {

namespace {

using interp::Value;


const char *kindName(ArgPlan::Kind k) {
  return k == ArgPlan::Kind::Tensor ? "tensor" : k == ArgPlan::Kind::Int ? "int" : "float";
}

// ---- operation count -------------------------------------------------------------------

// A bound variable while counting: which binder it is (tokens: the variables a define's
// arguments mention decide how many distinct calls there are) and a typical value.
struct Slot {
  std::set<int> tokens;
  double mid = 0;
};

struct Counter {
  const spec::Spec &s;
  std::map<std::string, int64_t> dims;
  std::map<int, double> extent; // token -> number of values
  int nextToken = 0;
  std::set<std::pair<int, std::set<int>>> counted; // (define, tokens of its arguments)
  double defineOps = 0;
  bool approximate = false;

  std::optional<double> intOf(const spec::Term &t, const std::vector<Slot> &env) {
    using spec::Op;
    auto a = [&](size_t k) { return intOf(*t.args[k], env); };
    switch (t.op) {
    case Op::IntLit: return static_cast<double>(t.ival);
    case Op::Dim: return static_cast<double>(dims.at(s.dims[t.ref].name));
    case Op::Var: return static_cast<size_t>(t.ref) < env.size() ? std::optional<double>(env[t.ref].mid) : std::nullopt;
    case Op::Const: {
      std::vector<Slot> e2(static_cast<size_t>(s.defines[t.ref].numSlots));
      return intOf(*s.defines[t.ref].body, e2);
    }
    case Op::Add: case Op::Sub: case Op::Mul: case Op::IntDiv: case Op::Min: case Op::Max: {
      auto x = a(0), y = a(1);
      if (!x || !y)
        return std::nullopt;
      double r = *x;
      for (size_t k = 1; k < t.args.size(); ++k) {
        auto z = a(k);
        if (!z)
          return std::nullopt;
        switch (t.op) {
        case Op::Add: r += *z; break;
        case Op::Sub: r -= *z; break;
        case Op::Mul: r *= *z; break;
        case Op::IntDiv: r = *z != 0 ? std::floor(r / *z) : 0; break;
        case Op::Min: r = std::min(r, *z); break;
        default: r = std::max(r, *z); break;
        }
      }
      return r;
    }
    case Op::Neg: {
      auto x = a(0);
      return x ? std::optional<double>(-*x) : std::nullopt;
    }
    default: return std::nullopt;
    }
  }

  std::set<int> tokensOf(const spec::Term &t, const std::vector<Slot> &env) {
    std::set<int> out;
    std::function<void(const spec::Term &)> walk = [&](const spec::Term &u) {
      if (u.op == spec::Op::Var && static_cast<size_t>(u.ref) < env.size())
        out.insert(env[u.ref].tokens.begin(), env[u.ref].tokens.end());
      for (const spec::TermPtr &c : u.args)
        walk(*c);
    };
    walk(t);
    return out;
  }

  // Operations to evaluate `t` once (its define calls are counted on the side).
  double cost(const spec::Term &t, std::vector<Slot> &env) {
    using spec::Op;
    double sub = 0;
    switch (t.op) {
    case Op::Sum: case Op::Prod: case Op::MaxOver: case Op::MinOver: case Op::ArgmaxOver: case Op::ArgminOver: {
      auto lo = intOf(*t.args[0], env), hi = intOf(*t.args[1], env);
      double n = 1;
      if (lo && hi)
        n = std::max(0.0, *hi - *lo);
      else
        approximate = true;
      if (env.size() <= static_cast<size_t>(t.ref))
        env.resize(static_cast<size_t>(t.ref) + 1);
      Slot saved = env[t.ref];
      int tok = nextToken++;
      extent[tok] = std::max(1.0, n);
      env[t.ref] = Slot{{tok}, (lo ? *lo : 0) + n / 2};
      double body = cost(*t.args[2], env);
      env[t.ref] = saved;
      return n * body + std::max(0.0, n - 1);
    }
    case Op::Call: {
      for (const spec::TermPtr &c : t.args)
        sub += cost(*c, env);
      std::set<int> toks;
      for (const spec::TermPtr &c : t.args) {
        std::set<int> x = tokensOf(*c, env);
        toks.insert(x.begin(), x.end());
      }
      if (counted.insert({t.ref, toks}).second) {
        const spec::Define &d = s.defines[t.ref];
        std::vector<Slot> e2(static_cast<size_t>(std::max<int>(d.numSlots, static_cast<int>(t.args.size()))));
        for (size_t k = 0; k < t.args.size(); ++k) {
          e2[k].tokens = tokensOf(*t.args[k], env);
          auto v = intOf(*t.args[k], env);
          e2[k].mid = v ? *v : 0;
        }
        double calls = 1;
        for (int x : toks)
          calls *= extent[x];
        defineOps += calls * cost(*d.body, e2);
      }
      return sub;
    }
    case Op::Const: {
      if (counted.insert({t.ref, {}}).second) {
        std::vector<Slot> e2(static_cast<size_t>(s.defines[t.ref].numSlots));
        defineOps += cost(*s.defines[t.ref].body, e2);
      }
      return 0;
    }
    case Op::Let: {
      size_t n = t.letVars.size();
      for (size_t k = 0; k < n; ++k)
        sub += cost(*t.args[k], env);
      if (env.size() < static_cast<size_t>(t.ref) + n)
        env.resize(static_cast<size_t>(t.ref) + n);
      for (size_t k = 0; k < n; ++k)
        env[static_cast<size_t>(t.ref) + k] = Slot{tokensOf(*t.args[k], env), 0};
      return sub + cost(*t.args[n], env);
    }
    case Op::Ite:
      return cost(*t.args[0], env) + std::max(cost(*t.args[1], env), cost(*t.args[2], env));
    default: break;
    }
    for (const spec::TermPtr &c : t.args)
      sub += cost(*c, env);
    bool realOp = false;
    switch (t.op) {
    case Op::Add: case Op::Sub: case Op::Mul: case Op::Div: case Op::Neg: case Op::Abs: case Op::Max:
    case Op::Min:
      realOp = t.sort == spec::Sort::Real;
      break;
    case Op::Lt: case Op::Le: case Op::Gt: case Op::Ge: case Op::Eq: case Op::Distinct:
      realOp = !t.args.empty() && t.args[0]->sort == spec::Sort::Real;
      break;
    case Op::Fn: realOp = true; break;
    default: break;
    }
    double ops = realOp ? std::max<double>(1, static_cast<double>(t.args.size()) - 1) : 0;
    if (t.op == Op::Neg || t.op == Op::Abs || t.op == Op::Fn)
      ops = realOp ? 1 : 0;
    return sub + ops;
  }
};

bool evalLaunchDim(const ir::Kernel &k, const interp::Env &env, const ir::ExprPtr &e, int64_t &out, std::string &why) {
  if (!e) {
    why = "the launch is not given (a '// ksynth:launch grid=(...) block=(...)' line, or --grid and --block)";
    return false;
  }
  Value v;
  if (!interp::evalConstExpr(k, env, *e, v) || v.kind != Value::Kind::Int) {
    why = "a launch dimension does not evaluate at these sizes";
    return false;
  }
  if (v.i < 1 || v.i > (static_cast<__int128>(1) << 31) - 1) {
    why = "a launch dimension is " + std::to_string(static_cast<long long>(v.i)) + " at these sizes";
    return false;
  }
  out = static_cast<int64_t>(v.i);
  return true;
}

} // namespace

double operationCount(const spec::Spec &s, const std::map<std::string, int64_t> &dims, std::string &note) {
  Counter c{s, dims};
  double total = 0;
  spec::Inputs in;
  in.dims = dims;
  for (const spec::Ensures &e : s.ensures) {
    std::string why;
    auto shape = spec::shapeOf(s, e.tensor, in, why);
    if (!shape)
      continue;
    double n = 1;
    std::vector<Slot> env(static_cast<size_t>(std::max<int>(e.numSlots, static_cast<int>(shape->size()))));
    for (size_t k = 0; k < shape->size(); ++k) {
      int tok = c.nextToken++;
      c.extent[tok] = static_cast<double>((*shape)[k]);
      env[k] = Slot{{tok}, static_cast<double>((*shape)[k]) / 2};
      n *= static_cast<double>((*shape)[k]);
    }
    total += n * c.cost(*e.body, env);
  }
  total += c.defineOps;
  note = "real arithmetic and math functions of the spec's terms, ranges expanded, each define once per "
         "distinct argument";
  if (c.approximate)
    note += "; some range lengths were estimated";
  return total;
}

nlohmann::json Plan::toJson() const {
  nlohmann::json ts = nlohmann::json::array(), as = nlohmann::json::array();
  for (const TensorPlan &t : tensors)
    ts.push_back({{"name", t.name},
                  {"type", spec::elemTypeName(t.type)},
                  {"mode", spec::modeName(t.mode)},
                  {"shape", t.shape},
                  {"elements", t.elements},
                  {"all", t.all},
                  {"samples", t.samples}});
  for (const ArgPlan &a : args)
    as.push_back({{"name", a.name}, {"kind", kindName(a.kind)}, {"tensor", a.tensor}, {"bits", a.bits},
                  {"signed", a.isSigned}, {"bfloat", a.bfloat}, {"value", a.value}, {"scalar", a.scalar}});
  return {{"spec", spec},         {"kernel", kernel},   {"dims", dims},       {"scalars", scalars},
          {"grid", grid},         {"block", block},     {"shared_bytes", sharedBytes},
          {"tensors", ts},        {"args", as},         {"seed", seed},       {"warmup", warmup},
          {"repeats", repeats},   {"flops", flops},     {"flops_note", flopsNote}, {"bytes", bytes},
          {"symbol", symbol},     {"unchecked", unchecked}};
}

std::optional<Plan> Plan::fromJson(const nlohmann::json &j, std::string &error) {
  try {
    Plan p;
    p.spec = j.at("spec");
    p.kernel = j.at("kernel");
    p.dims = j.at("dims").get<std::map<std::string, int64_t>>();
    p.scalars = j.at("scalars").get<std::vector<std::map<std::string, double>>>();
    p.grid = j.at("grid").get<std::array<int64_t, 3>>();
    p.block = j.at("block").get<std::array<int64_t, 3>>();
    p.sharedBytes = j.at("shared_bytes");
    for (const auto &t : j.at("tensors")) {
      TensorPlan tp;
      tp.name = t.at("name");
      auto ty = spec::parseElemType(t.at("type").get<std::string>());
      if (!ty)
        throw std::runtime_error("unknown element type");
      tp.type = *ty;
      std::string m = t.at("mode");
      tp.mode = m == "in" ? spec::Mode::In : m == "out" ? spec::Mode::Out : spec::Mode::InOut;
      tp.shape = t.at("shape").get<std::vector<int64_t>>();
      tp.elements = t.at("elements");
      tp.all = t.at("all");
      tp.samples = t.at("samples");
      p.tensors.push_back(std::move(tp));
    }
    for (const auto &a : j.at("args")) {
      ArgPlan ap;
      ap.name = a.at("name");
      std::string k = a.at("kind");
      ap.kind = k == "tensor" ? ArgPlan::Kind::Tensor : k == "int" ? ArgPlan::Kind::Int : ArgPlan::Kind::Float;
      ap.tensor = a.at("tensor");
      ap.bits = a.at("bits");
      ap.isSigned = a.at("signed");
      ap.bfloat = a.value("bfloat", false);
      ap.value = a.at("value");
      ap.scalar = a.at("scalar");
      p.args.push_back(std::move(ap));
    }
    p.seed = j.at("seed");
    p.warmup = j.at("warmup");
    p.repeats = j.at("repeats");
    p.flops = j.at("flops");
    p.flopsNote = j.at("flops_note");
    p.bytes = j.at("bytes");
    p.symbol = j.at("symbol");
    p.unchecked = j.at("unchecked").get<std::vector<std::string>>();
    if (static_cast<int>(p.scalars.size()) != p.warmup + p.repeats)
      throw std::runtime_error("scalars for " + std::to_string(p.scalars.size()) + " repeats");
    return p;
  } catch (const std::exception &e) {
    error = std::string("malformed run plan: ") + e.what();
    return std::nullopt;
  }
}

spec::Inputs inputsOf(const Plan &p, const spec::Spec &s, int repeat) {
  spec::Inputs in;
  in.dims = p.dims;
  in.scalars = p.scalars.at(static_cast<size_t>(repeat));
  for (size_t t = 0; t < p.tensors.size(); ++t) {
    const TensorPlan &tp = p.tensors[t];
    if (tp.mode == spec::Mode::Out)
      continue;
    spec::TensorValue tv;
    tv.shape = tp.shape;
    tv.data.resize(static_cast<size_t>(tp.elements));
    for (int64_t i = 0; i < tp.elements; ++i)
      tv.data[static_cast<size_t>(i)] = inputValue(p.seed, repeat, static_cast<int>(t), i, tp.type);
    in.tensors[tp.name] = std::move(tv);
  }
  return in;
}

double Plan::argValue(const ArgPlan &a, int repeat) const {
  return a.scalar.empty() ? a.value : scalars.at(static_cast<size_t>(repeat)).at(a.scalar);
}

std::vector<int64_t> comparedElements(const Plan &p, size_t t, int repeat) {
  const TensorPlan &tp = p.tensors[t];
  std::vector<int64_t> out;
  if (tp.all) {
    out.resize(static_cast<size_t>(tp.elements));
    for (int64_t i = 0; i < tp.elements; ++i)
      out[static_cast<size_t>(i)] = i;
    return out;
  }
  std::set<int64_t> pick;
  for (int64_t i = 0; i < std::min<int64_t>(16, tp.elements); ++i) {
    pick.insert(i);
    pick.insert(tp.elements - 1 - i);
  }
  // makePlan keeps samples <= elements / 2, so the draws end quickly.
  std::mt19937_64 rng(p.seed * 0x9e3779b97f4a7c15ull + static_cast<uint64_t>(repeat) * 1000003u + t);
  while (static_cast<int64_t>(pick.size()) < std::min(tp.samples, tp.elements))
    pick.insert(static_cast<int64_t>(rng() % static_cast<uint64_t>(tp.elements)));
  out.assign(pick.begin(), pick.end());
  return out;
}

namespace {

bool mentionsOnlyUniform(const ir::Kernel &k, const ir::Expr &e) {
  switch (e.op) {
  case ir::Op::VarRef: return k.vars[e.id].paramIndex >= 0;
  case ir::Op::Builtin:
    return e.id == static_cast<int>(ir::Builtin::BlockDim) || e.id == static_cast<int>(ir::Builtin::GridDim);
  case ir::Op::ArrayRef: case ir::Op::PtrAdd: case ir::Op::PtrOffset:
  case ir::Op::PtrBaseAlign: return false;
  default: break;
  }
  for (const ir::ExprPtr &a : e.args)
    if (a && !mentionsOnlyUniform(k, *a))
      return false;
  return true;
}

// Every __requires/__assume of the kernel: those over parameters and launch dimensions at
// the kernel's top level are evaluated (false: `error`); the others are listed as unchecked.
bool checkKernelAssumptions(const ir::Kernel &k, const interp::Env &env, Plan &p, std::string &error) {
  std::function<bool(const ir::Block &, bool)> walk = [&](const ir::Block &body, bool top) {
    for (const ir::StmtPtr &st : body) {
      if (st->kind == ir::StmtKind::Assume && st->cond) {
        std::string where = "line " + std::to_string(st->loc.line) + ": " +
                            (st->text.empty() ? std::string(st->precondition ? "__requires" : "__assume") : st->text);
        Value v;
        if (top && mentionsOnlyUniform(k, *st->cond) && interp::evalConstExpr(k, env, *st->cond, v) &&
            v.kind == Value::Kind::Int) {
          if (v.i == 0) {
            error = "the kernel's assumption at " + where + " does not hold at these sizes";
            return false;
          }
          continue;
        }
        p.unchecked.push_back(where);
      }
      for (const ir::Block *b : {&st->pre, &st->body, &st->elseBody, &st->step})
        if (!walk(*b, top && st->kind == ir::StmtKind::Block))
          return false;
    }
    return true;
  };
  return walk(k.body, true);
}

} // namespace

std::optional<Plan> makePlan(const ir::Kernel &k, const spec::Spec &s, const spec::Binding &b, const PlanRequest &r,
                             std::string &error) {
  Plan p;
  p.spec = s.name;
  p.kernel = k.name;
  p.seed = r.seed;
  p.warmup = r.warmup;
  p.repeats = r.repeats;
  for (const auto &[name, v] : r.values)
    if (s.findDim(name) < 0 && s.findScalar(name) < 0) {
      error = "spec '" + s.name + "' has no dim or scalar '" + name + "'";
      return std::nullopt;
    }
  std::string missing;
  for (const spec::Dim &d : s.dims) {
    auto it = r.values.find(d.name);
    if (it == r.values.end()) {
      missing += (missing.empty() ? "" : ", ") + d.name;
      continue;
    }
    if (it->second != std::floor(it->second) || it->second < 1 || it->second > 9.2e18) {
      error = "dim " + d.name + " must be a positive integer";
      return std::nullopt;
    }
    p.dims[d.name] = static_cast<int64_t>(it->second);
  }
  if (!missing.empty()) {
    error = "no size for " + missing + " (--size NAME=VALUE)";
    return std::nullopt;
  }
  // Scalars: given, else seeded draws per repeat until the assumptions hold (never 0 or
  // +-1, which would hide a kernel that ignores one).
  std::mt19937_64 rng(r.seed);
  spec::Inputs in;
  in.dims = p.dims;
  int total = r.warmup + r.repeats;
  for (int rep = 0; rep < total; ++rep) {
    for (int attempt = 0; attempt < 64; ++attempt) {
      in.scalars.clear();
      for (const spec::Scalar &x : s.scalars) {
        auto it = r.values.find(x.name);
        if (it != r.values.end()) {
          if (!std::isfinite(it->second)) {
            error = "scalar " + x.name + " must be a finite number";
            return std::nullopt;
          }
          in.scalars[x.name] = it->second;
        } else if (spec::isFloat(x.type)) {
          static const int ks[] = {-16, -15, -13, -11, -9, -7, -6, -5, -3, -2, -1, 1, 2, 3, 5, 6, 7, 9, 11, 13, 15, 16};
          in.scalars[x.name] = ks[rng() % (sizeof ks / sizeof ks[0])] / 8.0;
        } else {
          in.scalars[x.name] = static_cast<double>(2 + rng() % 4);
        }
      }
      error = spec::checkAssumptions(s, in);
      if (error.empty())
        break;
      bool drawn = false;
      for (const spec::Scalar &x : s.scalars)
        drawn |= !r.values.count(x.name);
      if (!drawn)
        break;
    }
    if (!error.empty()) {
      error = "these sizes are outside the spec (" + error + "); a proof says nothing about them";
      return std::nullopt;
    }
    p.scalars.push_back(in.scalars);
  }

  // Tensors.
  for (size_t t = 0; t < s.tensors.size(); ++t) {
    const spec::Tensor &T = s.tensors[t];
    auto shape = spec::shapeOf(s, static_cast<int>(t), in, error);
    if (!shape)
      return std::nullopt;
    TensorPlan tp;
    tp.name = T.name;
    tp.type = T.type;
    tp.mode = T.mode;
    tp.shape = *shape;
    double n = 1;
    for (int64_t e : tp.shape)
      n *= static_cast<double>(e);
    if (n > 4e12) {
      error = "tensor " + T.name + " has " + std::to_string(n) + " elements";
      return std::nullopt;
    }
    tp.elements = static_cast<int64_t>(n);
    if (n == 0 && T.mode != spec::Mode::In) {
      error = "output " + T.name + " has no elements at these sizes";
      return std::nullopt;
    }
    double bytes = n * elemBytes(T.type);
    p.bytes += T.mode == spec::Mode::InOut ? 2 * bytes : bytes;
    p.tensors.push_back(std::move(tp));
  }

  // The kernel's view: parameters, preconditions, launch.
  interp::Env env;
  std::map<int, int> tensorOfParam; // parameter index -> tensor
  for (const auto &[a, t] : b.tensorOfArray) {
    env.lens[a] = p.tensors[t].elements;
    int pi = k.arrays[a].paramIndex;
    if (pi >= 0 && tensorOfParam.count(pi) && tensorOfParam[pi] != t) {
      error = "parameter " + k.arrays[a].name + " is bound to two tensors";
      return std::nullopt;
    }
    if (pi >= 0)
      tensorOfParam[pi] = t;
  }
  for (const auto &[var, d] : b.dimOfVar) {
    int64_t v = p.dims.at(s.dims[d].name);
    const ir::Type &ty = k.vars[var].type;
    if (ty.isInt() && (v < ty.minValue() || v > ty.maxValue())) {
      error = "parameter " + k.vars[var].name + " (" + ty.str() + ") cannot hold " + s.dims[d].name + " = " +
              std::to_string(v);
      return std::nullopt;
    }
    env.params[var] = Value::ofInt(v);
  }
  for (const auto &[var, x] : b.scalarOfVar) {
    double v = p.scalars[0].at(s.scalars[x].name);
    env.params[var] = k.vars[var].type.isFloat() ? Value::ofFloat(v) : Value::ofInt(static_cast<int64_t>(v));
  }
  for (const spec::Precondition &pc : b.preconditions) {
    Value v;
    if (interp::evalConstExpr(k, env, *pc.expr, v) && v.kind == Value::Kind::Int && v.i == 0) {
      error = "the kernel's precondition " + pc.text + " does not hold at these sizes";
      return std::nullopt;
    }
  }
  for (int d = 0; d < 3; ++d)
    if (!evalLaunchDim(k, env, r.grid[d], p.grid[d], error) || !evalLaunchDim(k, env, r.block[d], p.block[d], error))
      return std::nullopt;
  env.block = {p.block[0], p.block[1], p.block[2]};
  env.grid = {p.grid[0], p.grid[1], p.grid[2]};
  if (!checkKernelAssumptions(k, env, p, error))
    return std::nullopt;
  if (r.shared) {
    Value v;
    if (!interp::evalConstExpr(k, env, *r.shared, v) || v.kind != Value::Kind::Int || v.i < 0 ||
        v.i > (1 << 30)) {
      error = "the launch's shared= does not evaluate to a byte count at these sizes";
      return std::nullopt;
    }
    p.sharedBytes = static_cast<int64_t>(v.i);
  }
  for (size_t i = 0; i < k.params.size(); ++i) {
    const ir::Param &pr = k.params[i];
    ArgPlan a;
    if (pr.isArray) {
      a.name = k.arrays[pr.id].name;
      auto it = tensorOfParam.find(static_cast<int>(i));
      if (it == tensorOfParam.end()) {
        error = "pointer parameter " + a.name + " is no tensor of the spec";
        return std::nullopt;
      }
      a.kind = ArgPlan::Kind::Tensor;
      a.tensor = it->second;
    } else {
      const ir::Var &v = k.vars[pr.id];
      a.name = v.name;
      auto pv = env.params.find(pr.id);
      if (pv == env.params.end() || !(v.type.isInt() || v.type.isFloat())) {
        error = "parameter " + v.name + " is no dim or scalar of the spec";
        return std::nullopt;
      }
      a.kind = v.type.isFloat() ? ArgPlan::Kind::Float : ArgPlan::Kind::Int;
      a.bits = v.type.bits;
      a.isSigned = v.type.isSigned;
      a.bfloat = v.type.bfloat;
      a.value = pv->second.kind == Value::Kind::Float ? pv->second.f : static_cast<double>(pv->second.i);
      if (auto sx = b.scalarOfVar.find(pr.id); sx != b.scalarOfVar.end())
        a.scalar = s.scalars[sx->second].name;
      if (a.kind == ArgPlan::Kind::Int && v.type.bits < 64) {
        __int128 x = pv->second.i;
        if (x < v.type.minValue() || x > v.type.maxValue()) {
          error = "parameter " + v.name + " (" + v.type.str() + ") cannot hold " + std::to_string(static_cast<long long>(x));
          return std::nullopt;
        }
      }
    }
    p.args.push_back(std::move(a));
  }

  p.flops = operationCount(s, p.dims, p.flopsNote);
  // Elements compared: all when the reference can afford it, else a sample (both ends of
  // the tensor and seeded draws; the same elements in every repeat).
  double outElems = 0;
  int outs = 0;
  for (const TensorPlan &tp : p.tensors)
    if (tp.mode != spec::Mode::In) {
      outElems += static_cast<double>(tp.elements);
      ++outs;
    }
  double perElem = std::max(1.0, p.flops / std::max(1.0, outElems));
  for (TensorPlan &tp : p.tensors) {
    if (tp.mode == spec::Mode::In)
      continue;
    // All, unless the reference or the runner's output files (doubles, every repeat) would be
    // too big.
    if (outElems * perElem <= r.referenceBudget && tp.elements <= (1 << 22) &&
        static_cast<double>(tp.elements) * total <= static_cast<double>(1 << 27)) {
      tp.all = true;
      continue;
    }
    double want = std::clamp(r.referenceBudget / perElem / std::max(1, outs),
                             std::min(64.0, static_cast<double>(r.maxChecked)), static_cast<double>(r.maxChecked));
    if (want * 2 >= static_cast<double>(tp.elements) && static_cast<double>(tp.elements) * total <= (1 << 27))
      tp.all = true;
    else
      tp.samples = static_cast<int64_t>(std::min(want, static_cast<double>(tp.elements) / 2));
  }
  return p;
}

} // namespace ksynth::gpu
