#include "verify/equiv/prove.h"

#include "verify/check/symexec.h"
#include "verify/smt/solver.h"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <cmath>
#include <functional>
#include <set>

namespace ksynth::equiv {

namespace {

using check::Status;
using smt::Sort;
using smt::Term;
using smt::TermContext;
using smt::int128;

struct GiveUp {
  std::string why;
};

// Spec sums as applications ssum.N(lo, hi, params...): the sum over k in [lo, hi) of body.
struct SpecSum {
  Term k = nullptr, body = nullptr;
  std::vector<Term> params;
};

const char *kMath[] = {"exp", "log", "sqrt", "rsqrt", "tanh", "erf", "pow"};

// The spec's name for a kernel math function ("expf", "__expf", "std::exp" -> "exp"), or "".
std::string canonicalMath(std::string n, bool &approx) {
  approx = false;
  if (n.rfind("std::", 0) == 0)
    n = n.substr(5);
  if (n.rfind("__", 0) == 0) {
    n = n.substr(2);
    approx = true; // fast-math intrinsics (__expf, __logf, __powf)
  }
  for (const char *m : kMath) {
    std::string s = m;
    if (n == s || n == s + "f")
      return s;
  }
  return "";
}

class Prover {
public:
  Prover(const ir::Kernel &k, const spec::Spec &s, const spec::Binding &b, const check::Options &o)
      : k_(k), s_(s), b_(b), opts_(o), solver_(tc_, o.timeoutMs) {}

  // A float literal that is infinite or NaN: IEEE arithmetic on it (inf - inf is NaN) has no
  // counterpart over the reals.
  static bool nonFiniteLiteral(const ir::Expr &e) {
    if (e.op == ir::Op::Const && e.type.isFloat() && !std::isfinite(e.fval))
      return true;
    for (const ir::ExprPtr &a : e.args)
      if (a && nonFiniteLiteral(*a))
        return true;
    return false;
  }
  static bool nonFiniteLiteral(const ir::Block &b) {
    for (const ir::StmtPtr &s : b) {
      for (const ir::ExprPtr *e : {&s->value, &s->value2, &s->ptr, &s->cond})
        if (*e && nonFiniteLiteral(**e))
          return true;
      for (const ir::ExprPtr &i : s->index)
        if (i && nonFiniteLiteral(*i))
          return true;
      for (const ir::Block *c : {&s->pre, &s->body, &s->elseBody, &s->step})
        if (nonFiniteLiteral(*c))
          return true;
    }
    return false;
  }

  // Where t may have no real value: non-constant divisors, and applications of functions
  // defined only on part of the reals (sqrt, log, pow, ...). Not inside the definitions of
  // uninterpreted applications (sums).
  static bool partialFunction(const std::string &n) {
    static const std::set<std::string> partial = {"sqrt", "rsqrt", "log", "log2", "log10", "log1p", "pow",
                                                  "acos", "asin", "fmod", "frcp_rn", "fdivide", "fdiv_rn",
                                                  "fsqrt_rn", "frsqrt_rn", "tan"};
    return partial.count(n) > 0;
  }
  // Entries: (0, divisor) and (1, partial application).
  void divisors(Term t, std::set<std::pair<int, Term>> &out, std::set<Term> &seen) {
    if (!seen.insert(t).second)
      return;
    if (t->kind == smt::Kind::RealDiv && t->kids[1]->kind != smt::Kind::Const)
      out.insert({0, t->kids[1]});
    if (t->kind == smt::Kind::App && t->name.rfind("fn.", 0) == 0 && partialFunction(t->name.substr(3)))
      out.insert({1, t});
    for (Term c : t->kids)
      divisors(c, out, seen);
  }
  // Where a divisor or a partial function's argument of the kernel's alone has no real
  // value, the GPU computes an infinity or NaN while the spec has a number: each of the
  // kernel's must equal one of the spec's (same kind, equal by equalTerms under ctx).
  void sameDivisors(Term got, Term want, Term ctx, const std::string &tensor) {
    std::set<std::pair<int, Term>> mine, theirs;
    std::set<Term> seen1, seen2;
    divisors(got, mine, seen1);
    divisors(want, theirs, seen2);
    for (auto [cat, d] : mine) {
      if (theirs.count({cat, d}))
        continue;
      bool matched = false;
      for (auto [cat2, e] : theirs) {
        bool sameKind = cat2 == cat && (cat == 0 || (e->kind == smt::Kind::App && e->name == d->name &&
                                                     e->kids.size() == d->kids.size()));
        if (!sameKind)
          continue;
        std::string why;
        if (equalTerms(d, e, ctx, 1, why)) {
          matched = true;
          break;
        }
      }
      if (!matched)
        throw GiveUp{"the kernel's value of '" + tensor + "' divides by or applies a partial function to " +
                     smt::show(d).substr(0, 120) +
                     ", which the spec's does not (where that has no real value the kernel computes none)"};
    }
  }

  ProofReport run() {
    ProofReport rep;
    if (nonFiniteLiteral(k_.body))
      throw GiveUp{"the kernel has an infinite or NaN float literal (IEEE arithmetic on it has no counterpart "
                   "over the reals)"};
    std::vector<std::string> text;
    g_ = check::makeGlobals(tc_, k_, opts_.block, opts_.grid, text);
    {
      std::vector<Term> pre = g_.facts;
      for (const ir::ExprPtr &e : opts_.assumes)
        pre.push_back(check::evalUniform(tc_, k_, g_, *e));
      check::tightenBounds(tc_, pre);
    }
    w1_ = check::makeThread(tc_, g_, "w1");
    w2_ = check::makeThread(tc_, g_, "w2");
    w3_ = check::makeThread(tc_, g_, "w3");
    m1_ = check::execute(tc_, k_, g_, w1_, "w1", true, true);
    m1b_ = check::execute(tc_, k_, g_, w1_, "w1b", true, true);
    m2_ = check::execute(tc_, k_, g_, w2_, "w2", true, true);
    m3_ = check::execute(tc_, k_, g_, w3_, "w3", true, true);
    for (Term f : g_.facts)
      solver_.addBackground(f);
    for (const check::ThreadSyms *t : {&w1_, &w2_, &w3_})
      for (Term f : threadRange(*t))
        solver_.addBackground(f);
    for (const check::ThreadModel *m : {&m1_, &m1b_, &m2_, &m3_}) {
      for (Term a : m->assumptions)
        solver_.addBackground(a);
      for (Term f : m->facts)
        solver_.addBackground(f);
    }
    for (const ir::ExprPtr &e : opts_.assumes)
      solver_.addBackground(check::evalUniform(tc_, k_, g_, *e));

    if (!m1_.unsupported.empty()) {
      rep.unavailable = "the kernel uses an unsupported construct (" + m1_.unsupported.front()->text + ")";
      return rep;
    }
    for (const check::SummarySite &ss : m1_.summaries) {
      Step st(*this, "loop variable '" + ss.var + "' of a summarised loop does not wrap around", {ss.loc.line});
      if (!unsat(tc_.mkAnd(ss.pc, tc_.mkNot(ss.ok)))) {
        rep.unavailable = "loop variable '" + ss.var + "' may wrap around";
        return rep;
      }
    }
    for (const check::AccessSite &a : m1_.accesses)
      if (a.write && !a.pointerKnown) {
        rep.unavailable = "a store through a pointer that names no known array";
        return rep;
      }
    for (const auto &[v, d] : b_.dimOfVar)
      dimTerm_[d] = g_.params.at(v);
    for (const auto &[v, x] : b_.scalarOfVar)
      scalarTerm_[x] = g_.params.at(v);
    for (const auto &[a, t] : b_.tensorOfArray)
      arrayOf_[t] = a;
    checkSharedReads();
    checkOldReads();

    for (size_t t = 0; t < s_.tensors.size(); ++t) {
      const spec::Tensor &T = s_.tensors[t];
      if (T.mode == spec::Mode::In)
        continue;
      TensorProof &tp = rep.tensors[T.name];
      try {
        proveTensor(static_cast<int>(t), tp);
      } catch (const GiveUp &g) {
        if (tp.coverage != Status::Proven && tp.coverageReason.empty())
          tp.coverageReason = g.why;
        if (tp.equivalence != Status::Proven && tp.equivalenceReason.empty())
          tp.equivalenceReason = g.why;
      }
    }
    rep.assumptions.assign(assumed_.begin(), assumed_.end());
    return rep;
  }

private:
  const ir::Kernel &k_;
  const spec::Spec &s_;
  const spec::Binding &b_;
  check::Options opts_;
  TermContext tc_;
  smt::Solver solver_;
  check::GlobalSyms g_;
  check::ThreadSyms w1_, w2_, w3_;
  check::ThreadModel m1_, m1b_, m2_, m3_;
  std::set<int> sharedOk_; // shared arrays whose loads may be read as interval contents
  std::unordered_map<Term, Term> oldLoads_; // load symbol -> initial content of its cell
  std::unordered_map<Term, Term> literalOf_; // a float's exact value -> the spec constant it stands for
  std::map<int, Term> dimTerm_, scalarTerm_;
  std::map<int, int> arrayOf_; // spec tensor -> kernel array
  std::map<std::string, SpecSum> specSums_;
  std::map<int, Term> constCache_;
  std::set<std::string> assumed_;
  std::set<Term> boundsAdded_;
  std::string lastUnknown_;
  int dumped_ = 0;

public:
  std::vector<std::pair<std::string, bool>> queries; // see ProofReport::queries

private:

  std::vector<Term> threadRange(const check::ThreadSyms &t) {
    std::vector<Term> out;
    for (int d = 0; d < 3; ++d) {
      out.push_back(tc_.mkAnd(tc_.le(tc_.intConst(0), t.tid[d]), tc_.lt(t.tid[d], g_.blockDim[d])));
      out.push_back(tc_.mkAnd(tc_.le(tc_.intConst(0), t.bid[d]), tc_.lt(t.bid[d], g_.gridDim[d])));
    }
    return out;
  }

  // What the queries asked inside a scope establish, in words, and the source lines they are
  // about: the header of each dumped query (proof bundles), innermost step last.
  struct StepText {
    std::string what;
    std::vector<unsigned> lines;
  };
  std::vector<StepText> steps_;
  class Step {
  public:
    Step(Prover &p, std::string what, std::vector<unsigned> lines = {}) : p_(p) {
      p_.steps_.push_back({std::move(what), std::move(lines)});
    }
    ~Step() { p_.steps_.pop_back(); }
    Step(const Step &) = delete;
    Step &operator=(const Step &) = delete;

  private:
    Prover &p_;
  };
  static std::vector<unsigned> linesOf(const std::vector<const check::AccessSite *> &sites) {
    std::set<unsigned> ls;
    for (const check::AccessSite *x : sites)
      if (x->stmt && x->stmt->loc.line)
        ls.insert(x->stmt->loc.line);
    return {ls.begin(), ls.end()};
  }
  static std::vector<unsigned> lineOf(const check::AccessSite &x) {
    return x.stmt && x.stmt->loc.line ? std::vector<unsigned>{x.stmt->loc.line} : std::vector<unsigned>{};
  }

  std::string stepHeader() const {
    std::string h;
    std::set<unsigned> lines;
    for (size_t i = 0; i < steps_.size(); ++i) {
      h += (i == 0 ? "\nestablishes: " : "\n  within it: ") + steps_[i].what;
      lines.insert(steps_[i].lines.begin(), steps_[i].lines.end());
    }
    if (steps_.empty())
      h += "\nestablishes: a step of the proof";
    if (!lines.empty()) {
      h += "\nsource lines:";
      for (unsigned l : lines)
        h += " " + std::to_string(l);
    }
    return h;
  }

  void dump(Term goal, const smt::Result &r) {
    if (opts_.dumpSmtDir.empty())
      return;
    std::filesystem::create_directories(opts_.dumpSmtDir);
    std::vector<Term> all = solver_.background();
    all.push_back(goal);
    std::string name = k_.name + ".spec." + std::to_string(++dumped_);
    queries.emplace_back(name + ".smt2", r.status == smt::Status::Unsat);
    std::ofstream(opts_.dumpSmtDir + "/" + name + ".smt2")
        << smt::toSmtLib2(all, "ksynth query " + name + " (coverage/equivalence; ksynth got " +
                                   smt::statusName(r.status) + ")\nunsat means this step of the proof holds" +
                                   stepHeader() + check::kRunWith, true);
  }

  bool unsat(Term goal) {
    for (Term f : tc_.boundFacts())
      if (boundsAdded_.insert(f).second)
        solver_.addBackground(f);
    smt::Result r = solver_.check(goal);
    dump(goal, r);
    if (r.ms > 300 && getenv("KSYNTH_DEBUG_EQ"))
      fprintf(stderr, "slow query (%.0f ms, %s): %s\n", r.ms, smt::statusName(r.status), smt::show(goal).substr(0, 500).c_str());
    if (r.status == smt::Status::Unknown)
      lastUnknown_ = "the solver gave up (" + r.reason + ")";
    else if (r.status == smt::Status::Sat)
      lastUnknown_ = "";
    return r.status == smt::Status::Unsat;
  }

  smt::Result solve(Term goal) {
    for (Term f : tc_.boundFacts())
      if (boundsAdded_.insert(f).second)
        solver_.addBackground(f);
    smt::Result r = solver_.check(goal);
    dump(goal, r);
    if (r.ms > 300 && getenv("KSYNTH_DEBUG_EQ"))
      fprintf(stderr, "slow solve (%.0f ms, %s): %s\n", r.ms, smt::statusName(r.status), smt::show(goal).substr(0, 5000).c_str());
    return r;
  }

  // ---- the spec as terms -----------------------------------------------------------------

