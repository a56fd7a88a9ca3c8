// Safety checker: barrier divergence, bounds, overflow and assertions.

#include "verify/check/checker_internal.h"

#include "util/invariant.h"

#include <cassert>
#include <functional>
#include <map>

namespace ksynth::check::checker_detail {

// ---- barrier ------------------------------------------------------------------------------

int64_t Checker::linearOf(const interp::ThreadId &t, const interp::Env &env) {
  return t.thread.x + env.block.x * (t.thread.y + env.block.y * t.thread.z);
}

// Runs threads i1 and i2 (their barriers compared, not their loads and stores) and lists the
// barrier events of each that `counts` accepts, given the other thread's lane: true where the
// two lists differ, neither run was cut short and no barrier met depends on memory; else
// `why` says which.
bool Checker::barriersDiffer(const interp::Env &env, const interp::ThreadId &i1, const interp::ThreadId &i2,
                             const std::function<bool(const interp::Event &, int64_t)> &counts,
                             std::vector<const ir::Stmt *> &s1, std::vector<const ir::Stmt *> &s2, std::string &why) {
  interp::Env run = env;
  run.recordAccesses = false;
  interp::Trace tr1 = interp::runThread(k_, run, i1);
  interp::Trace tr2 = interp::runThread(k_, run, i2);
  if (!tr1.completed || !tr2.completed) {
    why = "a thread did not complete when replayed (" + tr1.stopReason + tr2.stopReason + ")";
    return false;
  }
  std::string taint;
  // The barriers met, with their masks (lanes that a computed mask names must meet it with the
  // same mask).
  auto seq = [&](const interp::Trace &t, int64_t other, std::vector<const ir::Stmt *> &out,
                 std::vector<uint32_t> &masks) {
    for (const interp::Event &e : t.events)
      if (e.kind == interp::EventKind::Barrier && counts(e, other)) {
        out.push_back(e.stmt);
        masks.push_back(e.mask);
        if (taint.empty())
          taint = e.taint;
      }
  };
  std::vector<uint32_t> m1, m2;
  seq(tr1, linearOf(i2, env) % 32, s1, m1);
  seq(tr2, linearOf(i1, env) % 32, s2, m2);
  if (s1 == s2 && m1 == m2) {
    why = "both threads met the same barriers when run concretely";
    return false;
  }
  if (!taint.empty()) {
    why = "depends on " + taint;
    return false;
  }
  return true;
}

void Checker::checkBarriers() {
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
                       bool sameBlk = i1.block.x == i2.block.x && i1.block.y == i2.block.y &&
                                      i1.block.z == i2.block.z;
                       bool sameWrp = sameBlk && linearOf(i1, env) / 32 == linearOf(i2, env) / 32;
                       // Threads of one block must meet the same block and grid barriers (and,
                       // in one warp, the same __syncwarp()s, those with a partial mask where it
                       // names the other); threads of different blocks the same grid barriers.
                       auto counts = [sameBlk, sameWrp](const interp::Event &e, int64_t other) {
                         return ir::laneInMask(e.mask, other) &&
                                (e.barrier == ir::BarrierKind::Grid ||
                                 (sameBlk && e.barrier == ir::BarrierKind::Block) ||
                                 (sameWrp && e.barrier == ir::BarrierKind::Warp));
                       };
                       std::vector<const ir::Stmt *> s1, s2;
                       if (!barriersDiffer(env, i1, i2, counts, s1, s2, why))
                         return false;
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
  maskedBarrierCandidates(cands);
  settle(o, cands);
}

// A warp barrier with a partial mask (a shuffle's, a vote's, `__syncwarp(m)`): a lane reaching
// it whose mask names another lane of its warp that does not reach it in the same iterations.
// (Only the lanes named meet there, so the uniformity of conditions (controls) is not asked of
// it.) Replayed: both lanes run, and the masked barriers each meets that name the other differ.
void Checker::maskedBarrierCandidates(std::vector<Candidate> &cands) {
  for (size_t i = 0; i < m1_.masked.size() && i < m2_.masked.size(); ++i) {
    const MaskedBarrierSite &x = m1_.masked[i], &y = m2_.masked[i];
    KSYNTH_INVARIANT(x.stmt == y.stmt, "both copies of the thread list masked barriers in one order");
    std::vector<Term> c{x.pc, sameWarp(), distinctThreads(), laneInMaskTerm(tc_, x.mask, laneOf(tc_, g_, t2_))};
    for (size_t j = 0; j < x.iters.size() && j < y.iters.size(); ++j)
      c.push_back(tc_.eq(x.iters[j], y.iters[j]));
    c.push_back(tc_.mkOr(tc_.mkNot(y.pc), tc_.ne(x.mask, y.mask)));
    const ir::Stmt *st = x.stmt;
    std::optional<uint32_t> constant = ir::warpMask(*st);
    cands.push_back({tc_.mkAnd(c), [=, this](const smt::Assignment &m, Obligation &ob, std::string &why) {
                       interp::Env env = envFrom(m);
                       interp::ThreadId i1 = threadFrom(t1_, m), i2 = threadFrom(t2_, m);
                       // The masked barriers a lane meets that name the other lane.
                       auto counts = [](const interp::Event &e, int64_t other) {
                         return e.masked && ir::laneInMask(e.mask, other);
                       };
                       std::vector<const ir::Stmt *> s1, s2;
                       if (!barriersDiffer(env, i1, i2, counts, s1, s2, why))
                         return false;
                       std::string note = threadText(i1, env) + " reaches the warp barrier here, whose mask " +
                                          (constant ? ir::maskHex(*constant) + " " : std::string()) + "names " +
                                          threadText(i2, env) + ", which does not reach it in the same round";
                       if (!constant) {
                         // The masks the two lanes hold there (their first time at it).
                         auto maskAt = [&](const interp::ThreadId &t) -> std::optional<uint32_t> {
                           interp::Env run = env;
                           run.recordAccesses = false;
                           for (const interp::Event &e : interp::runThread(k_, run, t).events)
                             if (e.kind == interp::EventKind::Barrier && e.stmt == st)
                               return e.mask;
                           return std::nullopt;
                         };
                         std::optional<uint32_t> a = maskAt(i1), b = maskAt(i2);
                         note = threadText(i1, env) + " reaches the warp barrier here" +
                                (a ? " with the mask " + ir::maskHex(*a) : std::string()) + ", which names " +
                                threadText(i2, env) +
                                (b && a && *a != *b ? ", which reaches it with the mask " + ir::maskHex(*b)
                                                    : ", which does not reach it in the same round with the same mask");
                       }
                       ob.reason = constant ? "barrier divergence: a lane that a warp primitive's mask names does not reach it"
                                            : "barrier divergence: a lane that a warp primitive's mask names does not reach "
                                              "it with the same mask";
                       ob.loc = st->loc;
                       ob.notes.push_back({st->loc, note});
                       ob.notes.push_back({{}, "they meet " + std::to_string(s1.size()) + " and " +
                                                   std::to_string(s2.size()) + " barriers whose masks name the other; " +
                                                   sizesText(env)});
                       ob.witness = witnessJson(env, {i1, i2});
                       return true;
                     }});
  }
}

// Values a warp-wide operation needs alike in every lane (a WMMA call's pointer and leading
// dimension): two lanes of one warp at the same site, in the same iterations, holding
// different ones. Replayed: both lanes run, and their values at the site differ.
void Checker::uniformCandidates(std::vector<Candidate> &cands) {
  for (size_t i = 0; i < m1_.uniforms.size() && i < m2_.uniforms.size(); ++i) {
    const UniformSite &x = m1_.uniforms[i], &y = m2_.uniforms[i];
    KSYNTH_INVARIANT(x.stmt == y.stmt, "both copies of the thread list uniform sites in one order");
    std::vector<Term> c{x.pc, y.pc, sameWarp(), distinctThreads(), tc_.ne(x.value, y.value)};
    for (size_t j = 0; j < x.iters.size() && j < y.iters.size(); ++j)
      c.push_back(tc_.eq(x.iters[j], y.iters[j]));
    const ir::Stmt *st = x.stmt;
    cands.push_back({tc_.mkAnd(c), [=, this](const smt::Assignment &m, Obligation &ob, std::string &why) {
                       interp::Env env = envFrom(m);
                       interp::ThreadId i1 = threadFrom(t1_, m), i2 = threadFrom(t2_, m);
                       interp::Env run = env; // the values at the site are compared, not accesses
                       run.recordAccesses = false;
                       auto values = [&](const interp::ThreadId &t, std::string &taint) {
                         std::vector<int64_t> v;
                         for (const interp::Event &e : interp::runThread(k_, run, t).events)
                           if (e.kind == interp::EventKind::Uniform && e.stmt == st) {
                             v.push_back(e.flat);
                             if (taint.empty())
                               taint = e.taint;
                           }
                         return v;
                       };
                       std::string taint;
                       std::vector<int64_t> v1 = values(i1, taint), v2 = values(i2, taint);
                       size_t n = std::min(v1.size(), v2.size());
                       size_t at = 0;
                       while (at < n && v1[at] == v2[at])
                         ++at;
                       if (at == n) {
                         why = "both lanes held the same value there when run concretely";
                         return false;
                       }
                       if (!taint.empty()) {
                         why = "depends on " + taint;
                         return false;
                       }
                       ob.reason = st->text;
                       ob.loc = st->loc;
                       ob.notes.push_back({st->loc, "it is " + std::to_string(v1[at]) + " for " + threadText(i1, env) +
                                                        " and " + std::to_string(v2[at]) + " for " +
                                                        threadText(i2, env) + ", one warp (call " +
                                                        std::to_string(at + 1) + " of the site); " + sizesText(env)});
                       ob.witness = witnessJson(env, {i1, i2});
                       return true;
                     }});
  }
}

// ---- bounds -------------------------------------------------------------------------------

void Checker::checkBounds() {
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
    // The extent as a product of sizes (a spec tensor's `len.X = B * C * H * W`), for
    // boundLemmas.
    Term product = nullptr;
    for (Term f : background_)
      if (f->kind == smt::Kind::Eq && f->kids.size() == 2 && (f->kids[0] == extent || f->kids[1] == extent)) {
        Term other = f->kids[0] == extent ? f->kids[1] : f->kids[0];
        if (other->kind == smt::Kind::Mul)
          product = other;
      }
    std::vector<Candidate> cands;
    for (size_t a : sites) {
      const AccessSite &x = m1_.accesses[a];
      Term in = tc_.mkAnd(tc_.le(tc_.intConst(0), x.flat), tc_.lt(x.flat, extent));
      std::vector<Term> hints;
      if (product && x.idx.empty())
        boundLemmas(tc_, x.flat, product, hints);
      if (!x.idx.empty()) {
        std::vector<Term> per;
        for (size_t d = 0; d < x.idx.size(); ++d)
          per.push_back(tc_.mkAnd(tc_.le(tc_.intConst(0), x.idx[d]), tc_.lt(x.idx[d], tc_.intConst(arr.dims[d]))));
        in = tc_.mkAnd(per);
      }
      const ir::Stmt *st = x.stmt;
      cands.push_back(oneThreadCandidate(
          tc_.mkAnd({x.pc, tc_.mkNot(in), tc_.mkAnd(hints)}),
          [st](const interp::Event &e) { return e.kind == interp::EventKind::OutOfBounds && e.stmt == st; },
          [st, this](const interp::Event &e, const interp::Env &env, const interp::ThreadId &i1, Obligation &ob) {
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
                                             k_.arrays[e.array].name + idx + " (as " + st->text + "), element " +
                                             std::to_string(e.flat) + " of " + ext + iterText(e, st->text)});
            ob.witness["element"] = e.flat;
          },
          "the thread stayed in bounds when run concretely"));
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

// Hints for an overflow site whose checked value is a partial address (`(n C + c) H + h` of an
// NCHW tensor, the product before its last factor): mixed-radix lemmas (boundLemmas) bound it
// by a product of some of a tensor's extents, and that product is at most the whole extent
// product, which the spec bounds. Both are true statements about integers.
std::vector<Term> Checker::extentHints(Term ok) {
  std::vector<Term> values, hints;
  for (Term x : smt::subterms(ok))
    if (x->kind == smt::Kind::Le && x->kids.size() == 2)
      for (int i : {0, 1})
        if (x->kids[i]->kind == smt::Kind::Const && x->kids[1 - i]->sort == Sort::Int &&
            (x->kids[1 - i]->kind == smt::Kind::Add || x->kids[1 - i]->kind == smt::Kind::Mul) &&
            std::find(values.begin(), values.end(), x->kids[1 - i]) == values.end())
          values.push_back(x->kids[1 - i]);
  std::vector<Term> products;
  for (Term f : background_)
    if (f->kind == smt::Kind::Eq && f->kids.size() == 2)
      for (Term side : f->kids)
        if (side->kind == smt::Kind::Mul && side->sort == Sort::Int)
          products.push_back(side);
  std::function<void(Term, std::vector<Term> &)> factors = [&](Term t, std::vector<Term> &out) {
    if (t->kind == smt::Kind::Mul) {
      for (Term k : t->kids)
        factors(k, out);
      return;
    }
    out.push_back(t);
  };
  Term zero = tc_.intConst(0), one = tc_.intConst(1);
  for (Term v : values)
    for (Term P : products) {
      std::vector<Term> fs;
      factors(P, fs);
      if (fs.size() < 2 || fs.size() > 6)
        continue;
      for (unsigned mask = 1; mask + 1 < (1u << fs.size()) && hints.size() < 64; ++mask) {
        Term E = one, R = one;
        std::vector<Term> pos;
        for (size_t i = 0; i < fs.size(); ++i) { // E: the factors in the mask; R: the rest
          if (mask >> i & 1)
            E = tc_.mul(E, fs[i]);
          else
            R = tc_.mul(R, fs[i]);
          pos.push_back(tc_.le(zero, fs[i]));
        }
        std::vector<Term> hs;
        if (v->kind == smt::Kind::Add) {
          boundLemmas(tc_, v, E, hs);
        } else {
          // v = N X with N a factor of E = A N: 0 <= X < A bounds v by E.
          for (size_t i = 0; i < v->kids.size() && hs.empty(); ++i) {
            Term N = v->kids[i], A, X = one;
            if (N->kind == smt::Kind::Const || !factorOut(tc_, E, N, A))
              continue;
            for (size_t j = 0; j < v->kids.size(); ++j)
              if (j != i)
                X = tc_.mul(X, v->kids[j]);
            hs.push_back(tc_.implies(tc_.mkAnd({tc_.le(one, N), tc_.le(zero, X), tc_.lt(X, A)}),
                                     tc_.mkAnd(tc_.le(zero, v), tc_.lt(v, E))));
            boundLemmas(tc_, X, A, hs);
          }
        }
        if (hs.empty())
          continue;
        hints.insert(hints.end(), hs.begin(), hs.end());
        pos.push_back(tc_.le(one, R));
        hints.push_back(tc_.implies(tc_.mkAnd(pos), tc_.le(E, P)));
      }
    }
  return hints;
}

void Checker::checkOverflow() {
  Obligation o;
  o.kind = Kind::Overflow;
  o.name = "overflow";
  o.loc = k_.loc;
  std::vector<Candidate> cands;
  for (const ArithSite &s : m1_.arith) {
    const ir::Expr *ex = s.expr;
    ArithKind kind = s.kind;
    cands.push_back(oneThreadCandidate(
        tc_.mkAnd(s.pc, tc_.mkNot(s.ok)),
        [ex, kind](const interp::Event &e) {
          return e.expr == ex && ((kind == ArithKind::DivByZero) == (e.kind == interp::EventKind::DivByZero)) &&
                 (e.kind == interp::EventKind::Overflow || e.kind == interp::EventKind::DivByZero);
        },
        [ex, kind, this](const interp::Event &e, const interp::Env &env, const interp::ThreadId &i1, Obligation &ob) {
          std::string what = kind == ArithKind::DivByZero     ? "division by zero"
                             : kind == ArithKind::ShiftAmount ? "shift amount out of range"
                                                              : "signed integer overflow";
          ob.reason = what + (ex->text.empty() ? "" : " in '" + ex->text + "'");
          ob.loc = ex->loc;
          std::string exact = kind == ArithKind::DivByZero
                                  ? ""
                                  : " (exact value " + smt::toString(e.exact) + ", type " + ex->type.str() + ")";
          ob.notes.push_back({ex->loc, threadText(i1, env) + " computes it" + exact + iterText(e, ex->text)});
        },
        "no overflow happened when the thread was run concretely"));
    if (kind == ArithKind::SignedOverflow)
      if (std::vector<Term> hints = extentHints(s.ok); !hints.empty())
        cands.back().hints = tc_.mkAnd(hints);
  }
  settle(o, cands);
}

// ---- assert -------------------------------------------------------------------------------

// The program's own assertions, or (Kind::Warp, Kind::Align) the rules of its warp-level
// primitives and of its vector accesses, which the frontend states as assertions.
void Checker::checkAsserts(ir::AssertKind which) {
  bool implicit = which != ir::AssertKind::User;
  Obligation o;
  o.kind = which == ir::AssertKind::Warp ? Kind::Warp : which == ir::AssertKind::Align ? Kind::Align : Kind::Assert;
  o.name = kindName(o.kind);
  o.loc = k_.loc;
  std::vector<Candidate> cands;
  bool any = false;
  for (const AssertSite &s : m1_.asserts)
    any |= s.stmt->assertKind == which;
  if (which == ir::AssertKind::Warp)
    any |= !m1_.uniforms.empty();
  if (implicit && !any)
    return; // reported only for kernels that use a warp-level primitive (a vector access)
  if (which == ir::AssertKind::Warp)
    uniformCandidates(cands);
  for (const AssertSite &s : m1_.asserts) {
    const ir::Stmt *st = s.stmt;
    if (st->assertKind != which)
      continue;
    cands.push_back(oneThreadCandidate(
        tc_.mkAnd(s.pc, tc_.mkNot(s.cond)),
        [st](const interp::Event &e) { return e.kind == interp::EventKind::AssertFail && e.stmt == st; },
        [st, this](const interp::Event &e, const interp::Env &env, const interp::ThreadId &i1, Obligation &ob) {
          ob.reason = st->assertKind != ir::AssertKind::User ? st->text : "assertion '" + st->text + "' can fail";
          ob.loc = st->loc;
          ob.notes.push_back({st->loc, "it fails for " + threadText(i1, env) + iterText(e, st->text)});
        },
        "the assertion held when the thread was run concretely"));
  }
  settle(o, cands);
}

} // namespace ksynth::check::checker_detail
