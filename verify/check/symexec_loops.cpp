// Symbolic execution: loop summaries (induction variables, accumulators, trip counts).

#include "verify/check/symexec_internal.h"
#include "verify/smt/exp_law.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace ksynth::check::detail {

// One iteration: pre, test, body, step. Returns the state at the end of the iteration and
// the loop condition's value.
State Exec::iteration(const ir::Stmt &L, State s, Term &cond, ir::SyncLevel afterBody, bool record,
                       Term iterPcExtra) {
  if (L.testFirst) {
    s.pc = tc_.mkAnd(s.pc, iterPcExtra);
    block(L.pre, s, ir::SyncLevel::Block);
    cond = eval(*L.cond, s, s.pc);
    if (record) {
      // The test decides the body and step, and leaving early skips nothing more than they do
      // (their barriers are in afterBody).
      recordControl(L, s, cond, {&L.body, &L.step}, afterBody);
    }
    s.pc = tc_.mkAnd(s.pc, cond);
    block(L.body, s, afterBody);
    block(L.step, s, afterBody);
  } else {
    s.pc = tc_.mkAnd(s.pc, iterPcExtra);
    block(L.body, s, afterBody);
    block(L.step, s, afterBody);
    block(L.pre, s, ir::SyncLevel::Block);
    cond = eval(*L.cond, s, s.pc);
    if (record)
      recordControl(L, s, cond, {&L.body}, ir::SyncLevel::None);
  }
  return s;
}

Term Exec::valueAt(const Summary &sm, Term v0, Term i, const std::string &name, Sort sort,
                   const ir::Type *ty) {
  switch (sm.shape) {
  case Shape::Invariant: return v0;
  case Shape::Affine: return tc_.add(v0, tc_.mul(i, sm.step));
  case Shape::ShiftRight:
  case Shape::ShiftLeft: {
    // Right shifts are exact up to 64 bits, past which every 64-bit value has reached its
    // fixed point: 0, or -1 for negatives (an unsigned 2^63 needs all 64 shifts).
    int maxIter = (sm.shape == Shape::ShiftRight ? 64 : 62) / sm.k;
    // (Division rounding toward zero reaches 0 from both sides.)
    Term r = sm.shape == Shape::ShiftRight
                 ? (sm.trunc ? tc_.intConst(0) : tc_.ite(tc_.ge(v0, tc_.intConst(0)), tc_.intConst(0), tc_.intConst(-1)))
                 : fresh("loopvar." + name, sort);
    if (sm.shape == Shape::ShiftLeft && ty && ty->isInt()) {
      // A signed variable doubled past its width has overflowed on the way (undefined
      // behaviour, which the overflow obligation reports where it can happen). Without
      // overflow only v0 == 0 gets there; any other start would be out of the type's range,
      // which is what the value says (|v| >= 2^bits), so conditions like `d < n` end the loop.
      // An unsigned one is exact up to iteration 62 and past it a positive multiple of
      // v0 * 2^63, which contains the closed form v0 * 2^i: the wrap-around lemma then sees that
      // a test like `s < blockDim.x`, true before the step, bounds the value it doubles (a
      // value with no tie to the one before let any iteration wrap).
      if (ty->isSigned && ty->bits < 62)
        maxIter = (ty->bits - 1) / sm.k;
      Term m = fresh("loopvar.mult." + name, sort);
      tc_.setBounds(m, 1, smt::TermContext::kUnbounded); // (the range lets a test like `s < blockDim.x` fold past iteration 62)
      r = tc_.ite(tc_.eq(v0, tc_.intConst(0)), tc_.intConst(0),
                  tc_.mul(tc_.mul(v0, tc_.intConst(static_cast<int128>(1) << ((maxIter + 1) * sm.k))), m));
    }
    auto at = [&](int n) {
      Term p = tc_.intConst(static_cast<int128>(1) << (n * sm.k));
      return sm.shape == Shape::ShiftLeft ? tc_.mul(v0, p) : sm.trunc ? truncDiv(v0, p) : tc_.div(v0, p);
    };
    // Where i is known to stay at most some top <= maxIter (a doubling loop bounded by
    // blockDim.x runs at most 10 times), the cases past it cannot happen and the value at top
    // ends the chain: 11 cases instead of 63 for the solver to split.
    int top = maxIter;
    if (auto [lo, hi] = tc_.range(i); hi >= 0 && hi < maxIter) {
      top = static_cast<int>(hi);
      r = at(top);
    }
    for (int n = top == maxIter ? maxIter : top - 1; n >= 0; --n)
      r = tc_.ite(tc_.eq(i, tc_.intConst(n)), at(n), r);
    return r;
  }
  case Shape::Accumulate: // handled by accumulated(); unknown where only the shape is at hand
  case Shape::Product:
  case Shape::Extremum:
  case Shape::ArgExtremum:
  case Shape::Rescaled:
  case Shape::Havoc: return fresh("loopvar." + name, sort);
  }
  return nullptr;
}

