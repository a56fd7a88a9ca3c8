#include "verify/check/checker_internal.h"

#include "util/invariant.h"

#include <functional>
#include <set>
#include <sstream>

namespace ksynth::check {

const char *kindName(Kind k) {
  switch (k) {
  case Kind::Race: return "race";
  case Kind::Barrier: return "barrier";
  case Kind::Bounds: return "bounds";
  case Kind::Overflow: return "overflow";
  case Kind::Assert: return "assert";
  case Kind::Warp: return "warp";
  case Kind::Align: return "align";
  case Kind::Coverage: return "coverage";
  case Kind::Equivalence: return "equivalence";
  case Kind::Assumptions: return "assumptions";
  }
  return "?";
}

bool kindFromName(const std::string &name, Kind &out) {
  for (Kind k : {Kind::Race, Kind::Barrier, Kind::Bounds, Kind::Overflow, Kind::Assert, Kind::Warp, Kind::Align, Kind::Coverage,
                 Kind::Equivalence, Kind::Assumptions})
    if (name == kindName(k)) {
      out = k;
      return true;
    }
  return false;
}

const char *statusName(Status s) {
  switch (s) {
  case Status::Proven: return "proven";
  case Status::Refuted: return "refuted";
  case Status::Unknown: return "unknown";
  case Status::Bounded: return "bounded";
  }
  return "?";
}

namespace checker_detail {

Checker::Checker(const ir::Kernel &k, const Options &o)
    : k_(k), opts_(o), solver_(tc_, o.timeoutMs), ownLog_(o.dumpSmtDir) {
  solver_.setLog(o.log ? o.log : &ownLog_);
}

// The kernel's own leading preconditions that bound a scalar parameter by a constant
// (`__requires(W >= 1)`, also in conjunctions): facts for tightenBounds, as --assume's are.
// Only the `__requires` before any other statement (they hold wherever the kernel runs), and
// only comparisons of a parameter (through widening integer casts) with an integer constant.
void Checker::kernelBounds(std::vector<Term> &pre) {
  std::function<Term(const ir::Expr &)> side = [&](const ir::Expr &x) -> Term {
    if (x.op == ir::Op::Const && x.type.isInt())
      return tc_.intConst(x.ival);
    if (x.op == ir::Op::VarRef) {
      auto it = g_.params.find(x.id);
      return it != g_.params.end() && k_.vars[x.id].type.isInt() ? it->second : nullptr;
    }
    if (x.op == ir::Op::Cast && x.args.size() == 1 && x.type.isInt() && x.args[0]->type.isInt() &&
        x.type.bits >= x.args[0]->type.bits && (x.type.isSigned || !x.args[0]->type.isSigned) &&
        (x.type.bits > x.args[0]->type.bits || x.type.isSigned == x.args[0]->type.isSigned))
      return side(*x.args[0]);
    return nullptr;
  };
  std::function<Term(const ir::Expr &)> fact = [&](const ir::Expr &x) -> Term {
    if (x.op == ir::Op::LAnd && x.args.size() == 2) {
      Term a = fact(*x.args[0]), b = fact(*x.args[1]);
      return a && b ? tc_.mkAnd(a, b) : a ? a : b; // a conjunct that is not one is left out
    }
    if (x.args.size() != 2)
      return nullptr;
    Term a = side(*x.args[0]), b = side(*x.args[1]);
    if (!a || !b)
      return nullptr;
    switch (x.op) {
    case ir::Op::Lt: return tc_.lt(a, b);
    case ir::Op::Le: return tc_.le(a, b);
    case ir::Op::Gt: return tc_.lt(b, a);
    case ir::Op::Ge: return tc_.le(b, a);
    case ir::Op::Eq: return tc_.eq(a, b);
    default: return nullptr;
    }
  };
  const ir::Block *b = &k_.body; // (the kernel's body is a block, the target of its returns)
  while (!b->empty() && b->front()->kind == ir::StmtKind::Block)
    b = &b->front()->body;
  for (const ir::StmtPtr &s : *b) {
    if (s->kind != ir::StmtKind::Assume || !s->precondition)
      break;
    if (Term f = fact(*s->cond))
      pre.push_back(f);
  }
}

// SEMANTICS (`__activemask()`): the lanes a call's result names were converged with the caller
// there: each executed that call and got the same mask. For a pair of threads at a call outside
// loops: if one's mask names the other's lane, the other reached the call and holds the same
// mask. (In a loop the other lane may have been in another iteration: nothing is assumed.)
void Checker::activeMaskFacts() {
  for (size_t i = 0; i < m1_.activeMasks.size() && i < m2_.activeMasks.size(); ++i) {
    const MaskedBarrierSite &x = m1_.activeMasks[i], &y = m2_.activeMasks[i];
    KSYNTH_INVARIANT(x.stmt == y.stmt, "both copies of the thread list __activemask() calls in one order");
    if (!x.iters.empty())
      continue;
    Term same = tc_.mkAnd({sameWarp(), distinctThreads()});
    addBackground(tc_.implies(tc_.mkAnd({x.pc, same, laneInMaskTerm(tc_, x.mask, laneOf(tc_, g_, t2_))}),
                              tc_.mkAnd(y.pc, tc_.eq(x.mask, y.mask))));
    addBackground(tc_.implies(tc_.mkAnd({y.pc, same, laneInMaskTerm(tc_, y.mask, laneOf(tc_, g_, t1_))}),
                              tc_.mkAnd(x.pc, tc_.eq(x.mask, y.mask))));
  }
}

KernelReport Checker::run() {
  rep_.name = k_.name;
  g_ = makeGlobals(tc_, k_, opts_.block, opts_.grid, rep_.assumptions);
  {
    std::vector<Term> pre = g_.facts;
    for (const ir::ExprPtr &e : opts_.assumes)
      pre.push_back(evalUniform(tc_, k_, g_, *e));
    kernelBounds(pre);
    tightenBounds(tc_, pre);
  }
  t1_ = makeThread(tc_, g_, "t1");
  t2_ = makeThread(tc_, g_, "t2");
  m1_ = execute(tc_, k_, g_, t1_, "t1", opts_.wrapFreeSummaries, false, &t2_);
  m2_ = execute(tc_, k_, g_, t2_, "t2", opts_.wrapFreeSummaries, false, &t1_);
  rep_.abstractions = m1_.abstractions;
  describeLaunch();

  for (Term f : g_.facts)
    addBackground(f);
  for (const ThreadSyms *t : {&t1_, &t2_})
    for (int d = 0; d < 3; ++d) {
      addBackground(tc_.mkAnd(tc_.le(tc_.intConst(0), t->tid[d]), tc_.lt(t->tid[d], g_.blockDim[d])));
      addBackground(tc_.mkAnd(tc_.le(tc_.intConst(0), t->bid[d]), tc_.lt(t->bid[d], g_.gridDim[d])));
    }
  for (const ThreadModel *m : {&m1_, &m2_}) {
    for (Term a : m->assumptions)
      addBackground(a);
    for (Term f : m->facts)
      addBackground(f);
  }
  for (const ir::ExprPtr &e : opts_.assumes)
    addBackground(evalUniform(tc_, k_, g_, *e));
  activeMaskFacts();
  // Every range the simplifier relied on is asserted too (after all terms exist).
  for (Term b : tc_.boundFacts())
    addBackground(b);
  for (const ir::StmtPtr &s : collectAssumeTexts())
    rep_.assumptions.push_back("precondition " + s->text);

  if (!m1_.unsupported.empty()) {
    for (const std::string &kind : orderedChecks()) {
      Obligation o;
      o.kind = kindOf(kind);
      o.name = kind;
      o.status = Status::Unknown;
      const ir::Stmt *u = m1_.unsupported.front();
      o.loc = u->loc;
      o.reason = "kernel uses an unsupported construct (" + u->text + ")";
      rep_.obligations.push_back(o);
    }
    return finish();
  }

  // The model's premises first: where one fails nothing else is asked (one that holds is a
  // lemma like the summaries', which a failing summary check asks again without closed forms;
  // with preconditions that admit nothing it holds, and the vacuity check below says so).
  if (!checkPremises())
    return finish();

  // Vacuity: the preconditions must admit at least one launch and thread pair.
  smt::Result vac = solver_.check(tc_.tru(), {k_.name + ".vacuity", {}});
  if (vac.status != smt::Status::Sat) {
    Obligation o;
    o.kind = Kind::Assumptions;
    o.name = "vacuity";
    o.status = Status::Unknown;
    o.reason = vac.status == smt::Status::Unsat
                   ? "the preconditions and launch admit no execution: every obligation would hold vacuously"
                   : "could not show the preconditions satisfiable: " + vac.reason;
    o.ms = vac.ms;
    rep_.obligations.push_back(o);
    return finish();
  }

  if (!m1_.summaries.empty() && !checkSummaries()) {
    if (!opts_.wrapFreeSummaries)
      return finish();
    // Start again with those loop variables unknown: sound, maybe too coarse to prove.
    Options o = opts_;
    o.wrapFreeSummaries = false;
    std::string var = m1_.summaries.front().var;
    Checker again(k_, o);
    KernelReport r = again.run();
    r.abstractions.insert(r.abstractions.begin(),
                          "loop variable '" + var + "' may wrap around" +
                              (wrapSizes_.empty() ? "" : " (a wrapping step is not ruled out at " + wrapSizes_ + ")") +
                              ": its closed form is not used; a precondition that excludes such sizes "
                              "(__requires or --assume) lets ksynth use it");
    return r;
  }

  for (const std::string &kind : orderedChecks()) {
    if (kind == "race")
      checkRaces();
    else if (kind == "barrier")
      checkBarriers();
    else if (kind == "bounds")
      checkBounds();
    else if (kind == "overflow")
      checkOverflow();
    else if (kind == "assert")
      checkAsserts(ir::AssertKind::User);
    else if (kind == "warp")
      checkAsserts(ir::AssertKind::Warp);
    else if (kind == "align")
      checkAsserts(ir::AssertKind::Align);
  }
  return finish();
}

Kind Checker::kindOf(const std::string &check) {
  Kind k = Kind::Assumptions;
  KSYNTH_INVARIANT(kindFromName(check, k), "a safety check's name is an obligation kind");
  return k;
}

std::vector<std::string> Checker::orderedChecks() {
  std::vector<std::string> out;
  for (const char *c : {"race", "barrier", "bounds", "overflow", "assert", "warp", "align"})
    if (opts_.checks.count(c))
      out.push_back(c);
  return out;
}

std::vector<ir::StmtPtr> Checker::collectAssumeTexts() {
  std::vector<ir::StmtPtr> out;
  std::function<void(const ir::Block &)> go = [&](const ir::Block &b) {
    for (const auto &s : b) {
      if (s->kind == ir::StmtKind::Assume)
        out.push_back(s);
      for (const ir::Block *c : {&s->pre, &s->body, &s->elseBody, &s->step})
        go(*c);
    }
  };
  go(k_.body);
  return out;
}

void Checker::describeLaunch() {
  std::ostringstream os;
  auto dims = [&](const std::array<Term, 3> &d) {
    std::string s = "(";
    for (int i = 0; i < 3; ++i)
      s += (i ? ", " : "") + smt::show(d[i]);
    return s + ")";
  };
  os << "block=" << dims(g_.blockDim) << " grid=" << dims(g_.gridDim);
  rep_.launch = os.str();
}

KernelReport Checker::finish() {
  bool anyRefuted = false, anyUnknown = false;
  for (const Obligation &o : rep_.obligations) {
    anyRefuted |= o.status == Status::Refuted;
    anyUnknown |= o.status == Status::Unknown;
  }
  rep_.verdict = anyRefuted ? Status::Refuted : anyUnknown ? Status::Unknown : Status::Proven;
  if (opts_.checks.count("overflow") == 0)
    rep_.assumptions.push_back("no signed integer overflow (overflow not checked)");
  if (opts_.checks.count("barrier") == 0)
    rep_.assumptions.push_back("barriers are uniform (barrier not checked)");
  for (const std::string &a : rep_.abstractions)
    (void)a;
  return rep_;
}

// Loop summaries found modulo wrap-around hold by induction, or nothing can be claimed.
// The premises of ksynth's model (assert.modelled: a warp primitive's mask that is not a
// constant is the full mask) hold wherever they are reached: true. Otherwise every obligation
// is unknown, with the premise that can fail (a sat model) or could not be shown.
// The header of a lemma's query file: what unsat means, and the source lines it is about.
std::string Checker::lemmaHeader(const std::string &name, const std::string &meaning,
                                 const std::set<unsigned> &lines) {
  std::string where = "\nsource lines:";
  for (unsigned l : lines)
    where += " " + std::to_string(l);
  return "ksynth lemma " + k_.name + "." + name + "\nunsat means " + meaning + "; all obligations use them" + where +
         kRunWith;
}

// Each launch dimension left symbolic set to 2: a brief first question whose model, if any, is
// a model of the full one (2 is within every dimension's range).
std::vector<Term> Checker::launchAtTwo() {
  std::vector<Term> fixed;
  for (int d = 0; d < 3; ++d)
    for (Term t : {g_.blockDim[d], g_.gridDim[d]})
      if (t && t->kind == smt::Kind::Var)
        fixed.push_back(tc_.eq(t, tc_.intConst(2)));
  return fixed;
}

bool Checker::checkPremises() {
  std::vector<const AssertSite *> sites;
  std::vector<Term> bad;
  for (const AssertSite &s : m1_.asserts) // (thread 2 is the same thread renamed)
    if (s.stmt->assertKind == ir::AssertKind::Modelled) {
      sites.push_back(&s);
      bad.push_back(tc_.mkAnd(s.pc, tc_.mkNot(s.cond)));
    }
  if (sites.empty())
    return true;
  std::set<unsigned> lines;
  for (const AssertSite *s : sites)
    lines.insert(s->stmt->loc.line);
  std::string header = lemmaHeader("premises",
                                   "every premise of ksynth's model holds where it is reached (a warp primitive's "
                                   "mask is the full mask)",
                                   lines);
  // A premise that fails usually fails at a small launch, and the full query can take long to
  // find that (a mask that is a __ballot_sync result: 0.7 s): first, briefly, each launch
  // dimension left symbolic is 2, as for the summaries (a model there is a model of the query).
  smt::Result r;
  std::vector<Term> fixed = launchAtTwo();
  if (!fixed.empty()) {
    unsigned limit = solver_.timeout();
    solver_.setTimeout(std::min(limit, 300u));
    r = solver_.check(tc_.mkAnd(tc_.mkOr(bad), tc_.mkAnd(fixed)), {k_.name + ".premises.launch2", {}});
    solver_.setTimeout(limit);
  }
  if (r.status != smt::Status::Sat)
    r = solver_.check(tc_.mkOr(bad), {k_.name + ".premises", [header](smt::Status) { return header; }});
  if (r.status == smt::Status::Unsat) {
    if (!solver_.lastRecord()->file.empty())
      rep_.lemmas.push_back(solver_.lastRecord()->file);
    return true;
  }
  const AssertSite *failing = sites.front();
  if (r.status == smt::Status::Sat)
    for (size_t i = 0; i < sites.size(); ++i)
      if (auto v = smt::eval(bad[i], r.model); v && v->num) {
        failing = sites[i];
        break;
      }
  for (const std::string &kind : orderedChecks()) {
    Obligation o;
    o.kind = kindOf(kind);
    o.name = kind;
    o.loc = failing->stmt->loc;
    o.status = Status::Unknown;
    o.reason = "kernel uses an unsupported construct (" + failing->stmt->text + ")" +
               (r.status == smt::Status::Unknown ? " (" + (r.reason.empty() ? "solver returned unknown" : r.reason) + ")"
                                                 : std::string());
    o.ms = r.ms;
    rep_.obligations.push_back(o);
  }
  return false;
}

bool Checker::checkSummaries() {
  std::vector<Term> bad;
  for (const SummarySite &s : m1_.summaries)
    bad.push_back(tc_.mkAnd(s.pc, tc_.mkNot(s.ok)));
  std::set<unsigned> lines;
  for (const SummarySite &s : m1_.summaries)
    lines.insert(s.loc.line);
  std::string header =
      lemmaHeader("summaries", "every loop summary's closed form holds without wrap-around (by induction)", lines);
  // Every obligation unknown: the loop cannot be summarised.
  auto cannotSummarise = [&](const std::string &why, double ms) {
    const SummarySite &s = m1_.summaries.front();
    for (const std::string &kind : orderedChecks()) {
      Obligation o;
      o.kind = kindOf(kind);
      o.name = kind;
      o.loc = s.loc;
      o.status = Status::Unknown;
      o.reason = "the loop's induction variable '" + s.var + "' may wrap around, so ksynth cannot summarise the loop" +
                 (why.empty() ? "" : " (" + why + ")");
      o.ms = ms;
      rep_.obligations.push_back(o);
    }
    return false;
  };
  // A wrap is usually easy to show with the launch fixed: a stride of blockDim.x * gridDim.x
  // makes the query nonlinear, and Z3 could spend its whole limit on it (10 s on a grid-stride
  // loop over int). So first, briefly, each launch dimension left symbolic is 2: a model there
  // is a model of the query itself (2 is within every dimension's range).
  std::vector<Term> fixed = launchAtTwo();
  if (!fixed.empty()) {
    unsigned limit = solver_.timeout();
    solver_.setTimeout(std::min(limit, 1000u));
    Term probe = tc_.mkAnd(tc_.mkOr(bad), tc_.mkAnd(fixed));
    smt::Result p = solver_.check(probe, {k_.name + ".summaries.launch2", {}});
    solver_.setTimeout(limit);
    if (p.status == smt::Status::Sat) {
      wrapSizes_ = sizesText(envFrom(smallModel(probe, p.model)));
      return cannotSummarise("", p.ms);
    }
  }
  smt::Result r =
      solver_.check(tc_.mkOr(bad), {k_.name + ".summaries", [header](smt::Status) { return header; }});
  if (r.status == smt::Status::Unsat && !solver_.lastRecord()->file.empty())
    rep_.lemmas.push_back(solver_.lastRecord()->file);
  if (r.status == smt::Status::Unsat)
    return true;
  if (r.status == smt::Status::Sat)
    wrapSizes_ = sizesText(envFrom(smallModel(tc_.mkOr(bad), r.model)));
  return cannotSummarise(r.status == smt::Status::Unknown ? r.reason : "", r.ms);
}

} // namespace checker_detail

KernelReport verifyKernel(const ir::Kernel &k, const Options &opts) {
  checker_detail::Checker c(k, opts);
  return c.run();
}

} // namespace ksynth::check