  // The exact binary value of a double rounded to float, or nullptr.
  Term floatValue(double v) {
    float f = static_cast<float>(v);
    int exp = 0;
    double m = std::frexp(static_cast<double>(f), &exp);
    auto mant = static_cast<smt::int128>(std::ldexp(m, 53));
    exp -= 53;
    while (mant != 0 && mant % 2 == 0 && exp < 0) {
      mant /= 2;
      ++exp;
    }
    if (mant == 0)
      return tc_.realConst(0);
    if (exp >= 0 && exp < 60)
      return tc_.realConst(mant * (static_cast<smt::int128>(1) << exp));
    if (exp < 0 && exp > -100)
      return tc_.realConst(mant, static_cast<smt::int128>(1) << -exp);
    return nullptr;
  }

  Term realLiteral(const spec::Term &t) {
    // The spec's constant is exact. DESIGN: a float literal of the kernel equals a spec
    // constant when both round to the same float, so the kernel's literal (the float's
    // exact value) is later read as this constant (canonicalKernel).
    Term exact = tc_.realConst(t.num, t.den);
    Term asFloat = floatValue(static_cast<double>(t.num) / static_cast<double>(t.den));
    if (asFloat && asFloat != exact) {
      auto it = literalOf_.find(asFloat);
      if (it != literalOf_.end() && it->second != exact)
        throw GiveUp{"two spec constants round to the same float"};
      literalOf_[asFloat] = exact;
    }
    return exact;
  }

  Term flatOf(int tensor, const std::vector<Term> &idx) {
    const spec::Tensor &T = s_.tensors[tensor];
    Term flat = tc_.intConst(0);
    std::vector<Term> none;
    for (size_t d = 0; d < idx.size(); ++d)
      flat = d == 0 ? idx[0] : tc_.add(tc_.mul(flat, tr(*T.extents[d], none)), idx[d]);
    return flat;
  }

  // A spec fold over a range (sum, max-over, min-over) as an application prefix.N(lo, hi,
  // params...) whose meaning is specSums_[prefix.N]: the fold over k in [lo, hi) of the body.
  Term foldApp(const spec::Term &t, const std::string &prefix, std::vector<Term> &slots) {
    Term lo = tr(*t.args[0], slots), hi = tr(*t.args[1], slots);
    Term kv = tc_.fresh("spec.k", Sort::Int);
    slots.at(static_cast<size_t>(t.ref)) = kv;
    Term body = tr(*t.args[2], slots);
    std::vector<Term> syms, params;
    tc_.collectSymbols(body, syms);
    for (Term x : syms)
      if (x->kind == smt::Kind::Var && x != kv)
        params.push_back(x);
    std::vector<Term> args{lo, hi};
    args.insert(args.end(), params.begin(), params.end());
    // One application for one fold, however often the spec writes it (a define used twice).
    for (const auto &[known, e] : specSums_)
      if (known.rfind(prefix, 0) == 0 && e.params == params && tc_.substitute(body, {{kv, e.k}}) == e.body)
        return tc_.app(known, foldSort(prefix, body), args);
    std::string name = prefix + std::to_string(specSums_.size());
    specSums_[name] = SpecSum{kv, body, params};
    return tc_.app(name, foldSort(prefix, body), args);
  }

  static Sort foldSort(const std::string &prefix, Term body) {
    return prefix == "ssum." ? Sort::Real : prefix.rfind("sarg", 0) == 0 ? Sort::Int : body->sort;
  }

  Term tr(const spec::Term &t, std::vector<Term> &slots) {
    using spec::Op;
    auto a = [&](size_t i) { return tr(*t.args[i], slots); };
    auto chain = [&](auto mk) {
      std::vector<Term> parts;
      for (size_t i = 0; i + 1 < t.args.size(); ++i)
        parts.push_back(mk(a(i), a(i + 1)));
      return tc_.mkAnd(parts);
    };
    auto fold = [&](auto mk) {
      Term r = a(0);
      for (size_t i = 1; i < t.args.size(); ++i)
        r = mk(r, a(i));
      return r;
    };
    switch (t.op) {
    case Op::IntLit: return tc_.intConst(t.ival);
    case Op::BoolLit: return tc_.boolConst(t.ival != 0);
    case Op::RealLit: return realLiteral(t);
    case Op::Dim: {
      auto it = dimTerm_.find(t.ref);
      if (it == dimTerm_.end())
        throw GiveUp{"size '" + s_.dims[t.ref].name + "' is not a parameter of the kernel"};
      return it->second;
    }
    case Op::Scalar: {
      auto it = scalarTerm_.find(t.ref);
      if (it == scalarTerm_.end())
        throw GiveUp{"scalar '" + s_.scalars[t.ref].name + "' is not a parameter of the kernel"};
      return it->second;
    }
    case Op::Const: {
      auto it = constCache_.find(t.ref);
      if (it != constCache_.end())
        return it->second;
      std::vector<Term> e(static_cast<size_t>(s_.defines[t.ref].numSlots));
      Term v = tr(*s_.defines[t.ref].body, e);
      constCache_[t.ref] = v;
      return v;
    }
    case Op::Var: return slots.at(static_cast<size_t>(t.ref));
    case Op::Read: {
      auto it = arrayOf_.find(t.ref);
      if (it == arrayOf_.end())
        throw GiveUp{"tensor '" + s_.tensors[t.ref].name + "' is not a kernel parameter"};
      if (!g_.readOnly.count(it->second))
        throw GiveUp{"the spec reads '" + s_.tensors[t.ref].name + "', which the kernel may store to"};
      std::vector<Term> idx;
      for (size_t i = 0; i < t.args.size(); ++i)
        idx.push_back(a(i));
      const ir::Array &arr = k_.arrays[it->second];
      return tc_.app(check::memName(k_, it->second), arr.elem.isFloat() ? Sort::Real : arr.elem.isBool() ? Sort::Bool : Sort::Int,
                     {flatOf(t.ref, idx)});
    }
    case Op::Old: {
      auto it = arrayOf_.find(t.ref);
      if (it == arrayOf_.end())
        throw GiveUp{"tensor '" + s_.tensors[t.ref].name + "' is not a kernel parameter"};
      std::vector<Term> idx;
      for (size_t i = 0; i < t.args.size(); ++i)
        idx.push_back(a(i));
      const ir::Array &arr = k_.arrays[it->second];
      return tc_.app(check::memName(k_, it->second), arr.elem.isFloat() ? Sort::Real : arr.elem.isBool() ? Sort::Bool : Sort::Int,
                     {flatOf(t.ref, idx)});
    }
    case Op::Call: {
      const spec::Define &d = s_.defines[t.ref];
      std::vector<Term> e(static_cast<size_t>(d.numSlots));
      for (size_t i = 0; i < t.args.size(); ++i)
        e[i] = a(i);
      return tr(*d.body, e);
    }
    case Op::Ite: return tc_.ite(a(0), a(1), a(2));
    case Op::Let: {
      size_t n = t.letVars.size();
      std::vector<Term> vals;
      for (size_t i = 0; i < n; ++i)
        vals.push_back(a(i));
      for (size_t i = 0; i < n; ++i)
        slots.at(static_cast<size_t>(t.ref) + i) = vals[i];
      return a(n);
    }
    case Op::And: return fold([&](Term x, Term y) { return tc_.mkAnd(x, y); });
    case Op::Or: return fold([&](Term x, Term y) { return tc_.mkOr(x, y); });
    case Op::Not: return tc_.mkNot(a(0));
    case Op::Implies: return tc_.implies(a(0), a(1));
    case Op::Eq: return chain([&](Term x, Term y) { return tc_.eq(x, y); });
    case Op::Lt: return chain([&](Term x, Term y) { return tc_.lt(x, y); });
    case Op::Le: return chain([&](Term x, Term y) { return tc_.le(x, y); });
    case Op::Gt: return chain([&](Term x, Term y) { return tc_.gt(x, y); });
    case Op::Ge: return chain([&](Term x, Term y) { return tc_.ge(x, y); });
    case Op::Add: return fold([&](Term x, Term y) { return tc_.add(x, y); });
    case Op::Sub: return fold([&](Term x, Term y) { return tc_.sub(x, y); });
    case Op::Mul: return fold([&](Term x, Term y) { return tc_.mul(x, y); });
    case Op::Neg: return tc_.neg(a(0));
    case Op::Div: return fold([&](Term x, Term y) { return tc_.realDiv(x, y); });
    case Op::IntDiv: return tc_.div(a(0), a(1));
    case Op::Mod: return tc_.mod(a(0), a(1));
    case Op::ToReal: return tc_.toReal(a(0));
    case Op::Abs: {
      Term x = a(0);
      Term zero = x->sort == Sort::Real ? tc_.realConst(0) : tc_.intConst(0);
      return tc_.ite(tc_.le(zero, x), x, tc_.neg(x));
    }
    case Op::Max: return fold([&](Term x, Term y) { return tc_.ite(tc_.ge(x, y), x, y); });
    case Op::Min: return fold([&](Term x, Term y) { return tc_.ite(tc_.le(x, y), x, y); });
    case Op::Sum: return foldApp(t, "ssum.", slots);
    case Op::ArgmaxOver: return foldApp(t, "sarg.", slots);
    case Op::ArgminOver: return foldApp(t, "sargmin.", slots);
    case Op::MaxOver:
    case Op::MinOver: {
      // A range of constant, small length: the max (min) of its terms, written out; else an
      // application smax.N(lo, hi, params) (smin.N), matched by extremaEqual.
      Term lo = a(0), hi = a(1);
      int128 l = 0, h = 0;
      if (!tc_.isConst(lo, &l) || !tc_.isConst(hi, &h) || h <= l || h - l > 64)
        return foldApp(t, t.op == Op::MaxOver ? "smax." : "smin.", slots);
      Term acc = nullptr;
      for (int128 i = l; i < h; ++i) {
        slots.at(static_cast<size_t>(t.ref)) = tc_.intConst(i);
        Term v = a(2);
        acc = !acc ? v
              : t.op == Op::MaxOver ? tc_.ite(tc_.ge(acc, v), acc, v)
                                    : tc_.ite(tc_.le(acc, v), acc, v);
      }
      return acc;
    }
    case Op::Fn: {
      std::vector<Term> args;
      for (size_t i = 0; i < t.args.size(); ++i)
        args.push_back(a(i));
      return tc_.app("fn." + t.name, Sort::Real, args);
    }
    default: throw GiveUp{std::string("the spec uses '") + spec::opKeyword(t.op) + "', not proven yet"};
    }
  }

  // Kernel math calls under the spec's names (fast-math intrinsics are stated).
  Term canonicalKernel(Term t) {
    if (!oldLoads_.empty())
      t = tc_.substitute(t, oldLoads_);
    if (!literalOf_.empty()) {
      Term r = tc_.substitute(t, literalOf_);
      if (r != t)
        assumed_.insert("float literals of the kernel stand for the spec constants they round to");
      t = r;
    }
    std::vector<Term> syms;
    tc_.collectSymbols(t, syms);
    std::unordered_map<Term, Term> sub;
    for (Term x : syms) {
      if (x->kind != smt::Kind::App || x->name.rfind("fn.", 0) != 0)
        continue;
      bool approx = false;
      std::string c = canonicalMath(x->name.substr(3), approx);
      if (c.empty())
        continue;
      if (approx)
        assumed_.insert("'" + x->name.substr(3) + "' is taken as the spec's '" + c + "' (an approximation on the GPU)");
      std::vector<Term> args;
      for (Term kid : x->kids)
        args.push_back(tc_.substitute(kid, sub));
      sub[x] = tc_.app("fn." + c, x->sort, args);
    }
    return sub.empty() ? t : tc_.substitute(t, sub);
  }

  void delinearise(Term f1, Term f2, const std::vector<Term> &ext, std::vector<Term> &facts) {
    check::delinearise(tc_, f1, f2, ext, facts);
  }

  // ---- sums ------------------------------------------------------------------------------

  std::vector<Term> appsWithPrefix(Term t, const std::string &prefix) {
    std::vector<Term> syms, out;
    tc_.collectSymbols(t, syms);
    for (Term x : syms)
      if (x->kind == smt::Kind::App && x->name.rfind(prefix, 0) == 0)
        out.push_back(x);
    return out;
  }

  // A memory value in t whose writer is not known: an unresolved shared cell, or a load from
  // a global array the kernel also writes. Empty when there is none.
  std::string unwrittenIn(Term t) {
    std::vector<Term> syms;
    tc_.collectSymbols(t, syms);
    for (Term x : syms) {
      if (x->kind == smt::Kind::App && x->name.rfind("shm.", 0) == 0) {
        int a = check::arrayOfMemName(x->name);
        return "shared memory" + (a >= 0 ? " '" + k_.arrays[a].name + "'" : std::string());
      }
      if (x->kind == smt::Kind::Var && x->name.find(".load.") != std::string::npos)
        return "a value loaded from memory the kernel also stores to";
    }
    return "";
  }

  const check::SumDef *kernelSum(const std::string &name) {
    if (auto t = treeSums_.find(name); t != treeSums_.end())
      return &t->second;
    for (const check::ThreadModel *m : {&m1_, &m1b_, &m2_, &m3_}) {
      auto it = m->sums.find(name);
      if (it != m->sums.end())
        return &it->second;
    }
    return nullptr;
  }

  Term max0(Term x) { return tc_.ite(tc_.lt(x, tc_.intConst(0)), tc_.intConst(0), x); }