// The number of iterations of a counted loop whose test, after n iterations, is `cn`: for
// a test D(n) < 0 (or <= 0) with D affine in n with a positive constant slope, the first n
// where it fails (for a conjunction of such tests, the least of theirs). nullptr when the test has another shape or depends on values that are
// unknown per iteration (symbols made after `mark`). A slope that is not a constant but known
// positive (a grid-stride loop's blockDim.x * gridDim.x over a grid that grows with N) gives
// no closed form (it would divide by the slope), only `test`: the test is still monotone in
// the iteration, so iteration X runs exactly when X >= 0 and the test holds at X.
Term Exec::tripCount(Term cn, Term n, uint32_t mark, std::pair<Term, Term> *test) {
  // A conjunction of such tests (`k < j + 4 && k < N`): each holds for a prefix of the
  // iterations, so the loop runs the fewest of their counts, and iteration X runs where every
  // test holds at X (one X for all).
  if (cn->kind == smt::Kind::And) {
    Term closed = nullptr, X = nullptr;
    bool allClosed = true;
    std::vector<Term> tests;
    for (Term c : cn->kids) {
      std::pair<Term, Term> t{nullptr, nullptr};
      Term k = tripCount(c, n, mark, test ? &t : nullptr);
      if (test ? !t.first : !k)
        return nullptr;
      if (!k)
        allClosed = false;
      else
        closed = closed ? tc_.ite(tc_.lt(k, closed), k, closed) : k;
      if (test) {
        X = X ? X : t.first;
        tests.push_back(tc_.substitute(t.second, {{t.first, X}}));
      }
    }
    if (test)
      *test = {X, tc_.mkAnd(tests)};
    return allClosed ? closed : nullptr;
  }
  if (cn->kind != smt::Kind::Lt && cn->kind != smt::Kind::Le)
    return nullptr;
  if (cn->kids[0]->sort != Sort::Int)
    return nullptr;
  Term D = tc_.sub(cn->kids[0], cn->kids[1]);
  std::vector<Term> syms;
  tc_.collectSymbols(D, syms);
  for (Term x : syms)
    if (x->kind == smt::Kind::Var && x->id > mark && x != n)
      return nullptr;
  Term d0 = tc_.substitute(D, {{n, tc_.intConst(0)}});
  Term d1 = tc_.substitute(D, {{n, tc_.intConst(1)}});
  Term d2 = tc_.substitute(D, {{n, tc_.intConst(2)}});
  Term alpha = tc_.sub(d1, d0);
  int128 a = 0;
  bool constant = tc_.isConst(alpha, &a);
  // The slope: a positive constant, or (for `test` alone) a term known positive.
  if (constant ? a <= 0 : !test || tc_.range(alpha).first < 1)
    return nullptr;
  if (tc_.sub(d2, d1) != alpha || tc_.mentions(d0, n) || tc_.mentions(alpha, n))
    return nullptr;
  // Sampling three points is not linearity (n + (n div 3) * 1000 agrees with n at 0, 1, 2):
  // D - slope n must be free of n.
  if (tc_.mentions(tc_.sub(D, tc_.mul(alpha, n)), n))
    return nullptr;
  Term zero = tc_.intConst(0);
  if (test) {
    // (built over a variable without bounds: the iteration symbol's own bounds would fold it)
    Term X = tc_.fresh("tripx", Sort::Int);
    Term at = tc_.add(d0, tc_.mul(alpha, X));
    *test = {X, cn->kind == smt::Kind::Lt ? tc_.lt(at, zero) : tc_.le(at, zero)};
  }
  if (!constant)
    return nullptr; // (no closed form: it would divide by the slope)
  Term A = tc_.intConst(a);
  if (cn->kind == smt::Kind::Lt) // runs while d0 + a n < 0
    return tc_.ite(tc_.lt(d0, zero), tc_.div(tc_.add(tc_.neg(d0), tc_.intConst(a - 1)), A), zero);
  return tc_.ite(tc_.le(d0, zero), tc_.add(tc_.div(tc_.neg(d0), A), tc_.intConst(1)), zero);
}

// For a test `D != 0` (`j != n`, or `j - n` as a condition) with D affine in the iteration
// count with slope 1 or -1, what reaching iteration i says beyond the test before i - 1: the
// test held before every iteration up to i, so D never met 0 on the way. D moves by one step
// at a time, so it has not met 0 by iteration i exactly when it started on the side it moves
// away from, or has not yet reached 0 (slope 1: D(0) > 0 or D(i) < 0). The local test at i
// and i - 1 alone admits iterations past the one where the loop stops. nullptr for any
// other test, or where D reads values unknown per iteration (symbols made after `mark`).
Term Exec::neverZeroThrough(Term cn, Term i, uint32_t mark) {
  if (cn->kind != smt::Kind::Not || cn->kids[0]->kind != smt::Kind::Eq || cn->kids[0]->kids[0]->sort != Sort::Int)
    return nullptr;
  Term D = tc_.sub(cn->kids[0]->kids[0], cn->kids[0]->kids[1]);
  std::vector<Term> syms;
  tc_.collectSymbols(D, syms);
  for (Term x : syms)
    if (x->kind == smt::Kind::Var && x->id > mark && x != i)
      return nullptr;
  Term d0 = tc_.substitute(D, {{i, tc_.intConst(0)}}), slope = tc_.sub(D, d0);
  if (slope != i && slope != tc_.neg(i))
    return nullptr;
  if (slope != i) { // D != 0 is -D != 0
    D = tc_.neg(D);
    d0 = tc_.neg(d0);
  }
  return tc_.mkOr(tc_.lt(tc_.intConst(0), d0), tc_.lt(D, tc_.intConst(0)));
}

// The loop's test on state st (a copy), after its `pre` statements, evaluated dry (no
// accesses, facts or exits recorded).
Term Exec::testOn(const ir::Stmt &L, State st) {
  bool savedDry = dry_;
  dry_ = true;
  auto savedExits = pendingExits_;
  block(L.pre, st, ir::SyncLevel::Block);
  Term c = eval(*L.cond, st, st.pc);
  pendingExits_ = savedExits;
  dry_ = savedDry;
  return c;
}

// The number of iterations when the test after each number of iterations folds to a
// constant (a halving loop from a constant: `for (s = 128; s > 0; s >>= 1)` runs 8 times):
// the first count whose test is false, or nullptr.
Term Exec::constantTripCount(Term cn, Term n) {
  for (int c = 0; c <= 64; ++c) {
    Term v = tc_.substitute(cn, {{n, tc_.intConst(c)}});
    if (v == tc_.fls())
      return tc_.intConst(c);
    if (v != tc_.tru())
      return nullptr;
  }
  return nullptr;
}

