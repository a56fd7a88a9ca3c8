// Concrete interpreter: one thread's statements (memory accesses, loops, branches, barriers).

#include "verify/interp/interp_internal.h"

#include <algorithm>
#include <cmath>

namespace ksynth::interp::detail {

// An `if` whose arms only assign variables (nested such ifs included).
bool Machine::onlyAssigns(const ir::Block &b) {
  for (const ir::StmtPtr &st : b) {
    if (st->kind == StmtKind::Assign)
      continue;
    if (st->kind == StmtKind::If && onlyAssigns(st->body) && onlyAssigns(st->elseBody))
      continue;
    return false;
  }
  return true;
}

Flow Machine::execLoop(const Stmt &s) {
  std::string savedCtrl = scopedCtrl;
  std::string condTaint; // first tainted condition of this loop instance
  iters.emplace_back(s.label, 0);
  int64_t iter = 0;
  Flow out;
  // Runs one part of the loop; returns true when the loop is left (out says how).
  auto part = [&](const ir::Block &b, bool isBody) {
    Flow f = execBlock(b);
    if (isBody)
      endScope(s.contLabel, {&s.body});
    if (!f.exit)
      return false;
    if (isBody && f.label == s.contLabel)
      return false; // continue: the step still runs
    if (f.label != s.label)
      out = f; // an exit further out
    return true;
  };
  auto test = [&]() {
    cur = &s; // events of the condition belong to the Loop, not to the last body statement
    Value c = eval(*s.cond);
    dependsOn(c, "a loop test depends on a value loaded from memory");
    noteInvented(c.taint);
    if (!c.taint.empty()) {
      addTaint(condTaint, c.taint);
      // SEMANTICS (taint): everything after a tainted test in this loop instance runs only
      // because of it.
      addTaint(scopedCtrl, c.taint);
    }
    return truthy(c);
  };
  while (true) {
    step();
    iters.back().second = iter;
    if (s.testFirst) {
      // while (true) { pre; if (!cond) break; body; step }
      if (part(s.pre, false) || !test() || part(s.body, true) || part(s.step, false))
        break;
    } else {
      // SEMANTICS: do { body; step; pre } while (cond)
      if (part(s.body, true) || part(s.step, false) || part(s.pre, false) || !test())
        break;
    }
    ++iter;
  }
  iters.pop_back();
  scopedCtrl = savedCtrl;
  if (!condTaint.empty()) {
    taintEffects(s.pre, condTaint);
    taintEffects(s.body, condTaint);
    taintEffects(s.step, condTaint);
  }
  endScope(s.label, {&s.pre, &s.body, &s.step});
  return out;
}

Flow Machine::execAccess(const Stmt &s) {
  Value p = eval(*s.ptr);
  if (p.kind != Value::Kind::Ptr)
    malformed("access through a non-pointer");
  if (p.array < 0 || p.array >= static_cast<int>(k.arrays.size()))
    malformed("access through a null or unassigned pointer");
  const ir::Array &arr = k.arrays[p.array];
  std::string addrT = p.taint;
  noteInvented(p.taint);
  std::vector<__int128> idx;
  for (const ir::ExprPtr &i : s.index) {
    Value v = eval(*i);
    if (v.kind != Value::Kind::Int)
      malformed("non-integer index");
    dependsOn(v, "an address depends on a value loaded from memory");
    idx.push_back(v.i);
    noteInvented(v.taint);
    addTaint(addrT, v.taint);
  }

  bool inBounds = true;
  __int128 flat = 0;
  if (s.ptr->op == Op::ArrayRef && arr.dims.size() > 1 && idx.size() == arr.dims.size()) {
    // SEMANTICS: a multi-dimensional access checks every index against its dimension and
    // flattens row-major.
    for (size_t d = 0; d < idx.size(); ++d) {
      if (arr.dims[d] > 0 && (idx[d] < 0 || idx[d] >= arr.dims[d]))
        inBounds = false;
      flat = flat * arr.dims[d] + idx[d];
    }
  } else if (idx.size() == 1) {
    flat = static_cast<__int128>(p.offset) + idx[0];
  } else {
    malformed("access to '" + arr.name + "' with " + std::to_string(idx.size()) + " indices");
  }
  // SEMANTICS: bounds. Pointer parameters and dynamic shared arrays: [0, Env::lens) when
  // given, else unchecked; every other array: [0, elementCount) of its static dims.
  bool sized = arr.paramIndex >= 0 || arr.dynamicShared;
  auto len = env.lens.find(p.array);
  if (sized) {
    if (len != env.lens.end() && (flat < 0 || flat >= len->second))
      inBounds = false;
  } else if (flat < 0 || flat >= arr.elementCount()) {
    inBounds = false;
  }

  std::string ct = ctrl();
  Event ev = mkEvent(EventKind::Access);
  ev.array = p.array;
  ev.flat = clamp64(flat);
  for (__int128 i : idx)
    ev.indices.push_back(clamp64(i));
  ev.isWrite = s.kind != StmtKind::Load;
  ev.isAtomic = s.kind == StmtKind::Atomic;
  bool keep = !grid && env.recordAccesses && (!env.recordOnly || env.recordOnly->count(&s));
  if (keep || !inBounds)
    ev.vars = snapshot();
  ev.taint = join(join(addrT, ct), countTaint);
  if (keep)
    record(ev);
  if (!inBounds) {
    ev.kind = EventKind::OutOfBounds;
    record(std::move(ev));
    if (s.kind != StmtKind::Store && s.var >= 0) {
      Value z = zeroOf(k.vars[s.var].type);
      z.taint = "the value of an out-of-bounds read";
      assign(s.var, z);
    }
    return {};
  }

  auto key = std::make_pair(p.array, clamp64(flat));
  // The cell's current value as this thread sees it, tainted as a load.
  bool inGrid = grid && arr.space != ir::Space::Local;
  auto readCell = [&]() {
    Value v;
    if (inGrid) {
      gridRead(*grid, arr, key, env, v);
      addTaint(v.taint, addrT);
      return v;
    }
    auto mine = mem.find(key);
    if (mine != mem.end()) {
      v = mine->second;
      auto at = arrayTaint.find(p.array);
      if (at != arrayTaint.end())
        addTaint(v.taint, at->second);
      addTaint(v.taint, memTaint);
    } else {
      auto init = env.memory.find(key);
      v = init != env.memory.end() ? fit(init->second, arr.elem) : zeroOf(arr.elem);
      if (!env.exactMemory)
        addTaint(v.taint, "value loaded from " + arr.name + "[" + std::to_string(key.second) + "]");
      if (symOn())
        v.sym = env.symbolic->cell(arr, key.second, init == env.memory.end(),
                                   init == env.memory.end() ? -2 - threadLinear() : -1);
    }
    addTaint(v.taint, addrT);
    return v;
  };
  auto writeCell = [&](Value v) {
    addTaint(v.taint, addrT);
    addTaint(v.taint, ct);
    if (inGrid) {
      gridWrite(*grid, key, fit(std::move(v), arr.elem), s.kind == StmtKind::Atomic);
      return;
    }
    mem[key] = fit(std::move(v), arr.elem);
    // A store whose address depends on memory may have gone to any cell of the array.
    if (!addrT.empty())
      addTaint(arrayTaint[p.array], addrT);
  };

  if (s.kind == StmtKind::Load) {
    assign(s.var, readCell());
    return {};
  }
  if (s.kind == StmtKind::Store) {
    Value v = eval(*s.value);
    checkNarrowing(v, s.value->type, arr.elem);
    writeCell(std::move(v));
    return {};
  }

  // Atomic read-modify-write.
  Value old = readCell();
  Value v = eval(*s.value);
  Value nv = atomicUpdate(s, arr, key, old, v);
  writeCell(nv);
  if (s.var >= 0) {
    assign(s.var, old);
    if (symOn()) {
      orderDependent.resize(vals.size(), false);
      orderDependent[s.var] = true;
    }
  }
  return {};
}

// The new content of an atomic's cell: `old` updated with the operand `v` (a CAS also
// evaluates its compare value here).
Value Machine::atomicUpdate(const Stmt &s, const ir::Array &arr, const std::pair<int, int64_t> &key, const Value &old,
                            const Value &v) {
  Value nv = old;
  nv.taint = join(old.taint, v.taint);
  const Type &et = arr.elem;
  using A = ir::AtomicOp;
  if (symOn()) {
    // SEMANTICS (symbolic): only additions, subtractions, or min or max alone on a cell give
    // a result that does not depend on the order of the threads.
    bool commutes = s.atomic == A::Add || s.atomic == A::Sub || s.atomic == A::Min || s.atomic == A::Max;
    int kind = s.atomic == A::Sub ? static_cast<int>(A::Add) : static_cast<int>(s.atomic);
    auto [it, fresh] = env.symbolic->atomicOps.emplace(key, kind);
    if (!commutes)
      noteDependence(std::string("atomic ") + ir::atomicOpName(s.atomic) + ": its result depends on the order of threads");
    else if (!arr.elem.isFloat() && (s.atomic == A::Add || s.atomic == A::Sub) && (symVar(old) || symVar(v)))
      noteDependence("an integer atomic on a value loaded from memory (it wraps around)");
    else if (!fresh && it->second != kind)
      noteDependence("two kinds of atomics on one cell: the result depends on their order");
  }
  if (symVar(old) || symVar(v)) {
    const char *name = s.atomic == A::Add ? "+" : s.atomic == A::Sub ? "-" : s.atomic == A::Min ? "min"
                       : s.atomic == A::Max ? "max" : nullptr;
    if (name)
      nv = withSym(nv, name, {&old, &v});
  }
  if (et.isFloat()) {
    double o = old.f, x = toDouble(v);
    switch (s.atomic) {
    case A::Add: nv.f = roundTo(o + x, et); break;
    case A::Sub: nv.f = roundTo(o - x, et); break;
    case A::Min: nv.f = std::fmin(o, x); break;
    case A::Max: nv.f = std::fmax(o, x); break;
    case A::Exch: nv.f = roundTo(x, et); break;
    case A::CAS: {
      if (!s.value2)
        malformed("atomicCAS without a compare value");
      Value cmp = eval(*s.value2);
      addTaint(nv.taint, cmp.taint);
      if (o == toDouble(cmp))
        nv.f = roundTo(x, et);
      break;
    }
    default: malformed(std::string("atomic ") + ir::atomicOpName(s.atomic) + " on a float");
    }
  } else if (et.isInt() && v.kind == Value::Kind::Int) {
    __int128 o = old.i, x = v.i, r = o;
    // SEMANTICS: atomics wrap without an Overflow event.
    switch (s.atomic) {
    case A::Add: r = o + x; break;
    case A::Sub: r = o - x; break;
    case A::Min: r = std::min(o, x); break;
    case A::Max: r = std::max(o, x); break;
    case A::Exch: r = x; break;
    case A::CAS: {
      if (!s.value2)
        malformed("atomicCAS without a compare value");
      Value cmp = eval(*s.value2);
      addTaint(nv.taint, cmp.taint);
      if (o == cmp.i)
        r = x;
      break;
    }
    case A::And: r = o & x; break;
    case A::Or: r = o | x; break;
    case A::Xor: r = o ^ x; break;
    case A::Inc: r = o >= x ? 0 : o + 1; break;              // atomicInc
    case A::Dec: r = (o == 0 || o > x) ? x : o - 1; break;    // atomicDec
    }
    nv.i = wrapTo(r, et);
  } else {
    malformed("atomic on " + et.str());
  }
  return nv;
}

// SEMANTICS (symbolic): an `if` on a symbolic condition whose arms only assign variables
// runs both arms from the same state; each variable ends as ite(condition, then, else).
// Concretely the taken arm's values are kept.
Flow Machine::execMerged(const Stmt &s, const Value &c) {
  std::vector<Value> before = vals;
  std::vector<bool> beforeAssigned = assigned;
  execBlock(s.body);
  std::vector<Value> thenVals = std::move(vals);
  std::vector<bool> thenAssigned = assigned;
  vals = before;
  assigned = beforeAssigned;
  execBlock(s.elseBody);
  bool taken = truthy(c);
  for (size_t v = 0; v < vals.size(); ++v) {
    const Value &x = thenVals[v], &y = vals[v];
    assigned[v] = thenAssigned[v] || assigned[v];
    if (sameValue(x, y))
      continue;
    Value r = taken ? x : y;
    addTaint(r.taint, c.taint);
    if (x.kind == Value::Kind::Ptr || y.kind == Value::Kind::Ptr) {
      noteDependence("a pointer chosen by a value loaded from memory");
    } else {
      r = withSym(r, "ite", {&c, &x, &y});
    }
    vals[v] = std::move(r);
  }
  return {};
}

Flow Machine::exec(const Stmt &s) {
  step();
  cur = &s;
  switch (s.kind) {
  case StmtKind::Assign: assign(s.var, eval(*s.value)); return {};
  case StmtKind::Load:
  case StmtKind::Store:
  case StmtKind::Atomic: return execAccess(s);
  case StmtKind::If: {
    Value c = eval(*s.cond);
    if (symVar(c)) {
      if (onlyAssigns(s.body) && onlyAssigns(s.elseBody))
        return execMerged(s, c);
      noteDependence("a branch depends on a value loaded from memory");
    }
    std::string saved = scopedCtrl;
    addTaint(scopedCtrl, c.taint);
    noteInvented(c.taint);
    Flow f = execBlock(truthy(c) ? s.body : s.elseBody);
    scopedCtrl = saved;
    if (!c.taint.empty()) {
      // SEMANTICS (taint): what the other branch would have done, and whatever follows an
      // Exit that one branch takes, depends on the condition.
      taintEffects(s.body, c.taint);
      taintEffects(s.elseBody, c.taint);
      for (const ir::Block *b : {&s.body, &s.elseBody}) {
        auto it = exitsCache.find(b);
        if (it == exitsCache.end())
          it = exitsCache.emplace(b, ir::exitsLeaving(*b)).first;
        for (int label : it->second) {
          bool known = false; // keep the first origin, and the list short in loops
          for (const auto &ec : exitCtrl)
            known |= ec.first == label;
          if (!known)
            exitCtrl.emplace_back(label, c.taint);
        }
      }
    }
    return f;
  }
  case StmtKind::Loop: return execLoop(s);
  case StmtKind::Block: {
    Flow f = execBlock(s.body);
    endScope(s.label, {&s.body});
    if (f.exit && f.label == s.label)
      return {};
    return f;
  }
  case StmtKind::Exit: return {true, s.label};
  case StmtKind::Barrier: {
    std::string ct = ctrl();
    Event ev = mkEvent(EventKind::Barrier);
    ev.barrier = s.barrier;
    ev.taint = join(ct, countTaint);
    if (s.barrier == ir::BarrierKind::Warp && s.value) { // a partial or computed mask
      Value m = eval(*s.value);
      ev.masked = true;
      ev.mask = static_cast<uint32_t>(static_cast<uint64_t>(m.i) & 0xffffffffu);
      noteInvented(m.taint);
      addTaint(ev.taint, m.taint);
      addTaint(countTaint, m.taint); // whether it names the peer (below) depends on it
    }
    uint32_t mask = ev.mask;
    if (grid) {
      if (s.barrier == ir::BarrierKind::Grid)
        throw Stop{"unsupported: a grid-wide barrier (blocks run one after another here)"};
      gridYield(*grid, s.barrier, mask);
    } else {
      record(std::move(ev));
    }
    if (s.barrier != ir::BarrierKind::Warp)
      ++blockBarriers;
    if (s.barrier == ir::BarrierKind::Grid)
      ++gridBarriers;
    if (env.peerLane < 0 || ir::laneInMask(mask, env.peerLane))
      ++warpBarriers;
    // The counts from here on depend on memory if this barrier ran because of it.
    addTaint(countTaint, ct);
    return {};
  }
  case StmtKind::Assume: {
    Value c = eval(*s.cond);
    dependsOn(c, "an assumption depends on a value loaded from memory");
    if (!truthy(c))
      throw Stop{"assumption violated"};
    return {};
  }
  case StmtKind::Assert: {
    Value c = eval(*s.cond);
    if (s.assertKind == ir::AssertKind::Uniform) {
      Event ev = mkEvent(EventKind::Uniform);
      // (a pointer: its array's id times 2^40 plus its offset, as the symbolic executor has it)
      ev.flat = c.kind == Value::Kind::Ptr ? (static_cast<int64_t>(c.array) << 40) + c.offset
                                           : static_cast<int64_t>(c.i);
      ev.taint = join(c.taint, ctrl());
      record(std::move(ev));
      return {};
    }
    dependsOn(c, "an assertion depends on a value loaded from memory");
    if (s.assertKind == ir::AssertKind::Modelled) {
      // Outside ksynth's model: nothing to run. (Also where the mask is an invented value, as
      // a replay's loads are: a run on the CPU or against a spec has no proof of the premise.)
      if (!truthy(c))
        throw Stop{"unsupported: " + s.text};
      return {};
    }
    if (!truthy(c)) {
      Event ev = mkEvent(EventKind::AssertFail);
      ev.taint = join(c.taint, ctrl());
      record(std::move(ev));
    }
    return {};
  }
  case StmtKind::Unsupported: throw Stop{"unsupported: " + s.text};
  case StmtKind::Havoc: {
    // Some value: replay picks zero and marks it as not a fact about the kernel; or the value
    // the statement names, one the choice can really make (a fact).
    Value v = zeroOf(k.vars[s.var].type);
    if (s.value)
      v = eval(*s.value);
    else
      v.taint = inventedOrigin(s.text.empty() ? "the value of '" + k.vars[s.var].name + "'" : s.text);
    if (symOn()) // SEMANTICS (symbolic): a new unknown
      v.sym = env.symbolic->unknown(s.text.empty() ? k.vars[s.var].name : s.text);
    assign(s.var, std::move(v));
    return {};
  }
  }
  malformed("unknown statement");
}

} // namespace ksynth::interp::detail
