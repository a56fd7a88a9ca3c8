// Equivalence proofs: the entry point, the proof's driver (Prover::run) and the queries it asks.
#include "verify/equiv/prove.h"

#include "verify/equiv/prover.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace ksynth::equiv {

namespace prove_detail {

// A float literal that is infinite or NaN: IEEE arithmetic on it (inf - inf is NaN) has no
// counterpart over the reals.
bool Prover::nonFiniteLiteral(const ir::Expr &e) {
  if (e.op == ir::Op::Const && e.type.isFloat() && !std::isfinite(e.fval))
    return true;
  for (const ir::ExprPtr &a : e.args)
    if (a && nonFiniteLiteral(*a))
      return true;
  return false;
}

bool Prover::nonFiniteLiteral(const ir::Block &b) {
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

ProofReport Prover::run() {
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
  for (const check::ThreadModel *m : {&m1_, &m1b_, &m2_, &m3_})
    for (const check::AssertSite &a : m->asserts) {
      if (a.stmt->assertKind != ir::AssertKind::Modelled)
        continue;
      Step st(*this, "a premise of ksynth's model holds: " + a.stmt->text, {a.stmt->loc.line});
      if (!unsat(tc_.mkAnd(a.pc, tc_.mkNot(a.cond)))) {
        rep.unavailable = "the kernel uses an unsupported construct (" + a.stmt->text + ")";
        return rep;
      }
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

std::vector<Term> Prover::threadRange(const check::ThreadSyms &t) {
  std::vector<Term> out;
  for (int d = 0; d < 3; ++d) {
    out.push_back(tc_.mkAnd(tc_.le(tc_.intConst(0), t.tid[d]), tc_.lt(t.tid[d], g_.blockDim[d])));
    out.push_back(tc_.mkAnd(tc_.le(tc_.intConst(0), t.bid[d]), tc_.lt(t.bid[d], g_.gridDim[d])));
  }
  return out;
}

std::vector<unsigned> Prover::linesOf(const std::vector<const check::AccessSite *> &sites) {
  std::set<unsigned> ls;
  for (const check::AccessSite *x : sites)
    if (x->stmt && x->stmt->loc.line)
      ls.insert(x->stmt->loc.line);
  return {ls.begin(), ls.end()};
}

std::string Prover::stepHeader() const {
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

smt::Result Prover::ask(Term goal) {
  for (Term f : tc_.boundFacts())
    if (boundsAdded_.insert(f).second)
      solver_.addBackground(f);
  std::string name = k_.name + ".spec." + std::to_string(++asked_), steps = stepHeader();
  smt::Result r = solver_.check(goal, {name, [name, steps](smt::Status st) {
                                         return "ksynth query " + name + " (coverage/equivalence; ksynth got " +
                                                smt::statusName(st) + ")\nunsat means this step of the proof holds" +
                                                steps + check::kRunWith;
                                       }});
  if (!solver_.lastRecord()->file.empty())
    queries.emplace_back(solver_.lastRecord()->file, r.status == smt::Status::Unsat);
  if (getenv("KSYNTH_DEBUG_STEPS"))
    fprintf(stderr, "query %s (%.0f ms, %s):%s\n", name.c_str(), r.ms, smt::statusName(r.status), steps.c_str());
  return r;
}

bool Prover::unsat(Term goal) {
  // A goal the terms fold to false is unsat whatever the solver says, and gets no file in a
  // bundle (2340 of the 3338 queries of fast/argmax_block were `(assert false)`: its lanes'
  // ownership facts folded on constant cells). It is still put to the solver, unlogged: later
  // queries depend on the solvers' state, and were measured with these calls (without them,
  // KernelBench 66's coverage query took 9 s instead of about 4, and timed out under load).
  if (goal == tc_.fls()) {
    solver_.check(goal);
    return true;
  }
  smt::Result r = ask(goal);
  if (r.ms > 300 && getenv("KSYNTH_DEBUG_EQ"))
    fprintf(stderr, "slow query (%.0f ms, %s) [%s]: %s\n", r.ms, smt::statusName(r.status),
            steps_.empty() ? "" : steps_.back().what.c_str(), smt::show(goal, 500).c_str());
  if (r.ms > 300 && getenv("KSYNTH_DEBUG_SLOW_DIR")) { // the query as SMT-LIB, to try by hand
    std::vector<Term> all = solver_.background();
    all.push_back(goal);
    std::string f = std::string(getenv("KSYNTH_DEBUG_SLOW_DIR")) + "/" + k_.name + "." + std::to_string(asked_) + ".smt2";
    if (FILE *o = fopen(f.c_str(), "w")) {
      std::string text = smt::toSmtLib2(all, stepHeader(), false);
      fwrite(text.data(), 1, text.size(), o);
      fclose(o);
    }
  }
  if (r.status == smt::Status::Unknown)
    lastUnknown_ = "the solver gave up (" + r.reason + ")";
  else if (r.status == smt::Status::Sat)
    lastUnknown_ = "";
  return r.status == smt::Status::Unsat;
}

// The conjuncts of ctx over `about`'s own variables: a weaker premise (what is unsat with it
// is unsat under ctx too) that spares the solver a reader's whole path condition where a
// lane's facts decide. unsatFocused: ctx && rest unsat, asked with that first, then with ctx.
Term Prover::focus(Term ctx, Term about) {
  auto vars = [&](Term t) {
    std::vector<Term> syms, out;
    tc_.collectSymbols(t, syms);
    for (Term x : syms)
      if (x->kind == smt::Kind::Var)
        out.push_back(x);
    return out;
  };
  std::vector<Term> mine = vars(about);
  std::set<Term> own(mine.begin(), mine.end());
  std::vector<Term> keep;
  for (Term c : smt::conjuncts(ctx)) {
    bool closed = true;
    for (Term x : vars(c))
      closed &= own.count(x) > 0;
    if (closed)
      keep.push_back(c);
  }
  return tc_.mkAnd(keep);
}

bool Prover::unsatFocused(Term ctx, Term rest) {
  Term light = focus(ctx, rest);
  if (light != ctx && unsat(tc_.mkAnd(light, rest)))
    return true;
  return unsat(tc_.mkAnd(ctx, rest));
}

smt::Result Prover::solve(Term goal) {
  smt::Result r = ask(goal);
  if (r.ms > 300 && getenv("KSYNTH_DEBUG_EQ"))
    fprintf(stderr, "slow solve (%.0f ms, %s): %s\n", r.ms, smt::statusName(r.status), smt::show(goal, 5000).c_str());
  return r;
}

} // namespace prove_detail

ProofReport proveAgainstSpec(const ir::Kernel &k, const spec::Spec &s, const spec::Binding &b,
                             const check::Options &opts) {
  auto t0 = std::chrono::steady_clock::now();
  prove_detail::Prover p(k, s, b, opts);
  ProofReport r;
  try {
    r = p.run();
  } catch (const prove_detail::GiveUp &g) {
    r.unavailable = g.why;
  }
  r.queries = p.queries;
  r.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

} // namespace ksynth::equiv