// d with v = e + d syntactically (through `ite`s: a conditional update adds 0 on the other
// branch), or nullptr. Real sums are not normalised, so this follows their structure.
Term Exec::realDelta(Term v, Term e) {
  if (v == e)
    return tc_.realConst(0);
  if (v->kind == smt::Kind::Add && v->kids.size() == 2) {
    if (v->kids[0] == e)
      return v->kids[1];
    if (v->kids[1] == e)
      return v->kids[0];
    Term d = realDelta(v->kids[0], e);
    if (d)
      return tc_.add(d, v->kids[1]);
    return nullptr;
  }
  if (v->kind == smt::Kind::Ite) {
    Term a = realDelta(v->kids[1], e), b = realDelta(v->kids[2], e);
    if (a && b)
      return tc_.ite(v->kids[0], a, b);
  }
  return nullptr;
}

// f with v = e * f, f free of e, through `ite`s whose other arm leaves e unchanged (a factor
// of 1 there), or nullptr.
Term Exec::realFactor(Term v, Term e) {
  if (v == e)
    return tc_.realConst(1);
  if (v->kind == smt::Kind::Mul && v->sort == Sort::Real) {
    std::vector<Term> rest;
    int seen = 0;
    for (Term k : v->kids) {
      if (k == e)
        ++seen;
      else
        rest.push_back(k);
    }
    if (seen != 1 || rest.empty())
      return nullptr;
    Term f = rest[0];
    for (size_t i = 1; i < rest.size(); ++i)
      f = tc_.mul(f, rest[i]);
    return tc_.mentions(f, e) ? nullptr : f;
  }
  if (v->kind == smt::Kind::Ite && !tc_.mentions(v->kids[0], e)) {
    Term a = realFactor(v->kids[1], e), b = realFactor(v->kids[2], e);
    if (a && b)
      return tc_.ite(v->kids[0], a, b);
  }
  return nullptr;
}

// d with v = max(e, d) (isMax) or min(e, d), d free of e, through `ite`s whose other arm
// leaves e unchanged (an arm without update becomes kExtremumNone); or nullptr.
Term Exec::extremumStep(Term v, Term e, bool isMax) {
  Term p, q;
  bool mx = false;
  if (v == e)
    return tc_.app(kExtremumNone, Sort::Real, {});
  if (extremumOf(v, p, q, mx) && mx == isMax) {
    if (p == e && !tc_.mentions(q, e))
      return q;
    if (q == e && !tc_.mentions(p, e))
      return p;
    return nullptr;
  }
  if (v->kind == smt::Kind::Ite && !tc_.mentions(v->kids[0], e)) {
    Term a = extremumStep(v->kids[1], e, isMax), b = extremumStep(v->kids[2], e, isMax);
    if (a && b)
      return tc_.ite(v->kids[0], a, b);
  }
  return nullptr;
}

// A running sum kept relative to another variable m of the loop (an online softmax's
// denominator): v = e * exp(em - vm) + D, with em and vm m's values at the start and the end of
// the iteration. After n iterations, by induction and the exponential's law (exp(a) exp(b) =
// exp(a + b), exp(0) = 1),
//   v_n = v_0 exp(m_0 - m_n) + sum over j < n of D_j exp(m_{j+1} - m_n),
// whatever values m takes. The summary's step is D exp(vm - P), the exponentials combined; it
// must no longer name m (D's exponent held vm, which cancels: D = exp(x - vm)) nor anything else
// of the iteration, and then P stands for m_n. Havoc where the update has another form.
Exec::Summary Exec::rescaledStep(int v, Term e, const State &end, const LoopFacts &f, uint32_t watermark,
                                 const std::set<Term> &entryIds) {
  Summary none;
  Term ve = end.vars[v].t;
  if (!ve)
    return none;
  std::string expName;
  for (Term x : smt::subterms(ve))
    if (x->kind == smt::Kind::App && x->kids.size() == 1 && smt::isExpFunction(x->name))
      expName = x->name;
  if (expName.empty())
    return none;
  for (const auto &[w, ew] : f.entrySym) {
    Term vw = end.vars[w].t;
    if (w == v || !vw || vw == ew || ew->sort != Sort::Real)
      continue;
    Term P = fresh("rescale.at", Sort::Real);
    // The step's term D exp(m' - P) for the update `value` where m ends as `mw`; in each case
    // of a choice that does not read v (`if (x > m) { d = d * exp(m - x) + 1; m = x; } else
    // d += exp(x - m);`), m's end value decided by the case.
    std::function<Term(Term, Term)> bodyOf = [&](Term value, Term mw) -> Term {
      if (value->kind == smt::Kind::Ite && !tc_.mentions(value->kids[0], e)) {
        Term c = value->kids[0];
        Term a = bodyOf(value->kids[1], smt::decided(tc_, mw, c, true));
        Term b = bodyOf(value->kids[2], smt::decided(tc_, mw, c, false));
        return !a || !b ? nullptr : a == b ? a : tc_.ite(c, a, b);
      }
      Term D = nullptr;
      if (mw == ew) { // m unchanged: v = e + D, the scale exp(0)
        if (value == e)
          D = tc_.realConst(0);
        else if (value->kind == smt::Kind::Add && value->kids.size() == 2 && (value->kids[0] == e || value->kids[1] == e))
          D = value->kids[value->kids[0] == e ? 1 : 0];
      } else if (value->kind == smt::Kind::Add && value->kids.size() == 2) {
        for (int side : {0, 1}) {
          Term prod = value->kids[side];
          if (D || prod->kind != smt::Kind::Mul || prod->kids.size() != 2)
            continue;
          for (int at : {0, 1}) {
            Term X = prod->kids[1 - at];
            if (!D && prod->kids[at] == e && X->kind == smt::Kind::App && X->kids.size() == 1 &&
                smt::isExpFunction(X->name) &&
                smt::realLinear(tc_, X->kids[0]) == smt::realLinear(tc_, tc_.sub(ew, mw)))
              D = value->kids[1 - side];
          }
        }
      }
      if (!D)
        return nullptr;
      return smt::combineExps(tc_, tc_.mul(D, tc_.app(expName, Sort::Real, {tc_.sub(mw, P)})));
    };
    Term body = bodyOf(ve, vw);
    if (!body)
      continue;
    std::vector<Term> syms;
    tc_.collectSymbols(body, syms);
    bool ok = true;
    for (Term x : syms)
      if (x == e || x == ew || (x->kind == smt::Kind::Var && x->id > watermark && x != P && !entryIds.count(x)))
        ok = false;
    if (!ok)
      continue;
    Summary sm;
    sm.shape = Shape::Rescaled;
    sm.step = body;
    sm.keyVar = w;
    sm.scaleAt = P;
    sm.expName = expName;
    return sm;
  }
  return none;
}

