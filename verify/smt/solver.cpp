#include "verify/smt/solver.h"

#include "util/deadline.h"

#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <z3++.h>

#include <algorithm>
#include <atomic>
#include <cassert>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <optional>
#include <tuple>
#include <unordered_set>

namespace ksynth::smt {

const char *statusName(Status s) {
  switch (s) {
  case Status::Sat: return "sat";
  case Status::Unsat: return "unsat";
  case Status::Unknown: return "unknown";
  }
  return "?";
}

struct Solver::Impl {
  // A context of its own: Z3's choices depend on the order its terms were made in, so a
  // context shared with earlier solvers made single queries 60 times slower (and others
  // faster) depending on what was verified before. Making one is cheap once its memory is
  // reused (cli/dispatch.cpp, main).
  z3::context ctx;
  z3::solver solver{ctx};
  unsigned paramMs = 0; // the timeout parameter the solver has (0: none set yet)
  // The solver queries are asked on over their slice (Solver::check): it holds every
  // background fact of the slices asked since it was made (so it keeps what Z3 learnt from
  // one query for the next, as the whole background's solver does), inPart[i] whether it holds
  // fact i, partSize how many, partParamMs its timeout parameter.
  std::optional<z3::solver> part;
  std::vector<char> inPart;
  size_t partSize = 0;
  unsigned partParamMs = 0;

  // A solver holding background[kept] and perhaps other background facts: the last one plus
  // what kept adds, unless it would then hold over twice kept's facts (and 64 more), or half
  // the background, else a new one.
  z3::solver &partFor(const std::vector<size_t> &kept, const std::vector<Term> &background) {
    inPart.resize(background.size(), 0);
    size_t adds = 0;
    for (size_t i : kept)
      adds += !inPart[i];
    size_t after = partSize + adds;
    if (!part || after > 2 * kept.size() + 64 || 2 * after > background.size()) {
      part.emplace(ctx);
      std::fill(inPart.begin(), inPart.end(), 0);
      partSize = 0;
      partParamMs = 0;
    }
    for (size_t i : kept)
      if (!inPart[i]) {
        part->add(conv(background[i]));
        inPart[i] = 1;
        ++partSize;
      }
    return *part;
  }
  std::unordered_map<Term, z3::expr> memo;
  std::unordered_map<std::string, z3::func_decl> funs;
  // The slices (Solver::slice). Per background fact: its text and symbols (union-find ids
  // of Var names and function names). A range fact `lo <= x <= hi` (constants; x a Var or an
  // application f(...)) has x's symbol as its subject; a subject used by no other fact is free:
  // its range facts link nothing, since x can take one value within all its ranges whatever
  // the rest is (checked: the ranges intersect). Other facts join their symbols' sets.
  struct Fact {
    std::string text;
    std::vector<uint32_t> syms;
    int64_t subject = -1; // a range fact's subject, else -1
    bool joined = false;  // its symbols are joined in the union-find
  };
  std::vector<Fact> facts;
  std::unordered_map<std::string, uint32_t> symId;
  std::vector<uint32_t> parent;
  struct Subject {
    bool pinned = false;          // used by a fact other than its range facts (or ranges disjoint)
    std::vector<size_t> ranges;   // its range facts
    Value lo{0, 0}, hi{0, 0};     // the intersection of its ranges (den 0: unbounded side)
  };
  std::unordered_map<uint32_t, Subject> subjects;
  std::unordered_set<uint32_t> used; // symbols of facts other than as their subject

