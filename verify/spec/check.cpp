#include "verify/spec/check.h"

#include "verify/smt/solver.h"
#include "verify/smt/term.h"

#include <cassert>
#include <chrono>
#include <set>

namespace ksynth::spec {

namespace {

using smt::TermContext;
using ST = smt::Term;

smt::Sort smtSort(Sort s) {
  return s == Sort::Bool ? smt::Sort::Bool : s == Sort::Int ? smt::Sort::Int : smt::Sort::Real;
}

std::string locText(Loc l) { return std::to_string(l.line) + ":" + std::to_string(l.col); }

class Checker {
public:
  Checker(const Spec &s, CheckResult &r, unsigned timeoutMs) : s_(s), r_(r), solver_(tc_, timeoutMs) {}

  void run() {
    for (const Dim &d : s_.dims) {
      ST v = tc_.var("dim." + d.name, smt::Sort::Int);
      dims_.push_back(v);
      solver_.addBackground(tc_.le(tc_.intConst(1), v));
    }
    for (const Scalar &x : s_.scalars)
      scalars_.push_back(tc_.var("scalar." + x.name, smtSort(sortOf(x.type))));
    consts_.assign(s_.defines.size(), nullptr);
    for (const TermPtr &a : s_.assumes) {
      Env env;
      solver_.addBackground(tr(*a, env));
    }
    smt::Result vac = query(tc_.tru());
    if (vac.status == smt::Status::Unsat) {
      err(s_.loc, "the assumptions are unsatisfiable: no sizes satisfy them, so the spec says nothing");
      return;
    }
    if (vac.status == smt::Status::Unknown) {
      err(s_.loc, "could not show the assumptions satisfiable (solver: " + vac.reason + ")");
      return;
    }
    r_.satisfiable = true;
    for (size_t i = 0; i < s_.dims.size(); ++i) {
      auto v = smt::eval(dims_[i], vac.model);
      if (v && v->den == 1)
        r_.example[s_.dims[i].name] = static_cast<int64_t>(v->num);
    }

    if (!s_.sizes.empty()) {
      std::vector<ST> at;
      std::string text;
      for (const auto &[n, v] : s_.sizes) {
        at.push_back(tc_.eq(dims_[static_cast<size_t>(s_.findDim(n))], tc_.intConst(v)));
        text += (text.empty() ? "" : ", ") + n + " = " + std::to_string(v);
      }
      smt::Result r = query(tc_.mkAnd(at));
      if (r.status == smt::Status::Unsat)
        err(s_.sizesLoc, "the sizes (" + text + ") violate the assumptions");
      else if (r.status == smt::Status::Unknown)
        err(s_.sizesLoc, "could not show the sizes (" + text + ") satisfy the assumptions (solver: " + r.reason + ")");
    }
    for (const Tensor &t : s_.tensors)
      for (const TermPtr &e : t.extents) {
        Env env;
        std::vector<ST> facts;
        walk(*e, env, facts, "");
      }
    for (size_t i = 0; i < s_.defines.size(); ++i)
      if (!s_.defines[i].function) {
        names_.clear();
        Env env(static_cast<size_t>(s_.defines[i].numSlots));
        std::vector<ST> facts;
        walk(*s_.defines[i].body, env, facts, "");
      }
    for (const Ensures &e : s_.ensures) {
      const Tensor &t = s_.tensors[e.tensor];
      Env env(static_cast<size_t>(e.numSlots));
      std::vector<ST> facts;
      names_ = e.index;
      for (size_t k = 0; k < e.index.size(); ++k) {
        env[k] = tc_.fresh(e.index[k], smt::Sort::Int);
        Env none;
        facts.push_back(tc_.le(tc_.intConst(0), env[k]));
        facts.push_back(tc_.lt(env[k], tr(*t.extents[k], none)));
      }
      walk(*e.body, env, facts, "");
    }
  }

private:
  using Env = std::vector<ST>;
  const Spec &s_;
  CheckResult &r_;
  TermContext tc_;
  smt::Solver solver_;
  std::vector<ST> dims_, scalars_;
  std::vector<ST> consts_;
  std::set<std::pair<std::string, std::string>> reported_;