// The value after n iterations of a Rescaled sum v (rescaledStep), in state r where m's
// value after n iterations is known: v_0 exp(m_0 - m_n) + lsum(n, params, m_n).
Term Exec::rescaled(int v, const Summary &sm, const State &s, const State &r, Term n, std::map<int, Summary> &summary,
                    const std::map<int, Term> &entrySym,
                    const std::function<std::vector<std::pair<Term, Term>>(Term)> &counters) {
  Term mn = r.vars[sm.keyVar].t;
  if (!mn)
    return fresh("loopvar." + k_.vars[v].name, Sort::Real);
  Summary acc = sm;
  acc.shape = Shape::Accumulate;
  State zero = s;
  zero.vars[v] = {tc_.realConst(0)};
  Term sum = tc_.substitute(accumulated(v, acc, zero, n, summary, entrySym, counters), {{sm.scaleAt, mn}});
  Term v0 = s.vars[v].t ? s.vars[v].t : tc_.realConst(0);
  Term m0 = s.vars[sm.keyVar].t ? s.vars[sm.keyVar].t : tc_.realConst(0);
  Term start = smt::combineExps(tc_, tc_.mul(v0, tc_.app(sm.expName, Sort::Real, {tc_.sub(m0, mn)})));
  return tc_.add(start, sum);
}

// The value of accumulator v after n iterations: v0 + lsum(n, params) (symexec.h SumDef);
// for an Extremum, ite(n >= 1, max(v0, lmax(n, params)), v0).
Term Exec::accumulated(int v, const Summary &sm, const State &s, Term n, std::map<int, Summary> &summary,
                        const std::map<int, Term> &entrySym,
                        const std::function<std::vector<std::pair<Term, Term>>(Term)> &counters) {
  Term j = fresh("sumidx", Sort::Int);
  // A step over the entry values of the other variables, at iteration j.
  auto atIteration = [&](Term step, int self) {
    std::unordered_map<Term, Term> sub;
    for (const auto &[w, ew] : entrySym)
      if (w != self && tc_.mentions(step, ew))
        sub[ew] = valueAt(summary[w], s.vars[w].t ? s.vars[w].t : tc_.intConst(0), j, k_.vars[w].name,
                          sortOf(k_.vars[w].type), &k_.vars[w].type);
    for (const auto &[e, val] : counters(j))
      if (tc_.mentions(step, e))
        sub[e] = val;
    return tc_.substitute(step, sub);
  };
  Term body = atIteration(sm.step, v);
  Term key = sm.shape == Shape::ArgExtremum ? atIteration(summary[sm.keyVar].step, sm.keyVar) : nullptr;
  std::vector<Term> syms, params;
  tc_.collectSymbols(body, syms);
  if (key)
    tc_.collectSymbols(key, syms);
  for (Term x : syms)
    if (x->kind == smt::Kind::Var && x != j && std::find(params.begin(), params.end(), x) == params.end())
      params.push_back(x);
  if (key) {
    std::string name = std::string(sm.isMax ? "larg." : "largmin.") + tag_ + "." + std::to_string(out_.sums.size());
    SumDef def{j, body, params};
    def.key = key;
    def.strict = sm.strict;
    def.isMax = sm.isMax;
    out_.sums[name] = def;
    std::vector<Term> args{n};
    args.insert(args.end(), params.begin(), params.end());
    const SVal &m0 = s.vars[sm.keyVar];
    args.push_back(m0.t ? m0.t : tc_.realConst(0));
    args.push_back(s.vars[v].t ? s.vars[v].t : tc_.intConst(0));
    Term app = tc_.app(name, sortOf(k_.vars[v].type), args);
    if (!dry_ && k_.vars[v].type.isInt())
      out_.facts.push_back(tc_.inRange(app, k_.vars[v].type.minValue(), k_.vars[v].type.maxValue()));
    return app;
  }
  bool ext = sm.shape == Shape::Extremum;
  std::string name = std::string(sm.shape == Shape::Product ? "lprod." : !ext ? "lsum." : sm.isMax ? "lmax." : "lmin.") +
                     tag_ + "." + std::to_string(out_.sums.size());
  out_.sums[name] = SumDef{j, body, params};
  std::vector<Term> args{n};
  args.insert(args.end(), params.begin(), params.end());
  Term v0 = s.vars[v].t ? s.vars[v].t : tc_.realConst(0);
  Term app = tc_.app(name, Sort::Real, args);
  if (sm.shape == Shape::Product)
    return tc_.mul(v0, app);
  if (!ext)
    return tc_.add(v0, app);
  Term folded = sm.isMax ? tc_.ite(tc_.le(app, v0), v0, app) : tc_.ite(tc_.le(v0, app), v0, app);
  return tc_.ite(tc_.le(tc_.intConst(1), n), folded, v0);
}