  uint32_t symbol(const std::string &key) {
    auto [it, fresh] = symId.emplace(key, static_cast<uint32_t>(parent.size()));
    if (fresh)
      parent.push_back(it->second);
    return it->second;
  }
  uint32_t find(uint32_t x) {
    while (parent[x] != x)
      x = parent[x] = parent[parent[x]];
    return x;
  }
  void join(Fact &f) {
    f.joined = true;
    for (size_t j = 1; j < f.syms.size(); ++j) {
      uint32_t a = find(f.syms[0]), b = find(f.syms[j]);
      if (a != b)
        parent[a] = b;
    }
  }
  void pin(uint32_t subj) {
    Subject &sb = subjects[subj];
    if (sb.pinned)
      return;
    sb.pinned = true;
    for (size_t i : sb.ranges)
      join(facts[i]);
  }
  // The symbols of t, as union-find ids.
  std::vector<uint32_t> symbolsOf(Term t) {
    std::vector<uint32_t> out;
    std::unordered_set<Term> seen;
    std::vector<Term> stack{t};
    while (!stack.empty()) {
      Term x = stack.back();
      stack.pop_back();
      if (!seen.insert(x).second)
        continue;
      // A constant and a function of no arguments with one name are one Z3 symbol: keyed by
      // name alone.
      if (x->kind == Kind::Var || x->kind == Kind::App)
        out.push_back(symbol("n" + x->name));
      // Z3 reads a division by 0 as a function of the dividend, one for the whole query: every
      // division whose divisor may be 0 shares that hidden symbol.
      bool division = x->kind == Kind::Div || x->kind == Kind::Mod || x->kind == Kind::RealDiv;
      if (division && !(x->kids[1]->kind == Kind::Const && x->kids[1]->num != 0))
        out.push_back(symbol("d"));
      for (Term k : x->kids)
        stack.push_back(k);
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
  }
  // For `lo <= x`, `x <= hi` or their conjunction with constant bounds and x a Var or an
  // application: x's symbol and the bounds (den 0: that side unbounded). Else nullopt.
  std::optional<std::tuple<uint32_t, Value, Value>> rangeOf(Term t) {
    Value lo{0, 0}, hi{0, 0};
    Term subj = nullptr;
    auto side = [&](Term le) {
      if (le->kind != Kind::Le || le->kids.size() != 2)
        return false;
      Term a = le->kids[0], b = le->kids[1];
      // Bounds past 2^64 (denominators past 2^62) are left alone: the products in the
      // comparisons must fit 128 bits.
      auto small = [](Term c) {
        const int128 lim = int128{1} << 64;
        return c->num <= lim && c->num >= -lim && c->den > 0 && c->den < (int128{1} << 62);
      };
      if ((a->kind == Kind::Const && !small(a)) || (b->kind == Kind::Const && !small(b)))
        return false;
      // A bound of the subject's own sort, and an integer one for an Int: an Int subject's
      // ranges 1/2 <= x and x <= 2/3 meet, but at no integer.
      Term c = a->kind == Kind::Const ? a : b, x = a->kind == Kind::Const ? b : a;
      if (c->sort != x->sort || (c->sort == Sort::Int && c->den != 1))
        return false;
      auto isSubject = [&](Term x) {
        return (x->kind == Kind::Var || x->kind == Kind::App) && (!subj || subj == x);
      };
      if (a->kind == Kind::Const && isSubject(b) && lo.den == 0) {
        subj = b;
        lo = {a->num, a->den};
        return true;
      }
      if (b->kind == Kind::Const && isSubject(a) && hi.den == 0) {
        subj = a;
        hi = {b->num, b->den};
        return true;
      }
      return false;
    };
    bool ok = t->kind == Kind::And ? t->kids.size() == 2 && side(t->kids[0]) && side(t->kids[1]) : side(t);
    if (!ok || !subj)
      return std::nullopt;
    return std::tuple{symbol("n" + subj->name), lo, hi};
  }


  z3::sort sortOf(Sort s) {
    switch (s) {
    case Sort::Bool: return ctx.bool_sort();
    case Sort::Int: return ctx.int_sort();
    case Sort::Real: return ctx.real_sort();
    }
    return ctx.int_sort();
  }

  z3::expr conv(Term t) {
    auto it = memo.find(t);
    if (it != memo.end())
      return it->second;
    z3::expr r = build(t);
    memo.emplace(t, r);
    return r;
  }

  z3::expr build(Term t) {
    auto kids = [&]() {
      z3::expr_vector v(ctx);
      for (Term k : t->kids)
        v.push_back(conv(k));
      return v;
    };
    switch (t->kind) {
    case Kind::Const:
      if (t->sort == Sort::Bool)
        return ctx.bool_val(t->num != 0);
      if (t->sort == Sort::Int)
        return ctx.int_val(toString(t->num).c_str());
      return ctx.real_val((toString(t->num) + "/" + toString(t->den)).c_str());
    case Kind::Var: return ctx.constant(t->name.c_str(), sortOf(t->sort));
    case Kind::App: {
      auto f = funs.find(t->name);
      if (f == funs.end()) {
        z3::sort_vector dom(ctx);
        for (Term k : t->kids)
          dom.push_back(sortOf(k->sort));
        f = funs.emplace(t->name, ctx.function(t->name.c_str(), dom, sortOf(t->sort))).first;
      }
      return f->second(kids());
    }
    case Kind::Add: return z3::sum(kids());
    case Kind::Mul: return conv(t->kids[0]) * conv(t->kids[1]);
    case Kind::Div:
      return z3::expr(ctx, Z3_mk_div(ctx, conv(t->kids[0]), conv(t->kids[1])));
    case Kind::Mod: return z3::mod(conv(t->kids[0]), conv(t->kids[1]));
    case Kind::RealDiv: return conv(t->kids[0]) / conv(t->kids[1]);
    case Kind::Ite: return z3::ite(conv(t->kids[0]), conv(t->kids[1]), conv(t->kids[2]));
    case Kind::Eq: return conv(t->kids[0]) == conv(t->kids[1]);
    case Kind::Le: return conv(t->kids[0]) <= conv(t->kids[1]);
    case Kind::Lt: return conv(t->kids[0]) < conv(t->kids[1]);
    case Kind::Not: return !conv(t->kids[0]);
    case Kind::And: return z3::mk_and(kids());
    case Kind::Or: return z3::mk_or(kids());
    case Kind::ToReal: return z3::to_real(conv(t->kids[0]));
    }
    assert(false && "unknown term kind");
    return ctx.bool_val(false);
  }
};

namespace {

// A term written out whole and unambiguously: its DAG's nodes in post order, each as kind,
// sort, payload (a constant's value; a name, length first) and its operands' positions. Equal
// texts mean equal formulas, whichever TermContext made them.
void writeTerm(Term t, std::unordered_map<Term, uint32_t> &pos, std::string &out) {
  if (pos.count(t))
    return;
  for (Term k : t->kids)
    writeTerm(k, pos, out);
  out += std::to_string(static_cast<int>(t->kind));
  out += ',';
  out += std::to_string(static_cast<int>(t->sort));
  if (t->kind == Kind::Const) {
    out += ',' + toString(t->num) + '/' + toString(t->den);
  } else if (t->kind == Kind::Var || t->kind == Kind::App) {
    out += ',' + std::to_string(t->name.size()) + ':' + t->name;
  }
  for (Term k : t->kids)
    out += ' ' + std::to_string(pos.at(k));
  out += ';';
  pos.emplace(t, static_cast<uint32_t>(pos.size()));
}

std::string termText(Term t) {
  std::unordered_map<Term, uint32_t> pos;
  std::string out;
  writeTerm(t, pos, out);
  return out;
}

// Answers by slice, shared by every solver of the process (Solver::check).
struct SharedAnswer {
  Status status;
  std::string reason;
  unsigned limitMs;
};
std::mutex sharedMutex;
std::unordered_map<std::string, SharedAnswer> sharedAnswers;
size_t sharedBytes = 0;
constexpr size_t kSharedBytesMax = size_t{256} << 20; // no more entries past 256 MiB of keys
constexpr size_t kSliceTextMax = size_t{1} << 20;     // a larger slice is not remembered

} // namespace

std::string Solver::slice(Term goal, std::vector<size_t> &kept) {
  Impl &im = *impl_;
  kept.clear();
  // a <= b for bounds, den 0 meaning -inf (for lo) or +inf (for hi).
  auto below = [](const Value &lo, const Value &hi) {
    return lo.den == 0 || hi.den == 0 || lo.num * hi.den <= hi.num * lo.den;
  };
  auto tighter = [](const Value &a, const Value &b, bool lower) {
    if (a.den == 0)
      return b;
    if (b.den == 0)
      return a;
    bool aBelow = a.num * b.den <= b.num * a.den;
    return (aBelow != lower) ? a : b;
  };
  for (size_t i = im.facts.size(); i < background_.size(); ++i) {
    Impl::Fact f;
    f.syms = im.symbolsOf(background_[i]);
    f.text = termText(background_[i]);
    auto range = im.rangeOf(background_[i]);
    if (range)
      f.subject = std::get<0>(*range);
    im.facts.push_back(std::move(f));
    // Every symbol of this fact but its subject is used: pinned if it is (or becomes) one.
    for (uint32_t x : im.facts[i].syms)
      if (static_cast<int64_t>(x) != im.facts[i].subject) {
        im.used.insert(x);
        if (im.subjects.count(x))
          im.pin(x);
      }
    if (!range) {
      im.join(im.facts[i]);
      continue;
    }
    auto &[subj, lo, hi] = *range;
    bool known = im.subjects.count(subj) > 0;
    Impl::Subject &sb = im.subjects[subj];
    sb.ranges.push_back(i);
    sb.lo = tighter(sb.lo, lo, true);
    sb.hi = tighter(sb.hi, hi, false);
    if (sb.pinned)
      im.join(im.facts[i]);
    else if ((!known && im.used.count(subj)) || !below(sb.lo, sb.hi))
      im.pin(subj);
  }
  // The goal's sets, and those of the free subjects' range facts it reads.
  std::vector<uint32_t> goalSyms = im.symbolsOf(goal);
  std::unordered_set<uint32_t> roots, goalFree;
  for (uint32_t x : goalSyms) {
    roots.insert(im.find(x));
    if (auto it = im.subjects.find(x); it != im.subjects.end() && !it->second.pinned) {
      goalFree.insert(x);
      for (size_t i : it->second.ranges)
        for (uint32_t y : im.facts[i].syms)
          roots.insert(im.find(y));
    }
  }
  std::string key;
  for (size_t i = 0; i < background_.size(); ++i) {
    const Impl::Fact &f = im.facts[i];
    bool keep = f.joined ? f.syms.empty() || roots.count(im.find(f.syms[0])) > 0
                         : goalFree.count(static_cast<uint32_t>(f.subject)) > 0;
    if (!keep)
      continue;
    kept.push_back(i);
    if (key.size() <= kSliceTextMax) {
      key += f.text;
      key += '\n';
    }
  }
  key += "goal ";
  key += termText(goal);
  return key.size() <= kSliceTextMax ? key : std::string();
}

Solver::Solver(TermContext &tc, unsigned timeoutMs)
    : impl_(std::make_unique<Impl>()), tc_(tc), timeoutMs_(timeoutMs),
      remember_(std::getenv("KSYNTH_ASK_EVERY_QUERY") == nullptr),
      slicing_(std::getenv("KSYNTH_WHOLE_QUERIES") == nullptr) {}

Solver::~Solver() = default;

void Solver::addBackground(Term t) {
  background_.push_back(t);
  impl_->solver.add(impl_->conv(t));
}

static bool parseNumeral(const std::string &s, int128 &out) {
  if (s.empty())
    return false;
  size_t i = 0;
  bool neg = false;
  if (s[0] == '-') {
    neg = true;
    i = 1;
  }
  int128 v = 0;
  for (; i < s.size(); ++i) {
    if (!isdigit(static_cast<unsigned char>(s[i])))
      return false;
    // A value past 128 bits is no value here (the caller leaves the symbol out of the model).
    if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, s[i] - '0', &v))
      return false;
  }
  out = neg ? -v : v;
  return true;
}

