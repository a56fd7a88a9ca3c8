// Safety checker: concrete replay of a solver model and the query driver.

#include "verify/check/checker_internal.h"

#include <algorithm>
#include <map>
#include <regex>
#include <set>

namespace ksynth::check::checker_detail {

// ---- concrete replay ------------------------------------------------------------------

interp::Env Checker::envFrom(const smt::Assignment &m) {
  interp::Env env;
  auto num = [&](Term t, int64_t dflt) -> int64_t {
    auto v = smt::eval(t, m);
    return v ? static_cast<int64_t>(v->num / v->den) : dflt;
  };
  for (int d = 0; d < 3; ++d) {
    env.block[d] = num(g_.blockDim[d], 1);
    env.grid[d] = num(g_.gridDim[d], 1);
  }
  for (auto &[id, t] : g_.params) {
    interp::Value v;
    auto x = smt::eval(t, m);
    if (k_.vars[id].type.isFloat()) {
      v.kind = interp::Value::Kind::Float;
      v.f = x ? static_cast<double>(x->num) / static_cast<double>(x->den) : 0.0;
    } else {
      v.i = x ? x->num : 0;
    }
    env.params[id] = v;
  }
  for (auto &[id, t] : g_.lens)
    if (mentionsLen(k_, id) || !opts_.assumes.empty())
      env.lens[id] = num(t, 0);
  for (const ThreadModel *tm : {&m1_, &m2_})
    for (const LoadSym &l : tm->loads) {
      auto f = smt::eval(l.flat, m);
      auto v = smt::eval(l.sym, m);
      if (!f || !v)
        continue;
      interp::Value val;
      if (l.sym->sort == Sort::Real) {
        val.kind = interp::Value::Kind::Float;
        val.f = static_cast<double>(v->num) / static_cast<double>(v->den);
      } else {
        val.i = v->num;
      }
      env.memory.emplace(std::make_pair(l.array, static_cast<int64_t>(f->num)), val);
    }
  return env;
}

interp::ThreadId Checker::threadFrom(const ThreadSyms &t, const smt::Assignment &m) {
  interp::ThreadId id;
  for (int d = 0; d < 3; ++d) {
    auto tv = smt::eval(t.tid[d], m);
    auto bv = smt::eval(t.bid[d], m);
    id.thread[d] = tv ? static_cast<int64_t>(tv->num) : 0;
    id.block[d] = bv ? static_cast<int64_t>(bv->num) : 0;
  }
  return id;
}

std::string Checker::threadText(const interp::ThreadId &id, const interp::Env &env) {
  auto d3 = [](const interp::Dim3 &d, const interp::Dim3 &extent) {
    if (extent.y == 1 && extent.z == 1)
      return std::to_string(d.x);
    return "(" + std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z) + ")";
  };
  return "thread " + d3(id.thread, env.block) + " of block " + d3(id.block, env.grid);
}

nlohmann::json Checker::witnessJson(const interp::Env &env, const std::vector<interp::ThreadId> &threads) {
  nlohmann::json w;
  w["blockDim"] = {env.block.x, env.block.y, env.block.z};
  w["gridDim"] = {env.grid.x, env.grid.y, env.grid.z};
  nlohmann::json params = nlohmann::json::object();
  for (auto &[id, v] : env.params)
    params[k_.vars[id].name] = v.kind == interp::Value::Kind::Float ? nlohmann::json(v.f)
                                                                   : nlohmann::json(static_cast<int64_t>(v.i));
  w["params"] = params;
  nlohmann::json lens = nlohmann::json::object();
  for (auto &[id, n] : env.lens)
    lens[k_.arrays[id].name] = n;
  if (!lens.empty())
    w["lengths"] = lens;
  nlohmann::json th = nlohmann::json::array();
  for (const auto &t : threads)
    th.push_back({{"block", {t.block.x, t.block.y, t.block.z}}, {"thread", {t.thread.x, t.thread.y, t.thread.z}}});
  w["threads"] = th;
  // Initial memory the replay relied on (cells not listed are 0).
  nlohmann::json mem = nlohmann::json::array();
  for (auto &[key, v] : env.memory)
    if (k_.arrays[key.first].space != ir::Space::Local)
      mem.push_back({{"array", k_.arrays[key.first].name}, {"index", key.second},
                     {"value", v.kind == interp::Value::Kind::Float ? nlohmann::json(v.f)
                                                                    : nlohmann::json(static_cast<int64_t>(v.i))}});
  if (!mem.empty())
    w["memory"] = mem;
  w["replayed"] = true;
  return w;
}