  // ctx ⇒ a = b, matching kernel sums in a with spec sums in b (see prove.h).
  bool equalTerms(Term a, Term b, Term ctx, int depth, std::string &why) {
    if (depth > 4) {
      why = "sums nested too deeply";
      return false;
    }
    a = resolveShared(a, ctx, 0);
    std::unordered_map<Term, Term> subA, subB;
    std::vector<Term> ks = appsWithPrefix(a, "lsum."), ss = appsWithPrefix(b, "ssum.");
    std::set<Term> usedS;
    if (getenv("KSYNTH_DEBUG_EQ"))
      fprintf(stderr, "equal (depth %d): kernel %s\n  spec %s\n", depth, smt::show(a).substr(0, 600).c_str(),
              smt::show(b).substr(0, 600).c_str());
    for (Term l : ks) {
      const check::SumDef *ld = kernelSum(l->name);
      if (!ld)
        continue;
      for (Term q : ss) {
        if (usedS.count(q))
          continue;
        const SpecSum &sd = specSums_.at(q->name);
        Term n = l->kids[0], lo = q->kids[0], hi = q->kids[1];
        bool sameLength = false;
        {
          Step st(*this, "a sum computed by a kernel loop has as many terms as the spec's sum '" + q->name + "'");
          sameLength = unsat(tc_.mkAnd(ctx, tc_.ne(max0(n), max0(tc_.sub(hi, lo)))));
        }
        if (!sameLength) {
          if (reindexed(l, q, ctx, depth)) {
            Term sigma = tc_.fresh("eq.sum", Sort::Real);
            subA[l] = sigma;
            subB[q] = sigma;
            usedS.insert(q);
            break;
          }
          continue;
        }
        Term j = tc_.fresh("eq.j", Sort::Int);
        std::unordered_map<Term, Term> ml{{ld->iter, j}}, ms{{sd.k, tc_.add(lo, j)}};
        for (size_t p = 0; p < ld->params.size(); ++p)
          ml[ld->params[p]] = l->kids[p + 1];
        for (size_t p = 0; p < sd.params.size(); ++p)
          ms[sd.params[p]] = q->kids[p + 2];
        Term bl = canonicalKernel(tc_.substitute(ld->body, ml)), bs = tc_.substitute(sd.body, ms);
        Term ctx2 = tc_.mkAnd({ctx, tc_.le(tc_.intConst(0), j), tc_.lt(j, n)});
        std::string inner;
        Step st(*this, "term j of a kernel loop's sum equals term lo + j of the spec's sum '" + q->name + "'");
        if (!equalTerms(bl, bs, ctx2, depth + 1, inner) && !reindexed(l, q, ctx, depth))
          continue;
        Term sigma = tc_.fresh("eq.sum", Sort::Real);
        subA[l] = sigma;
        subB[q] = sigma;
        usedS.insert(q);
        break;
      }
    }
    Term a2 = subA.empty() ? a : tc_.substitute(a, subA), b2 = subB.empty() ? b : tc_.substitute(b, subB);
    matchExtrema(a2, b2, ctx);
    for (bool isMax : {true, false}) {
      std::unordered_map<Term, Term> subL, subQ;
      std::vector<Term> qs = appsWithPrefix(b2, isMax ? "sarg." : "sargmin.");
      for (Term l : appsWithPrefix(a2, isMax ? "larg." : "largmin."))
        for (Term q : qs)
          if (!subQ.count(q) && argEqual(l, q, ctx)) {
            Term sigma = tc_.fresh("eq.arg", Sort::Int);
            subL[l] = sigma;
            subQ[q] = sigma;
            break;
          }
      if (!subL.empty()) {
        a2 = tc_.substitute(a2, subL);
        b2 = tc_.substitute(b2, subQ);
      }
    }
    for (const char *fold : {"larg.", "largmin.", "sarg.", "sargmin."})
      if (!appsWithPrefix(fold[0] == 'l' ? a2 : b2, fold).empty()) {
        why = "a running argmax or argmin of the kernel and the spec's could not be matched (it must walk the "
              "spec's range in order from its first index and replace only on a strictly better term)";
        return false;
      }
    for (const char *fold : {"lmax.", "lmin.", "smax.", "smin."})
      if (!appsWithPrefix(fold[0] == 'l' ? a2 : b2, fold).empty()) {
        why = "a max or min of the kernel and one of the spec could not be matched (each candidate of the "
              "kernel's fold a term of the spec's range, and every term a candidate)";
        return false;
      }
    // What is left of shared memory after resolving its writers, and values loaded from
    // memory the kernel writes (an out tensor read back), may be cells the launch never
    // wrote: on a GPU they can hold NaN or infinity, so x + (g - g) is not x there. The spec
    // never mentions them, so the two terms could be equal only by cancelling them.
    if (std::string what = unwrittenIn(a2); !what.empty()) {
      why = "the value depends on " + what + ", which the launch may not have written (it may hold NaN)";
      return false;
    }
    if (a2 == b2)
      return true;
    if (ks.size() > subA.size() || ss.size() > subB.size()) {
      // An unmatched sum is an unknown value on its side: the two terms could be equal only
      // by cancelling it, and asking anyway can send Z3's nonlinear real arithmetic into a
      // search that ignores its time limit (a layernorm mutant ran for 10 minutes).
      why = "a sum of the kernel and one of the spec could not be matched term by term";
      return false;
    }
    {
      Step st(*this, subA.empty() ? "the two values are equal"
                                  : "the two values are equal, with each matched pair of sums one unknown");
      if (unsat(tc_.mkAnd(ctx, tc_.ne(a2, b2))))
        return true;
    }
    why = !lastUnknown_.empty() ? lastUnknown_
          : ks.size() + ss.size() > subA.size() + subB.size()
              ? "a sum of the kernel and one of the spec could not be matched term by term"
              : "the stored value and the spec's could not be shown equal";
    return false;
  }

  // Every way to pick one (symbol, value) of each list, as substitutions; false when there
  // would be more than `limit`.
  static bool allChoices(const std::vector<std::vector<std::pair<Term, Term>>> &perVar, size_t limit,
                         std::vector<std::unordered_map<Term, Term>> &out) {
    out = {{}};
    for (const auto &choices : perVar) {
      std::vector<std::unordered_map<Term, Term>> next;
      for (const auto &c : out)
        for (const auto &[x, v] : choices) {
          auto m = c;
          m[x] = v;
          next.push_back(std::move(m));
        }
      out = std::move(next);
      if (out.size() > limit)
        return false;
    }
    return true;
  }

  // ---- shared memory -----------------------------------------------------------------------



  // A load shm.S(bc, flat) is the cell's content at the start of the interval unless the
  // thread itself stored to the cell earlier in the interval. Checked per shared array
  // (against a second copy of the thread, so store and load may be in different iterations).
  // Cases where thread w1 (copy m1b) stores to the cell L reads before L in program order
  // (sameInterval: and in L's barrier interval).
  std::vector<Term> ownStoresBefore(size_t li, bool sameInterval) {
    auto posOf = [&](const ir::Stmt *st) {
      for (size_t i = 0; i < m1_.accesses.size(); ++i)
        if (m1_.accesses[i].stmt == st)
          return static_cast<int>(i);
      return -1;
    };
    const check::AccessSite &L = m1_.accesses[li];
    std::vector<Term> cases;
    for (const check::AccessSite &Sb : m1b_.accesses) {
      if (!Sb.write || Sb.array != L.array)
        continue;
      int ps = posOf(Sb.stmt);
      if (ps < 0) {
        cases.push_back(tc_.tru()); // cannot place it: assume the worst
        continue;
      }
      const check::AccessSite &Sa = m1_.accesses[static_cast<size_t>(ps)];
      size_t c = 0;
      while (c < L.iters.size() && c < Sa.iters.size() && L.iters[c] == Sa.iters[c])
        ++c;
      std::vector<Term> before;
      for (size_t p = 0; p < c; ++p) {
        std::vector<Term> eq;
        for (size_t q = 0; q < p; ++q)
          eq.push_back(tc_.eq(Sb.iters[q], L.iters[q]));
        eq.push_back(tc_.lt(Sb.iters[p], L.iters[p]));
        before.push_back(tc_.mkAnd(eq));
      }
      if (ps < static_cast<int>(li)) {
        std::vector<Term> eq;
        for (size_t q = 0; q < c; ++q)
          eq.push_back(tc_.eq(Sb.iters[q], L.iters[q]));
        before.push_back(tc_.mkAnd(eq));
      }
      cases.push_back(tc_.mkAnd({L.pc, Sb.pc, tc_.eq(Sb.flat, L.flat),
                                 sameInterval ? tc_.eq(Sb.bc, L.bc) : tc_.tru(), tc_.mkOr(before)}));
    }
    return cases;
  }

  // A load shm.S(bc, flat) is the cell's content at the start of the interval unless the
  // thread itself stored to the cell earlier in the interval. Checked per shared array
  // (against a second copy of the thread, so store and load may be in different iterations).
  void checkSharedReads() {
    std::map<int, std::vector<Term>> bad; // array -> cases
    std::map<int, std::vector<const check::AccessSite *>> reads;
    for (size_t li = 0; li < m1_.accesses.size(); ++li) {
      const check::AccessSite &L = m1_.accesses[li];
      if (L.write || !L.loaded || L.loaded->kind != smt::Kind::App || L.loaded->name.rfind("shm.", 0) != 0)
        continue;
      std::vector<Term> c = ownStoresBefore(li, true);
      std::vector<Term> &cases = bad[L.array];
      cases.insert(cases.end(), c.begin(), c.end());
      reads[L.array].push_back(&L);
    }
    for (auto &[a, cases] : bad) {
      Step st(*this, "no thread reads a cell of shared '" + k_.arrays[a].name +
                         "' that it stored itself earlier in the same barrier interval (so each read sees the "
                         "content at the interval's start)",
              linesOf(reads[a]));
      if (unsat(tc_.mkOr(cases)))
        sharedOk_.insert(a);
    }
  }

  // Loads of an inout tensor that read its value from before the launch: no other thread
  // ever stores to the cell, and this thread only after the load. Their symbols become
  // mem.T(flat), the initial content (what the spec's `old` reads).
  void checkOldReads() {
    for (size_t li = 0; li < m1_.accesses.size(); ++li) {
      const check::AccessSite &L = m1_.accesses[li];
      if (L.write || !L.loaded || L.loaded->kind != smt::Kind::Var || L.array < 0)
        continue;
      auto t = b_.tensorOfArray.find(L.array);
      if (t == b_.tensorOfArray.end() || s_.tensors[t->second].mode != spec::Mode::InOut)
        continue;
      std::vector<Term> cases = ownStoresBefore(li, false);
      std::vector<Term> diff;
      for (int d = 0; d < 3; ++d) {
        diff.push_back(tc_.ne(w1_.tid[d], w2_.tid[d]));
        diff.push_back(tc_.ne(w1_.bid[d], w2_.bid[d]));
      }
      for (const check::AccessSite &S2 : m2_.accesses)
        if (S2.write && S2.array == L.array)
          cases.push_back(tc_.mkAnd({L.pc, S2.pc, tc_.eq(S2.flat, L.flat), tc_.mkOr(diff)}));
      Step st(*this, "the read of inout '" + k_.arrays[L.array].name +
                         "' sees the content from before the launch (no thread stores that cell before it)",
              lineOf(L));
      if (!unsat(tc_.mkOr(cases)))
        continue;
      oldLoads_[L.loaded] = tc_.app(check::memName(k_, L.array), L.loaded->sort, {L.flat});
    }
  }

  // Replaces shm.S(b, c) in t by the value its writer stored: a witness thread of the same
  // block and site, guessed from the cell and the interval, that stores c before interval b,
  // with no other store to c from then until b. Unresolved applications stay (unknown values).
  Term resolveShared(Term t, Term ctx, int depth) {
    std::vector<Term> apps = appsWithPrefix(t, "shm.");
    if (apps.empty() || depth > 4)
      return t;
    std::unordered_map<Term, Term> sub;
    for (Term X : apps) {
      int a = check::arrayOfMemName(X->name);
      if (a < 0 || !sharedOk_.count(a))
        continue;
      Term v = writerValue(X, a, ctx);
      if (v)
        sub[X] = v;
    }
    if (sub.empty())
      return t;
    return resolveShared(tc_.substitute(t, sub), ctx, depth + 1);
  }

