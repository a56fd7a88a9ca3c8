#include "verify/check/checker.h"

#include "verify/check/symexec.h"
#include "verify/interp/interp.h"
#include "verify/smt/solver.h"
#include "util/invariant.h"

#include <cassert>
#include <filesystem>
#include <fstream>
#include <functional>
#include <regex>
#include <set>
#include <sstream>

namespace ksynth::check {

using smt::int128;
using smt::Sort;
using smt::Term;
using smt::TermContext;

const char *kindName(Kind k) {
  switch (k) {
  case Kind::Race: return "race";
  case Kind::Barrier: return "barrier";
  case Kind::Bounds: return "bounds";
  case Kind::Overflow: return "overflow";
  case Kind::Assert: return "assert";
  case Kind::Coverage: return "coverage";
  case Kind::Equivalence: return "equivalence";
  case Kind::Assumptions: return "assumptions";
  }
  return "?";
}

bool kindFromName(const std::string &name, Kind &out) {
  for (Kind k : {Kind::Race, Kind::Barrier, Kind::Bounds, Kind::Overflow, Kind::Assert, Kind::Coverage,
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

namespace {

// A candidate violation inside a disjunctive query.
struct Candidate {
  Term cond;
  std::function<bool(const smt::Assignment &, Obligation &, std::string &why)> confirm;
};

class Checker {
public:
  Checker(const ir::Kernel &k, const Options &o)
      : k_(k), opts_(o), solver_(tc_, o.timeoutMs), ownLog_(o.dumpSmtDir) {
    solver_.setLog(o.log ? o.log : &ownLog_);
  }

  KernelReport run() {
    rep_.name = k_.name;
    g_ = makeGlobals(tc_, k_, opts_.block, opts_.grid, rep_.assumptions);
    {
      std::vector<Term> pre = g_.facts;
      for (const ir::ExprPtr &e : opts_.assumes)
        pre.push_back(evalUniform(tc_, k_, g_, *e));
      tightenBounds(tc_, pre);
    }
    t1_ = makeThread(tc_, g_, "t1");
    t2_ = makeThread(tc_, g_, "t2");
    m1_ = execute(tc_, k_, g_, t1_, "t1", opts_.wrapFreeSummaries);
    m2_ = execute(tc_, k_, g_, t2_, "t2", opts_.wrapFreeSummaries);
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
                            "loop variable '" + var + "' may wrap around: its closed form is not used");
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
        checkAsserts();
    }
    return finish();
  }

private:
  const ir::Kernel &k_;
  Options opts_;
  TermContext tc_;
  smt::Solver solver_;
  smt::QueryLog ownLog_; // when Options::log names none
  GlobalSyms g_;
  ThreadSyms t1_, t2_;
  ThreadModel m1_, m2_;
  KernelReport rep_;

  static Kind kindOf(const std::string &check) {
    Kind k = Kind::Assumptions;
    KSYNTH_INVARIANT(kindFromName(check, k), "a safety check's name is an obligation kind");
    return k;
  }

  std::vector<std::string> orderedChecks() {
    std::vector<std::string> out;
    for (const char *c : {"race", "barrier", "bounds", "overflow", "assert"})
      if (opts_.checks.count(c))
        out.push_back(c);
    return out;
  }

  std::vector<ir::StmtPtr> collectAssumeTexts() {
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

  void describeLaunch() {
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

  KernelReport finish() {
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

  // ---- concrete replay ------------------------------------------------------------------

  interp::Env envFrom(const smt::Assignment &m) {
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

  interp::ThreadId threadFrom(const ThreadSyms &t, const smt::Assignment &m) {
    interp::ThreadId id;
    for (int d = 0; d < 3; ++d) {
      auto tv = smt::eval(t.tid[d], m);
      auto bv = smt::eval(t.bid[d], m);
      id.thread[d] = tv ? static_cast<int64_t>(tv->num) : 0;
      id.block[d] = bv ? static_cast<int64_t>(bv->num) : 0;
    }
    return id;
  }

  static std::string threadText(const interp::ThreadId &id, const interp::Env &env) {
    auto d3 = [](const interp::Dim3 &d, const interp::Dim3 &extent) {
      if (extent.y == 1 && extent.z == 1)
        return std::to_string(d.x);
      return "(" + std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z) + ")";
    };
    return "thread " + d3(id.thread, env.block) + " of block " + d3(id.block, env.grid);
  }

  nlohmann::json witnessJson(const interp::Env &env, const std::vector<interp::ThreadId> &threads) {
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

  std::string sizesText(const interp::Env &env) {
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
  std::string varsIn(const std::string &text, const interp::Event &ev) {
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

  std::string iterText(const interp::Event &ev, const std::string &text) {
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
  // separates grid-stride iterations (i + k*stride) and row-major rows (r*N + c). Every
  // lemma is a true statement about integers, so adding it never changes what is provable.
  void addBackground(Term f) {
    background_.push_back(f);
    solver_.addBackground(f);
  }
  std::vector<Term> background_;

  Term productLemmas(Term goal) {
    std::vector<Term> prods;
    std::set<Term> seen;
    std::vector<Term> todo = background_;
    todo.push_back(goal);
    while (!todo.empty()) {
      Term t = todo.back();
      todo.pop_back();
      if (!seen.insert(t).second)
        continue;
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
    return tc_.mkAnd(lemmas);
  }

  // Asks whether any candidate can happen; replays each model; excludes candidates whose
  // witness does not replay and asks again (a bounded number of times).
  void decide(Obligation &o, std::vector<Candidate> &cands) {
    std::vector<bool> excluded(cands.size(), false);
    std::string lastWhy;
    for (int round = 0; round < 8; ++round) {
      std::vector<Term> live;
      for (size_t i = 0; i < cands.size(); ++i)
        if (!excluded[i])
          live.push_back(cands[i].cond);
      Term goal = tc_.mkOr(live);
      goal = tc_.mkAnd(goal, productLemmas(goal));
      // The first question is the obligation's query (dumped); later ones exclude candidates
      // that did not replay and are search steps.
      smt::Result r = round == 0 ? solver_.check(goal, obligationQuery(o))
                                 : solver_.check(goal, {k_.name + "." + o.name + ".again" + std::to_string(round), {}});
      if (round == 0 && !solver_.lastRecord()->file.empty())
        o.queries.push_back(solver_.lastRecord()->file);
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
        if (cands[i].confirm(model, o, why)) {
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

  // Prefers small sizes so the witness is readable and cheap to replay.
  smt::Assignment smallModel(Term goal, const smt::Assignment &model) {
    std::vector<Term> sizes;
    for (auto &[id, t] : g_.params)
      if (t->sort == Sort::Int)
        sizes.push_back(t);
    for (auto &[id, t] : g_.lens)
      sizes.push_back(t);
    for (int d = 0; d < 3; ++d) {
      sizes.push_back(g_.gridDim[d]);
      sizes.push_back(g_.blockDim[d]);
    }
    for (int128 bound : {16, 256, 4096}) {
      std::vector<Term> cs{goal};
      for (Term s : sizes)
        if (s->kind != smt::Kind::Const)
          cs.push_back(tc_.le(s, tc_.intConst(bound)));
      for (Term s : sizes)
        if (s->kind != smt::Kind::Const && s->sort == Sort::Int)
          cs.push_back(tc_.ge(s, tc_.intConst(-bound)));
      smt::Result r = solver_.check(tc_.mkAnd(cs), {k_.name + ".small-model", {}});
      if (r.status == smt::Status::Sat)
        return r.model;
    }
    return model;
  }

  // The obligation's query: its name and what `unsat` establishes.
  smt::Query obligationQuery(const Obligation &o) {
    std::string header = "ksynth query " + k_.name + "." + o.name + " (" + kindName(o.kind) +
                         ")\nunsat means the obligation holds for every admitted size and thread pair" +
                         (o.loc.valid() ? "\nsource: line " + std::to_string(o.loc.line) : std::string());
    return {k_.name + "." + o.name, [header](smt::Status) { return header + kRunWith; }};
  }


  Term distinctThreads() {
    std::vector<Term> ne;
    for (int d = 0; d < 3; ++d) {
      ne.push_back(tc_.ne(t1_.tid[d], t2_.tid[d]));
      ne.push_back(tc_.ne(t1_.bid[d], t2_.bid[d]));
    }
    return tc_.mkOr(ne);
  }

  Term sameBlock() {
    return tc_.mkAnd({tc_.eq(t1_.bid[0], t2_.bid[0]), tc_.eq(t1_.bid[1], t2_.bid[1]), tc_.eq(t1_.bid[2], t2_.bid[2])});
  }

  Term linearTid(const ThreadSyms &t) {
    return tc_.add(t.tid[0], tc_.mul(g_.blockDim[0], tc_.add(t.tid[1], tc_.mul(g_.blockDim[1], t.tid[2]))));
  }

  Term sameWarp() {
    return tc_.mkAnd(sameBlock(), tc_.eq(tc_.div(linearTid(t1_), tc_.intConst(32)),
                                         tc_.div(linearTid(t2_), tc_.intConst(32))));
  }

  // ---- race -------------------------------------------------------------------------------

  static bool sameInterval(const interp::Event &a, const interp::Event &b, bool sameBlk, bool sameWrp) {
    if (!sameBlk)
      return a.gridBarriers == b.gridBarriers;
    if (a.blockBarriers != b.blockBarriers)
      return false;
    return !sameWrp || a.warpBarriers == b.warpBarriers;
  }

  // One access of a candidate race: where, and how it touches memory.
  struct RaceAccess {
    const ir::Stmt *stmt;
    bool write, atomic;
  };

  // Replays the solver's model of a race between accesses `a` (thread 1) and `b` (thread 2)
  // on the concrete interpreter; true (the obligation refuted, with its witness) only if the
  // two threads really reach them at one address in one barrier interval, not depending on
  // values loaded from memory. Otherwise `why` says what stopped it.
  bool replayRace(RaceAccess a, RaceAccess b, bool shared, const smt::Assignment &m, Obligation &ob, std::string &why) {
    const ir::Stmt *sa = a.stmt, *sb = b.stmt;
    bool wa = a.write, wb = b.write, aa = a.atomic, ab = b.atomic;
    interp::Env env = envFrom(m);
    interp::ThreadId i1 = threadFrom(t1_, m), i2 = threadFrom(t2_, m);
    interp::Trace tr1 = interp::runThread(k_, env, i1);
    interp::Trace tr2 = interp::runThread(k_, env, i2);
    bool sameBlk = i1.block.x == i2.block.x && i1.block.y == i2.block.y && i1.block.z == i2.block.z;
    auto lin = [&](const interp::ThreadId &t) {
      return t.thread.x + env.block.x * (t.thread.y + env.block.y * t.thread.z);
    };
    bool sameWrp = sameBlk && lin(i1) / 32 == lin(i2) / 32;
    auto report = [&](const interp::Event &e1, const interp::Event &e2, const std::string &how) {
      std::string arrName = k_.arrays[e1.array].name;
      ob.reason = std::string("data race on ") + (shared ? "shared" : "global") + " array '" +
                  arrName + "'";
      ob.loc = sa->loc;
      auto acc = [&](const interp::Event &e, const interp::ThreadId &t, bool w, bool at,
                     const ir::Stmt *s) {
        std::string verb = at ? "atomically updates" : w ? "writes" : "reads";
        return threadText(t, env) + " " + verb + " " + arrName + "[" +
               std::to_string(e.flat) + "] (as " + s->text + ")" + iterText(e, s->text);
      };
      ob.notes.push_back({sa->loc, acc(e1, i1, wa, aa, sa)});
      ob.notes.push_back({sb->loc, acc(e2, i2, wb, ab, sb)});
      ob.notes.push_back({{}, std::string(sameBlk ? "no barrier separates them"
                                                  : "the threads are in different blocks, which never synchronise") +
                                  how + "; " + sizesText(env)});
      ob.witness = witnessJson(env, {i1, i2});
      ob.witness["address"] = e1.flat;
      ob.witness["accesses"] = {{{"line", sa->loc.line}, {"col", sa->loc.col}, {"write", wa}},
                                {{"line", sb->loc.line}, {"col", sb->loc.col}, {"write", wb}}};
      return true;
    };
    // Thread 2's accesses at sb by cell, so long traces (big trip
    // counts) cost linear time, not quadratic.
    auto byCell = [](const interp::Trace &t, const ir::Stmt *st) {
      std::multimap<std::pair<int, int64_t>, const interp::Event *> m;
      for (const interp::Event &e : t.events)
        if (e.kind == interp::EventKind::Access && e.stmt == st)
          m.emplace(std::make_pair(e.array, e.flat), &e);
      return m;
    };
    auto cells2 = byCell(tr2, sb);
    for (const interp::Event &e1 : tr1.events) {
      if (e1.kind != interp::EventKind::Access || e1.stmt != sa)
        continue;
      auto range = cells2.equal_range({e1.array, e1.flat});
      for (auto it = range.first; it != range.second; ++it) {
        const interp::Event &e2 = *it->second;
        if (shared && !sameBlk)
          continue;
        if (!sameInterval(e1, e2, sameBlk, sameWrp))
          continue;
        if (!e1.taint.empty() || !e2.taint.empty()) {
          why = "depends on " + (e1.taint.empty() ? e2.taint : e1.taint);
          continue;
        }
        return report(e1, e2, "");
      }
    }
    // Values read from memory are abstract in the replay above. Run the two
    // threads one after the other instead — the first to its end without
    // meeting a barrier, the second from the memory the first left — which
    // is a real schedule, so what they read is what a GPU could read.
    if (!why.empty() && !(shared && !sameBlk)) {
      // Returns the two conflicting events (of thread 1 and thread 2) and
      // which thread ran first, starting from initial memory `mem`.
      struct Joint {
        interp::Event e1, e2;
        int first = -1;
        std::set<std::pair<int, int64_t>> read; // shared/global cells read
      };
      auto joint = [&](const std::map<std::pair<int, int64_t>, interp::Value> &mem) {
        Joint j;
        for (int order = 0; order < 2 && j.first < 0; ++order) {
          const interp::ThreadId &first = order == 0 ? i1 : i2, &second = order == 0 ? i2 : i1;
          interp::Env ex = env;
          ex.memory = mem;
          ex.exactMemory = true;
          interp::Trace tf = interp::runThread(k_, ex, first);
          bool barrier = false;
          for (const interp::Event &e : tf.events)
            barrier |= e.kind == interp::EventKind::Barrier;
          if (barrier || !tf.completed)
            continue;
          for (const auto &[key, v] : tf.writes)
            ex.memory[key] = v;
          interp::Trace ts = interp::runThread(k_, ex, second);
          const interp::Trace &t1r = order == 0 ? tf : ts, &t2r = order == 0 ? ts : tf;
          for (const interp::Trace *t : {&tf, &ts})
            for (const interp::Event &e : t->events)
              if (e.kind == interp::EventKind::Access && (!e.isWrite || e.isAtomic) && e.array >= 0 &&
                  k_.arrays[e.array].space != ir::Space::Local)
                j.read.insert({e.array, e.flat});
          auto joint2 = byCell(t2r, sb);
          for (const interp::Event &e1 : t1r.events) {
            if (e1.kind != interp::EventKind::Access || e1.stmt != sa || !e1.taint.empty())
              continue;
            auto range = joint2.equal_range({e1.array, e1.flat});
            for (auto it = range.first; it != range.second; ++it) {
              const interp::Event &e2 = *it->second;
              if (!e2.taint.empty())
                continue;
              const interp::Event &es = order == 0 ? e2 : e1;
              if (es.blockBarriers || es.warpBarriers || es.gridBarriers)
                continue; // the second thread passed a barrier the first never reached
              if (j.first < 0) {
                j.e1 = e1;
                j.e2 = e2;
                j.first = order;
              }
            }
          }
        }
        return j;
      };
      auto memText = [&](const std::map<std::pair<int, int64_t>, interp::Value> &mem) {
        std::string cells;
        for (auto &[key, v] : mem)
          if (k_.arrays[key.first].space != ir::Space::Local && cells.size() < 200)
            cells += (cells.empty() ? "" : ", ") + k_.arrays[key.first].name + "[" +
                     std::to_string(key.second) + "]=" +
                     (v.kind == interp::Value::Kind::Float ? std::to_string(v.f)
                                                           : smt::toString(v.i));
        return cells.empty() ? std::string("memory all zero") : "memory " + cells + " (other cells zero)";
      };
      Joint found = joint(env.memory);
      if (found.first >= 0) {
        // A race that needs particular memory contents (e.g. equal
        // indices in an index array) is input-dependent: reported with
        // its witness but as unknown. One that shows with other contents
        // too (all zero; the same cells scrambled) does not hinge on them.
        std::map<std::pair<int, int64_t>, interp::Value> zero, scrambled;
        uint64_t h = 0x9e3779b97f4a7c15ull;
        for (const auto &key : found.read) {
          h = h * 6364136223846793005ull + 1442695040888963407ull;
          interp::Value x;
          auto known = env.memory.find(key);
          if (known != env.memory.end())
            x = known->second;
          else if (k_.arrays[key.first].elem.isFloat())
            x.kind = interp::Value::Kind::Float;
          if (x.kind == interp::Value::Kind::Float)
            x.f = static_cast<double>(static_cast<int64_t>(h >> 40) % 1000) / 7.0;
          else
            x.i = static_cast<int64_t>(h >> 33) % 100000 - 50000;
          scrambled[key] = x;
        }
        bool robust = joint(zero).first >= 0 && joint(scrambled).first >= 0;
        const interp::ThreadId &first = found.first == 0 ? i1 : i2, &second = found.first == 0 ? i2 : i1;
        std::string how = "; " + threadText(first, env) + " runs to its end first, then " +
                          threadText(second, env) + " starts";
        if (robust) {
          std::vector<std::string> tried{memText(env.memory)};
          for (const std::string &t : {memText(zero), memText(scrambled)})
            if (std::find(tried.begin(), tried.end(), t) == tried.end())
              tried.push_back(t);
          std::string list;
          for (size_t n = 0; n < tried.size(); ++n)
            list += (n ? (n + 1 == tried.size() ? " and with " : ", with ") : "with ") + tried[n];
          return report(found.e1, found.e2,
                        how + "; it does not hinge on what memory holds (replayed " + list + ")");
        }
        why = "depends on the contents of memory: with " + memText(env.memory) + ", " +
              threadText(i1, env) + " and " + threadText(i2, env) + " both access " +
              k_.arrays[found.e1.array].name + "[" + std::to_string(found.e1.flat) + "]" + how;
      }
    }
    if (why.empty())
      why = "the threads did not reach conflicting accesses when run concretely" +
            (tr1.stopReason.empty() ? std::string() : " (" + tr1.stopReason + ")");
    return false;
  }

  void checkRaces() {
    std::map<int, std::vector<std::pair<size_t, size_t>>> pairs;
    for (size_t a = 0; a < m1_.accesses.size(); ++a)
      for (size_t b = 0; b < m2_.accesses.size(); ++b) {
        const AccessSite &x = m1_.accesses[a], &y = m2_.accesses[b];
        if (!x.write && !y.write)
          continue;
        if (x.atomic && y.atomic)
          continue;
        int arr = x.array >= 0 ? x.array : y.array;
        if (x.array != y.array && x.array >= 0 && y.array >= 0)
          continue;
        pairs[arr].push_back({a, b});
      }
    // Two accesses through pointers that resolve to no known array may still meet (loaded
    // pointers): nothing can be claimed about them.
    if (auto un = pairs.find(-2); un != pairs.end() && !un->second.empty()) {
      const AccessSite &x = m1_.accesses[un->second.front().first];
      Obligation o;
      o.kind = Kind::Race;
      o.name = "race.unresolved";
      o.loc = x.stmt->loc;
      o.status = Status::Unknown;
      o.reason = "accesses through pointers that could not be resolved to an array (e.g. at " +
                 std::to_string(x.stmt->loc.line) + ":" + std::to_string(x.stmt->loc.col) + ") may conflict";
      rep_.obligations.push_back(o);
    }
    for (size_t arrId = 0; arrId < k_.arrays.size(); ++arrId) {
      const ir::Array &arr = k_.arrays[arrId];
      if (arr.space == ir::Space::Local || arr.space == ir::Space::Constant)
        continue;
      Obligation o;
      o.kind = Kind::Race;
      o.name = "race." + arr.name;
      o.loc = arr.loc;
      auto it = pairs.find(static_cast<int>(arrId));
      if (it == pairs.end()) {
        o.status = Status::Proven;
        rep_.obligations.push_back(o);
        continue;
      }
      bool shared = arr.space == ir::Space::Shared;
      std::vector<Candidate> cands;
      for (auto [a, b] : it->second) {
        const AccessSite &x = m1_.accesses[a], &y = m2_.accesses[b];
        if (!x.pointerKnown || !y.pointerKnown) {
          o.status = Status::Unknown;
          const ir::Stmt *u = !x.pointerKnown ? x.stmt : y.stmt;
          o.reason = "pointer at " + std::to_string(u->loc.line) + ":" + std::to_string(u->loc.col) +
                     " could not be resolved to one array";
          break;
        }
        Term sync = tc_.mkAnd({sameBlock(), tc_.eq(x.bc, y.bc), tc_.implies(sameWarp(), tc_.eq(x.wc, y.wc))});
        if (!shared) // other blocks: only grid barriers separate them
          sync = tc_.mkOr(tc_.mkAnd(tc_.mkNot(sameBlock()), tc_.eq(x.gc, y.gc)), sync);
        std::vector<Term> hints;
        for (Term N : strideSymbols(tc_, x.flat))
          delinearise(tc_, x.flat, y.flat, {nullptr, N}, hints);
        Term c = tc_.mkAnd({x.pc, y.pc, tc_.eq(x.flat, y.flat), distinctThreads(), sync, tc_.mkAnd(hints)});
        const ir::Stmt *sa = x.stmt, *sb = y.stmt;
        bool wa = x.write, wb = y.write, aa = x.atomic, ab = y.atomic;
        cands.push_back({c, [=, this](const smt::Assignment &m, Obligation &ob, std::string &why) {
                           return replayRace({sa, wa, aa}, {sb, wb, ab}, shared, m, ob, why);
                         }});
      }
      if (o.status == Status::Unknown && !o.reason.empty()) {
        rep_.obligations.push_back(o);
        continue;
      }
      decide(o, cands);
      rep_.obligations.push_back(o);
    }
  }

  // Loop summaries found modulo wrap-around hold by induction, or nothing can be claimed.
  bool checkSummaries() {
    std::vector<Term> bad;
    for (const SummarySite &s : m1_.summaries)
      bad.push_back(tc_.mkAnd(s.pc, tc_.mkNot(s.ok)));
    std::set<unsigned> lines;
    for (const SummarySite &s : m1_.summaries)
      lines.insert(s.loc.line);
    std::string where = "\nsource lines:";
    for (unsigned l : lines)
      where += " " + std::to_string(l);
    std::string header = "ksynth lemma " + k_.name +
                         ".summaries\nunsat means every loop summary's closed form holds without wrap-around (by "
                         "induction); all obligations use them" +
                         where + kRunWith;
    smt::Result r =
        solver_.check(tc_.mkOr(bad), {k_.name + ".summaries", [header](smt::Status) { return header; }});
    if (r.status == smt::Status::Unsat && !solver_.lastRecord()->file.empty())
      rep_.lemmas.push_back(solver_.lastRecord()->file);
    if (r.status == smt::Status::Unsat)
      return true;
    const SummarySite &s = m1_.summaries.front();
    for (const std::string &kind : orderedChecks()) {
      Obligation o;
      o.kind = kindOf(kind);
      o.name = kind;
      o.loc = s.loc;
      o.status = Status::Unknown;
      o.reason = "the loop's induction variable '" + s.var +
                 "' may wrap around, so ksynth cannot summarise the loop" +
                 (r.status == smt::Status::Unknown ? " (" + r.reason + ")" : "");
      o.ms = r.ms;
      rep_.obligations.push_back(o);
    }
    return false;
  }

  // ---- barrier ------------------------------------------------------------------------------

  void checkBarriers() {
    Obligation o;
    o.kind = Kind::Barrier;
    o.name = "barrier";
    o.loc = k_.loc;
    std::vector<Candidate> cands;
    for (size_t i = 0; i < m1_.controls.size() && i < m2_.controls.size(); ++i) {
      const ControlSite &x = m1_.controls[i], &y = m2_.controls[i];
      assert(x.site == y.site);
      std::vector<Term> eqs{x.pc, y.pc, x.grid ? tc_.tru() : x.warpOnly ? sameWarp() : sameBlock(),
                            distinctThreads(), tc_.ne(x.cond, y.cond)};
      for (size_t j = 0; j < x.iters.size() && j < y.iters.size(); ++j)
        eqs.push_back(tc_.eq(x.iters[j], y.iters[j]));
      ir::Loc loc = x.loc;
      cands.push_back({tc_.mkAnd(eqs), [=, this](const smt::Assignment &m, Obligation &ob, std::string &why) {
                         interp::Env env = envFrom(m);
                         interp::ThreadId i1 = threadFrom(t1_, m), i2 = threadFrom(t2_, m);
                         interp::Trace tr1 = interp::runThread(k_, env, i1);
                         interp::Trace tr2 = interp::runThread(k_, env, i2);
                         bool sameBlk = i1.block.x == i2.block.x && i1.block.y == i2.block.y &&
                                        i1.block.z == i2.block.z;
                         auto lin = [&](const interp::ThreadId &t) {
                           return t.thread.x + env.block.x * (t.thread.y + env.block.y * t.thread.z);
                         };
                         bool sameWrp = sameBlk && lin(i1) / 32 == lin(i2) / 32;
                         // Threads of one block must meet the same block and grid barriers (and,
                         // in one warp, the same __syncwarp()s); threads of different blocks the
                         // same grid barriers.
                         auto seq = [sameBlk, sameWrp](const interp::Trace &t, std::string &taint) {
                           std::vector<const ir::Stmt *> s;
                           for (const interp::Event &e : t.events)
                             if (e.kind == interp::EventKind::Barrier &&
                                 (e.barrier == ir::BarrierKind::Grid ||
                                  (sameBlk && e.barrier == ir::BarrierKind::Block) ||
                                  (sameWrp && e.barrier == ir::BarrierKind::Warp))) {
                               s.push_back(e.stmt);
                               if (taint.empty())
                                 taint = e.taint;
                             }
                           return s;
                         };
                         std::string taint;
                         auto s1 = seq(tr1, taint), s2 = seq(tr2, taint);
                         if (!tr1.completed || !tr2.completed) {
                           why = "a thread did not complete when replayed (" + tr1.stopReason + tr2.stopReason + ")";
                           return false;
                         }
                         if (s1 == s2) {
                           why = "both threads executed the same barriers when run concretely";
                           return false;
                         }
                         if (!taint.empty()) {
                           why = "depends on " + taint;
                           return false;
                         }
                         ob.reason = sameBlk ? "barrier divergence: threads of one block reach different barriers"
                                             : "barrier divergence: threads of the grid reach different grid barriers";
                         ob.loc = loc;
                         ob.notes.push_back({loc, "this condition differs between " + threadText(i1, env) + " and " +
                                                      threadText(i2, env)});
                         ob.notes.push_back({{}, "they execute " + std::to_string(s1.size()) + " and " +
                                                     std::to_string(s2.size()) + " barriers; " + sizesText(env)});
                         ob.witness = witnessJson(env, {i1, i2});
                         return true;
                       }});
    }
    if (cands.empty()) {
      o.status = Status::Proven;
      rep_.obligations.push_back(o);
      return;
    }
    decide(o, cands);
    rep_.obligations.push_back(o);
  }

  // ---- bounds -------------------------------------------------------------------------------

  void checkBounds() {
    std::map<int, std::vector<size_t>> byArray;
    std::vector<size_t> unresolved;
    for (size_t a = 0; a < m1_.accesses.size(); ++a) {
      if (m1_.accesses[a].array < 0)
        unresolved.push_back(a);
      else
        byArray[m1_.accesses[a].array].push_back(a);
    }
    for (auto &[arrId, sites] : byArray) {
      const ir::Array &arr = k_.arrays[arrId];
      Obligation o;
      o.kind = Kind::Bounds;
      o.name = "bounds." + arr.name;
      o.loc = arr.loc;
      Term extent = nullptr;
      if (arr.paramIndex >= 0) {
        bool known = mentionsLen(k_, arrId);
        for (const ir::ExprPtr &e : opts_.assumes) {
          std::function<bool(const ir::Expr &)> has = [&](const ir::Expr &x) {
            if (x.op == ir::Op::Len && k_.lengthRoot(x.id) == k_.lengthRoot(arrId))
              return true;
            for (auto &c : x.args)
              if (has(*c))
                return true;
            return false;
          };
          known |= has(*e);
        }
        if (!known) {
          o.status = Status::Unknown;
          o.reason = "no size is known for global array '" + arr.name + "': declare one with __requires(__len(" +
                     arr.name + ") >= ...) or --assume, or exclude bounds with --checks";
          rep_.obligations.push_back(o);
          continue;
        }
        extent = g_.lens.at(arrId);
      } else if (arr.dynamicShared) {
        o.status = Status::Unknown;
        o.reason = "extent of dynamic shared array '" + arr.name + "' is not known (no shared= launch size)";
        rep_.obligations.push_back(o);
        continue;
      } else {
        extent = tc_.intConst(arr.elementCount());
      }
      std::vector<Candidate> cands;
      for (size_t a : sites) {
        const AccessSite &x = m1_.accesses[a];
        Term in = tc_.mkAnd(tc_.le(tc_.intConst(0), x.flat), tc_.lt(x.flat, extent));
        if (!x.idx.empty()) {
          std::vector<Term> per;
          for (size_t d = 0; d < x.idx.size(); ++d)
            per.push_back(tc_.mkAnd(tc_.le(tc_.intConst(0), x.idx[d]), tc_.lt(x.idx[d], tc_.intConst(arr.dims[d]))));
          in = tc_.mkAnd(per);
        }
        const ir::Stmt *st = x.stmt;
        cands.push_back({tc_.mkAnd(x.pc, tc_.mkNot(in)), [=, this](const smt::Assignment &m, Obligation &ob, std::string &why) {
                           interp::Env env = envFrom(m);
                           interp::ThreadId i1 = threadFrom(t1_, m);
                           interp::Trace tr = interp::runThread(k_, env, i1);
                           for (const interp::Event &e : tr.events) {
                             if (e.kind != interp::EventKind::OutOfBounds || e.stmt != st)
                               continue;
                             if (!e.taint.empty()) {
                               why = "depends on " + e.taint;
                               continue;
                             }
                             std::string idx;
                             for (int64_t v : e.indices)
                               idx += "[" + std::to_string(v) + "]";
                             ob.reason = "out-of-bounds access to " + std::string(ir::spaceName(k_.arrays[e.array].space)) +
                                         " array '" + k_.arrays[e.array].name + "'";
                             ob.loc = st->loc;
                             std::string ext = k_.arrays[e.array].paramIndex >= 0
                                                   ? std::to_string(env.lens.count(e.array) ? env.lens.at(e.array) : 0)
                                                   : std::to_string(k_.arrays[e.array].elementCount());
                             ob.notes.push_back({st->loc, threadText(i1, env) + (e.isWrite ? " writes " : " reads ") +
                                                              k_.arrays[e.array].name + idx + " (as " + st->text +
                                                              "), element " + std::to_string(e.flat) + " of " + ext +
                                                              iterText(e, st->text)});
                             ob.notes.push_back({{}, sizesText(env)});
                             ob.witness = witnessJson(env, {i1});
                             ob.witness["element"] = e.flat;
                             return true;
                           }
                           if (why.empty())
                             why = "the thread stayed in bounds when run concretely" +
                                   (tr.stopReason.empty() ? std::string() : " (" + tr.stopReason + ")");
                           return false;
                         }});
      }
      decide(o, cands);
      rep_.obligations.push_back(o);
    }
    if (!unresolved.empty()) {
      Obligation o;
      o.kind = Kind::Bounds;
      o.name = "bounds.unresolved";
      o.loc = m1_.accesses[unresolved[0]].stmt->loc;
      o.status = Status::Unknown;
      o.reason = "an access's pointer could not be resolved to one array";
      rep_.obligations.push_back(o);
    }
  }

  // ---- overflow -----------------------------------------------------------------------------

  void checkOverflow() {
    Obligation o;
    o.kind = Kind::Overflow;
    o.name = "overflow";
    o.loc = k_.loc;
    std::vector<Candidate> cands;
    for (const ArithSite &s : m1_.arith) {
      const ir::Expr *ex = s.expr;
      ArithKind kind = s.kind;
      cands.push_back({tc_.mkAnd(s.pc, tc_.mkNot(s.ok)), [=, this](const smt::Assignment &m, Obligation &ob, std::string &why) {
                         interp::Env env = envFrom(m);
                         interp::ThreadId i1 = threadFrom(t1_, m);
                         interp::Trace tr = interp::runThread(k_, env, i1);
                         for (const interp::Event &e : tr.events) {
                           bool match = e.expr == ex && ((kind == ArithKind::DivByZero) == (e.kind == interp::EventKind::DivByZero)) &&
                                        (e.kind == interp::EventKind::Overflow || e.kind == interp::EventKind::DivByZero);
                           if (!match)
                             continue;
                           if (!e.taint.empty()) {
                             why = "depends on " + e.taint;
                             continue;
                           }
                           std::string what = kind == ArithKind::DivByZero ? "division by zero"
                                              : kind == ArithKind::ShiftAmount ? "shift amount out of range"
                                                                               : "signed integer overflow";
                           ob.reason = what + (ex->text.empty() ? "" : " in '" + ex->text + "'");
                           ob.loc = ex->loc;
                           std::string exact = kind == ArithKind::DivByZero ? "" : " (exact value " + smt::toString(e.exact) + ", type " + ex->type.str() + ")";
                           ob.notes.push_back({ex->loc, threadText(i1, env) + " computes it" + exact + iterText(e, ex->text)});
                           ob.notes.push_back({{}, sizesText(env)});
                           ob.witness = witnessJson(env, {i1});
                           return true;
                         }
                         if (why.empty())
                           why = "no overflow happened when the thread was run concretely" +
                                 (tr.stopReason.empty() ? std::string() : " (" + tr.stopReason + ")");
                         return false;
                       }});
    }
    if (cands.empty()) {
      o.status = Status::Proven;
      rep_.obligations.push_back(o);
      return;
    }
    decide(o, cands);
    rep_.obligations.push_back(o);
  }

  // ---- assert -------------------------------------------------------------------------------

  void checkAsserts() {
    Obligation o;
    o.kind = Kind::Assert;
    o.name = "assert";
    o.loc = k_.loc;
    std::vector<Candidate> cands;
    for (const AssertSite &s : m1_.asserts) {
      const ir::Stmt *st = s.stmt;
      cands.push_back({tc_.mkAnd(s.pc, tc_.mkNot(s.cond)), [=, this](const smt::Assignment &m, Obligation &ob, std::string &why) {
                         interp::Env env = envFrom(m);
                         interp::ThreadId i1 = threadFrom(t1_, m);
                         interp::Trace tr = interp::runThread(k_, env, i1);
                         for (const interp::Event &e : tr.events) {
                           if (e.kind != interp::EventKind::AssertFail || e.stmt != st)
                             continue;
                           if (!e.taint.empty()) {
                             why = "depends on " + e.taint;
                             continue;
                           }
                           ob.reason = "assertion '" + st->text + "' can fail";
                           ob.loc = st->loc;
                           ob.notes.push_back({st->loc, "it fails for " + threadText(i1, env) + iterText(e, st->text)});
                           ob.notes.push_back({{}, sizesText(env)});
                           ob.witness = witnessJson(env, {i1});
                           return true;
                         }
                         if (why.empty())
                           why = "the assertion held when the thread was run concretely" +
                                 (tr.stopReason.empty() ? std::string() : " (" + tr.stopReason + ")");
                         return false;
                       }});
    }
    if (cands.empty()) {
      o.status = Status::Proven;
      rep_.obligations.push_back(o);
      return;
    }
    decide(o, cands);
    rep_.obligations.push_back(o);
  }
};

} // namespace

KernelReport verifyKernel(const ir::Kernel &k, const Options &opts) {
  Checker c(k, opts);
  return c.run();
}

} // namespace ksynth::check