std::string Checker::sizesText(const interp::Env &env) {
  std::string s;
  for (auto &[id, v] : env.params)
    if (v.kind == interp::Value::Kind::Int)
      s += (s.empty() ? "" : ", ") + k_.vars[id].name + "=" + smt::toString(v.i);
  for (auto &[id, n] : env.lens)
    s += (s.empty() ? "" : ", ") + std::string("__len(") + k_.arrays[id].name + ")=" + std::to_string(n);
  std::string launch = "blockDim=(" + std::to_string(env.block.x) + "," + std::to_string(env.block.y) + "," +
                       std::to_string(env.block.z) + ") gridDim=(" + std::to_string(env.grid.x) + "," +
                       std::to_string(env.grid.y) + "," + std::to_string(env.grid.z) + ")";
  return s.empty() ? launch : launch + ", " + s;
}

// Values of the named variables that occur in an access's text, e.g. "t=3, st=4".
std::string Checker::varsIn(const std::string &text, const interp::Event &ev) {
  std::string out;
  std::set<std::string> seen;
  for (auto &[id, v] : ev.vars) {
    const std::string &n = k_.vars[id].name;
    if (n.find('.') != std::string::npos || seen.count(n) || v.kind != interp::Value::Kind::Int)
      continue;
    std::regex word("\\b" + n + "\\b");
    if (std::regex_search(text, word)) {
      seen.insert(n);
      out += (out.empty() ? "" : ", ") + n + "=" + smt::toString(v.i);
    }
  }
  return out;
}

std::string Checker::iterText(const interp::Event &ev, const std::string &text) {
  std::string v = varsIn(text, ev);
  std::string it;
  for (auto &[label, n] : ev.iterations)
    it += (it.empty() ? "" : ",") + std::to_string(n);
  std::string s;
  if (!it.empty())
    s += " in loop iteration " + it;
  if (!v.empty())
    s += " (" + v + ")";
  return s;
}

// ---- query driver -------------------------------------------------------------------

// Facts about products of symbolic terms that nonlinear solvers miss: for products F*X1 and
// F*X2 with a common factor F, F >= 0 and X1 >= X2 + 1 imply F*X1 >= F*X2 + F. This is what
// separates grid-stride iterations (i + k*stride) and row-major rows (r*N + c). And for a
// constant m that the query takes remainders by, F mod m = 0 implies F*X mod m = 0. Every
// lemma is a true statement about integers, so adding it never changes what is provable.
void Checker::addBackground(Term f) {
  background_.push_back(f);
  solver_.addBackground(f);
}