  void err(Loc l, const std::string &m) {
    if (reported_.insert({locText(l), m}).second)
      r_.errors.push_back({l, m});
  }

  smt::Result query(ST goal) {
    ++r_.queries;
    std::vector<ST> all = {goal};
    for (ST b : tc_.boundFacts())
      all.push_back(b);
    return solver_.check(tc_.mkAnd(all));
  }

  std::string sizesOf(const smt::Assignment &m) {
    std::string r;
    for (size_t i = 0; i < dims_.size(); ++i) {
      auto v = smt::eval(dims_[i], m);
      if (v && v->den == 1)
        r += (r.empty() ? "" : ", ") + s_.dims[i].name + " = " + smt::toString(v->num);
    }
    return r;
  }

  // Must be unsat under the facts; otherwise an error at loc.
  void mustNot(ST bad, const std::vector<ST> &facts, Loc loc, const std::string &what, const std::string &where) {
    std::vector<ST> all = facts;
    all.push_back(bad);
    smt::Result res = query(tc_.mkAnd(all));
    if (res.status == smt::Status::Unsat)
      return;
    std::string detail;
    if (res.status == smt::Status::Sat) {
      std::string sz = sizesOf(res.model);
      detail = sz.empty() ? "" : " (fails for " + sz + ")";
    } else {
      detail = " (solver: " + (res.reason.empty() ? std::string("unknown") : res.reason) + ")";
    }
    err(loc, what + " from the assumptions" + detail + where);
  }

  ST chain(const Term &t, Env &env, ST (TermContext::*rel)(ST, ST)) {
    std::vector<ST> parts;
    ST prev = tr(*t.args[0], env);
    for (size_t k = 1; k < t.args.size(); ++k) {
      ST cur = tr(*t.args[k], env);
      parts.push_back((tc_.*rel)(prev, cur));
      prev = cur;
    }
    return tc_.mkAnd(parts);
  }

