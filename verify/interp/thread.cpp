// Concrete interpreter: one thread's state (symbolic values, taint, events, assignments).

#include "verify/interp/interp_internal.h"

namespace ksynth::interp::detail {

Machine::Machine(const Kernel &k, const Env &env, const ThreadId *tid)
    : k(k), env(env), tid(tid), vals(k.vars.size()), assigned(k.vars.size(), false) {
  for (size_t v = 0; v < k.vars.size(); ++v)
    vals[v] = zeroOf(k.vars[v].type);
  for (const ir::Param &p : k.params) {
    if (p.isArray)
      continue;
    auto it = env.params.find(p.id);
    vals[p.id] = it != env.params.end() ? fit(it->second, k.vars[p.id].type)
                                        : zeroOf(k.vars[p.id].type);
    if (symOn() && k.vars[p.id].type.isFloat())
      vals[p.id].sym = env.symbolic->param(k.vars[p.id]);
    assigned[p.id] = true;
  }
}

// r, with the term name(args) when some argument has a term.
Value Machine::withSymTerm(Value r, const char *name, std::initializer_list<const Value *> args) {
  bool any = false;
  for (const Value *a : args)
    any |= a->sym >= 0;
  if (!any)
    return r;
  std::vector<int> ids;
  for (const Value *a : args)
    ids.push_back(symOf(*a));
  r.sym = env.symbolic->op(name, ids);
  if (r.sym < 0)
    noteDependence(std::string("'") + name + "' has no symbolic form");
  return r;
}

int64_t Machine::threadLinear() const {
  int64_t per = env.block.x * env.block.y * env.block.z;
  int64_t b = (tid->block.z * env.grid.y + tid->block.y) * env.grid.x + tid->block.x;
  int64_t t = (tid->thread.z * env.block.y + tid->thread.y) * env.block.x + tid->thread.x;
  return b * per + t;
}

// A symbolic value converted to a type that cannot hold every value it may have.
void Machine::checkNarrowing(const Value &v, const Type &from, const Type &to) {
  if (!symVar(v) || !to.isInt())
    return;
  bool ok = from.isBool() || (from.isInt() && ((from.isSigned == to.isSigned && to.bits >= from.bits) ||
                                               (!from.isSigned && to.isSigned && to.bits > from.bits)));
  if (!ok)
    noteDependence("a narrowing conversion of a value loaded from memory (" + from.str() + " to " + to.str() + ")");
}

const Effects &Machine::effects(const ir::Block &b) {
  auto it = effectsCache.find(&b);
  if (it == effectsCache.end()) {
    Effects e;
    collectEffects(b, e);
    it = effectsCache.emplace(&b, std::move(e)).first;
  }
  return it->second;
}

void Machine::taintEffects(const ir::Block &b, const std::string &t) {
  if (t.empty())
    return;
  const Effects &e = effects(b);
  for (int v : e.vars)
    addTaint(vals[v].taint, t);
  for (int a : e.arrays)
    addTaint(arrayTaint[a], t);
  if (e.anyArray)
    addTaint(memTaint, t);
  if (e.barrier)
    addTaint(countTaint, t);
}

// Ends the reachability taint of `label`, tainting what the scope's blocks may have done.
void Machine::endScope(int label, std::initializer_list<const ir::Block *> region) {
  std::string t;
  for (auto it = exitCtrl.begin(); it != exitCtrl.end();) {
    if (it->first == label) {
      addTaint(t, it->second);
      it = exitCtrl.erase(it);
    } else {
      ++it;
    }
  }
  for (const ir::Block *b : region)
    taintEffects(*b, t);
}

Event Machine::mkEvent(EventKind kind) {
  Event ev;
  ev.kind = kind;
  ev.stmt = cur;
  ev.blockBarriers = blockBarriers;
  ev.warpBarriers = warpBarriers;
  ev.gridBarriers = gridBarriers;
  ev.iterations = iters;
  return ev;
}

void Machine::record(Event ev) {
  trace.events.push_back(std::move(ev));
  if (env.stopAt && env.stopAt(trace.events.back()))
    throw Stop{"stopped at the event sought"};
}

std::map<int, Value> Machine::snapshot() const {
  std::map<int, Value> m;
  for (size_t v = 0; v < vals.size(); ++v)
    if (assigned[v])
      m.emplace(static_cast<int>(v), vals[v]);
  return m;
}

void Machine::assign(int var, Value v) {
  if (var < 0 || var >= static_cast<int>(vals.size()))
    malformed("assignment to an unknown variable");
  addTaint(v.taint, ctrl());
  if (symOn() && cur && cur->kind == StmtKind::Assign && cur->var == var && cur->value)
    checkNarrowing(v, cur->value->type, k.vars[var].type);
  vals[var] = fit(std::move(v), k.vars[var].type);
  assigned[var] = true;
  if (!orderDependent.empty())
    orderDependent[var] = false;
}

void Machine::overflowEvent(const Expr &e, __int128 exact, const std::string &taint) {
  if (constMode())
    throw CannotEval{};
  Event ev = mkEvent(EventKind::Overflow);
  ev.expr = &e;
  ev.exact = exact;
  ev.vars = snapshot();
  ev.taint = join(taint, ctrl());
  record(std::move(ev));
}

} // namespace ksynth::interp::detail