Term Checker::productLemmas(Term goal) {
  std::vector<Term> prods, divs;
  std::set<int128> moduli; // constant m of every (mod t m), m >= 2
  std::set<Term> seen;
  std::vector<Term> todo = background_;
  todo.push_back(goal);
  while (!todo.empty()) {
    Term t = todo.back();
    todo.pop_back();
    if (!seen.insert(t).second)
      continue;
    if (t->kind == smt::Kind::Mod && t->kids.size() == 2 && t->kids[1]->kind == smt::Kind::Const &&
        t->kids[1]->num >= 2 && moduli.size() < 4)
      moduli.insert(t->kids[1]->num);
    if (t->kind == smt::Kind::Div && t->sort == Sort::Int && t->kids.size() == 2 &&
        t->kids[1]->kind != smt::Kind::Const && divs.size() < 16)
      divs.push_back(t);
    if (t->kind == smt::Kind::Mul && t->sort == Sort::Int) {
      int nonConst = 0;
      for (Term k : t->kids)
        nonConst += k->kind != smt::Kind::Const;
      if (nonConst >= 2)
        prods.push_back(t);
    }
    for (Term k : t->kids)
      todo.push_back(k);
  }
  // (product, common factor, the other factor); by the factor's creation number, so the
  // lemmas (and the dumped query) come out in the same order on every run.
  std::map<Term, std::vector<std::pair<Term, Term>>, smt::TermById> byFactor;
  for (Term p : prods)
    for (size_t i = 0; i < p->kids.size(); ++i) {
      Term f = p->kids[i];
      if (f->kind == smt::Kind::Const)
        continue;
      Term x = tc_.intConst(1);
      for (size_t j = 0; j < p->kids.size(); ++j)
        if (j != i)
          x = tc_.mul(x, p->kids[j]);
      byFactor[f].push_back({p, x});
    }
  std::vector<Term> lemmas;
  // A multiple of m times anything is a multiple of m (row * C is even when C is: the
  // alignment of a vector view of a row).
  for (auto &[f, ps] : byFactor)
    for (int128 m : moduli) {
      Term mt = tc_.intConst(m), zero = tc_.intConst(0);
      Term fDiv = tc_.eq(tc_.mod(f, mt), zero);
      for (size_t a = 0; a < ps.size() && lemmas.size() < 200; ++a)
        lemmas.push_back(tc_.implies(fDiv, tc_.eq(tc_.mod(ps[a].first, mt), zero)));
    }
  for (auto &[f, ps] : byFactor)
    for (size_t a = 0; a < ps.size() && lemmas.size() < 400; ++a)
      for (size_t b = a + 1; b < ps.size(); ++b) {
        auto [p1, x1] = ps[a];
        auto [p2, x2] = ps[b];
        Term fPos = tc_.le(tc_.intConst(0), f);
        lemmas.push_back(tc_.implies(tc_.mkAnd(fPos, tc_.le(tc_.add(x2, tc_.intConst(1)), x1)),
                                     tc_.le(tc_.add(p2, f), p1)));
        lemmas.push_back(tc_.implies(tc_.mkAnd(fPos, tc_.le(tc_.add(x1, tc_.intConst(1)), x2)),
                                     tc_.le(tc_.add(p1, f), p2)));
      }
  // Quotients by a symbolic divisor, as in a flat index split into coordinates
  // (`n = idx / OW / OH / C` below `idx < B * C * OH * OW`): N >= 1 and 0 <= x < A * N give
  // 0 <= x div N < A; each new bound A that is a product bounds the next quotient.
  Term one = tc_.intConst(1), zero = tc_.intConst(0);
  for (Term q : divs)
    lemmas.push_back(tc_.implies(tc_.mkAnd(tc_.le(one, q->kids[1]), tc_.le(zero, q->kids[0])), tc_.le(zero, q)));
  std::vector<Term> bounds = prods;
  for (size_t u = 0; u < bounds.size() && u < 64 && lemmas.size() < 480; ++u)
    for (Term q : divs) {
      Term A;
      if (!check::factorOut(tc_, bounds[u], q->kids[1], A))
        continue;
      Term x = q->kids[0], N = q->kids[1];
      lemmas.push_back(tc_.implies(tc_.mkAnd({tc_.le(one, N), tc_.le(zero, x), tc_.lt(x, bounds[u])}), tc_.lt(q, A)));
      if (A->kind == smt::Kind::Mul && std::find(bounds.begin(), bounds.end(), A) == bounds.end())
        bounds.push_back(A);
    }
  return tc_.mkAnd(lemmas);
}

// Asks whether any candidate can happen; replays each model; excludes candidates whose
// witness does not replay and asks again (a bounded number of times).
void Checker::settle(Obligation &o, std::vector<Candidate> &cands) {
  if (cands.empty())
    o.status = Status::Proven;
  else
    decide(o, cands);
  rep_.obligations.push_back(o);
}