void Exec::loop(const ir::Stmt &L, State &s, ir::SyncLevel after) {
  LoopFacts f;
  // (A break or continue decides which iterations reach the loop's masked barriers too: see
  // ir::strongestBarrier.)
  f.afterBody = std::max({after, ir::strongestBarrier(L.body, true), ir::strongestBarrier(L.step, true)});
  for (const ir::Block *b : {&L.pre, &L.body, &L.step})
    assignedVars(*b, f.modified);
  std::vector<int> leaving;
  {
    ir::Block all = L.pre;
    all.insert(all.end(), L.body.begin(), L.body.end());
    all.insert(all.end(), L.step.begin(), L.step.end());
    leaving = ir::exitsLeaving(all);
  }
  bool breaks = false;
  for (int l : leaving) {
    if (l == L.label)
      breaks = true;
    else
      f.outer.push_back(l);
  }
  f.irregular = breaks || !f.outer.empty();

  // 1. Detection pass on symbolic entry values.
  detectSummaries(L, s, f);
  for (int v : f.modified)
    if (k_.vars[v].type.isPtr())
      f.summary[v] = {}; // pointer variables changed in loops: unknown

  int128 maxTrips = tripBound(L, s, f);
  // 2. The recorded pass at a symbolic iteration i.
  Term i = recordedPass(L, s, f, maxTrips);
  // 3. After the loop: n iterations were completed.
  s = afterLoop(L, s, after, f, i);
}

// The detection pass: one iteration from symbolic entry values, whose results give each
// variable's (and each barrier count's) shape.
void Exec::detectSummaries(const ir::Stmt &L, const State &s, LoopFacts &f) {
  State entry = s;
  uint32_t watermark = tc_.fresh("watermark", Sort::Bool)->id;
  for (int v : f.modified) {
    if (k_.vars[v].type.isPtr())
      continue;
    Term e = fresh("entry." + k_.vars[v].name, sortOf(k_.vars[v].type));
    if (k_.vars[v].type.isInt())
      tc_.setBounds(e, k_.vars[v].type.minValue(), k_.vars[v].type.maxValue());
    f.entrySym[v] = e;
    entry.vars[v] = {e};
  }
  for (const ir::Block *b : {&L.pre, &L.body, &L.step})
    storedLocals(k_, *b, f.localsStored, f.anyStored);
  forgetLocals(entry, f.localsStored, f.anyStored);
  f.bcEntry = fresh("entry.bc", Sort::Int);
  f.wcEntry = fresh("entry.wc", Sort::Int);
  f.gcEntry = fresh("entry.gc", Sort::Int);
  entry.bc = f.bcEntry;
  entry.wc = f.wcEntry;
  entry.gc = f.gcEntry;
  std::set<Term> entryIds{f.bcEntry, f.wcEntry, f.gcEntry};
  for (auto &[v, e] : f.entrySym)
    entryIds.insert(e);
  bool savedDry = dry_;
  dry_ = true;
  auto savedExits = pendingExits_;
  Term cond;
  State end = iteration(L, entry, cond, f.afterBody, false, tc_.tru());
  pendingExits_ = savedExits;
  dry_ = savedDry;
  auto classify = [&](Term e, Term v) { return classifyStep(e, v, watermark, entryIds); };
  for (auto &[v, e] : f.entrySym)
    f.summary[v] = classify(e, end.vars[v].t);
  for (auto &[v, e] : f.entrySym)
    if (f.summary[v].shape == Shape::Havoc && e->sort == Sort::Real)
      f.summary[v] = rescaledStep(v, e, end, f, watermark, entryIds);
  // Induction variables stepped through unsigned arithmetic or conversions
  // (`i += blockDim.x * gridDim.x` with int i) are affine as long as nothing wraps:
  // classify those without wrap-around and validate the summary in the recorded pass.
  bool retry = false;
  for (auto &[v, sm] : f.summary)
    if (wrapFreeSummaries)
    retry |= sm.shape == Shape::Havoc;
  if (retry) {
    dry_ = true;
    // (restored, not cleared: this may be an inner loop met in an outer loop's retry, whose
    // step after it, `r += gridDim.x * blockDim.x`, must still be read without wrap-around)
    bool savedNoWrap = noWrap_;
    noWrap_ = true;
    auto saved2 = pendingExits_;
    Term c2;
    State end2 = iteration(L, entry, c2, f.afterBody, false, tc_.tru());
    pendingExits_ = saved2;
    noWrap_ = savedNoWrap;
    dry_ = savedDry;
    for (auto &[v, e] : f.entrySym)
      if (f.summary[v].shape == Shape::Havoc) {
        Summary alt = classify(e, end2.vars[v].t);
        if (alt.shape == Shape::Affine || alt.shape == Shape::ShiftLeft) {
          alt.validate = true;
          f.summary[v] = alt;
        }
      }
  }
  f.bcSum = classify(f.bcEntry, end.bc);
  f.wcSum = classify(f.wcEntry, end.wc);
  f.gcSum = classify(f.gcEntry, end.gc);
  // An accumulator's increment may use the other variables only where their value at
  // each iteration is exact (not unknown, not another accumulator).
  auto folds = [](const Summary &x) {
    return x.shape == Shape::Accumulate || x.shape == Shape::Product || x.shape == Shape::Extremum ||
           x.shape == Shape::Rescaled;
  };
  for (auto &[v, sm] : f.summary) {
    if (!folds(sm))
      continue;
    for (auto &[w, ew] : f.entrySym)
      if (folds(sm) && w != v && tc_.mentions(sm.step, ew) &&
          (f.summary[w].shape == Shape::Havoc || folds(f.summary[w])))
        sm = Summary{};
    for (auto [ce, cs] : {std::pair{f.bcEntry, &f.bcSum}, std::pair{f.wcEntry, &f.wcSum}, std::pair{f.gcEntry, &f.gcSum}})
      if (folds(sm) && tc_.mentions(sm.step, ce) && cs->shape == Shape::Havoc)
        sm = Summary{};
  }
  findArgExtremum(f.summary, f.entrySym, end, watermark, entryIds);
  if (f.irregular) {
    // With break/return inside, per-iteration barrier counts are only affine if
    // the barriers are unconditional; otherwise havoc.
  }
}