namespace {

// One query's answer from one Z3 solver.
struct Answer {
  z3::check_result cr = z3::unknown;
  std::optional<z3::model> model; // when sat
  std::string reason;             // when unknown: Z3's reason or its exception's message
  double ms = 0;
};

// Asks s about background ∧ goal under the per-query limit timeoutMs (Z3's parameter, set
// on s only when paramMs, what s has, differs) and limitMs (the watchdog's).
Answer ask(z3::context &ctx, z3::solver &s, unsigned &paramMs, unsigned timeoutMs, unsigned limitMs,
           const z3::expr &goal) {
  Answer a;
  // Setting a parameter costs Z3 about a millisecond per query (measured on 4.8.12), so the
  // timeout parameter is set only when the per-query limit changes; a shorter limit from the
  // command's deadline is enforced by the watchdog's interrupt alone.
  if (paramMs != timeoutMs) {
    z3::params p(ctx);
    p.set("timeout", timeoutMs);
    s.set(p);
    paramMs = timeoutMs;
  }
  s.push();
  // The goal is popped however this ends (a Z3 exception, a thread that could not start): left
  // asserted, it would make every later query of this solver unsat. (The C call: it does not
  // throw.)
  struct PopGoal {
    z3::context &c;
    z3::solver &s;
    ~PopGoal() { Z3_solver_pop(c, s, 1); }
  } popGoal{ctx, s};
  try {
    s.add(goal);
  } catch (const z3::exception &e) {
    a.reason = std::string("the solver could not take the query: ") + e.msg();
    return a;
  }
  auto start = std::chrono::steady_clock::now();
  // Z3's soft timeout does not always fire on nonlinear queries: a watchdog interrupts the
  // context shortly after the limit so every query ends.
  std::mutex m;
  std::condition_variable cv;
  bool done = false;
  std::thread watchdog([&] {
    std::unique_lock<std::mutex> lk(m);
    const unsigned waitMs = limitMs < timeoutMs ? limitMs : limitMs + 500;
    if (!cv.wait_for(lk, std::chrono::milliseconds(waitMs), [&] { return done; }))
      ctx.interrupt();
  });
  try {
    a.cr = s.check();
    if (a.cr == z3::sat)
      a.model = s.get_model();
    else if (a.cr == z3::unknown)
      a.reason = s.reason_unknown();
  } catch (const z3::exception &e) {
    a.cr = z3::unknown;
    a.reason = e.msg();
  }
  {
    std::lock_guard<std::mutex> lk(m);
    done = true;
  }
  cv.notify_all();
  watchdog.join();
  a.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return a;
}

// sym's value in model, if it is a number of at most 128 bits.
std::optional<Value> valueOf(z3::model &model, const z3::expr &e, Sort sort);

// Appends to out the symbols (Vars and Apps) of t's nodes not in seen, adding every node
// walked to seen.
void addSymbols(Term t, std::unordered_set<Term> &seen, std::vector<Term> &out) {
  postOrder(
      t, [&](Term x) { return seen.insert(x).second; },
      [&](Term x) {
        if (x->kind == Kind::Var || x->kind == Kind::App)
          out.push_back(x);
      });
}

} // namespace