Candidate Checker::oneThreadCandidate(
    Term cond, std::function<bool(const interp::Event &)> matches,
    std::function<void(const interp::Event &, const interp::Env &, const interp::ThreadId &, Obligation &)> report,
    std::string heldWhy) {
  return {cond, [=, this](const smt::Assignment &m, Obligation &ob, std::string &why) {
            interp::Env env = envFrom(m);
            interp::ThreadId i1 = threadFrom(t1_, m);
            // Only the fault is sought: no loads and stores recorded, and the run ends at the
            // first one that replays (the model's sizes may make the thread's loops long).
            interp::Env run = env;
            run.recordAccesses = false;
            run.stopAt = [&](const interp::Event &e) { return e.taint.empty() && matches(e); };
            interp::Trace tr = interp::runThread(k_, run, i1);
            bool tainted = false;
            for (const interp::Event &e : tr.events) {
              if (!matches(e))
                continue;
              if (!e.taint.empty()) {
                why = "depends on " + e.taint;
                tainted = true;
                continue;
              }
              ob.witness = witnessJson(env, {i1});
              report(e, env, i1, ob);
              ob.notes.push_back({{}, sizesText(env)});
              return true;
            }
            // The fault depends on what other threads hold (a value another lane shuffled to
            // it, a mask from a ballot): the thread's block is run whole, alone (the start of
            // a legal schedule: blocks may run in any order, the first on the launch's
            // memory), and the fault sought among its threads'. What the launch's inputs hold
            // stays a taint there (a read of a global cell the launch has not written): a
            // fault that needs particular input contents is not refuted this way either, and
            // a kernel without shared memory (warp exchanges included) is not run so.
            bool shares = false;
            for (const ir::Array &a : k_.arrays)
              shares |= a.space == ir::Space::Shared;
            if (tainted && shares) {
              interp::Env blk = env;
              blk.onlyBlock = i1.block;
              blk.maxGridSteps = 20'000'000;
              for (size_t a = 0; a < k_.arrays.size(); ++a)
                if (k_.arrays[a].space == ir::Space::Global || k_.arrays[a].space == ir::Space::Constant)
                  blk.poisoned.insert(static_cast<int>(a));
              interp::GridRun gr = interp::runGrid(k_, blk);
              for (const interp::Fault &f : gr.faults) {
                if (!matches(f.event) || !f.event.taint.empty())
                  continue;
                ob.witness = witnessJson(env, {f.thread});
                report(f.event, env, f.thread, ob);
                ob.notes.push_back({{}, "found when the block of " + threadText(f.thread, env) +
                                            " ran whole (its threads' values exchanged); " + sizesText(env)});
                return true;
              }
            }
            if (why.empty())
              why = heldWhy + (tr.stopReason.empty() ? std::string() : " (" + tr.stopReason + ")");
            return false;
          }};
}