// The shape of a value that is e at the start of an iteration and v at its end. Symbols made
// after `watermark` are values of the iteration, except the loop's entry values (`entryIds`).
Exec::Summary Exec::classifyStep(Term e, Term v, uint32_t watermark, const std::set<Term> &entryIds) {
  Summary sm;
  if (v == e) {
    sm.shape = Shape::Invariant;
    return sm;
  }
  if (v && e->sort == Sort::Real) {
    // acc' = acc + d, or acc' = max(acc, d) or min(acc, d), with d free of acc and of
    // values made inside the iteration other than the entry values of the loop's
    // variables (substituted per iteration later).
    Shape shape = Shape::Accumulate;
    bool isMax = false;
    Term d = realDelta(v, e);
    if (!d) {
      d = realFactor(v, e);
      shape = Shape::Product;
    }
    for (bool mx : {true, false}) {
      if (d)
        break;
      d = extremumStep(v, e, mx);
      if (d && d->kind == smt::Kind::App && d->name == kExtremumNone)
        d = nullptr; // never updated: not an extremum (and v == e was handled above)
      shape = Shape::Extremum;
      isMax = mx;
    }
    if (!d)
      return sm;
    std::vector<Term> syms;
    tc_.collectSymbols(d, syms);
    bool ok = true;
    for (Term x : syms)
      if (x == e || (x->kind == smt::Kind::Var && x->id > watermark && !entryIds.count(x)))
        ok = false;
    if (ok) {
      sm.shape = shape;
      sm.step = d;
      sm.isMax = isMax;
    }
    return sm;
  }
  if (!v || e->sort != Sort::Int)
    return sm;
  auto variant = [&](Term t) {
    std::vector<Term> syms;
    tc_.collectSymbols(t, syms);
    for (Term x : syms)
      if (x->kind == smt::Kind::Var && x->id > watermark)
        return true;
    return false;
  };
  Term d = tc_.sub(v, e);
  if (!variant(d)) {
    sm.shape = Shape::Affine;
    sm.step = d;
    return sm;
  }
  // v = e div 2^k  or  v = e * 2^k
  if (v->kind == smt::Kind::Div && v->kids[0] == e) {
    int128 p;
    if (tc_.isConst(v->kids[1], &p) && p > 1 && (p & (p - 1)) == 0) {
      sm.shape = Shape::ShiftRight;
      sm.k = 0;
      while ((static_cast<int128>(1) << sm.k) < p)
        ++sm.k;
      return sm;
    }
  }
  // v = e / 2^k on a signed e: C's division, rounding toward zero (truncDiv's form).
  if (v->kind == smt::Kind::Ite && v->kids[2]->kind == smt::Kind::Div && v->kids[2]->kids[0] == e) {
    int128 p;
    if (tc_.isConst(v->kids[2]->kids[1], &p) && p > 1 && (p & (p - 1)) == 0 && truncDiv(e, v->kids[2]->kids[1]) == v) {
      sm.shape = Shape::ShiftRight;
      sm.trunc = true;
      sm.k = 0;
      while ((static_cast<int128>(1) << sm.k) < p)
        ++sm.k;
      return sm;
    }
  }
  if (v->kind == smt::Kind::Mul && v->kids.size() == 2 && v->kids[1] == e) {
    int128 p;
    if (tc_.isConst(v->kids[0], &p) && p > 1 && (p & (p - 1)) == 0) {
      sm.shape = Shape::ShiftLeft;
      sm.k = 0;
      while ((static_cast<int128>(1) << sm.k) < p)
        ++sm.k;
      return sm;
    }
  }
  return sm;
}

// An int variable set under exactly the condition on which a max (min) fold's variable
// takes a new candidate: the index of that candidate (argmax).
void Exec::findArgExtremum(std::map<int, Summary> &summary, const std::map<int, Term> &entrySym, const State &end,
                           uint32_t watermark, const std::set<Term> &entryIds) {
  for (auto &[v, sm] : summary) {
    Term ev = entrySym.count(v) ? entrySym.at(v) : nullptr;
    Term vt = end.vars[v].t;
    if (sm.shape != Shape::Havoc || !ev || !k_.vars[v].type.isInt() || !vt || vt->kind != smt::Kind::Ite ||
        vt->kids[2] != ev || tc_.mentions(vt->kids[1], ev))
      continue;
    Term c = vt->kids[0];
    for (auto &[w, sw] : summary) {
      Term wt = end.vars[w].t, ew = entrySym.count(w) ? entrySym.at(w) : nullptr;
      if (sw.shape != Shape::Extremum || !wt || wt->kind != smt::Kind::Ite || wt->kids[0] != c || wt->kids[2] != ew ||
          wt->kids[1] != sw.step || (c->kind != smt::Kind::Lt && c->kind != smt::Kind::Le))
        continue;
      // max: c is ew < d (ew <= d); min: d < ew (d <= ew).
      bool mx = c->kids[0] == ew && c->kids[1] == sw.step;
      bool mn = c->kids[1] == ew && c->kids[0] == sw.step;
      if (!(sw.isMax ? mx : mn))
        continue;
      std::vector<Term> syms;
      tc_.collectSymbols(vt->kids[1], syms);
      bool ok = true;
      for (Term x : syms)
        if (x->kind == smt::Kind::Var && x->id > watermark && !entryIds.count(x))
          ok = false;
      for (auto &[u, eu] : entrySym)
        if (u != v && tc_.mentions(vt->kids[1], eu) &&
            (summary[u].shape == Shape::Havoc || summary[u].shape == Shape::Accumulate ||
             summary[u].shape == Shape::Product || summary[u].shape == Shape::Extremum))
          ok = false;
      if (!ok)
        break;
      sm.shape = Shape::ArgExtremum;
      sm.step = vt->kids[1];
      sm.keyVar = w;
      sm.isMax = sw.isMax;
      sm.strict = c->kind == smt::Kind::Lt;
      break;
    }
  }
}