Result Solver::check(Term goal) {
  Result r;
  // The command's own limit (--timeout) cuts every query to the time left, and once it has
  // passed no query runs: util::TimeLimit ends the work (the driver reports it).
  auto limitNow = [&] {
    return static_cast<unsigned>(std::min<double>(timeoutMs_, util::secondsLeft() * 1000.0));
  };
  const unsigned limitMs = limitNow();
  if (util::hasDeadline() && limitMs < 1)
    throw util::TimeLimit();
  const std::pair<Term, size_t> key{goal, background_.size()};
  if (auto it = answers_.find(key); remember_ && it != answers_.end() &&
                                    (it->second.first.status != Status::Unknown || limitMs <= it->second.second)) {
    Result again = it->second.first;
    again.ms = 0;
    again.repeated = true;
    again.sliced = false; // not asked this time
    return again;
  }
  // The goal's slice: the answer another solver (or this one, over a smaller background) gave
  // it, and the facts to ask about.
  std::vector<size_t> kept;
  std::string sliceText = remember_ || slicing_ ? slice(goal, kept) : std::string();
  if (!remember_)
    sliceText.clear();
  if (!sliceText.empty()) {
    std::lock_guard<std::mutex> lk(sharedMutex);
    if (auto it = sharedAnswers.find(sliceText);
        it != sharedAnswers.end() && (it->second.status == Status::Unsat || limitMs <= it->second.limitMs)) {
      r.status = it->second.status;
      r.reason = it->second.reason;
      r.repeated = true;
      answers_[key] = {r, limitMs};
      return r;
    }
  }
  Impl &im = *impl_;
  std::optional<z3::expr> g;
  try {
    g = im.conv(goal);
  } catch (const z3::exception &e) {
    r.status = Status::Unknown;
    r.reason = std::string("the solver could not take the query: ") + e.msg();
    return r;
  }
  // Background ∧ goal is slice ∧ goal ∧ rest, the rest over symbols of its own: the slice is
  // asked alone when that leaves facts out. Unsat there is unsat of the whole. Sat is sat of the
  // whole when the rest is satisfiable, which a model of the whole background shows and also
  // gives the rest's values; without one the whole is asked (and the model comes from there).
  Answer a;
  bool sliced = slicing_ && background_.size() >= 200 && 4 * kept.size() <= background_.size();
  if (sliced) {
    a = ask(im.ctx, im.partFor(kept, background_), im.partParamMs, timeoutMs_, limitMs, *g);
    if (a.cr == z3::sat && bgModelSize_ != background_.size()) {
      sliced = false;
      double first = a.ms;
      a = ask(im.ctx, im.solver, im.paramMs, timeoutMs_, limitNow(), *g);
      a.ms += first;
    }
  } else {
    a = ask(im.ctx, im.solver, im.paramMs, timeoutMs_, limitMs, *g);
  }
  r.ms = a.ms;
  r.sliced = sliced;

  // The values of syms in a's model (a value past 128 bits is left out).
  auto readModel = [&](const std::vector<Term> &syms) {
    for (Term sym : syms)
      if (auto v = valueOf(*a.model, im.conv(sym), sym->sort))
        r.model[sym] = *v;
  };
  if (a.cr == z3::unsat) {
    r.status = Status::Unsat;
  } else if (a.cr == z3::sat && sliced) {
    r.status = Status::Sat;
    r.model = bgModel_;
    std::vector<Term> syms;
    std::unordered_set<Term> seen;
    for (size_t i : kept)
      addSymbols(background_[i], seen, syms);
    addSymbols(goal, seen, syms);
    for (Term sym : syms)
      r.model.erase(sym);
    readModel(syms);
  } else if (a.cr == z3::sat) {
    r.status = Status::Sat;
    satBackground_ = background_.size();
    for (; bgDone_ < background_.size(); ++bgDone_)
      addSymbols(background_[bgDone_], bgSeen_, bgSyms_);
    readModel(bgSyms_);
    // The background's part of the model: the rest's values for later answers over a slice.
    bgModel_ = r.model;
    bgModelSize_ = background_.size();
    std::vector<Term> syms;
    tc_.collectSymbols(goal, syms);
    readModel(syms);
  } else {
    r.status = Status::Unknown;
    r.reason = a.reason;
    if (limitMs < timeoutMs_ && (r.reason == "canceled" || r.reason == "timeout" || r.ms >= limitMs))
      r.reason = "the time limit of the command (" + util::deadlineText() + ", --timeout) was reached";
    else if (r.reason == "canceled" || r.reason == "timeout" || r.ms >= timeoutMs_)
      r.reason = "solver timeout after " + std::to_string(timeoutMs_ / 1000.0).substr(0, 4) + " s";
  }
  if (remember_)
    answers_[key] = {r, limitMs};
  // Unsat over a background known satisfiable: the slice alone is unsat (also when asked over
  // the slice: the slice solver may hold facts of other slices, satisfiable only because the
  // background is). Unknown: only a query that ran to its own limit (not the command's deadline, not an
  // error), reported again to a query with a limit no longer than this one's (an unknown is
  // never wrong).
  bool timedOut = r.status == Status::Unknown && limitMs == timeoutMs_ && r.ms >= 0.9 * limitMs;
  bool sliceUnsat = r.status == Status::Unsat && satBackground_ == background_.size();
  if (!sliceText.empty() && (timedOut || sliceUnsat)) {
    std::lock_guard<std::mutex> lk(sharedMutex);
    if (sharedBytes + sliceText.size() <= kSharedBytesMax) {
      auto [it, fresh] = sharedAnswers.try_emplace(sliceText, SharedAnswer{r.status, r.reason, limitMs});
      if (fresh)
        sharedBytes += sliceText.size();
      else if (it->second.status == Status::Unknown && (r.status == Status::Unsat || limitMs > it->second.limitMs))
        it->second = {r.status, r.reason, limitMs};
    }
  }
  return r;
}