void Checker::decide(Obligation &o, std::vector<Candidate> &cands) {
  std::vector<bool> excluded(cands.size(), false);
  std::string lastWhy;
  int largerTries = 0; // confirmLarger() for the first two candidates that do not replay
  for (int round = 0; round < 8; ++round) {
    std::vector<Term> live;
    for (size_t i = 0; i < cands.size(); ++i)
      if (!excluded[i])
        live.push_back(cands[i].cond);
    Term goal = tc_.mkOr(live);
    goal = tc_.mkAnd(goal, productLemmas(goal));
    // The first question is the obligation's query (dumped); later ones exclude candidates
    // that did not replay and are search steps.
    // With many sites, the combined query gets a shorter limit: if it is hard, each site
    // alone (below) usually is not. With 16 or more, 0.6 s: the scan of HeCBench has 120
    // sites whose parts took 0.7 s in all, after a combined query that did not end in 3 s
    // (the 40 instances of its file could not all be verified in 20 s).
    unsigned limit = solver_.timeout();
    bool manySites = round == 0 && cands.size() >= 4 && cands.size() <= 128;
    if (manySites)
      solver_.setTimeout(std::min(limit, cands.size() >= 16 ? 600u : 3000u));
    smt::Result r = round == 0 ? solver_.check(goal, obligationQuery(o))
                               : solver_.check(goal, {k_.name + "." + o.name + ".again" + std::to_string(round), {}});
    solver_.setTimeout(limit);
    std::string combinedFile = round == 0 ? solver_.lastRecord()->file : std::string();
    if (!combinedFile.empty())
      o.queries.push_back(combinedFile);
    o.ms += r.ms;
    if (r.status == smt::Status::Unsat) {
      if (round == 0) {
        o.status = Status::Proven;
        return;
      }
      o.status = Status::Unknown;
      o.reason = "candidate violations exist only under over-approximations and did not replay concretely (" +
                 lastWhy + ")";
      return;
    }
    if (r.status == smt::Status::Unknown && round == 0 && cands.size() > 1 && cands.size() <= 128) {
      // The disjunction of every site was too hard: each site alone is a smaller query. The
      // obligation holds when every part is unsat; a part that is sat goes to the replay below.
      std::string why;
      if (!combinedFile.empty()) // it timed out: not a step of any proof
        o.queries.pop_back();
      if (splitByCandidate(o, cands, excluded, why)) {
        if (o.status == Status::Proven)
          return;
        continue; // a part is sat: ask again for the parts not shown impossible, and replay
      }
      r.reason += "; " + why;
    }
    if (r.status == smt::Status::Unknown) {
      o.status = Status::Unknown;
      o.reason = r.reason.empty() ? "solver returned unknown" : r.reason;
      if (!lastWhy.empty())
        o.reason += "; an earlier candidate did not replay (" + lastWhy + ")";
      return;
    }
    smt::Assignment model = smallModel(goal, r.model);
    bool progressed = false;
    for (size_t i = 0; i < cands.size(); ++i) {
      if (excluded[i])
        continue;
      auto holds = smt::eval(cands[i].cond, model);
      if (!holds || !holds->num)
        continue;
      progressed = true;
      std::string why;
      if (std::string broken = violatedPrecondition(model); !broken.empty()) {
        // A model outside the preconditions is no witness (the queries assert them; a model
        // that breaks one means an encoding lost it): never reported as a refutation.
        lastWhy = "the solver's model breaks the precondition " + broken;
        excluded[i] = true;
        break;
      }
      if (cands[i].confirm(model, o, why)) {
        o.status = Status::Refuted;
        return;
      }
      // The small model may be too small to show it (a tile loop that runs no iteration while
      // n < 32): models with the sizes just past 32 and 256.
      if (largerTries++ < 2 && confirmLarger(cands[i], tc_.mkAnd(goal, cands[i].cond), o)) {
        o.status = Status::Refuted;
        return;
      }
      lastWhy = why;
      excluded[i] = true;
      break;
    }
    if (!progressed) {
      o.status = Status::Unknown;
      o.reason = "could not evaluate the solver's model (internal: abstraction values missing)";
      return;
    }
  }
  o.status = Status::Unknown;
  o.reason = "several candidate violations did not replay concretely (" + lastWhy + ")";
}

// Second tries for a candidate whose small model did not replay: models of `cond` with every
// integer parameter in [33, 64], then in [257, 288] (lengths at least as large, up to 2^24),
// each asked with a short limit. Sizes just past a tile or a block are where a kernel that
// is right below them goes wrong; they stay small enough to replay quickly (the solver's own
// model may have sizes in the billions). Search steps only: true when one of them replays.
bool Checker::confirmLarger(Candidate &cand, Term cond, Obligation &o) {
  std::vector<Term> params = sizeSymbols(false), lens;
  for (auto &[id, t] : g_.lens)
    lens.push_back(t);
  if (params.empty())
    return false;
  unsigned limit = solver_.timeout();
  solver_.setTimeout(std::max(1u, std::min(limit / 5, 2000u)));
  bool found = false;
  for (int128 lo : {33, 257}) {
    std::vector<Term> cs{cond};
    for (Term t : params)
      cs.push_back(tc_.mkAnd(tc_.ge(t, tc_.intConst(lo)), tc_.le(t, tc_.intConst(lo + 31))));
    for (Term t : lens)
      cs.push_back(tc_.mkAnd(tc_.ge(t, tc_.intConst(lo)), tc_.le(t, tc_.intConst(int128{1} << 24))));
    smt::Result r = solver_.check(tc_.mkAnd(cs), {k_.name + "." + o.name + ".larger", {}});
    o.ms += r.ms;
    std::string why;
    auto holds = r.status == smt::Status::Sat ? smt::eval(cand.cond, r.model) : std::nullopt;
    if (holds && holds->num && violatedPrecondition(r.model).empty() && cand.confirm(r.model, o, why)) {
      found = true;
      break;
    }
  }
  solver_.setTimeout(limit);
  return found;
}

