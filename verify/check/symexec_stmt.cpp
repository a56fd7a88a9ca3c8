// Symbolic execution: statements (assignments, memory accesses, branches, barriers) and state merging.

#include "verify/check/symexec_internal.h"

#include "util/deadline.h"

#include <cstddef>
#include <memory>
#include <set>
#include <utility>
#include <vector>

namespace ksynth::check::detail {

State Exec::merge(Term c, const State &a, const State &b) {
  State r;
  r.pc = tc_.mkOr(a.pc, b.pc);
  r.vars.resize(a.vars.size());
  for (size_t i = 0; i < a.vars.size(); ++i) {
    const SVal &x = a.vars[i], &y = b.vars[i];
    if (x.t && y.t) {
      r.vars[i].t = tc_.ite(c, x.t, y.t);
    } else if (x.array == y.array && x.array != -3 && x.off && y.off) {
      r.vars[i] = {nullptr, x.array, tc_.ite(c, x.off, y.off)};
    } else if ((x.array >= 0 || x.array == -3) && (y.array >= 0 || y.array == -3)) {
      r.vars[i] = choosePtr(c, x, y);
    } else if (x.array == -4 && !x.t) {
      // Never assigned on one side: a use there reads an uninitialised pointer. Not so an
      // unknown pointer (-2: loaded from memory, nullptr, moved in a loop), which could point
      // anywhere: keeping only the other side's array would miss its accesses.
      r.vars[i] = y;
    } else if (y.array == -4 && !y.t) {
      r.vars[i] = x;
    } else {
      r.vars[i] = {nullptr, -2, tc_.intConst(0)};
    }
  }
  for (const auto &[arr, st] : a.lastExchange) {
    auto o = b.lastExchange.find(arr);
    r.lastExchange[arr] = o != b.lastExchange.end() && o->second == st ? st : nullptr;
  }
  for (const auto &[arr, st] : b.lastExchange)
    if (!a.lastExchange.count(arr))
      r.lastExchange[arr] = nullptr;
  r.bc = tc_.ite(c, a.bc, b.bc);
  r.wc = tc_.ite(c, a.wc, b.wc);
  r.gc = tc_.ite(c, a.gc, b.gc);
  // Local memory: both sides share a prefix of writes; the rest were made under exclusive
  // path conditions, so their union is exact.
  std::set<int> ids;
  for (const auto &[id, m] : a.local)
    ids.insert(id);
  for (const auto &[id, m] : b.local)
    ids.insert(id);
  for (int id : ids) {
    LocalMem x = a.local.count(id) ? a.local.at(id) : LocalMem{};
    LocalMem y = b.local.count(id) ? b.local.at(id) : LocalMem{};
    if (x.epoch != y.epoch) {
      r.local[id] = LocalMem{newEpoch(), {}};
      continue;
    }
    size_t common = 0;
    while (common < x.writes.size() && common < y.writes.size() && x.writes[common] == y.writes[common])
      ++common;
    LocalMem m = x;
    m.writes.insert(m.writes.end(), y.writes.begin() + static_cast<std::ptrdiff_t>(common), y.writes.end());
    r.local[id] = std::move(m);
  }
  return r;
}

Term Exec::readLocal(const State &s, int arr, Term flat, ir::Type t) {
  auto it = s.local.find(arr);
  int epoch = it == s.local.end() ? 0 : it->second.epoch;
  Term v = tc_.app(tag_ + ".local." + k_.arrays[arr].name + "." + std::to_string(epoch), sortOf(t), {flat});
  if (it != s.local.end())
    for (const auto &w : it->second.writes)
      v = tc_.ite(tc_.mkAnd(w->pc, tc_.eq(w->flat, flat)), w->val, v);
  return v;
}

void Exec::forgetLocals(State &s, const std::set<int> &arrays, bool all) {
  for (size_t a = 0; a < k_.arrays.size(); ++a)
    if (k_.arrays[a].space == ir::Space::Local && (all || arrays.count(static_cast<int>(a))))
      s.local[static_cast<int>(a)] = LocalMem{newEpoch(), {}};
}

// An assert.uniform's value: an integer, or a pointer as its array's id times 2^40 plus its
// offset (the interpreter encodes it alike), so that lanes pointing into different arrays differ.
Term Exec::uniformValue(const ir::Expr &e, const State &s) {
  if (!e.type.isPtr())
    return eval(e, s, s.pc);
  SVal p = evalPtr(e, s, s.pc);
  auto of = [&](int array, Term off) { return tc_.add(off, tc_.intConst(static_cast<int64_t>(array) << 40)); };
  if (p.array >= 0)
    return of(p.array, p.off);
  if (p.array == -3 && !p.alts.empty()) {
    Term r = of(p.alts.back().array, p.alts.back().off);
    for (size_t i = p.alts.size() - 1; i-- > 0;)
      r = tc_.ite(p.alts[i].guard, of(p.alts[i].array, p.alts[i].off), r);
    return r;
  }
  abstraction("a pointer ksynth cannot follow, as an unknown");
  return fresh("uniform.ptr", Sort::Int);
}

// Local arrays a block may store to; `any` when a store's target is not known statically.
void Exec::storedLocals(const ir::Kernel &k, const ir::Block &b, std::set<int> &out, bool &any) {
  for (const auto &st : b) {
    if (st->kind == StmtKind::Store || st->kind == StmtKind::Atomic) {
      const ir::Expr *p = st->ptr.get();
      while (p->op == Op::PtrAdd)
        p = p->args[0].get();
      if (p->op == Op::ArrayRef) {
        if (k.arrays[p->id].space == ir::Space::Local)
          out.insert(p->id);
      } else {
        any = true;
      }
    }
    for (const ir::Block *c : {&st->pre, &st->body, &st->elseBody, &st->step})
      storedLocals(k, *c, out, any);
  }
}

void Exec::block(const ir::Block &b, State &s, ir::SyncLevel after) {
  // The strongest barrier after each statement, from the last one back.
  std::vector<ir::SyncLevel> later(b.size() + 1, after);
  for (size_t i = b.size(); i-- > 0;)
    later[i] = std::max(later[i + 1], ir::strongestBarrier({b[i]}));
  for (size_t i = 0; i < b.size(); ++i)
    stmt(*b[i], s, later[i + 1]);
}

// Records a condition that decides which barriers a thread executes: one with a barrier in
// the blocks it controls, or one that may leave them early while a barrier follows. The
// threads that must agree on it are those that must meet the same barriers: the grid where a
// grid barrier is at stake, the block where a block barrier is, else the warp (only
// __syncwarp()s, the warp primitives' included, inside and after).
void Exec::recordControl(const ir::Stmt &st, const State &s, Term cond, const std::vector<const ir::Block *> &inside,
                         ir::SyncLevel after) {
  if (dry_)
    return;
  ir::SyncLevel in = ir::SyncLevel::None;
  bool exits = false, grid = false;
  for (const ir::Block *b : inside) {
    in = std::max(in, ir::strongestBarrier(*b, st.kind == ir::StmtKind::Loop));
    exits |= !ir::exitsLeaving(*b).empty();
    grid |= ir::containsGridBarrier(*b);
  }
  ir::SyncLevel at = exits ? std::max(in, after) : in; // the strongest barrier this condition decides
  if (at == ir::SyncLevel::None)
    return;
  out_.controls.push_back({&st, st.loc, at == ir::SyncLevel::Warp, s.pc, cond, iters_});
  out_.controls.back().grid = grid || (kernelHasGridBarrier_ && exits && after == ir::SyncLevel::Block);
}

void Exec::access(const ir::Stmt &st, State &s, bool write, bool atomic, Term *loaded, int *arrOut,
                  Term *flatOut, std::vector<SVal::Alt> *alts) {
  AccessSite a;
  a.stmt = &st;
  a.write = write;
  a.atomic = atomic;
  a.pc = s.pc;
  a.bc = s.bc;
  a.wc = s.wc;
  a.gc = s.gc;
  a.iters = iters_;
  SVal p = evalPtr(*st.ptr, s, s.pc);
  std::vector<Term> idx;
  for (const auto &i : st.index)
    idx.push_back(eval(*i, s, s.pc));
  if (p.array == -3) {
    // One access per array the pointer may name, each under its condition.
    Term i0 = idx.empty() ? tc_.intConst(0) : idx[0];
    for (const SVal::Alt &alt : p.alts) {
      AccessSite b = a;
      b.array = alt.array;
      b.pc = tc_.mkAnd(s.pc, alt.guard);
      b.flat = tc_.add(alt.off, i0);
      if (loaded && *loaded && !dry_)
        out_.loads.push_back({*loaded, b.array, b.flat});
      if (!dry_ && !(st.kind == StmtKind::Load && st.precondition))
        out_.accesses.push_back(std::move(b));
    }
    if (arrOut)
      *arrOut = -3;
    if (alts)
      *alts = p.alts;
    return;
  }
  a.array = p.array;
  if (p.array < 0) {
    a.pointerKnown = false;
    a.flat = tc_.intConst(0);
  } else {
    const ir::Array &arr = k_.arrays[p.array];
    if (st.ptr->op == Op::ArrayRef && arr.dims.size() > 1 && idx.size() == arr.dims.size()) {
      a.idx = idx;
      Term flat = tc_.intConst(0);
      for (size_t d = 0; d < idx.size(); ++d) {
        int128 stride = 1;
        for (size_t j = d + 1; j < arr.dims.size(); ++j)
          stride *= arr.dims[j];
        flat = tc_.add(flat, tc_.mul(tc_.intConst(stride), idx[d]));
      }
      a.flat = flat;
    } else {
      a.flat = tc_.add(p.off, idx.empty() ? tc_.intConst(0) : idx[0]);
    }
  }
  if (loaded && *loaded && a.array >= 0 && !dry_)
    out_.loads.push_back({*loaded, a.array, a.flat});
  if (loaded)
    a.loaded = *loaded;
  if (arrOut)
    *arrOut = a.array;
  if (flatOut)
    *flatOut = a.flat;
  if (!dry_ && !(st.kind == StmtKind::Load && st.precondition)) // annotation reads are no accesses
    out_.accesses.push_back(std::move(a));
}

// The array a pointer expression is based on syntactically, or -1.
int Exec::baseArrayOf(const ir::Expr &p) {
  const ir::Expr *e = &p;
  while (e->op == Op::PtrAdd)
    e = e->args[0].get();
  return e->op == Op::ArrayRef ? e->id : -1;
}

// The flat cell a Load on a syntactic array base touches (as access() computes it).
Term Exec::flatOf(const ir::Stmt &st, const State &s) {
  SVal p = evalPtr(*st.ptr, s, s.pc);
  std::vector<Term> idx;
  for (const auto &i : st.index)
    idx.push_back(eval(*i, s, s.pc));
  const ir::Array &arr = k_.arrays[p.array];
  if (st.ptr->op == Op::ArrayRef && arr.dims.size() > 1 && idx.size() == arr.dims.size()) {
    Term flat = tc_.intConst(0);
    for (size_t d = 0; d < idx.size(); ++d) {
      int128 stride = 1;
      for (size_t j = d + 1; j < arr.dims.size(); ++j)
        stride *= arr.dims[j];
      flat = tc_.add(flat, tc_.mul(tc_.intConst(stride), idx[d]));
    }
    return flat;
  }
  return tc_.add(p.off, idx.empty() ? tc_.intConst(0) : idx[0]);
}

// A fresh value of an integer type lies in the type's range (for the simplifier and the solver).
void Exec::boundToType(Term sym, const ir::Type &t) {
  if (!t.isInt())
    return;
  tc_.setBounds(sym, t.minValue(), t.maxValue());
  if (!dry_)
    out_.facts.push_back(tc_.inRange(sym, t.minValue(), t.maxValue()));
}

Term Exec::idxOf(const ir::Stmt &st, const State &s) {
  return st.index.empty() ? tc_.intConst(0) : eval(*st.index[0], s, s.pc);
}

void Exec::assign(State &s, int var, const ir::Expr &value) {
  if (k_.vars[var].type.isPtr()) {
    SVal p = evalPtr(value, s, s.pc);
    s.vars[var] = p;
    return;
  }
  s.vars[var] = {eval(value, s, s.pc)};
}

void Exec::stmt(const ir::Stmt &st, State &s, ir::SyncLevel after) {
  if (s.pc == tc_.fls())
    return;
  util::checkDeadline();
  switch (st.kind) {
  case StmtKind::Assign: assign(s, st.var, *st.value); return;
  case StmtKind::Load: {
    const ir::Var &v = k_.vars[st.var];
    int arr = -1;
    Term flat = nullptr;
    std::vector<SVal::Alt> alts;
    Term sym = nullptr;
    int base = st.ptr ? baseArrayOf(*st.ptr) : -1;
    if (base < 0 && st.ptr && !v.type.isPtr()) {
      // Through a pointer variable that holds one known array (`x = X + r * C; x[c]`).
      SVal p = evalPtr(*st.ptr, s, s.pc);
      if (p.array >= 0 && p.off)
        base = p.array;
    }
    if (!v.type.isPtr() && st.ptr && g_.readOnly.count(base)) {
      // Contents fixed during the kernel: the same function of the cell for every load.
      const ir::Array &ra = k_.arrays[base];
      sym = tc_.app(memName(k_, base), sortOf(ra.elem), {flatOf(st, s)});
    } else if (!v.type.isPtr() && sharedContent && base >= 0 && k_.arrays[base].warpExchange) {
      // A lane's value in a warp exchange: what the lane owning the cell stored in this
      // exchange, wx.N(cell) for the N-th exchange store (the prover resolves it); inside
      // loops, wx.N(cell, i1, ..., ik) with the reader's iterations of them, which say the
      // round; after stores on different paths, unknown.
      auto last = s.lastExchange.find(base);
      if (last != s.lastExchange.end() && last->second) {
        std::vector<Term> args{flatOf(st, s)};
        args.insert(args.end(), iters_.begin(), iters_.end());
        sym = tc_.app(exchangeName(k_, last->second), sortOf(k_.arrays[base].elem), args);
      } else
        sym = fresh("load." + v.name, sortOf(v.type));
    } else if (!v.type.isPtr() && sharedContent && base >= 0 && k_.arrays[base].space == ir::Space::Shared &&
               ((k_.arrays[base].elem.isFloat() && v.type.isFloat()) ||
                (k_.arrays[base].elem.isInt() && v.type.isInt() && k_.arrays[base].elem.bits == v.type.bits &&
                 k_.arrays[base].elem.isSigned == v.type.isSigned))) {
      // The cell's content at the start of this barrier interval (valid only where the
      // thread has not stored to it earlier in the interval: the caller checks). An integer
      // cell (an argmax's column beside its value) likewise, read as the type it holds.
      sym = tc_.app(shmName(k_, base), sortOf(v.type), {s.bc, flatOf(st, s)});
    } else if (!v.type.isPtr()) {
      sym = fresh("load." + v.name, sortOf(v.type));
    }
    access(st, s, false, false, &sym, &arr, &flat, &alts);
    if (!v.type.isPtr() && arr >= 0 && k_.arrays[arr].space == ir::Space::Local) {
      s.vars[st.var] = {readLocal(s, arr, flat, v.type)};
      return;
    }
    if (!v.type.isPtr() && arr == -3) {
      // A choice of arrays: the value read from whichever one it is.
      Term val = sym;
      for (const SVal::Alt &a : alts)
        if (k_.arrays[a.array].space == ir::Space::Local)
          val = tc_.ite(a.guard, readLocal(s, a.array, tc_.add(a.off, idxOf(st, s)), v.type), val);
      boundToType(sym, v.type);
      s.vars[st.var] = {val};
      return;
    }
    if (v.type.isPtr()) {
      s.vars[st.var] = {nullptr, -2, tc_.intConst(0)};
    } else {
      if (v.type.isInt())
        tc_.setBounds(sym, v.type.minValue(), v.type.maxValue());
      if (!dry_ && v.type.isInt())
        out_.facts.push_back(tc_.inRange(sym, v.type.minValue(), v.type.maxValue()));
      s.vars[st.var] = {sym};
    }
    return;
  }
  case StmtKind::Store: {
    Term val = st.value->type.isPtr() ? nullptr : eval(*st.value, s, s.pc);
    int arr = -1;
    Term flat = nullptr;
    std::vector<SVal::Alt> alts;
    size_t before = out_.accesses.size();
    access(st, s, true, false, nullptr, &arr, &flat, &alts);
    for (size_t a = before; a < out_.accesses.size(); ++a)
      out_.accesses[a].value = val;
    if (arr >= 0 && k_.arrays[arr].warpExchange)
      s.lastExchange[arr] = &st;
    if (arr >= 0 && k_.arrays[arr].space == ir::Space::Local) {
      if (val && !k_.arrays[arr].elem.isPtr())
        s.local[arr].writes.push_back(std::make_shared<LocalWrite>(LocalWrite{s.pc, flat, val}));
      else
        forgetLocals(s, {arr}, false);
    } else if (arr == -3) {
      for (const SVal::Alt &a : alts)
        if (k_.arrays[a.array].space == ir::Space::Local) {
          if (val && !k_.arrays[a.array].elem.isPtr())
            s.local[a.array].writes.push_back(std::make_shared<LocalWrite>(
                LocalWrite{tc_.mkAnd(s.pc, a.guard), tc_.add(a.off, idxOf(st, s)), val}));
          else
            forgetLocals(s, {a.array}, false);
        }
    } else if (arr < 0) {
      forgetLocals(s, {}, true); // a store through an unresolved pointer may hit any of them
    }
    return;
  }
  case StmtKind::Atomic: {
    Term operand = eval(*st.value, s, s.pc);
    {
      const ir::Expr *p = st.ptr.get();
      while (p->op == Op::PtrAdd)
        p = p->args[0].get();
      if (p->op != Op::ArrayRef || k_.arrays[p->id].space == ir::Space::Local)
        forgetLocals(s, {}, true);
    }
    Term sym = nullptr;
    if (st.var >= 0) {
      const ir::Var &v = k_.vars[st.var];
      sym = fresh("atomic." + v.name, sortOf(v.type));
      if (v.type.isInt() && !dry_)
        out_.facts.push_back(tc_.inRange(sym, v.type.minValue(), v.type.maxValue()));
      s.vars[st.var] = {sym};
    }
    size_t before = out_.accesses.size();
    access(st, s, true, true, nullptr);
    for (size_t a = before; a < out_.accesses.size(); ++a)
      out_.accesses[a].value = operand; // the operand (the update depends on st.atomic)
    return;
  }
  case StmtKind::If: {
    Term c = eval(*st.cond, s, s.pc);
    recordControl(st, s, c, {&st.body, &st.elseBody}, after);
    State t = s, e = s;
    t.pc = tc_.mkAnd(s.pc, c);
    e.pc = tc_.mkAnd(s.pc, tc_.mkNot(c));
    Term pc0 = s.pc, t0 = t.pc, e0 = e.pc;
    block(st.body, t, after);
    block(st.elseBody, e, after);
    s = merge(c, t, e);
    // Both sides reach the join as they started: the join's condition is the one before the
    // branch (pc & c | pc & !c, which the terms do not fold; a store after a value-dependent
    // branch, `if (ov > bv) ...` in an argmax, is then reached where the thread is).
    if (t.pc == t0 && e.pc == e0)
      s.pc = pc0;
    return;
  }
  case StmtKind::Block: {
    pendingExits_.erase(st.label);
    block(st.body, s, after);
    auto it = pendingExits_.find(st.label);
    if (it != pendingExits_.end()) {
      for (State &x : it->second)
        s = merge(x.pc, x, s);
      pendingExits_.erase(it);
    }
    return;
  }
  case StmtKind::Exit: {
    pendingExits_[st.label].push_back(s);
    s.pc = tc_.fls();
    return;
  }
  case StmtKind::Loop: loop(st, s, after); return;
  case StmtKind::Barrier: {
    if (st.barrier != ir::BarrierKind::Warp)
      s.bc = tc_.add(s.bc, tc_.intConst(1));
    if (st.barrier == ir::BarrierKind::Grid)
      s.gc = tc_.add(s.gc, tc_.intConst(1));
    if (!st.value) {
      s.wc = tc_.add(s.wc, tc_.intConst(1));
      return;
    }
    Term mask = eval(*st.value, s, s.pc);
    if (!dry_)
      out_.masked.push_back({&st, s.pc, iters_, mask});
    // It orders this thread with the peer only where it names the peer's lane (the peer then
    // meets it with the same mask, which names this lane: the barrier obligation).
    Term one = peer ? tc_.ite(laneInMaskTerm(tc_, mask, laneOf(tc_, g_, *peer)), tc_.intConst(1), tc_.intConst(0))
                    : fresh("wc.masked", Sort::Int);
    s.wc = tc_.add(s.wc, one);
    return;
  }
  case StmtKind::Assume:
    if (!dry_)
      out_.assumptions.push_back(tc_.implies(s.pc, eval(*st.cond, s, s.pc)));
    return;
  case StmtKind::Assert:
    if (!dry_ && st.assertKind == ir::AssertKind::Uniform)
      out_.uniforms.push_back({&st, s.pc, uniformValue(*st.cond, s), iters_});
    else if (!dry_)
      out_.asserts.push_back({&st, s.pc, eval(*st.cond, s, s.pc)});
    return;
  case StmtKind::Unsupported:
    if (!dry_)
      out_.unsupported.push_back(&st);
    return;
  case StmtKind::Havoc: {
    const ir::Var &v = k_.vars[st.var];
    if (v.type.isPtr()) {
      s.vars[st.var] = {nullptr, -2, tc_.intConst(0)};
      return;
    }
    Term sym = fresh("havoc." + v.name, sortOf(v.type));
    boundToType(sym, v.type);
    s.vars[st.var] = {sym};
    if (st.warpCollective && !dry_)
      out_.activeMasks.push_back({&st, s.pc, iters_, sym});
    return;
  }
  }
}

void Exec::assignedVars(const ir::Block &b, std::set<int> &out) {
  for (const auto &s : b) {
    if ((s->kind == StmtKind::Assign || s->kind == StmtKind::Load || s->kind == StmtKind::Atomic ||
         s->kind == StmtKind::Havoc) &&
        s->var >= 0)
      out.insert(s->var);
    for (const ir::Block *c : {&s->pre, &s->body, &s->elseBody, &s->step})
      assignedVars(*c, out);
  }
}

} // namespace ksynth::check::detail