namespace {

std::optional<Value> valueOf(z3::model &model, const z3::expr &e, Sort sort) {
  z3::expr v = model.eval(e, true);
  Value val;
  if (sort == Sort::Bool) {
    val.num = v.is_true() ? 1 : 0;
  } else if (sort == Sort::Int) {
    if (!parseNumeral(v.get_decimal_string(0), val.num))
      return std::nullopt;
  } else {
    if (!v.is_numeral())
      return std::nullopt;
    int128 n, d;
    if (!parseNumeral(v.numerator().get_decimal_string(0), n) ||
        !parseNumeral(v.denominator().get_decimal_string(0), d))
      return std::nullopt;
    val = {n, d};
  }
  return val;
}

} // namespace

Result Solver::check(Term goal, const Query &q) {
  Result r = check(goal);
  if (log_ && q.header && !log_->dumpDir().empty()) {
    // The file holds the goal's slice where the background is known satisfiable: then the
    // slice's answer is the whole query's (the facts left out share no symbol with it and can
    // all be true). An unsat answer over a background not yet shown satisfiable asks that
    // first (the background alone, once per size).
    if (r.status == Status::Unsat && satBackground_ != background_.size() && util::secondsLeft() > 1)
      check(tc_.tru());
    std::vector<Term> facts = background_;
    if (satBackground_ == background_.size()) {
      std::vector<size_t> kept;
      slice(goal, kept);
      facts.clear();
      for (size_t i : kept)
        facts.push_back(background_[i]);
    }
    last_ = &log_->add(q, r, facts, goal, background_.size());
  } else if (log_) {
    last_ = &log_->add(q, r, background_, goal, background_.size());
  } else {
    unlogged_ = {q.name, r.status, r.ms, "", r.repeated, r.sliced};
    last_ = &unlogged_;
  }
  return r;
}