  // exclusive: X is the content at the very start of interval b (a tree's operands), so
  // stores in b itself do not matter; otherwise X is a load in b, which a store in b by
  // another thread may precede (ordered by __syncwarp).
  Term writerValue(Term X, int a, Term ctx, bool exclusive = false) {
    Term b = X->kids[0], c = X->kids[1];
    const ir::Array &arr = k_.arrays[a];
    // The cell's index tuple.
    std::vector<Term> idx;
    {
      Term rest = c;
      for (size_t d = arr.dims.size(); d-- > 1;) {
        Term D = tc_.intConst(arr.dims[d]);
        idx.insert(idx.begin(), tc_.mod(rest, D));
        rest = tc_.div(rest, D);
      }
      idx.insert(idx.begin(), rest);
    }
    std::vector<Term> vals = idx;
    vals.push_back(tc_.intConst(0));
    for (int d = 0; d < 3; ++d)
      vals.push_back(w1_.tid[d]);
    smt::Result probe;
    {
      Step st(*this, "a search step, not part of the proof: a model of the read of shared '" + arr.name + "'");
      probe = solve(ctx);
    }
    if (probe.status != smt::Status::Sat)
      return nullptr;
    for (const check::AccessSite &S : m3_.accesses) {
      if (!S.write || S.atomic || S.array != a || !S.value || S.iters.size() > 1)
        continue;
      const Tree *tree = treeOf(S);
      const Scan *scan = tree ? nullptr : scanOf(S);
      Step st(*this, "a read of shared '" + arr.name + "' gets the value stored at line " +
                         std::to_string(S.stmt->loc.line) + " by one writer thread",
              lineOf(S));
      // Only the thread's coordinates and the iteration may vary between writers: any other
      // symbol of the writer's copy left after choosing them (checked per candidate below)
      // would be a value ksynth does not know per thread.
      auto stray = [&](const std::unordered_map<Term, Term> &w) {
        std::vector<Term> syms;
        for (Term x : {S.value, S.pc, S.flat, S.bc})
          tc_.collectSymbols(tc_.substitute(x, w), syms);
        for (Term x : syms)
          if (x->kind == smt::Kind::Var && x->name.rfind("w3.", 0) == 0)
            return true;
        return false;
      };
      std::vector<std::vector<std::pair<Term, Term>>> perVar;
      for (int d = 0; d < 3; ++d) {
        perVar.push_back({{w3_.bid[d], w1_.bid[d]}});
        bool used = false;
        for (Term x : {S.value, S.pc, S.flat, S.bc})
          used |= tc_.mentions(x, w3_.tid[d]);
        std::vector<std::pair<Term, Term>> ch;
        if (!used)
          ch.push_back({w3_.tid[d], tc_.intConst(0)});
        else
          for (Term v : vals)
            ch.push_back({w3_.tid[d], v});
        perVar.push_back(ch);
      }
      if (!S.iters.empty()) {
        Term it = S.iters[0];
        Term b0 = tc_.substitute(S.bc, {{it, tc_.intConst(0)}});
        Term alpha = tc_.sub(tc_.substitute(S.bc, {{it, tc_.intConst(1)}}), b0);
        std::vector<std::pair<Term, Term>> ch{{it, tc_.intConst(0)}};
        int128 al = 0;
        if (tc_.isConst(alpha, &al) && al > 0) {
          ch.push_back({it, tc_.div(tc_.sub(tc_.sub(b, tc_.intConst(1)), b0), alpha)});
          ch.push_back({it, tc_.div(tc_.sub(b, b0), alpha)});
        }
        perVar.push_back(ch);
      }
      std::vector<std::unordered_map<Term, Term>> combos;
      if (tree) // the last round's store, by thread 0: its value is the whole reduction
        combos = {treeWitness(*tree, S, w1_.bid)};
      else if (scan) // the last round's store to the cell: its value is the prefix sum
        combos = {roundOf(S, tc_.sub(c, scan->lastBase), tc_.intConst(scan->rounds - 1), w1_.bid)};
      else if (!allChoices(perVar, 4000, combos))
        continue;
      for (const auto &w : combos) {
        if (stray(w))
          continue;
        std::vector<Term> ok;
        for (int d = 0; d < 3; ++d) {
          Term tx = w.at(w3_.tid[d]);
          ok.push_back(tc_.mkAnd(tc_.le(tc_.intConst(0), tx), tc_.lt(tx, g_.blockDim[d])));
        }
        bool counted = true;
        for (Term it : S.iters) {
          ok.push_back(tc_.le(tc_.intConst(0), w.at(it)));
          auto tr = m3_.trips.find(it);
          if (tr == m3_.trips.end())
            counted = false; // its iterations may be unreached in the model
          else
            ok.push_back(tc_.lt(w.at(it), tc_.substitute(tr->second, w)));
        }
        if (!counted)
          continue;
        Term Sbc = tc_.substitute(S.bc, w);
        ok.push_back(tc_.substitute(S.pc, w));
        ok.push_back(tc_.eq(tc_.substitute(S.flat, w), c));
        ok.push_back(tc_.lt(Sbc, b));
        Term stores = tc_.mkAnd(ok);
        std::optional<smt::Value> pv = smt::eval(stores, probe.model);
        bool debug = getenv("KSYNTH_DEBUG_EQ") != nullptr;
        if (debug)
          fprintf(stderr, "shared %s: candidate tid=(%s, %s) %s in the probe model\n", X->name.c_str(),
                  smt::show(w.at(w3_.tid[0])).c_str(), smt::show(w.at(w3_.tid[1])).c_str(),
                  !pv ? "cannot be evaluated" : pv->num ? "stores" : "does not store");
        if (!pv || pv->num == 0)
          continue;
        bool always = false;
        {
          Step st2(*this, "the writer thread stores the cell in an earlier barrier interval");
          always = unsat(tc_.mkAnd(ctx, tc_.mkNot(stores)));
        }
        if (!always) {
          if (debug)
            fprintf(stderr, "shared %s: witness does not always store: %s\n", X->name.c_str(),
                    smt::show(stores).c_str());
          continue;
        }
        // No other store to the cell from that interval until b.
        std::vector<Term> others;
        for (const check::AccessSite &S2 : m2_.accesses) {
          if (!S2.write || S2.array != a)
            continue;
          std::vector<Term> same;
          if (S2.stmt == S.stmt && S2.iters.size() == S.iters.size()) {
            for (int d = 0; d < 3; ++d)
              same.push_back(tc_.eq(w2_.tid[d], w.at(w3_.tid[d])));
            for (size_t p = 0; p < S.iters.size(); ++p)
              same.push_back(tc_.eq(S2.iters[p], w.at(S.iters[p])));
          }
          std::vector<Term> blk;
          for (int d = 0; d < 3; ++d)
            blk.push_back(tc_.eq(w2_.bid[d], w1_.bid[d]));
          // Up to and including the reader's interval: a store there by another thread may
          // be ordered before the read by __syncwarp (bc counts only __syncthreads).
          others.push_back(tc_.mkAnd({S2.pc, tc_.eq(S2.flat, c), tc_.le(Sbc, S2.bc),
                                      exclusive ? tc_.lt(S2.bc, b) : tc_.le(S2.bc, b), tc_.mkAnd(blk),
                                      same.empty() ? tc_.tru() : tc_.mkNot(tc_.mkAnd(same))}));
        }
        bool alone = false;
        {
          Step st2(*this, "no other store to the cell comes between the writer's store and the read");
          alone = unsat(tc_.mkAnd({ctx, stores, tc_.mkOr(others)}));
        }
        if (!alone) {
          if (debug) {
            smt::Result m = solve(tc_.mkAnd({ctx, stores, tc_.mkOr(others)}));
            for (Term v : {w2_.tid[0], w2_.bid[0], w1_.tid[0]})
              if (auto x = smt::eval(v, m.model))
                fprintf(stderr, "  model: %s = %lld\n", v->name.c_str(), static_cast<long long>(x->num));
            for (const check::AccessSite &S2 : m2_.accesses)
              if (S2.write && S2.array == a)
                for (Term it : S2.iters)
                  if (auto x = smt::eval(it, m.model))
                    fprintf(stderr, "  model: line %u %s = %lld, bc %s\n", S2.stmt->loc.line, it->name.c_str(),
                            static_cast<long long>(x->num), smt::show(S2.bc).c_str());
          }
          if (debug)
            fprintf(stderr, "shared %s: a later store may intervene: %s\n", X->name.c_str(),
                    smt::show(stores).substr(0, 400).c_str());
          continue;
        }
        if (tree)
          return treeValue(*tree, S, w, ctx);
        if (scan)
          return scanValue(*scan, S, tc_.sub(c, scan->lastBase), ctx);
        return canonicalKernel(tc_.substitute(S.value, w));
      }
    }
    return nullptr;
  }

  // ---- block tree reductions ---------------------------------------------------------------
  //
  // A store site S in a loop of T rounds (not inside another loop) is the step of a halving
  // tree over the cells [0, P), P = 2^T, of shared array A when, for every round r < T and
  // every thread k of a 1-D block, with h = P >> (r + 1):
  //   (1) thread k stores in round r only if k < h, and then stores A[k] := A[k] + A[k + h],
  //       both operands read as the content at the start of the round's barrier interval,
  //       which is interval bc0 + r (bc0: round 0's interval);
  //   (2) if thread 0 stores in the last round, every thread k < h stores in round r;
  //   (3) no other statement stores to A in the intervals [bc0, bc0 + T).
  // By induction on r, at the start of interval bc0 + r each cell k < P >> r holds the sum of
  // the cells k + m (P >> r), m < 2^r, as they were at the start of bc0; so after the last
  // round (thread 0's store) A[0] holds the sum of A[0..P) at the start of bc0 (over the
  // reals: the order of the additions does not matter). The doubling tree (treeOf) is the
  // mirror image: cell k with k mod 2^r = 0 holds the cells k .. k + 2^r.
  struct Tree {
    int rounds = 0;
    int128 cells = 0;
    std::string fold = "lsum."; // the operation: lsum. (+), lmax. or lmin. (fmaxf, fminf, ...)
  };
  std::map<const ir::Stmt *, std::optional<Tree>> trees_;
  std::map<std::string, check::SumDef> treeSums_; // by application name

  // Whether launch extents d are (x, 1, 1), with x constant when `x` is asked for.
  bool oneDim(const std::array<Term, 3> &d, int128 *x) {
    int128 one = 0;
    return (!x || tc_.isConst(d[0], x)) && tc_.isConst(d[1], &one) && one == 1 && tc_.isConst(d[2], &one) && one == 1;
  }

  // The substitution for thread (k, 0, 0) of w3's block `bid` in round r of S's loop.
  std::unordered_map<Term, Term> roundOf(const check::AccessSite &S, Term k, Term r,
                                         const std::array<Term, 3> &bid) {
    std::unordered_map<Term, Term> w{{w3_.tid[0], k}, {w3_.tid[1], tc_.intConst(0)},
                                     {w3_.tid[2], tc_.intConst(0)}, {S.iters[0], r}};
    for (int d = 0; d < 3; ++d)
      if (bid[d] != w3_.bid[d])
        w[w3_.bid[d]] = bid[d];
    return w;
  }

  std::unordered_map<Term, Term> treeWitness(const Tree &t, const check::AccessSite &S,
                                             const std::array<Term, 3> &bid) {
    return roundOf(S, tc_.intConst(0), tc_.intConst(t.rounds - 1), bid);
  }

  // No statement but S stores to S's shared array in the block's barrier intervals
  // [bc0, bc0 + T) (the rounds of `what` at S's line).
  bool aloneDuring(const check::AccessSite &S, Term bc0, int128 T, const std::string &what) {
    for (const check::AccessSite &S2 : m2_.accesses) {
      if (!S2.write || S2.array != S.array || S2.stmt == S.stmt)
        continue;
      std::vector<Term> blk;
      for (int d = 0; d < 3; ++d)
        blk.push_back(tc_.eq(w2_.bid[d], w3_.bid[d]));
      Step st(*this, "no other statement stores to shared '" + k_.arrays[S.array].name + "' during " + what +
                         " at line " + std::to_string(S.stmt->loc.line),
              {S.stmt->loc.line, S2.stmt->loc.line});
      if (!unsat(tc_.mkAnd({S2.pc, tc_.mkAnd(blk), tc_.le(bc0, S2.bc), tc_.lt(S2.bc, tc_.add(bc0, tc_.intConst(T)))})))
        return false;
    }
    return true;
  }

  const Tree *treeOf(const check::AccessSite &S) {
    auto [it, fresh] = trees_.try_emplace(S.stmt);
    if (!fresh)
      return it->second ? &*it->second : nullptr;
    if (S.iters.size() != 1 || !S.value || !sharedOk_.count(S.array))
      return nullptr;
    // The operation and its two operands.
    std::string fold;
    std::array<Term, 2> ops;
    Term p, q;
    bool isMax = false;
    if (S.value->kind == smt::Kind::Add && S.value->kids.size() == 2) {
      fold = "lsum.";
      ops = {S.value->kids[0], S.value->kids[1]};
    } else if (check::extremumOf(S.value, p, q, isMax)) {
      fold = isMax ? "lmax." : "lmin.";
      ops = {p, q};
    } else {
      return nullptr;
    }
    auto tr = m3_.trips.find(S.iters[0]);
    int128 T = 0, B = 0;
    if (tr == m3_.trips.end() || !tc_.isConst(tr->second, &T) || T < 1 || T > 12 || !oneDim(g_.blockDim, &B))
      return nullptr;
    int128 P = static_cast<int128>(1) << T;
    if (P / 2 > B)
      return nullptr;
    std::string shm = check::shmName(k_, S.array);
    for (Term op : ops)
      if (op->kind != smt::Kind::App || op->name != shm || op->kids[0] != S.bc)
        return nullptr;
    Term f1 = ops[0]->kids[1], f2 = ops[1]->kids[1];
    Term k = tc_.fresh("tree.k", Sort::Int);
    Term zero = tc_.intConst(0);
    auto w0 = roundOf(S, zero, zero, w3_.bid);
    Term bc0 = tc_.substitute(S.bc, w0);
    Term lastPc = tc_.substitute(S.pc, treeWitness(Tree{static_cast<int>(T), P}, S, w3_.bid));
    // Round r's storing threads and partner offset h: halving (k < h, h = P >> (r + 1)), or
    // doubling (k mod 2h = 0, k < P, h = 2^r: `for (s = 1; s < blockDim.x; s *= 2) if (t % (2 * s)
    // == 0) ...`), where cell k then holds the cells k .. k + 2h of round 0 after round r.
    auto rounds = [&](bool doubling) {
      if (doubling && P > B)
        return false;
      Step st(*this, std::string("the store at line ") + std::to_string(S.stmt->loc.line) + " is a " +
                         (doubling ? "doubling" : "halving") + " tree reduction over shared '" +
                         k_.arrays[S.array].name + "': each round's storing threads and operand cells",
              lineOf(S));
      for (int128 r = 0; r < T; ++r) {
        int128 hv = doubling ? static_cast<int128>(1) << r : P >> (r + 1);
        Term h = tc_.intConst(hv);
        Term stores = doubling ? tc_.mkAnd(tc_.eq(tc_.mod(k, tc_.intConst(2 * hv)), zero), tc_.lt(k, tc_.intConst(P)))
                               : tc_.lt(k, h);
        auto w = roundOf(S, k, tc_.intConst(r), w3_.bid);
        Term pcK = tc_.substitute(S.pc, w);
        Term g1 = tc_.substitute(f1, w), g2 = tc_.substitute(f2, w);
        Term kh = tc_.add(k, h);
        Term shape = tc_.mkAnd({stores, tc_.eq(tc_.substitute(S.flat, w), k),
                                tc_.eq(tc_.substitute(S.bc, w), tc_.add(bc0, tc_.intConst(r))),
                                tc_.mkOr(tc_.mkAnd(tc_.eq(g1, k), tc_.eq(g2, kh)),
                                         tc_.mkAnd(tc_.eq(g1, kh), tc_.eq(g2, k)))});
        Term kIn = tc_.mkAnd(tc_.le(zero, k), tc_.lt(k, g_.blockDim[0]));
        if (!unsat(tc_.mkAnd({kIn, pcK, tc_.mkNot(shape)})) ||
            !unsat(tc_.mkAnd({lastPc, tc_.le(zero, k), stores, tc_.mkNot(pcK)}))) {
          if (getenv("KSYNTH_DEBUG_EQ"))
            fprintf(stderr, "tree (%s) at line %u fails in round %d: pc %s\n", doubling ? "doubling" : "halving",
                    S.stmt->loc.line, static_cast<int>(r), smt::show(pcK).substr(0, 300).c_str());
          return false;
        }
      }
      return true;
    };
    if (!rounds(false) && !rounds(true))
      return nullptr;
    if (!aloneDuring(S, bc0, T, "the tree reduction"))
      return nullptr;
    it->second = Tree{static_cast<int>(T), P, fold};
    return &*it->second;
  }