// The state at iteration i (after i iterations) of the loop entered in state s.
State Exec::stateAt(const State &s, LoopFacts &f, Term i, const std::string &why) {
  State r = s;
  forgetLocals(r, f.localsStored, f.anyStored);
  auto counters = [&](Term j) {
    return std::vector<std::pair<Term, Term>>{{f.bcEntry, valueAt(f.bcSum, s.bc, j, "bc", Sort::Int)},
                                              {f.wcEntry, valueAt(f.wcSum, s.wc, j, "wc", Sort::Int)},
                                              {f.gcEntry, valueAt(f.gcSum, s.gc, j, "gc", Sort::Int)}};
  };
  for (int v : f.modified) {
    if (k_.vars[v].type.isPtr()) {
      r.vars[v] = {nullptr, -2, tc_.intConst(0)};
      continue;
    }
    const Summary &sm = f.summary[v];
    if (sm.shape == Shape::Rescaled)
      continue; // below, once the variable it is relative to is known
    if (sm.shape == Shape::Accumulate || sm.shape == Shape::Product || sm.shape == Shape::Extremum ||
        sm.shape == Shape::ArgExtremum) {
      r.vars[v] = {accumulated(v, sm, s, i, f.summary, f.entrySym, counters)};
      continue;
    }
    if (sm.shape == Shape::Havoc && k_.vars[v].name.find('.') == std::string::npos)
      abstraction("loop-carried variable '" + k_.vars[v].name + "' summarised as unknown");
    Term val = valueAt(sm, s.vars[v].t ? s.vars[v].t : tc_.intConst(0), i, k_.vars[v].name,
                       sortOf(k_.vars[v].type), &k_.vars[v].type);
    if (sm.shape == Shape::Havoc && k_.vars[v].type.isInt() && !dry_)
      out_.facts.push_back(tc_.inRange(val, k_.vars[v].type.minValue(), k_.vars[v].type.maxValue()));
    r.vars[v] = {val};
  }
  for (int v : f.modified)
    if (f.summary[v].shape == Shape::Rescaled)
      r.vars[v] = {rescaled(v, f.summary[v], s, r, i, f.summary, f.entrySym, counters)};
  r.bc = valueAt(f.bcSum, s.bc, i, "bc", Sort::Int);
  r.wc = valueAt(f.wcSum, s.wc, i, "wc", Sort::Int);
  r.gc = valueAt(f.gcSum, s.gc, i, "gc", Sort::Int);
  if (f.bcSum.shape == Shape::Havoc && !dry_)
    out_.facts.push_back(tc_.le(s.bc, r.bc));
  (void)why;
  return r;
}

// A counted loop's iterations are below its closed-form trip count: bounding the
// iteration symbol by the count's largest value lets the simplifier see that indices
// such as `c = t + 256 i` stay in range (no wrap-around in unsigned arithmetic). Only
// reached iterations are ever described by i, so the bound loses no behaviour.
// The count's largest value, or -1 when the loop has no closed-form count.
int128 Exec::tripBound(const ir::Stmt &L, const State &s, LoopFacts &f) {
  int128 maxTrips = -1;
  if (!f.irregular && L.testFirst && L.pre.empty()) {
    bool savedDry = dry_;
    dry_ = true;
    auto saved = pendingExits_;
    uint32_t mark = tc_.fresh("watermark", Sort::Bool)->id;
    Term n0 = fresh("trips", Sort::Int);
    State probe = stateAt(s, f, n0, "bound");
    Term cn = eval(*L.cond, probe, probe.pc);
    Term closed = tripCount(cn, n0, mark);
    if (!closed)
      closed = constantTripCount(cn, n0);
    pendingExits_ = saved;
    dry_ = savedDry;
    if (closed) {
      auto [lo, hi] = tc_.range(closed);
      if (hi < (static_cast<int128>(1) << 62))
        maxTrips = hi;
    } else {
      maxTrips = f.testFalseFrom = testFailsFrom(cn, n0);
    }
  }
  return maxTrips;
}

// For a loop without a closed-form count whose test depends on the count n only through the
// cases of doubling or halving variables (n == 0, ..., n == 63): the least c such that the
// test after c' iterations is false, by the ranges of what it reads, for every c' >= c; -1
// when there is none. The loop then runs at most c times: `for (s = 1; s < blockDim.x; s *= 2)`
// at most 10 (s = 2^10 >= 1024 >= blockDim.x), `for (s = blockDim.x / 2; s > 0; s >>= 1)` too.
// Every count past 63 makes the same cases false, so the test at 64 stands for all of them.
int128 Exec::testFailsFrom(Term cn, Term n) {
  std::unordered_set<Term> seen;
  std::function<bool(Term)> onlyCases = [&](Term t) {
    if (t == n)
      return false;
    if (!seen.insert(t).second)
      return true;
    if (t->kind == smt::Kind::Eq && (t->kids[0] == n || t->kids[1] == n)) {
      int128 c;
      return tc_.isConst(t->kids[0] == n ? t->kids[1] : t->kids[0], &c) && c < 64;
    }
    for (Term k : t->kids)
      if (!onlyCases(k))
        return false;
    return true;
  };
  if (!tc_.mentions(cn, n) || !onlyCases(cn))
    return -1;
  int128 from = -1;
  for (int c = 64; c >= 0; --c) {
    if (tc_.substitute(cn, {{n, tc_.intConst(c)}}) != tc_.fls())
      break;
    from = c;
  }
  return from;
}