const QueryRecord &QueryLog::add(const Query &q, const Result &r, const std::vector<Term> &background, Term goal,
                                  size_t backgroundSize) {
  QueryRecord rec{q.name, r.status, r.ms, "", r.repeated, r.sliced};
  if (q.header && !dumpDir_.empty()) {
    std::filesystem::create_directories(dumpDir_);
    std::vector<Term> all = background;
    all.push_back(goal);
    // A template instance's name (k<256, float>) is kept readable in the header, not in the
    // file's name.
    rec.file = q.name + ".smt2";
    for (char &c : rec.file)
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '-' && c != '!')
        c = '_';
    std::string header = q.header(r.status);
    if (background.size() < backgroundSize)
      header += "\nthe " + std::to_string(backgroundSize - background.size()) + " of " + std::to_string(backgroundSize) +
                " background facts that share no symbol with the goal are left out (the background is satisfiable: the answer is the whole query's)";
    std::ofstream(dumpDir_ + "/" + rec.file) << toSmtLib2(all, header, true);
  }
  records_.push_back(std::move(rec));
  return records_.back();
}

std::string Solver::version() {
  unsigned a, b, c, d;
  Z3_get_version(&a, &b, &c, &d);
  return "z3 " + std::to_string(a) + "." + std::to_string(b) + "." + std::to_string(c);
}

} // namespace ksynth::smt
