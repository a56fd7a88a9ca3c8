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
  z3::context ctx;
  z3::solver solver{ctx};
  std::unordered_map<Term, z3::expr> memo;
  std::unordered_map<std::string, z3::func_decl> funs;

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

Solver::Solver(TermContext &tc, unsigned timeoutMs)
    : impl_(std::make_unique<Impl>()), tc_(tc), timeoutMs_(timeoutMs),
      remember_(std::getenv("KSYNTH_ASK_EVERY_QUERY") == nullptr) {}

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

Result Solver::check(Term goal) {
  Result r;
  // The command's own limit (--timeout) cuts every query to the time left, and once it has
  // passed no query runs: util::TimeLimit ends the work (the driver reports it).
  const unsigned limitMs = static_cast<unsigned>(std::min<double>(timeoutMs_, util::secondsLeft() * 1000.0));
  if (util::hasDeadline() && limitMs < 1)
    throw util::TimeLimit();
  const std::pair<Term, size_t> key{goal, background_.size()};
  if (auto it = answers_.find(key); remember_ && it != answers_.end() &&
                                    (it->second.first.status != Status::Unknown || limitMs <= it->second.second)) {
    Result again = it->second.first;
    again.ms = 0;
    again.repeated = true;
    return again;
  }
  auto &s = impl_->solver;
  z3::params p(impl_->ctx);
  p.set("timeout", limitMs);
  s.set(p);
  s.push();
  s.add(impl_->conv(goal));
  auto start = std::chrono::steady_clock::now();

  // Z3's soft timeout does not always fire on nonlinear queries: a watchdog interrupts the
  // context shortly after the limit so every query ends.
  std::mutex m;
  std::condition_variable cv;
  bool done = false;
  std::thread watchdog([&] {
    std::unique_lock<std::mutex> lk(m);
    if (!cv.wait_for(lk, std::chrono::milliseconds(limitMs + 500), [&] { return done; }))
      impl_->ctx.interrupt();
  });
  z3::check_result cr = z3::unknown;
  try {
    cr = s.check();
  } catch (const z3::exception &e) {
    r.reason = e.msg();
  }
  {
    std::lock_guard<std::mutex> lk(m);
    done = true;
  }
  cv.notify_all();
  watchdog.join();
  r.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();

  if (cr == z3::unsat) {
    r.status = Status::Unsat;
  } else if (cr == z3::sat) {
    r.status = Status::Sat;
    z3::model model = s.get_model();
    for (; bgDone_ < background_.size(); ++bgDone_) {
      std::vector<Term> stack{background_[bgDone_]};
      while (!stack.empty()) {
        Term x = stack.back();
        stack.pop_back();
        if (!bgSeen_.insert(x).second)
          continue;
        if (x->kind == Kind::Var || x->kind == Kind::App)
          bgSyms_.push_back(x);
        for (Term k : x->kids)
          stack.push_back(k);
      }
    }
    std::vector<Term> syms = bgSyms_;
    tc_.collectSymbols(goal, syms);
    for (Term sym : syms) {
      z3::expr v = model.eval(impl_->conv(sym), true);
      Value val;
      if (sym->sort == Sort::Bool) {
        val.num = v.is_true() ? 1 : 0;
      } else if (sym->sort == Sort::Int) {
        if (!parseNumeral(v.get_decimal_string(0), val.num))
          continue;
      } else {
        if (!v.is_numeral())
          continue;
        int128 n, d;
        if (!parseNumeral(v.numerator().get_decimal_string(0), n) ||
            !parseNumeral(v.denominator().get_decimal_string(0), d))
          continue;
        val = {n, d};
      }
      r.model[sym] = val;
    }
  } else {
    r.status = Status::Unknown;
    if (r.reason.empty())
      r.reason = s.reason_unknown();
    if (limitMs < timeoutMs_ && (r.reason == "canceled" || r.reason == "timeout" || r.ms >= limitMs))
      r.reason = "the time limit of the command (" + util::deadlineText() + ", --timeout) was reached";
    else if (r.reason == "canceled" || r.reason == "timeout" || r.ms >= timeoutMs_)
      r.reason = "solver timeout after " + std::to_string(timeoutMs_ / 1000.0).substr(0, 4) + " s";
  }
  s.pop();
  if (remember_)
    answers_[key] = {r, limitMs};
  return r;
}

Result Solver::check(Term goal, const Query &q) {
  Result r = check(goal);
  if (log_) {
    last_ = &log_->add(q, r, background_, goal);
  } else {
    unlogged_ = {q.name, r.status, r.ms, "", r.repeated};
    last_ = &unlogged_;
  }
  return r;
}

const QueryRecord &QueryLog::add(const Query &q, const Result &r, const std::vector<Term> &background, Term goal) {
  QueryRecord rec{q.name, r.status, r.ms, "", r.repeated};
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
    std::ofstream(dumpDir_ + "/" + rec.file) << toSmtLib2(all, q.header(r.status), true);
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