// The recorded pass at a symbolic iteration i (returned), which also checks the summaries found
// assuming no wrap-around.
Term Exec::recordedPass(const ir::Stmt &L, const State &s, LoopFacts &f, int128 maxTrips) {
  Term i = fresh("iter", Sort::Int);
  if (maxTrips >= 1)
    tc_.setBounds(i, 0, maxTrips - 1);
  State atI = stateAt(s, f, i, "iteration");
  atI.pc = tc_.mkAnd(s.pc, tc_.le(tc_.intConst(0), i));
  Term still = f.irregular ? fresh("running", Sort::Bool) : tc_.tru();
  Term extra = still;
  if (L.testFirst) {
    // Reaching iteration i > 0 needs the test before iteration i-1 to have held.
    Term cp = testOn(L, stateAt(s, f, tc_.sub(i, tc_.intConst(1)), "prev"));
    extra = tc_.mkAnd(still, tc_.mkOr(tc_.eq(i, tc_.intConst(0)), cp));
  }
  if (!L.testFirst) {
    // A do-while body runs at iteration i if i == 0 or the test after iteration i-1 held;
    // that test is evaluated on the state at i (after the previous step).
    Term c = testOn(L, stateAt(s, f, i, "probe"));
    extra = tc_.mkAnd(still, tc_.mkOr(tc_.eq(i, tc_.intConst(0)), c));
  }
  if (L.testFirst && L.pre.empty() && L.cond && L.cond->op == ir::Op::Ne) {
    // A `j != n` test: no earlier iteration met the end either (neverZeroThrough). (Probed
    // dry: the probe's own symbols add no facts.)
    uint32_t mark = tc_.fresh("watermark", Sort::Bool)->id;
    bool savedDry = dry_;
    dry_ = true;
    State probe = stateAt(s, f, i, "probe");
    dry_ = savedDry;
    Term c = testOn(L, probe);
    if (Term never = neverZeroThrough(c, i, mark))
      extra = tc_.mkAnd(extra, never);
  }
  iters_.push_back(i);
  auto savedExits = pendingExits_;
  Term cond;
  State endI = iteration(L, atI, cond, f.afterBody, true, extra);
  if (!dry_)
    for (int v : f.modified) {
      const Summary &sm = f.summary[v];
      if ((sm.shape != Shape::Affine && sm.shape != Shape::ShiftLeft) || !sm.validate)
        continue;
      Term next = sm.shape == Shape::Affine ? tc_.add(atI.vars[v].t, sm.step)
                                            : tc_.mul(tc_.intConst(static_cast<int128>(1) << sm.k), atI.vars[v].t);
      Term ok = tc_.eq(endI.vars[v].t, next);
      if (ok != tc_.tru())
        out_.summaries.push_back({L.loc, k_.vars[v].name, endI.pc, ok});
    }
  iters_.pop_back();
  pendingExits_ = savedExits;
  return i;
}

// The state after the loop entered in state s; i is the recorded pass's iteration symbol.
State Exec::afterLoop(const ir::Stmt &L, const State &s, ir::SyncLevel next, LoopFacts &f, Term i) {
  uint32_t exitMark = tc_.fresh("watermark", Sort::Bool)->id;
  Term n = fresh("trips", Sort::Int);
  if (f.testFalseFrom >= 0 && !f.irregular)
    tc_.setBounds(n, 0, f.testFalseFrom);
  State after = stateAt(s, f, n, "exit");
  Term exitCond = tc_.le(tc_.intConst(0), n);
  if (!f.irregular) {
    Term cn = testOn(L, after);
    std::pair<Term, Term> test{nullptr, nullptr};
    Term closed = L.testFirst && L.pre.empty() ? tripCount(cn, n, exitMark, &test) : nullptr;
    if (test.first && !dry_) // (also without a closed form: a slope known only to be positive)
      out_.tripTests[i] = test;
    if (!closed && L.testFirst && L.pre.empty())
      closed = constantTripCount(cn, n);
    bool counted = closed != nullptr;
    if (closed) {
      // A counted loop: n is the closed form (the exit conditions below then hold), and
      // its iteration i runs exactly when i < n.
      n = closed;
      if (!dry_)
        out_.trips[i] = closed;
      exitCond = tc_.le(tc_.intConst(0), n);
      after = stateAt(s, f, n, "exit");
      cn = testOn(L, after); // (pre is empty: a counted loop)
    }
    exitCond = tc_.mkAnd(exitCond, tc_.mkNot(cn));
    if (!L.testFirst)
      exitCond = tc_.mkAnd(exitCond, tc_.le(tc_.intConst(1), n));
    // The test also held before the last iteration.
    Term cp = testOn(L, stateAt(s, f, tc_.sub(n, tc_.intConst(1)), "prev"));
    if (L.testFirst)
      exitCond = tc_.mkAnd(exitCond, tc_.mkOr(tc_.eq(n, tc_.intConst(0)), cp));
    if (!dry_ && !counted) { // (a closed-form count needs no termination assumption)
      out_.exits.emplace_back(n, exitCond);
      out_.uncountedLoops = true;
    }
    if (!dry_ && counted)
      for (Term c : smt::conjuncts(exitCond))
        if (c != tc_.tru())
          out_.countedExits.push_back(c);
    // The state after the loop is the state at n after running `pre` once more.
    after.pc = tc_.mkAnd(s.pc, exitCond);
    block(L.pre, after, next);
    after.pc = tc_.mkAnd(s.pc, exitCond);
  } else {
    abstraction("loop with break/return: state after it summarised as unknown");
    if (!dry_)
      out_.uncountedLoops = true;
    for (int v : f.modified)
      if (!k_.vars[v].type.isPtr()) {
        after.vars[v] = {fresh("afterloop." + k_.vars[v].name, sortOf(k_.vars[v].type))};
        if (k_.vars[v].type.isInt() && !dry_)
          out_.facts.push_back(tc_.inRange(after.vars[v].t, k_.vars[v].type.minValue(),
                                           k_.vars[v].type.maxValue()));
      }
    after.bc = fresh("afterloop.bc", Sort::Int);
    after.wc = fresh("afterloop.wc", Sort::Int);
    after.gc = fresh("afterloop.gc", Sort::Int);
    if (!dry_) {
      out_.facts.push_back(tc_.le(s.bc, after.bc));
      out_.facts.push_back(tc_.le(s.wc, after.wc));
      out_.facts.push_back(tc_.le(s.gc, after.gc));
    }
    Term leftEarly = fresh("returned", Sort::Bool);
    for (int l : f.outer) {
      State ex = after;
      ex.pc = tc_.mkAnd(s.pc, leftEarly);
      pendingExits_[l].push_back(ex);
    }
    after.pc = f.outer.empty() ? s.pc : tc_.mkAnd(s.pc, tc_.mkNot(leftEarly));
  }
  return after;
}

} // namespace ksynth::check::detail