  // The spec term as an smt term (binders become fresh unknowns).
  ST tr(const Term &t, Env &env) {
    auto a = [&](size_t k) { return tr(*t.args[k], env); };
    switch (t.op) {
    case Op::IntLit: return tc_.intConst(t.ival);
    case Op::RealLit: return tc_.realConst(t.num, t.den);
    case Op::BoolLit: return tc_.boolConst(t.ival != 0);
    case Op::Dim: return dims_[t.ref];
    case Op::Scalar: return scalars_[t.ref];
    case Op::Var: return env[t.ref];
    case Op::Const: {
      if (!consts_[t.ref]) {
        Env e2(static_cast<size_t>(s_.defines[t.ref].numSlots));
        consts_[t.ref] = tr(*s_.defines[t.ref].body, e2);
      }
      return consts_[t.ref];
    }
    case Op::Call: {
      const Define &d = s_.defines[t.ref];
      Env e2(static_cast<size_t>(d.numSlots));
      for (size_t k = 0; k < t.args.size(); ++k)
        e2[k] = a(k);
      return tr(*d.body, e2);
    }
    case Op::Read:
    case Op::Old: {
      std::vector<ST> idx;
      for (size_t k = 0; k < t.args.size(); ++k)
        idx.push_back(a(k));
      std::string fn = (t.op == Op::Old ? "old." : "tensor.") + s_.tensors[t.ref].name;
      return tc_.app(fn, smtSort(t.sort), idx);
    }
    case Op::Ite: return tc_.ite(a(0), a(1), a(2));
    case Op::Let: {
      size_t n = t.letVars.size();
      std::vector<ST> vals;
      for (size_t k = 0; k < n; ++k)
        vals.push_back(a(k));
      for (size_t k = 0; k < n; ++k)
        env[static_cast<size_t>(t.ref) + k] = vals[k];
      return a(n);
    }
    case Op::And:
    case Op::Or: {
      std::vector<ST> xs;
      for (size_t k = 0; k < t.args.size(); ++k)
        xs.push_back(a(k));
      return t.op == Op::And ? tc_.mkAnd(xs) : tc_.mkOr(xs);
    }
    case Op::Not: return tc_.mkNot(a(0));
    case Op::Implies: {
      ST r = a(t.args.size() - 1);
      for (size_t k = t.args.size() - 1; k-- > 0;)
        r = tc_.implies(a(k), r);
      return r;
    }
    case Op::Eq: return chain(t, env, &TermContext::eq);
    case Op::Lt: return chain(t, env, &TermContext::lt);
    case Op::Le: return chain(t, env, &TermContext::le);
    case Op::Gt: return chain(t, env, &TermContext::gt);
    case Op::Ge: return chain(t, env, &TermContext::ge);
    case Op::Distinct: {
      std::vector<ST> xs, parts;
      for (size_t k = 0; k < t.args.size(); ++k)
        xs.push_back(a(k));
      for (size_t x = 0; x < xs.size(); ++x)
        for (size_t y = x + 1; y < xs.size(); ++y)
          parts.push_back(tc_.ne(xs[x], xs[y]));
      return tc_.mkAnd(parts);
    }
    case Op::Add:
    case Op::Sub:
    case Op::Mul:
    case Op::Div: {
      ST r = a(0);
      for (size_t k = 1; k < t.args.size(); ++k) {
        ST b = a(k);
        r = t.op == Op::Add ? tc_.add(r, b) : t.op == Op::Sub ? tc_.sub(r, b) : t.op == Op::Mul ? tc_.mul(r, b) : tc_.realDiv(r, b);
      }
      return r;
    }
    case Op::Neg: return tc_.neg(a(0));
    case Op::IntDiv: return tc_.div(a(0), a(1));
    case Op::Mod: return tc_.mod(a(0), a(1));
    case Op::Abs: {
      ST x = a(0);
      ST zero = t.sort == Sort::Real ? tc_.realConst(0) : tc_.intConst(0);
      return tc_.ite(tc_.lt(x, zero), tc_.neg(x), x);
    }
    case Op::Max:
    case Op::Min: {
      ST r = a(0);
      for (size_t k = 1; k < t.args.size(); ++k) {
        ST b = a(k);
        r = t.op == Op::Max ? tc_.ite(tc_.gt(b, r), b, r) : tc_.ite(tc_.lt(b, r), b, r);
      }
      return r;
    }
    case Op::ToReal: return tc_.toReal(a(0));
    case Op::Fn: {
      std::vector<ST> xs;
      for (size_t k = 0; k < t.args.size(); ++k)
        xs.push_back(a(k));
      return tc_.app("fn." + t.name, smt::Sort::Real, xs);
    }
    default: break;
    }
    assert(isRangeBinder(t.op));
    return tc_.fresh(std::string(opKeyword(t.op)) + "." + t.name, smtSort(t.sort));
  }