  // The reduction's value for the reader's block: lsum.tree.N(P), the sum over k < P of the
  // content of A[k] at the start of round 0, each resolved to its writer's value.
  Term treeValue(const Tree &t, const check::AccessSite &S, const std::unordered_map<Term, Term> &w, Term ctx) {
    auto w0 = roundOf(S, tc_.intConst(0), tc_.intConst(0), w1_.bid);
    (void)w;
    Term bc0 = tc_.substitute(S.bc, w0);
    Term k = tc_.fresh("tree.k", Sort::Int);
    tc_.setBounds(k, 0, t.cells - 1);
    Term cell = tc_.app(check::shmName(k_, S.array), Sort::Real, {bc0, k});
    Term range = tc_.mkAnd(tc_.le(tc_.intConst(0), k), tc_.lt(k, tc_.intConst(t.cells)));
    Term body = writerValue(cell, S.array, tc_.mkAnd(ctx, range), true);
    if (!body)
      body = cell;
    // The reader's block is a parameter, so the application can be moved to another thread.
    std::string name = t.fold + "tree." + std::to_string(treeSums_.size());
    treeSums_[name] = check::SumDef{k, body, {w1_.bid[0], w1_.bid[1], w1_.bid[2]}};
    return tc_.app(name, Sort::Real, {tc_.intConst(t.cells), w1_.bid[0], w1_.bid[1], w1_.bid[2]});
  }

  // ---- in-block scans -----------------------------------------------------------------------
  //
  // A store site S in a loop of T rounds (not inside another loop) is a Hillis-Steele inclusive
  // scan over B cells (a 1-D block of constant size B <= 2^T) of shared array A when, for every
  // round r < T and every thread k < B, with h = 2^r:
  //   (1) thread k stores in round r, in interval bc0 + r, the value a + b if k >= h and a
  //       otherwise (`v = A[R + k]; if (k >= h) v += A[R + k - h]; A[W + k] = v`), where a
  //       and b read A[R_r + k] and A[R_r + k - h] at the start of the interval, and the store
  //       is to A[W_r + k], with R_r and W_r constants;
  //   (2) round r + 1 reads the half round r wrote (R_{r+1} = W_r);
  //   (3) no other statement stores to A in the intervals [bc0, bc0 + T).
  // By induction on r, after round r cell W_r + k holds the sum of A[R_0 + m] (as at the start
  // of bc0) over max(0, k - 2h + 1) <= m <= k: the two windows of length h meet. After T
  // rounds, 2^T >= B > k, so W_{T-1} + k holds the sum over 0 <= m <= k (over the reals).
  // (The reads and stores of one round touch different halves: the safety proofs, which come
  // first, rule out a race between them.)
  struct Scan {
    int rounds = 0;
    int128 cells = 0;
    Term firstBase = nullptr, lastBase = nullptr; // R_0, W_{T-1}
  };
  std::map<const ir::Stmt *, std::optional<Scan>> scans_;

  const Scan *scanOf(const check::AccessSite &S) {
    auto [it, fresh] = scans_.try_emplace(S.stmt);
    if (!fresh)
      return it->second ? &*it->second : nullptr;
    if (S.iters.size() != 1 || !S.value || !sharedOk_.count(S.array) || !k_.arrays[S.array].elem.isFloat() ||
        S.value->kind != smt::Kind::Ite)
      return nullptr;
    auto tr = m3_.trips.find(S.iters[0]);
    int128 T = 0, B = 0;
    if (tr == m3_.trips.end() || !tc_.isConst(tr->second, &T) || T < 1 || T > 12 || !oneDim(g_.blockDim, &B) ||
        (static_cast<int128>(1) << T) < B)
      return nullptr;
    // ite(c, a + b, a)
    Term c = S.value->kids[0], sum = S.value->kids[1], a = S.value->kids[2];
    std::string shm = check::shmName(k_, S.array);
    auto isRead = [&](Term x) { return x->kind == smt::Kind::App && x->name == shm && x->kids[0] == S.bc; };
    if (sum->kind != smt::Kind::Add || sum->kids.size() != 2 || !isRead(a))
      return nullptr;
    Term b = sum->kids[0] == a ? sum->kids[1] : sum->kids[1] == a ? sum->kids[0] : nullptr;
    if (!b || !isRead(b))
      return nullptr;
    Term k = tc_.fresh("scan.k", Sort::Int);
    Term zero = tc_.intConst(0);
    Term kIn = tc_.mkAnd(tc_.le(zero, k), tc_.lt(k, tc_.intConst(B)));
    Term bc0 = tc_.substitute(S.bc, roundOf(S, zero, zero, w3_.bid));
    Scan scan{static_cast<int>(T), B, nullptr, nullptr};
    Term prevW = nullptr;
    Step st(*this, "the store at line " + std::to_string(S.stmt->loc.line) + " is an inclusive scan over shared '" +
                       k_.arrays[S.array].name + "': in each round every thread k stores A[R + k] + (k >= 2^r ? A[R + k - 2^r] : 0)",
            lineOf(S));
    for (int128 r = 0; r < T; ++r) {
      Term h = tc_.intConst(static_cast<int128>(1) << r);
      auto w = roundOf(S, k, tc_.intConst(r), w3_.bid);
      Term wBase = tc_.sub(tc_.substitute(S.flat, w), k);
      Term rBase = tc_.sub(tc_.substitute(a->kids[1], w), k);
      Term rBaseB = tc_.sub(tc_.substitute(b->kids[1], w), tc_.sub(k, h));
      if (!tc_.isConst(wBase) || !tc_.isConst(rBase) || rBaseB != rBase ||
          tc_.sub(tc_.substitute(S.bc, w), bc0) != tc_.intConst(r) || (prevW && rBase != prevW))
        return nullptr;
      Term pcK = tc_.substitute(S.pc, w), cK = tc_.substitute(c, w);
      if (!unsat(tc_.mkAnd(kIn, tc_.mkOr(tc_.mkNot(pcK), tc_.mkNot(tc_.eq(cK, tc_.le(h, k))))))) {
        if (getenv("KSYNTH_DEBUG_EQ"))
          fprintf(stderr, "scan at line %u fails in round %d\n", S.stmt->loc.line, static_cast<int>(r));
        return nullptr;
      }
      if (r == 0)
        scan.firstBase = rBase;
      prevW = wBase;
    }
    scan.lastBase = prevW;
    if (!aloneDuring(S, bc0, T, "the scan"))
      return nullptr;
    it->second = scan;
    return &*it->second;
  }

  // The scan's value in cell lastBase + k for the reader's block: lsum.scan.N(k + 1), the sum
  // over m <= k of the content of A[firstBase + m] at the start of round 0, each resolved to its
  // writer's value.
  Term scanValue(const Scan &sc, const check::AccessSite &S, Term k, Term ctx) {
    Term bc0 = tc_.substitute(S.bc, roundOf(S, tc_.intConst(0), tc_.intConst(0), w1_.bid));
    Term m = tc_.fresh("scan.m", Sort::Int);
    tc_.setBounds(m, 0, sc.cells - 1);
    Term cell = tc_.app(check::shmName(k_, S.array), Sort::Real, {bc0, tc_.add(sc.firstBase, m)});
    Term range = tc_.mkAnd(tc_.le(tc_.intConst(0), m), tc_.lt(m, tc_.intConst(sc.cells)));
    Term body = writerValue(cell, S.array, tc_.mkAnd(ctx, range), true);
    if (!body)
      body = cell;
    std::string name = "lsum.scan." + std::to_string(treeSums_.size());
    treeSums_[name] = check::SumDef{m, body, {w1_.bid[0], w1_.bid[1], w1_.bid[2]}};
    return tc_.app(name, Sort::Real, {tc_.add(k, tc_.intConst(1)), w1_.bid[0], w1_.bid[1], w1_.bid[2]});
  }

  // ---- index maps between a kernel's iterations and a spec's range -------------------------

  // Candidate maps: where the spec's term f reads T(a(k)) with a(k) = k + c and the kernel's
  // term g reads T(b(j)), phi = b - c.
  std::vector<Term> indexMaps(Term f, Term k, Term g) {
    std::vector<Term> phis;
    for (Term fa : appsWithPrefix(f, "mem.")) {
      Term arg = fa->kids[0];
      Term a0 = tc_.substitute(arg, {{k, tc_.intConst(0)}});
      Term a1 = tc_.substitute(arg, {{k, tc_.intConst(1)}});
      if (tc_.sub(a1, a0) != tc_.intConst(1))
        continue;
      for (Term ga : appsWithPrefix(g, "mem."))
        if (ga->name == fa->name) {
          Term phi = tc_.sub(ga->kids[0], a0);
          if (std::find(phis.begin(), phis.end(), phi) == phis.end())
            phis.push_back(phi);
        }
    }
    return phis;
  }

  // phi = c + sum of slope_i * js_i with constant non-zero slopes, as far as sampling each
  // level at 0, 1 and 2 tells (callers prove what they use of it); false otherwise.
  bool affineIn(Term phi, const std::vector<Term> &js, Term &c, std::vector<int128> &slope) {
    std::unordered_map<Term, Term> zero;
    for (Term j : js)
      zero[j] = tc_.intConst(0);
    c = tc_.substitute(phi, zero);
    for (Term j : js) {
      auto at = [&](int v) {
        auto z = zero;
        z[j] = tc_.intConst(v);
        return tc_.substitute(phi, z);
      };
      Term s1 = tc_.sub(at(1), c), s2 = tc_.sub(at(2), at(1));
      int128 sv = 0;
      if (!tc_.isConst(s1, &sv) || s2 != s1 || sv == 0)
        return false;
      slope.push_back(sv);
    }
    return true;
  }

  // The levels' values whose image under phi = c + sum slope_i js_i is k: one level, or two
  // where one slope is 1 (tiles of the outer level: slopes (T, 1); a strided inner level:
  // slopes (1, S)). Empty when phi has another shape.
  std::unordered_map<Term, Term> preimageOf(const std::vector<Term> &js, Term c, const std::vector<int128> &slope,
                                            Term k) {
    std::unordered_map<Term, Term> pre;
    Term off = tc_.sub(k, c);
    if (js.size() == 1) {
      pre[js[0]] = tc_.div(off, tc_.intConst(slope[0]));
    } else if (js.size() == 2 && slope[1] == 1) {
      pre[js[0]] = tc_.div(off, tc_.intConst(slope[0]));
      pre[js[1]] = tc_.mod(off, tc_.intConst(slope[0]));
    } else if (js.size() == 2 && slope[0] == 1) {
      pre[js[0]] = tc_.mod(off, tc_.intConst(slope[1]));
      pre[js[1]] = tc_.div(off, tc_.intConst(slope[1]));
    }
    return pre;
  }

  // ---- max and min over a range ------------------------------------------------------------
  //
  // The kernel's max (min) is a term built of max nodes, `ite`s, fold applications lmax.*
  // (symexec.h: a loop `m = fmaxf(m, ...)`, or a shared-memory tree) and other terms; it is
  // the max of its candidates, each a term over the iterations of the folds around it with
  // the conditions under which it takes part (generators()). It equals the spec's max over k
  // in [lo, hi) of f(k), a non-empty range, when
  //   (1) every candidate is f(phi) with lo <= phi < hi, for an index map phi guessed from
  //       the reads, or is the lowest value of a float type where f(lo) reads an input of that
  //       type (the start of a fold, below every finite input: an assumption, stated), and
  //   (2) every k in [lo, hi) is phi of some candidate's iterations where it takes part.
  // (1) makes the kernel's max at most the spec's, (2) at least. Unlike a sum, a max does not
  // care how often a term is taken, so no one-to-one condition is needed.

  struct Candidate {
    std::vector<Term> levels; // iteration symbols of the folds around it, outermost first
    std::vector<Term> conds;  // where it takes part (the levels' ranges included)
    Term term;
  };

  static bool isFoldApp(Term x, const char *prefix) {
    return x->kind == smt::Kind::App && x->name.rfind(prefix, 0) == 0;
  }

  bool generators(Term x, bool isMax, const std::vector<Term> &conds, const std::vector<Term> &levels, Term ctx,
                  std::vector<Candidate> &out, int depth) {
    if (out.size() > 16 || depth > 8)
      return false;
    Term p, q;
    bool mx = false;
    if (check::extremumOf(x, p, q, mx) && mx == isMax)
      return generators(p, isMax, conds, levels, ctx, out, depth + 1) &&
             generators(q, isMax, conds, levels, ctx, out, depth + 1);
    if (x->kind == smt::Kind::App && x->name == check::kExtremumNone)
      return true; // an iteration that does not update
    if (isFoldApp(x, isMax ? "lmax." : "lmin.")) {
      const check::SumDef *def = kernelSum(x->name);
      if (!def || levels.size() >= 3)
        return false;
      Term j = tc_.fresh("ext.j", Sort::Int);
      std::unordered_map<Term, Term> m{{def->iter, j}};
      for (size_t i = 0; i < def->params.size(); ++i)
        m[def->params[i]] = x->kids[i + 1];
      std::vector<Term> c2 = conds, l2 = levels;
      c2.push_back(tc_.le(tc_.intConst(0), j));
      c2.push_back(tc_.lt(j, x->kids[0]));
      l2.push_back(j);
      Term body = resolveShared(canonicalKernel(tc_.substitute(def->body, m)), tc_.mkAnd(ctx, tc_.mkAnd(c2)), 0);
      return generators(body, isMax, c2, l2, ctx, out, depth + 1);
    }
    if (x->kind == smt::Kind::Ite) {
      std::vector<Term> c1 = conds, c2 = conds;
      c1.push_back(x->kids[0]);
      c2.push_back(tc_.mkNot(x->kids[0]));
      return generators(x->kids[1], isMax, c1, levels, ctx, out, depth + 1) &&
             generators(x->kids[2], isMax, c2, levels, ctx, out, depth + 1);
    }
    out.push_back({levels, conds, x});
    return true;
  }