// After the disjunction of an obligation's candidates timed out: each candidate alone. Every
// part unsat proves the obligation (its query files replace the combined one, which is not a
// step of the proof); a part the solver cannot decide ends the split (false, `why` says which);
// a sat part ends it too (true), with the parts shown impossible excluded so that the caller
// asks again for the rest and replays the model.
bool Checker::splitByCandidate(Obligation &o, std::vector<Candidate> &cands, std::vector<bool> &excluded,
                               std::string &why) {
  std::vector<std::string> files;
  for (size_t i = 0; i < cands.size(); ++i) {
    if (excluded[i])
      continue;
    Term goal = tc_.mkAnd(cands[i].cond, productLemmas(cands[i].cond));
    if (cands[i].hints)
      goal = tc_.mkAnd(goal, cands[i].hints);
    std::string name = k_.name + "." + o.name + ".part" + std::to_string(i + 1);
    std::string header = "ksynth query " + k_.name + "." + o.name + ", part " + std::to_string(i + 1) + " of " +
                         std::to_string(cands.size()) + " (" + kindName(o.kind) +
                         ")\nunsat means this one of the obligation's candidate violations cannot happen; the "
                         "obligation holds when every part is unsat" +
                         (o.loc.valid() ? "\nsource: line " + std::to_string(o.loc.line) : std::string());
    smt::Result r = solver_.check(goal, {name, [header](smt::Status) { return header + kRunWith; }});
    o.ms += r.ms;
    if (r.status == smt::Status::Unknown && cands[i].hints) { // the hints may be what is slow
      goal = tc_.mkAnd(cands[i].cond, productLemmas(cands[i].cond));
      r = solver_.check(goal, {name, [header](smt::Status) { return header + kRunWith; }});
      o.ms += r.ms;
    }
    if (getenv("KSYNTH_DEBUG_SPLIT")) // which site is slow, and its query
      fprintf(stderr, "%s part %zu of %zu: status %d in %.0f ms%s%s\n", o.name.c_str(), i + 1, cands.size(),
              static_cast<int>(r.status), static_cast<double>(r.ms), r.ms > 500 ? ": " : "",
              r.ms > 500 ? smt::show(goal, 100000).c_str() : "");
    if (r.status == smt::Status::Unsat) {
      excluded[i] = true;
      if (!solver_.lastRecord()->file.empty())
        files.push_back(solver_.lastRecord()->file);
      continue;
    }
    if (r.status == smt::Status::Sat)
      return true;
    why = "split by site, part " + std::to_string(i + 1) + " of " + std::to_string(cands.size()) + ": " +
          (r.reason.empty() ? "solver returned unknown" : r.reason);
    return false;
  }
  o.status = Status::Proven;
  o.queries.insert(o.queries.end(), files.begin(), files.end());
  return true;
}

// The text of a precondition (a spec assumption, --assume) that the model's sizes break, or
// empty when each holds or cannot be evaluated from the sizes alone.
std::string Checker::violatedPrecondition(const smt::Assignment &m) {
  interp::Env env = envFrom(m);
  for (const ir::ExprPtr &e : opts_.assumes) {
    interp::Value v;
    if (interp::evalConstExpr(k_, env, *e, v) && v.taint.empty() && v.kind == interp::Value::Kind::Int && v.i == 0)
      return e->text.empty() ? "(an assumption)" : "'" + e->text + "'";
  }
  return {};
}