  // Checks every read, range and division inside t under the facts.
  void walk(const Term &t, Env &env, std::vector<ST> &facts, const std::string &where) {
    switch (t.op) {
    case Op::Read:
    case Op::Old: {
      for (const TermPtr &x : t.args)
        walk(*x, env, facts, where);
      const Tensor &tn = s_.tensors[t.ref];
      for (size_t k = 0; k < t.args.size(); ++k) {
        Env none;
        ST idx = tr(*t.args[k], env), ext = tr(*tn.extents[k], none);
        ST bad = tc_.mkNot(tc_.mkAnd(tc_.le(tc_.intConst(0), idx), tc_.lt(idx, ext)));
        mustNot(bad, facts, t.args[k]->loc,
                "index " + std::to_string(k + 1) + " of this read of '" + tn.name + "' may be out of bounds: cannot show 0 <= " +
                    infix(s_, *t.args[k], names_) + " < " + infix(s_, *tn.extents[k], {}),
                where);
      }
      return;
    }
    case Op::Call: {
      for (const TermPtr &x : t.args)
        walk(*x, env, facts, where);
      const Define &d = s_.defines[t.ref];
      Env e2(static_cast<size_t>(d.numSlots));
      for (size_t k = 0; k < t.args.size(); ++k)
        e2[k] = tr(*t.args[k], env);
      std::vector<std::string> saved = names_;
      names_ = d.params;
      walk(*d.body, e2, facts, where + " (in '" + d.name + "' used at " + locText(t.loc) + ")");
      names_ = saved;
      return;
    }
    case Op::Ite: {
      walk(*t.args[0], env, facts, where);
      ST c = tr(*t.args[0], env);
      facts.push_back(c);
      walk(*t.args[1], env, facts, where);
      facts.back() = tc_.mkNot(c);
      walk(*t.args[2], env, facts, where);
      facts.pop_back();
      return;
    }
    case Op::And:
    case Op::Or:
    case Op::Implies: {
      size_t mark = facts.size();
      for (size_t k = 0; k < t.args.size(); ++k) {
        walk(*t.args[k], env, facts, where);
        if (t.op == Op::Implies && k + 1 == t.args.size())
          break;
        ST c = tr(*t.args[k], env);
        facts.push_back(t.op == Op::Or ? tc_.mkNot(c) : c);
      }
      facts.resize(mark);
      return;
    }
    case Op::Let: {
      size_t n = t.letVars.size();
      for (size_t k = 0; k < n; ++k)
        walk(*t.args[k], env, facts, where);
      std::vector<ST> vals;
      for (size_t k = 0; k < n; ++k)
        vals.push_back(tr(*t.args[k], env));
      for (size_t k = 0; k < n; ++k) {
        env[static_cast<size_t>(t.ref) + k] = vals[k];
        setName(t.ref + static_cast<int>(k), t.letVars[k]);
      }
      walk(*t.args[n], env, facts, where);
      return;
    }
    case Op::IntDiv:
    case Op::Mod: {
      for (const TermPtr &x : t.args)
        walk(*x, env, facts, where);
      ST d = tr(*t.args[1], env);
      mustNot(tc_.eq(d, tc_.intConst(0)), facts, t.args[1]->loc,
              std::string("the divisor of '") + opKeyword(t.op) + "' may be zero: cannot show " +
                  infix(s_, *t.args[1], names_) + " != 0",
              where);
      return;
    }
    default: break;
    }
    if (isRangeBinder(t.op)) {
      walk(*t.args[0], env, facts, where);
      walk(*t.args[1], env, facts, where);
      ST lo = tr(*t.args[0], env), hi = tr(*t.args[1], env);
      if (needsNonEmptyRange(t.op))
        mustNot(tc_.le(hi, lo), facts, t.loc,
                std::string("the range of '") + opKeyword(t.op) + "' may be empty: cannot show " +
                    infix(s_, *t.args[1], names_) + " > " + infix(s_, *t.args[0], names_),
                where);
      ST k = tc_.fresh(t.name, smt::Sort::Int);
      env[t.ref] = k;
      setName(t.ref, t.name);
      facts.push_back(tc_.le(lo, k));
      facts.push_back(tc_.lt(k, hi));
      walk(*t.args[2], env, facts, where);
      facts.pop_back();
      facts.pop_back();
      return;
    }
    for (const TermPtr &x : t.args)
      walk(*x, env, facts, where);
  }

  // Names of bound variables by slot, for messages.
  std::vector<std::string> names_;
  void setName(int slot, const std::string &n) {
    if (static_cast<size_t>(slot) >= names_.size())
      names_.resize(static_cast<size_t>(slot) + 1);
    names_[static_cast<size_t>(slot)] = n;
  }
};

} // namespace

CheckResult checkSpec(const Spec &s, unsigned timeoutMs) {
  CheckResult r;
  auto t0 = std::chrono::steady_clock::now();
  Checker c(s, r, timeoutMs);
  c.run();
  r.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

} // namespace ksynth::spec