  // Whether x, a candidate, is the lowest (max) or highest (min) finite value of a float type
  // at least as wide as that of input tensor read r: then no finite input is beyond it.
  bool beyondEveryInput(Term x, Term r, bool isMax) {
    // -FLT_MAX is written as the negation of the constant FLT_MAX.
    if (x->kind == smt::Kind::Mul && x->kids.size() == 2 && x->kids[0] == tc_.realConst(-1) &&
        x->kids[1]->kind == smt::Kind::App) {
      std::string n = x->kids[1]->name;
      x = n == check::kHighestF32   ? tc_.app(check::kLowestF32, Sort::Real, {})
          : n == check::kHighestF64 ? tc_.app(check::kLowestF64, Sort::Real, {})
          : n == check::kLowestF32  ? tc_.app(check::kHighestF32, Sort::Real, {})
          : n == check::kLowestF64  ? tc_.app(check::kHighestF64, Sort::Real, {})
                                    : x;
    }
    if (x->kind != smt::Kind::App || r->kind != smt::Kind::App || r->name.rfind("mem.", 0) != 0)
      return false;
    int a = check::arrayOfMemName(r->name);
    if (a < 0 || !g_.readOnly.count(a) || !k_.arrays[a].elem.isFloat())
      return false;
    bool f32 = k_.arrays[a].elem.bits == 32;
    if (x->name == (isMax ? check::kLowestF64 : check::kHighestF64) ||
        (f32 && x->name == (isMax ? check::kLowestF32 : check::kHighestF32))) {
      assumed_.insert("float inputs are finite values of their type (no NaN or infinity): the start of a max "
                      "(min) fold at the lowest (highest) finite float is below (above) every input");
      return true;
    }
    return false;
  }

  // ctx => t = q, t a max (min) term of the kernel, q = smax.N(lo, hi, params) (smin.N).
  bool extremaEqual(Term t, Term q, Term ctx) {
    bool isMax = q->name.rfind("smax.", 0) == 0;
    const SpecSum &sd = specSums_.at(q->name);
    Term lo = q->kids[0], hi = q->kids[1];
    std::unordered_map<Term, Term> ms;
    for (size_t p = 0; p < sd.params.size(); ++p)
      ms[sd.params[p]] = q->kids[p + 2];
    Term f = tc_.substitute(sd.body, ms); // free in sd.k
    Step st(*this, std::string("a ") + (isMax ? "max" : "min") + " computed by the kernel equals the spec's '" +
                       q->name + "': each of its candidates is a term of the spec's range, and every term is "
                       "one of them");
    {
      Step st2(*this, "the spec's range is not empty");
      if (!unsat(tc_.mkAnd(ctx, tc_.le(hi, lo))))
        return false;
    }
    bool debug = getenv("KSYNTH_DEBUG_EQ") != nullptr;
    std::vector<Candidate> cands;
    if (!generators(t, isMax, {}, {}, ctx, cands, 0) || cands.empty()) {
      if (debug)
        fprintf(stderr, "extremum: %s has no candidates ksynth can name\n", smt::show(t).substr(0, 300).c_str());
      return false;
    }
    if (debug)
      for (const Candidate &c : cands)
        fprintf(stderr, "extremum: candidate %s (%zu levels) where %s\n", smt::show(c.term).substr(0, 300).c_str(),
                c.levels.size(), smt::show(tc_.mkAnd(c.conds)).substr(0, 300).c_str());
    Term k = tc_.fresh("ext.k", Sort::Int);
    Term first = tc_.substitute(f, {{sd.k, lo}});
    std::vector<Term> hits;
    for (const Candidate &c : cands) {
      if (beyondEveryInput(c.term, first, isMax))
        continue;
      Term dom = tc_.mkAnd(ctx, tc_.mkAnd(c.conds));
      bool found = false;
      for (Term phi : indexMaps(f, sd.k, c.term)) {
        Term live = tc_.mkAnd(tc_.le(lo, phi), tc_.lt(phi, hi));
        {
          Step st2(*this, "a candidate of the kernel's fold is the spec's term at the mapped index, in the range");
          if (!unsat(tc_.mkAnd(dom, tc_.mkNot(tc_.mkAnd(live, tc_.eq(c.term, tc_.substitute(f, {{sd.k, phi}}))))))) {
            if (getenv("KSYNTH_DEBUG_EQ"))
              fprintf(stderr, "extremum: candidate %s is not the spec's term at %s\n",
                      smt::show(c.term).substr(0, 300).c_str(), smt::show(phi).c_str());
            continue;
          }
        }
        found = true;
        if (c.levels.empty()) {
          hits.push_back(tc_.mkAnd(tc_.mkAnd(c.conds), tc_.eq(phi, k)));
          break;
        }
        Term c0 = nullptr;
        std::vector<int128> slope;
        if (affineIn(phi, c.levels, c0, slope)) {
          std::unordered_map<Term, Term> pre = preimageOf(c.levels, c0, slope, k);
          if (!pre.empty())
            hits.push_back(tc_.mkAnd(tc_.substitute(tc_.mkAnd(c.conds), pre), tc_.eq(tc_.substitute(phi, pre), k)));
        }
        break;
      }
      if (!found) {
        if (debug)
          fprintf(stderr, "extremum: no index map for candidate %s\n", smt::show(c.term).substr(0, 300).c_str());
        return false;
      }
    }
    Step st3(*this, "every index of the spec's range is the mapped index of a candidate that takes part");
    return unsat(tc_.mkAnd({ctx, tc_.le(lo, k), tc_.lt(k, hi), tc_.mkNot(tc_.mkOr(hits))}));
  }

  // The kernel's max (min) terms in t that contain a fold of that kind, outermost ones only: a
  // fold application, a max node, or a fold's value ite(n >= 1, max(m0, L), m0).
  std::vector<Term> extremumTerms(Term t, bool isMax) {
    std::vector<Term> out;
    const char *prefix = isMax ? "lmax." : "lmin.";
    auto isNode = [&](Term x) {
      Term p, q;
      bool mx = false;
      return isFoldApp(x, prefix) || (check::extremumOf(x, p, q, mx) && mx == isMax);
    };
    std::function<void(Term)> walk = [&](Term x) {
      if (appsWithPrefix(x, prefix).empty())
        return;
      if (isNode(x) ||
          (x->kind == smt::Kind::Ite && x->sort == Sort::Real && (isNode(x->kids[1]) || isNode(x->kids[2])))) {
        out.push_back(x);
        return;
      }
      for (Term kid : x->kids)
        walk(kid);
    };
    walk(t);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
  }

  // Replaces each max (min) term of the kernel in a that equals a fold of the spec in b by one
  // unknown on both sides.
  void matchExtrema(Term &a, Term &b, Term ctx) {
    for (bool isMax : {true, false}) {
      std::unordered_map<Term, Term> subA, subB;
      std::vector<Term> qs = appsWithPrefix(b, isMax ? "smax." : "smin.");
      for (Term x : extremumTerms(a, isMax))
        for (Term q : qs)
          if (!subB.count(q) && extremaEqual(x, q, ctx)) {
            Term sigma = tc_.fresh("eq.ext", x->sort);
            subA[x] = sigma;
            subB[q] = sigma;
            break;
          }
      if (!subA.empty()) {
        a = tc_.substitute(a, subA);
        b = tc_.substitute(b, subB);
      }
    }
  }

  // ---- argmax and argmin ------------------------------------------------------------------
  //
  // A running argmax of the kernel, larg.N(n, params..., m0, i0) (symexec.h), equals the
  // spec's argmax-over k in [lo, hi) of f(k) (the first index of the largest term) when it
  // walks the range in order: its start is the range's first term (m0 = f(lo), i0 = lo), its
  // iteration j compares f(lo + 1 + j) and records lo + 1 + j, for the n = hi - lo - 1
  // iterations, and a candidate replaces the best only when strictly larger (so the first of
  // equal maxima stays). The same for argmin. By induction over the iterations, the recorded
  // index is then the first index of the largest (smallest) of f(lo .. lo + j + 1).
  bool argEqual(Term l, Term q, Term ctx) {
    const check::SumDef *def = kernelSum(l->name);
    if (!def || !def->key || !def->strict)
      return false;
    const SpecSum &sd = specSums_.at(q->name);
    size_t np = def->params.size();
    if (l->kids.size() != np + 3)
      return false;
    Term n = l->kids[0], m0 = l->kids[np + 1], i0 = l->kids[np + 2];
    Term lo = q->kids[0], hi = q->kids[1];
    std::unordered_map<Term, Term> ms;
    for (size_t p = 0; p < sd.params.size(); ++p)
      ms[sd.params[p]] = q->kids[p + 2];
    Term f = tc_.substitute(sd.body, ms);
    auto fAt = [&](Term k) { return tc_.substitute(f, {{sd.k, k}}); };
    if (m0->sort != f->sort)
      return false;
    Step st(*this, std::string("the kernel's running arg") + (def->isMax ? "max" : "min") + " walks the spec's '" +
                       q->name + "' range in order, replacing only on a strictly better term");
    {
      Step st2(*this, "the range is not empty, and the start is its first term and index");
      if (!unsat(tc_.mkAnd(ctx, tc_.le(hi, lo))) ||
          !unsat(tc_.mkAnd(ctx, tc_.mkNot(tc_.mkAnd(tc_.eq(canonicalKernel(m0), fAt(lo)), tc_.eq(i0, lo))))))
        return false;
    }
    {
      Step st2(*this, "the loop runs once per remaining index of the range");
      if (!unsat(tc_.mkAnd(ctx, tc_.ne(n, tc_.sub(tc_.sub(hi, lo), tc_.intConst(1))))))
        return false;
    }
    Term j = tc_.fresh("arg.j", Sort::Int);
    std::unordered_map<Term, Term> m{{def->iter, j}};
    for (size_t p = 0; p < np; ++p)
      m[def->params[p]] = l->kids[p + 1];
    Term key = canonicalKernel(tc_.substitute(def->key, m)), payload = tc_.substitute(def->body, m);
    Term idx = tc_.add(lo, tc_.add(j, tc_.intConst(1)));
    if (key->sort != f->sort || payload->sort != Sort::Int)
      return false;
    Step st3(*this, "iteration j compares the range's term lo + 1 + j and records that index");
    return unsat(tc_.mkAnd({ctx, tc_.le(tc_.intConst(0), j), tc_.lt(j, n),
                            tc_.mkNot(tc_.mkAnd(tc_.eq(key, fAt(idx)), tc_.eq(payload, idx)))}));
  }

  // ---- re-indexed sums (summand bijection) -------------------------------------------------