// The kernel's integer parameters; with `all`, also the lengths of its pointer parameters and
// the launch's dimensions.
std::vector<Term> Checker::sizeSymbols(bool all) {
  std::vector<Term> out;
  for (auto &[id, t] : g_.params)
    if (t->sort == Sort::Int)
      out.push_back(t);
  if (!all)
    return out;
  for (auto &[id, t] : g_.lens)
    out.push_back(t);
  for (int d = 0; d < 3; ++d) {
    out.push_back(g_.gridDim[d]);
    out.push_back(g_.blockDim[d]);
  }
  return out;
}

// Prefers small sizes so the witness is readable and cheap to replay; first with every other
// integer of the goal small too (values loaded from memory, loop iterations), so that a
// witness whose index is a loaded value does not overflow where any small one would do.
smt::Assignment Checker::smallModel(Term goal, const smt::Assignment &model) {
  std::vector<Term> sizes = sizeSymbols(true);
  std::vector<Term> others;
  tc_.collectSymbols(goal, others);
  std::set<Term> isSize(sizes.begin(), sizes.end());
  std::erase_if(others, [&](Term t) { return t->sort != Sort::Int || isSize.count(t) || t->kind == smt::Kind::Const; });
  auto within = [&](const std::vector<Term> &ts, int128 bound, std::vector<Term> &cs) {
    for (Term s : ts)
      if (s->kind != smt::Kind::Const) {
        cs.push_back(tc_.le(s, tc_.intConst(bound)));
        if (s->sort == Sort::Int)
          cs.push_back(tc_.ge(s, tc_.intConst(-bound)));
      }
  };
  for (bool allSmall : {true, false}) {
    if (allSmall && others.empty())
      continue;
    for (int128 bound : {16, 256, 4096}) {
      std::vector<Term> cs{goal};
      within(sizes, bound, cs);
      if (allSmall)
        within(others, bound, cs);
      smt::Result r = solver_.check(tc_.mkAnd(cs), {k_.name + ".small-model", {}});
      if (r.status == smt::Status::Sat)
        return r.model;
    }
  }
  return model;
}

// The obligation's query: its name and what `unsat` establishes.
smt::Query Checker::obligationQuery(const Obligation &o) {
  std::string header = "ksynth query " + k_.name + "." + o.name + " (" + kindName(o.kind) +
                       ")\nunsat means the obligation holds for every admitted size and thread pair" +
                       (o.loc.valid() ? "\nsource: line " + std::to_string(o.loc.line) : std::string());
  return {k_.name + "." + o.name, [header](smt::Status) { return header + kRunWith; }};
}

Term Checker::distinctThreads() {
  std::vector<Term> ne;
  for (int d = 0; d < 3; ++d) {
    ne.push_back(tc_.ne(t1_.tid[d], t2_.tid[d]));
    ne.push_back(tc_.ne(t1_.bid[d], t2_.bid[d]));
  }
  return tc_.mkOr(ne);
}

Term Checker::sameBlock() {
  return tc_.mkAnd({tc_.eq(t1_.bid[0], t2_.bid[0]), tc_.eq(t1_.bid[1], t2_.bid[1]), tc_.eq(t1_.bid[2], t2_.bid[2])});
}

Term Checker::linearTid(const ThreadSyms &t) {
  return tc_.add(t.tid[0], tc_.mul(g_.blockDim[0], tc_.add(t.tid[1], tc_.mul(g_.blockDim[1], t.tid[2]))));
}

Term Checker::sameWarp() {
  return tc_.mkAnd(sameBlock(), tc_.eq(tc_.div(linearTid(t1_), tc_.intConst(32)),
                                       tc_.div(linearTid(t2_), tc_.intConst(32))));
}

} // namespace ksynth::check::checker_detail