  // The kernel sum l (one loop, or a loop whose every step is one inner loop: tiles) equals
  // the spec sum q when an index map phi from the kernel's iterations to the spec's index is
  // one-to-one on the iterations it maps into [lo, hi), reaches every index there, and the
  // kernel's term is the spec's term at phi there and 0 elsewhere (padding). phi is guessed
  // from a read of one tensor in both terms whose spec index is k + c.
  bool reindexed(Term l, Term q, Term ctx, int depth) {
    const check::SumDef *ld = kernelSum(l->name);
    const SpecSum &sd = specSums_.at(q->name);
    Term lo = q->kids[0], hi = q->kids[1];
    // Levels of the kernel's domain.
    struct Level {
      Term j, n;
    };
    std::vector<Level> lv;
    Term j1 = tc_.fresh("bij.j", Sort::Int);
    std::unordered_map<Term, Term> m1{{ld->iter, j1}};
    for (size_t p = 0; p < ld->params.size(); ++p)
      m1[ld->params[p]] = l->kids[p + 1];
    lv.push_back({j1, l->kids[0]});
    Term g = canonicalKernel(tc_.substitute(ld->body, m1));
    Term dom = tc_.mkAnd({ctx, tc_.le(tc_.intConst(0), j1), tc_.lt(j1, l->kids[0])});
    // ite(c, L(n, ...), 0) is L(ite(c, n, 0), ...): a sum over no steps is 0.
    if (g->kind == smt::Kind::Ite && g->kids[1]->kind == smt::Kind::App && g->kids[1]->name.rfind("lsum.", 0) == 0 &&
        g->kids[2] == tc_.realConst(0)) {
      std::vector<Term> args = g->kids[1]->kids;
      args[0] = tc_.ite(g->kids[0], args[0], tc_.intConst(0));
      g = tc_.app(g->kids[1]->name, Sort::Real, args);
    }
    if (g->kind == smt::Kind::App && g->name.rfind("lsum.", 0) == 0) {
      const check::SumDef *in = kernelSum(g->name);
      if (!in)
        return false;
      Term j2 = tc_.fresh("bij.j", Sort::Int);
      int128 n2 = 0;
      if (tc_.isConst(g->kids[0], &n2) && n2 > 0)
        tc_.setBounds(j2, 0, n2 - 1); // true wherever j2 is used (inside dom), lets i/16 fold
      std::unordered_map<Term, Term> m2{{in->iter, j2}};
      for (size_t p = 0; p < in->params.size(); ++p)
        m2[in->params[p]] = g->kids[p + 1];
      lv.push_back({j2, g->kids[0]});
      dom = tc_.mkAnd({dom, tc_.le(tc_.intConst(0), j2), tc_.lt(j2, g->kids[0])});
      g = canonicalKernel(tc_.substitute(in->body, m2));
    }
    g = resolveShared(g, dom, 0);
    std::unordered_map<Term, Term> ms;
    for (size_t p = 0; p < sd.params.size(); ++p)
      ms[sd.params[p]] = q->kids[p + 2];
    Term f = tc_.substitute(sd.body, ms); // free in sd.k
    // Sums inside the terms that do not depend on the iteration (layernorm's mean inside the
    // variance) are matched first and replaced by one unknown on both sides.
    if (getenv("KSYNTH_DEBUG_EQ"))
      fprintf(stderr, "reindex %s: kernel term %s\n", l->name.c_str(), smt::show(g).substr(0, 800).c_str());
    if (!appsWithPrefix(g, "lsum.").empty()) {
      std::unordered_map<Term, Term> subG, subF;
      for (Term gl : appsWithPrefix(g, "lsum.")) {
        bool invariant = true;
        for (const Level &L : lv)
          invariant &= !tc_.mentions(gl, L.j);
        for (Term fq : appsWithPrefix(f, "ssum."))
          if (invariant && !subG.count(gl) && !tc_.mentions(fq, sd.k)) {
            std::string why;
            if (equalTerms(gl, fq, ctx, depth + 1, why)) {
              Term sigma = tc_.fresh("eq.sum", Sort::Real);
              subG[gl] = sigma;
              subF[fq] = sigma;
            }
          }
      }
      g = tc_.substitute(g, subG);
      f = tc_.substitute(f, subF);
      if (!appsWithPrefix(g, "lsum.").empty())
        return false;
    }
    matchExtrema(g, f, ctx); // a row's max inside each term of its sum (softmax)
    std::vector<Term> phis = indexMaps(f, sd.k, g);
    if (getenv("KSYNTH_DEBUG_EQ"))
      fprintf(stderr, "reindex: %zu candidate maps; kernel term %s\n", phis.size(), smt::show(g).c_str());
    std::vector<Term> js;
    for (const Level &L : lv)
      js.push_back(L.j);
    for (Term phi : phis) {
      // Affine in the levels with constant slopes; the inner slope 1 (tiles of the outer).
      Term c = nullptr;
      std::vector<int128> slope;
      if (!affineIn(phi, js, c, slope))
        continue;
      Term live = tc_.mkAnd(tc_.le(lo, phi), tc_.lt(phi, hi));
      Term fphi = tc_.substitute(f, {{sd.k, phi}});
      Term zeroR = g->sort == Sort::Real ? tc_.realConst(0) : tc_.intConst(0);
      Step st(*this, "a kernel loop's sum is the spec's sum '" + q->name +
                         "' re-indexed: its terms are the spec's at the mapped index, and 0 outside the range");
      // (1) the terms agree where phi is in range, the kernel's is 0 elsewhere
      if (!unsat(tc_.mkAnd(dom, tc_.mkNot(tc_.mkOr(tc_.mkAnd(live, tc_.eq(g, fphi)),
                                                    tc_.mkAnd(tc_.mkNot(live), tc_.eq(g, zeroR)))))))
        {
        if (getenv("KSYNTH_DEBUG_EQ"))
          fprintf(stderr, "reindex: %s fails for phi = %s\n  kernel %s\n  spec %s\n  %s\n", "terms",
                  smt::show(phi).c_str(), smt::show(g).substr(0, 800).c_str(), smt::show(fphi).substr(0, 800).c_str(),
                  lastUnknown_.c_str());
        continue;
      }
      // (2) one-to-one where in range
      std::unordered_map<Term, Term> other;
      std::vector<Term> differ;
      for (const Level &L : lv) {
        Term j2 = tc_.fresh("bij.j", Sort::Int);
        other[L.j] = j2;
        differ.push_back(tc_.ne(L.j, j2));
      }
      // (the ranges are rebuilt: a level with known bounds folds its own range away)
      auto rangesAt = [&](const std::unordered_map<Term, Term> &m) {
        std::vector<Term> r{ctx};
        for (const Level &L : lv) {
          Term jv = tc_.substitute(L.j, m);
          r.push_back(tc_.le(tc_.intConst(0), jv));
          r.push_back(tc_.lt(jv, tc_.substitute(L.n, m)));
        }
        return tc_.mkAnd(r);
      };
      Term dom2 = rangesAt(other), phi2 = tc_.substitute(phi, other), live2 = tc_.substitute(live, other);
      Step st1(*this, "the index map is one-to-one where it is in the spec's range");
      if (!unsat(tc_.mkAnd({dom, dom2, live, live2, tc_.eq(phi, phi2), tc_.mkOr(differ)})))
        {
        if (getenv("KSYNTH_DEBUG_EQ"))
          fprintf(stderr, "reindex: %s fails for phi = %s\n", "one-to-one", smt::show(phi).c_str());
        continue;
      }
      // (3) onto [lo, hi): the preimage of k, by division by the larger slope (tiles of the
      // outer level: slopes (T, 1); a strided inner level: slopes (1, S))
      Term k = tc_.fresh("bij.k", Sort::Int);
      std::unordered_map<Term, Term> pre = preimageOf(js, c, slope, k);
      if (pre.empty())
        continue;
      Term hit = tc_.mkAnd(rangesAt(pre), tc_.eq(tc_.substitute(phi, pre), k));
      Step st2(*this, "the index map reaches every index of the spec's range");
      if (!unsat(tc_.mkAnd({ctx, tc_.le(lo, k), tc_.lt(k, hi), tc_.mkNot(hit)})))
        {
        if (getenv("KSYNTH_DEBUG_EQ"))
          fprintf(stderr, "reindex: %s fails for phi = %s\n", "onto", smt::show(phi).c_str());
        continue;
      }
      return true;
    }
    return false;
  }

  // ---- one output tensor -------------------------------------------------------------------

  std::vector<const check::AccessSite *> storesTo(const check::ThreadModel &m, int a) {
    std::vector<const check::AccessSite *> out;
    for (const check::AccessSite &s : m.accesses)
      if (s.array == a && s.write)
        out.push_back(&s);
    return out;
  }

  // A symbolic element of tensor t: its index tuple j, flat address e, and j in range.
  struct Element {
    std::vector<Term> j;
    Term e, inRange;
  };
  Element element(int t, const std::vector<Term> &ext) {
    Element x;
    std::vector<Term> range;
    for (size_t d = 0; d < ext.size(); ++d) {
      x.j.push_back(tc_.fresh("elem.j" + std::to_string(d), Sort::Int));
      range.push_back(tc_.le(tc_.intConst(0), x.j.back()));
      range.push_back(tc_.lt(x.j.back(), ext[d]));
    }
    x.e = ext.empty() ? tc_.intConst(0) : flatOf(t, x.j);
    x.inRange = tc_.mkAnd(range);
    return x;
  }

  // The spec's value of tensor t at index tuple j.
  Term ensuresAt(int t, const std::vector<Term> &j) {
    auto it = std::find_if(s_.ensures.begin(), s_.ensures.end(), [&](const spec::Ensures &en) { return en.tensor == t; });
    if (it == s_.ensures.end())
      throw GiveUp{"no ensures for '" + s_.tensors[t].name + "'"};
    std::vector<Term> slots(static_cast<size_t>(it->numSlots));
    for (size_t d = 0; d < j.size(); ++d)
      slots[d] = j[d];
    return tr(*it->body, slots);
  }

  void proveTensor(int t, TensorProof &tp) {
    const spec::Tensor &T = s_.tensors[t];
    auto ai = arrayOf_.find(t);
    if (ai == arrayOf_.end())
      throw GiveUp{"tensor '" + T.name + "' is not a kernel parameter"};
    int a = ai->second;
    auto s1 = storesTo(m1_, a), s1b = storesTo(m1b_, a), s2 = storesTo(m2_, a);
    if (s1.empty())
      throw GiveUp{"no store to '" + T.name + "' was found"};
    std::vector<Term> none;
    std::vector<Term> ext;
    for (const spec::TermPtr &e : T.extents)
      ext.push_back(tr(*e, none));
    if (std::any_of(s1.begin(), s1.end(), [](const check::AccessSite *x) { return x->atomic; })) {
      proveAtomic(t, a, s1, ext, tp);
      return;
    }

    // once and unique
    std::vector<Term> onceCases, uniqueCases, facts;
    for (const check::AccessSite *x : s1) {
      for (const check::AccessSite *y : s1b) {
        Term same = tc_.fls();
        if (x->stmt == y->stmt && x->iters.size() == y->iters.size()) {
          std::vector<Term> eqs;
          for (size_t i = 0; i < x->iters.size(); ++i)
            eqs.push_back(tc_.eq(x->iters[i], y->iters[i]));
          same = tc_.mkAnd(eqs);
        }
        onceCases.push_back(tc_.mkAnd({x->pc, y->pc, tc_.eq(x->flat, y->flat), tc_.mkNot(same)}));
        delinearise(x->flat, y->flat, ext, facts);
      }
      for (const check::AccessSite *y : s2) {
        uniqueCases.push_back(tc_.mkAnd({x->pc, y->pc, tc_.eq(x->flat, y->flat)}));
        delinearise(x->flat, y->flat, ext, facts);
      }
    }
    Term factsT = tc_.mkAnd(facts);
    std::vector<Term> diff;
    for (int d = 0; d < 3; ++d) {
      diff.push_back(tc_.ne(w1_.tid[d], w2_.tid[d]));
      diff.push_back(tc_.ne(w1_.bid[d], w2_.bid[d]));
    }
    bool once = false, unique = false;
    std::string onceWhy;
    {
      Step st(*this, "coverage of '" + T.name + "': a thread stores each element at most once", linesOf(s1));
      once = unsat(tc_.mkAnd(factsT, tc_.mkOr(onceCases)));
      onceWhy = lastUnknown_;
    }
    if (once) {
      Step st(*this, "coverage of '" + T.name + "': no two threads store the same element", linesOf(s1));
      unique = unsat(tc_.mkAnd({factsT, tc_.mkOr(diff), tc_.mkOr(uniqueCases)}));
    }
    if (!once)
      tp.coverageReason = "could not show that a thread stores each element of '" + T.name + "' at most once" +
                          (onceWhy.empty() ? "" : ": " + onceWhy);
    else if (!unique)
      tp.coverageReason = "could not show that no two threads store the same element of '" + T.name + "'" +
                          (lastUnknown_.empty() ? "" : ": " + lastUnknown_);

    // The element: index tuple j in the spec's shape, flat e.
    Element el = element(t, ext);
    const std::vector<Term> &j = el.j;
    Term e = el.e, elem = el.inRange;

    bool complete = false;
    if (once && unique) {
      Step st(*this, "coverage of '" + T.name + "': every element is stored by some thread", linesOf(s1));
      complete = completeness(s1, j, e, elem, ext, tp);
    }
    if (once && unique && complete)
      tp.coverage = Status::Proven;

    // equivalence at every store
    if (!(once && unique)) {
      tp.equivalenceReason = "needs each element stored once by one thread, which is not proven";
      return;
    }
    Term want = ensuresAt(t, j);
    for (const check::AccessSite *x : s1) {
      if (!x->value)
        throw GiveUp{"a stored value of '" + T.name + "' is not a number"};
      std::vector<Term> hint;
      delinearise(x->flat, e, ext, hint);
      Term ctx = tc_.mkAnd({elem, x->pc, tc_.eq(x->flat, e), tc_.mkAnd(hint)});
      Term got = canonicalKernel(x->value);
      if (got->sort == Sort::Int && want->sort == Sort::Real)
        got = tc_.toReal(got);
      if (got->sort != want->sort)
        throw GiveUp{"the stored value and the spec's have different sorts"};
      std::string why;
      Step st(*this, "equivalence of '" + T.name + "': the value stored at line " + std::to_string(x->stmt->loc.line) +
                         " equals the spec's ensures for that element",
              lineOf(*x));
      sameDivisors(got, want, ctx, T.name);
      if (!equalTerms(got, want, ctx, 0, why)) {
        tp.equivalenceReason = "at the store on line " + std::to_string(x->stmt->loc.line) + ": " + why;
        return;
      }
    }
    tp.equivalence = Status::Proven;
  }

  // Whether any expression of b reads variable v.
  static bool varRead(const ir::Block &b, int v) {
    std::function<bool(const ir::ExprPtr &)> in = [&](const ir::ExprPtr &e) {
      if (!e)
        return false;
      if (e->op == ir::Op::VarRef && e->id == v)
        return true;
      return std::any_of(e->args.begin(), e->args.end(), in);
    };
    for (const ir::StmtPtr &st : b) {
      if (in(st->value) || in(st->value2) || in(st->ptr) || in(st->cond) ||
          std::any_of(st->index.begin(), st->index.end(), in))
        return true;
      for (const ir::Block *c : {&st->pre, &st->body, &st->elseBody, &st->step})
        if (varRead(*c, v))
          return true;
    }
    return false;
  }

  // ---- accumulation with atomicAdd ---------------------------------------------------------
  //
  // A tensor every update of which is an atomicAdd whose result is unused, each site outside
  // loops (so a thread adds at most once per site): its final value is its initial value plus
  // the operands of all threads that reach a site with that element, in any order (over the
  // reals, additions commute). With a 1-D grid of 1-D blocks of constant size B, the threads
  // are g in [0, gridDim.x * B): thread g mod B of block g div B; the sum over g becomes
  // lsum.atomic.N(G), matched with the spec like any other sum.
  void proveAtomic(int t, int a, const std::vector<const check::AccessSite *> &s1, const std::vector<Term> &ext,
                   TensorProof &tp) {
    if (!k_.arrays[a].elem.isFloat())
      throw GiveUp{"integer atomics wrap around; only float atomicAdd accumulation is proven"};
    const spec::Tensor &T = s_.tensors[t];
    for (const check::AccessSite *x : s1) {
      if (!x->atomic)
        throw GiveUp{"'" + T.name + "' is updated both by atomics and by plain stores"};
      if (x->stmt->atomic != ir::AtomicOp::Add)
        throw GiveUp{std::string("atomic ") + ir::atomicOpName(x->stmt->atomic) + " on '" + T.name + "' is not proven yet"};
      if (x->stmt->var >= 0 && varRead(k_.body, x->stmt->var))
        throw GiveUp{"the value atomicAdd returns is used (it depends on the order of the threads)"};
      if (!x->iters.empty())
        throw GiveUp{"atomicAdd inside a loop is not proven yet"};
      if (!x->value)
        throw GiveUp{"an atomicAdd operand is not a number"};
    }
    if (T.mode != spec::Mode::InOut) {
      std::string why = "'" + T.name + "' is accumulated with atomicAdd, so its final value depends on its content "
                        "before the launch; it must be an inout tensor (the spec's `old`)";
      tp.coverageReason = tp.equivalenceReason = why;
      return;
    }
    int128 B = 0;
    if (!oneDim(g_.blockDim, &B) || !oneDim(g_.gridDim, nullptr))
      throw GiveUp{"atomic accumulation is proven for 1-D grids of 1-D blocks of constant size only"};
    Element el = element(t, ext);
    Term e = el.e, elem = el.inRange;
    // Nothing is left stale: the initial content is part of the value.
    tp.coverage = Status::Proven;
    assumed_.insert("atomic additions to '" + T.name + "' are summed in any order (over the reals they commute)");

    // Thread g's contribution, from thread w1's: shared reads resolved for w1 first (their
    // proofs hold for every thread that reaches the site), then w1 := thread g.
    Term g = tc_.fresh("atomic.g", Sort::Int);
    Term Bt = tc_.intConst(B);
    std::unordered_map<Term, Term> theta{{w1_.tid[0], tc_.mod(g, Bt)}, {w1_.tid[1], tc_.intConst(0)},
                                         {w1_.tid[2], tc_.intConst(0)}, {w1_.bid[0], tc_.div(g, Bt)},
                                         {w1_.bid[1], tc_.intConst(0)}, {w1_.bid[2], tc_.intConst(0)}};
    Term body = nullptr;
    for (const check::AccessSite *x : s1) {
      Term here = tc_.mkAnd(x->pc, tc_.eq(x->flat, e));
      Term v = canonicalKernel(resolveShared(x->value, tc_.mkAnd(elem, here), 0));
      if (v->sort == Sort::Int)
        v = tc_.toReal(v);
      std::vector<Term> syms;
      for (Term y : {v, here})
        tc_.collectSymbols(y, syms);
      for (Term y : syms) {
        if (y->kind == smt::Kind::App && y->name.rfind("shm.", 0) == 0)
          throw GiveUp{"an atomicAdd operand reads shared memory ksynth could not resolve to its writer"};
        if (y->kind == smt::Kind::Var && y->name.rfind("w1.", 0) == 0 &&
            std::find(w1_.tid.begin(), w1_.tid.end(), y) == w1_.tid.end() &&
            std::find(w1_.bid.begin(), w1_.bid.end(), y) == w1_.bid.end())
          throw GiveUp{"an atomicAdd operand depends on a value ksynth cannot name per thread (" + y->name + ")"};
      }
      // One thread per block (`if (threadIdx.x == 0) atomicAdd(...)`): a sum over blocks.
      std::unordered_map<Term, Term> th = theta;
      Term range = tc_.mul(g_.gridDim[0], Bt);
      Step st(*this, "atomic additions to '" + T.name + "' at line " + std::to_string(x->stmt->loc.line) +
                         ": whether one thread per block adds (a model, then a proof that it is always that thread)",
              lineOf(*x));
      smt::Result r = solve(tc_.mkAnd(elem, here));
      if (r.status == smt::Status::Sat)
        if (std::optional<smt::Value> tv = smt::eval(w1_.tid[0], r.model))
          if (unsat(tc_.mkAnd({elem, here, tc_.ne(w1_.tid[0], tc_.intConst(tv->num))}))) {
            th[w1_.tid[0]] = tc_.intConst(tv->num);
            th[w1_.bid[0]] = g;
            range = g_.gridDim[0];
          }
      Term c = tc_.ite(tc_.substitute(here, th), tc_.substitute(v, th), tc_.realConst(0));
      std::string name = "lsum.atomic." + std::to_string(treeSums_.size());
      treeSums_[name] = check::SumDef{g, c, {}};
      Term app = tc_.app(name, Sort::Real, {range});
      body = body ? tc_.add(body, app) : app;
    }
    Term got = tc_.add(tc_.app(check::memName(k_, a), Sort::Real, {e}), body);

    Term want = ensuresAt(t, el.j);
    if (want->sort != Sort::Real)
      throw GiveUp{"the spec's value of '" + T.name + "' is not a real number"};
    std::string why;
    Step st(*this, "equivalence of '" + T.name + "': its initial content plus every atomic addition equals the "
                   "spec's ensures", linesOf(s1));
    if (!equalTerms(got, want, elem, 0, why)) {
      tp.equivalenceReason = "the sum of the atomic additions: " + why;
      return;
    }
    tp.equivalence = Status::Proven;
  }

  // ---- completeness --------------------------------------------------------------------

  struct Witness {
    const check::AccessSite *site;
    Term covers; // the site stores element e with these thread coordinates
  };

  // The site's path condition with the exit conditions of loops before it removed (each such
  // loop is assumed to terminate), or nullptr when some other thread-local value remains.
  Term reachable(const check::AccessSite &s) {
    std::vector<Term> conj;
    std::function<void(Term)> flatten = [&](Term x) {
      if (x->kind == smt::Kind::And)
        for (Term k : x->kids)
          flatten(k);
      else
        conj.push_back(x);
    };
    flatten(s.pc);
    std::set<Term> drop;
    for (const auto &[n, exitCond] : m1_.exits) {
      bool used = false;
      for (Term c : conj)
        used |= tc_.mentions(c, n);
      if (!used)
        continue;
      if (tc_.mentions(s.flat, n))
        return nullptr;
      std::vector<Term> ec;
      std::function<void(Term)> fl = [&](Term x) {
        if (x->kind == smt::Kind::And)
          for (Term k : x->kids)
            fl(k);
        else
          ec.push_back(x);
      };
      fl(exitCond);
      std::set<Term> ecs(ec.begin(), ec.end());
      for (Term c : conj)
        if (tc_.mentions(c, n) && !ecs.count(c)) {
          if (getenv("KSYNTH_DEBUG_EQ"))
            fprintf(stderr, "reachable: %s uses %s beyond its exit %s\n", smt::show(c).c_str(), smt::show(n).c_str(),
                    smt::show(exitCond).c_str());
          return nullptr; // the trip count is used beyond the loop's exit
        }
      for (Term c : ec)
        drop.insert(c);
      assumed_.insert("loops before the stores terminate (coverage is partial correctness)");
    }
    std::vector<Term> keep;
    for (Term c : conj)
      if (!drop.count(c))
        keep.push_back(c);
    return tc_.mkAnd(keep);
  }

  bool completeness(const std::vector<const check::AccessSite *> &sites, const std::vector<Term> &j, Term e,
                    Term elem, const std::vector<Term> &ext, TensorProof &tp) {
    if (m1_.uncountedLoops)
      assumed_.insert("loops before the stores terminate (coverage is partial correctness)");
    std::vector<Term> vals(j.begin(), j.end());
    vals.push_back(e);
    struct Site {
      const check::AccessSite *s;
      Term pc;
      std::vector<std::unordered_map<Term, Term>> cands;
    };
    std::vector<Site> usable;
    for (const check::AccessSite *s : sites) {
      Term pc = reachable(*s);
      if (!pc) {
        if (getenv("KSYNTH_DEBUG_EQ"))
          fprintf(stderr, "completeness: site line %u: loop trip counts used beyond the exits\n", s->stmt->loc.line);
        continue;
      }
      // Which thread coordinates matter.
      Term both = tc_.mkAnd(pc, tc_.eq(s->flat, e));
      std::vector<Term> unknowns;
      std::vector<Term> syms;
      tc_.collectSymbols(both, syms);
      bool stray = false;
      for (Term x : syms) {
        if (x->kind != smt::Kind::Var || x->name.rfind("w1.", 0) != 0)
          continue;
        bool coord = false;
        for (int d = 0; d < 3; ++d)
          coord |= x == w1_.tid[d] || x == w1_.bid[d];
        bool iter = std::find(s->iters.begin(), s->iters.end(), x) != s->iters.end();
        if (!coord && !iter) {
          stray = true;
          if (getenv("KSYNTH_DEBUG_EQ"))
            fprintf(stderr, "completeness: site line %u: stray %s\n", s->stmt->loc.line, x->name.c_str());
        }
      }
      // A store in a loop witnesses only at iterations that certainly run: counted loops.
      for (Term it : s->iters)
        stray |= !m1_.trips.count(it);
      if (stray)
        continue;
      // Strides of the iterations in the address.
      std::vector<Term> vs = vals;
      std::map<Term, std::vector<Term>> iterCands;
      for (Term it : s->iters) {
        std::vector<Term> &c = iterCands[it];
        c.push_back(tc_.intConst(0));
        Term f0 = tc_.substitute(s->flat, {{it, tc_.intConst(0)}});
        Term f1 = tc_.substitute(s->flat, {{it, tc_.intConst(1)}});
        Term f2 = tc_.substitute(s->flat, {{it, tc_.intConst(2)}});
        Term S = tc_.sub(f1, f0);
        if (tc_.mentions(S, it) || tc_.sub(f2, f1) != S)
          continue;
        for (Term v : vals) {
          c.push_back(tc_.div(v, S));
          vs.push_back(tc_.mod(v, S));
        }
      }
      std::vector<std::vector<std::pair<Term, Term>>> perVar; // (symbol, value) choices
      for (int d = 0; d < 3; ++d) {
        for (bool isTid : {true, false}) {
          Term x = isTid ? w1_.tid[d] : w1_.bid[d];
          if (!tc_.mentions(both, x)) {
            perVar.push_back({{x, tc_.intConst(0)}});
            continue;
          }
          std::vector<std::pair<Term, Term>> ch{{x, tc_.intConst(0)}};
          for (Term v : vs) {
            if (isTid)
              ch.push_back({x, tc_.mod(v, g_.blockDim[d])});
            else
              ch.push_back({x, tc_.div(v, g_.blockDim[d])});
          }
          if (!isTid)
            for (Term v : vals)
              ch.push_back({x, v});
          perVar.push_back(ch);
        }
      }
      for (auto &[it, c] : iterCands) {
        std::vector<std::pair<Term, Term>> ch;
        for (Term v : c)
          ch.push_back({it, v});
        perVar.push_back(ch);
      }
      Site st{s, pc, {}};
      std::vector<std::unordered_map<Term, Term>> combos;
      if (!allChoices(perVar, 20000, combos))
        continue;
      st.cands = std::move(combos);
      usable.push_back(std::move(st));
    }
    if (usable.empty()) {
      tp.coverageReason = "no store to the tensor has a writer ksynth can name for every element";
      return false;
    }
    auto covers = [&](const Site &st, const std::unordered_map<Term, Term> &w) {
      std::vector<Term> c{tc_.substitute(st.pc, w), tc_.eq(tc_.substitute(st.s->flat, w), e)};
      for (int d = 0; d < 3; ++d) {
        Term tx = w.at(w1_.tid[d]), bx = w.at(w1_.bid[d]);
        c.push_back(tc_.mkAnd(tc_.le(tc_.intConst(0), tx), tc_.lt(tx, g_.blockDim[d])));
        c.push_back(tc_.mkAnd(tc_.le(tc_.intConst(0), bx), tc_.lt(bx, g_.gridDim[d])));
      }
      for (Term it : st.s->iters) {
        c.push_back(tc_.le(tc_.intConst(0), w.at(it)));
        c.push_back(tc_.lt(w.at(it), tc_.substitute(m1_.trips.at(it), w)));
      }
      std::vector<Term> hint;
      delinearise(tc_.substitute(st.s->flat, w), e, ext, hint);
      c.push_back(tc_.mkAnd(hint)); // true facts: harmless inside the disjunct
      return tc_.mkAnd(c);
    };
    std::vector<Term> chosen;
    std::vector<smt::Assignment> models;
    for (int round = 0; round < 8; ++round) {
      Term goal = tc_.mkAnd(elem, tc_.mkNot(tc_.mkOr(chosen)));
      smt::Result r = solve(goal);
      if (r.status == smt::Status::Unsat)
        return true;
      if (r.status == smt::Status::Unknown) {
        tp.coverageReason = "could not show every element of the tensor is stored: the solver gave up (" + r.reason + ")";
        return false;
      }
      // A counterexample element: of the candidate writers that store it, the one that also
      // stores the most earlier counterexamples (the general witness, not a special case).
      models.push_back(std::move(r.model));
      Term best = nullptr;
      size_t bestScore = 0, bestGeneral = 0;
      for (const Site &st : usable)
        for (const auto &w : st.cands) {
          Term c = covers(st, w);
          auto holds = [&](const smt::Assignment &m) {
            std::optional<smt::Value> v = smt::eval(c, m);
            return v && v->num != 0;
          };
          if (!holds(models.back()))
            continue;
          size_t score = 1;
          for (size_t i = 0; i + 1 < models.size(); ++i)
            score += holds(models[i]);
          // On a tie, the guess with more terms of the element (not constants) is the more
          // general one: `c div 256` rather than iteration 0.
          size_t general = 0;
          for (const auto &[x, v] : w)
            general += !tc_.isConst(v);
          if (!best || score > bestScore || (score == bestScore && general > bestGeneral)) {
            best = c;
            bestScore = score;
            bestGeneral = general;
          }
        }
      if (best)
        chosen.push_back(best);
      if (!best) {
        tp.coverageReason = "could not name a thread that stores every element (none of ksynth's guesses covers some element)";
        return false;
      }
    }
    tp.coverageReason = "could not name a thread that stores every element (too many cases)";
    return false;
  }
};

} // namespace

ProofReport proveAgainstSpec(const ir::Kernel &k, const spec::Spec &s, const spec::Binding &b,
                             const check::Options &opts) {
  auto t0 = std::chrono::steady_clock::now();
  Prover p(k, s, b, opts);
  ProofReport r;
  try {
    r = p.run();
  } catch (const GiveUp &g) {
    r.unavailable = g.why;
  }
  r.queries = p.queries;
  r.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

} // namespace ksynth::equiv
