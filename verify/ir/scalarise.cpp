// KIR pass: splitting thread-local arrays accessed only at constant indices into scalars.
//
// Two steps. Constant propagation walks the structured statements once, with the constant
// value each integer variable is known to hold (an unrolled loop's `i = 2;` before its body);
// a loop is walked once with every variable it assigns forgotten, so what is known inside it
// holds in every iteration. Each Load and Store of a candidate array notes its indices' values
// on the way. Then an array whose accesses all have known, in-range indices is rewritten.
#include "verify/ir/scalarise.h"

#include <functional>
#include <set>
#include <string>

namespace ksynth::ir {

namespace {

using int128 = __int128;

// The value of v in type t, or nullopt where a signed type cannot hold it (overflow).
std::optional<int64_t> inType(int128 v, Type t, bool wrapSigned = false) {
  if (t.isBool())
    return v != 0 ? 1 : 0;
  if (!t.isInt() || t.bits == 0 || t.bits > 64)
    return std::nullopt;
  if (!t.isSigned || wrapSigned) {
    unsigned __int128 m = static_cast<unsigned __int128>(v);
    if (t.bits < 128)
      m &= (static_cast<unsigned __int128>(1) << t.bits) - 1;
    int128 r = static_cast<int128>(m);
    if (t.isSigned && t.bits < 128 && (r >> (t.bits - 1)) != 0)
      r -= static_cast<int128>(1) << t.bits; // back to the signed range
    if (r > INT64_MAX || r < INT64_MIN)
      return std::nullopt; // a u64 above 2^63: not needed here
    return static_cast<int64_t>(r);
  }
  if (v < t.minValue() || v > t.maxValue())
    return std::nullopt;
  return static_cast<int64_t>(v);
}

bool mentionsArray(const Expr *e, int id) {
  if (!e)
    return false;
  if (e->op == Op::ArrayRef && e->id == id)
    return true;
  for (const ExprPtr &a : e->args)
    if (mentionsArray(a.get(), id))
      return true;
  return false;
}

void assignedVars(const Block &b, std::set<int> &out) {
  for (const StmtPtr &s : b) {
    if ((s->kind == StmtKind::Assign || s->kind == StmtKind::Load || s->kind == StmtKind::Atomic ||
         s->kind == StmtKind::Havoc) &&
        s->var >= 0)
      out.insert(s->var);
    for (const Block *c : {&s->pre, &s->body, &s->elseBody, &s->step})
      assignedVars(*c, out);
  }
}

ConstEnv meet(const ConstEnv &a, const ConstEnv &b) {
  ConstEnv r;
  for (const auto &[v, x] : a) {
    auto it = b.find(v);
    if (it != b.end() && it->second == x)
      r.emplace(v, x);
  }
  return r;
}

struct Access {
  Stmt *stmt = nullptr;
  std::optional<int64_t> flat; // row-major element, when every index is known and in range
};

class Pass {
public:
  Pass(Kernel &k, const std::set<int> &candidates) : k_(k), cand_(candidates) {}

  void walk(Block &b, ConstEnv &env) {
    for (StmtPtr &s : b)
      stmt(*s, env);
  }

  std::map<int, std::vector<Access>> accesses;
  std::set<int> disqualified;

private:
  Kernel &k_;
  const std::set<int> &cand_;
  std::map<int, std::vector<ConstEnv>> exits_; // label -> states at Exits to it

  // Any mention of a candidate other than as the base of a Load or Store disqualifies it.
  void otherUse(const Expr *e) {
    if (!e)
      return;
    for (int a : cand_)
      if (mentionsArray(e, a))
        disqualified.insert(a);
  }

  void access(Stmt &s, const ConstEnv &env) {
    for (const ExprPtr &ix : s.index)
      otherUse(ix.get());
    if (!s.ptr || s.ptr->op != Op::ArrayRef || !cand_.count(s.ptr->id)) {
      otherUse(s.ptr.get());
      return;
    }
    int a = s.ptr->id;
    const Array &arr = k_.arrays[a];
    Access acc{&s, std::nullopt};
    std::vector<int64_t> ix;
    bool known = true;
    for (const ExprPtr &e : s.index) {
      std::optional<int64_t> v = e ? foldInt(*e, env) : std::nullopt;
      if (!v) {
        known = false;
        break;
      }
      ix.push_back(*v);
    }
    if (known && ix.size() == arr.dims.size()) {
      int64_t flat = 0;
      for (size_t d = 0; d < ix.size(); ++d) {
        if (ix[d] < 0 || ix[d] >= arr.dims[d]) {
          known = false; // out of bounds: the bounds check must see the access
          break;
        }
        flat = flat * arr.dims[d] + ix[d];
      }
      if (known)
        acc.flat = flat;
    } else if (known && ix.size() == 1 && ix[0] >= 0 && ix[0] < arr.elementCount()) {
      // One flat index into a multi-dimensional array: only the flat extent is known to be
      // checked for it, so it must be within that.
      acc.flat = ix[0];
    }
    if (!acc.flat || (s.kind == StmtKind::Load && s.var < 0))
      disqualified.insert(a);
    accesses[a].push_back(acc);
  }

  void stmt(Stmt &s, ConstEnv &env) {
    switch (s.kind) {
    case StmtKind::Assign: {
      otherUse(s.value.get());
      std::optional<int64_t> v;
      if (s.var >= 0 && s.value && (k_.vars[s.var].type.isInt() || k_.vars[s.var].type.isBool()))
        v = foldInt(*s.value, env);
      if (s.var >= 0) {
        if (v)
          env[s.var] = *v;
        else
          env.erase(s.var);
      }
      return;
    }
    case StmtKind::Load:
      access(s, env);
      if (s.var >= 0)
        env.erase(s.var);
      return;
    case StmtKind::Store:
      otherUse(s.value.get());
      access(s, env);
      return;
    case StmtKind::Atomic:
      otherUse(s.ptr.get());
      for (const ExprPtr &ix : s.index)
        otherUse(ix.get());
      otherUse(s.value.get());
      otherUse(s.value2.get());
      if (s.var >= 0)
        env.erase(s.var);
      return;
    case StmtKind::Havoc:
      otherUse(s.value.get());
      if (s.var >= 0)
        env.erase(s.var);
      return;
    case StmtKind::Assume:
    case StmtKind::Assert:
      otherUse(s.cond.get());
      return;
    case StmtKind::Barrier: otherUse(s.value.get()); return;
    case StmtKind::Unsupported: return;
    case StmtKind::Exit: exits_[s.label].push_back(env); return;
    case StmtKind::If: {
      otherUse(s.cond.get());
      ConstEnv a = env, b = env;
      walk(s.body, a);
      walk(s.elseBody, b);
      env = meet(a, b);
      return;
    }
    case StmtKind::Block: {
      walk(s.body, env);
      for (const ConstEnv &e : exits_[s.label])
        env = meet(env, e);
      return;
    }
    case StmtKind::Loop: {
      otherUse(s.cond.get());
      std::set<int> changed;
      for (const Block *c : {&s.pre, &s.body, &s.step})
        assignedVars(*c, changed);
      ConstEnv entry = env;
      for (int v : changed)
        entry.erase(v);
      ConstEnv cur = entry;
      walk(s.pre, cur);
      walk(s.body, cur);
      for (const ConstEnv &e : exits_[s.contLabel])
        cur = meet(cur, e);
      walk(s.step, cur);
      env = entry; // whichever way the loop is left, what it did not assign is as before
      return;
    }
    }
  }
};

} // namespace

std::optional<int64_t> foldInt(const Expr &e, const ConstEnv &vars) {
  const Type t = e.type;
  if (!t.isInt() && !t.isBool())
    return std::nullopt;
  auto arg = [&](size_t i) -> std::optional<int64_t> {
    return i < e.args.size() && e.args[i] ? foldInt(*e.args[i], vars) : std::nullopt;
  };
  switch (e.op) {
  case Op::Const: return inType(e.ival, t);
  case Op::VarRef: {
    auto it = vars.find(e.id);
    return it == vars.end() ? std::nullopt : std::optional<int64_t>(it->second);
  }
  case Op::Cast: {
    const Expr &x = *e.args.at(0);
    if (!x.type.isInt() && !x.type.isBool())
      return std::nullopt;
    std::optional<int64_t> v = foldInt(x, vars);
    // An unsigned 64-bit source above 2^63 is not folded (inType refuses it).
    return v ? inType(*v, t, true) : std::nullopt;
  }
  case Op::Select: {
    std::optional<int64_t> c = arg(0);
    return c ? arg(*c ? 1 : 2) : std::nullopt;
  }
  case Op::Neg:
  case Op::Not:
  case Op::BitNot: {
    std::optional<int64_t> a = arg(0);
    if (!a)
      return std::nullopt;
    if (e.op == Op::Not)
      return *a == 0 ? 1 : 0;
    return inType(e.op == Op::Neg ? -static_cast<int128>(*a) : ~static_cast<int128>(*a), t, e.op == Op::BitNot);
  }
  default: break;
  }
  if (e.args.size() != 2)
    return std::nullopt;
  std::optional<int64_t> a = arg(0), b = arg(1);
  if (e.op == Op::LAnd && a && *a == 0)
    return 0;
  if (e.op == Op::LOr && a && *a != 0)
    return 1;
  if (!a || !b)
    return std::nullopt;
  int128 x = *a, y = *b;
  // Comparisons and logic compare their operands' values (already converted to one type).
  switch (e.op) {
  case Op::LAnd: return (x != 0 && y != 0) ? 1 : 0;
  case Op::LOr: return (x != 0 || y != 0) ? 1 : 0;
  case Op::Eq: return x == y;
  case Op::Ne: return x != y;
  case Op::Lt: return x < y;
  case Op::Le: return x <= y;
  case Op::Gt: return x > y;
  case Op::Ge: return x >= y;
  case Op::Add: return inType(x + y, t);
  case Op::Sub: return inType(x - y, t);
  case Op::Mul: return inType(x * y, t);
  case Op::Div:
  case Op::Rem:
    if (y == 0)
      return std::nullopt;
    // int128 division truncates toward zero, as C's does.
    return inType(e.op == Op::Div ? x / y : x % y, t);
  case Op::Shl:
  case Op::Shr: {
    if (y < 0 || y >= t.bits || (t.isSigned && x < 0))
      return std::nullopt; // undefined, or implementation-defined: not folded
    return inType(e.op == Op::Shl ? x << static_cast<int>(y) : x >> static_cast<int>(y), t, !t.isSigned);
  }
  case Op::BitAnd: return inType(x & y, t, true);
  case Op::BitOr: return inType(x | y, t, true);
  case Op::BitXor: return inType(x ^ y, t, true);
  case Op::Min: return x < y ? *a : *b;
  case Op::Max: return x > y ? *a : *b;
  default: return std::nullopt;
  }
}

std::vector<int> scalariseLocalArrays(Kernel &k, const std::vector<std::pair<int, StmtPtr>> &decls) {
  std::set<int> cand;
  for (const auto &[a, mark] : decls) {
    const Array &arr = k.arrays[a];
    int64_t n = arr.dims.empty() ? 0 : arr.elementCount();
    if (arr.space == Space::Local && !arr.warpExchange && !arr.dims.empty() && n > 0 &&
        n <= kMaxScalarisedElements && (arr.elem.isInt() || arr.elem.isFloat() || arr.elem.isBool()))
      cand.insert(a);
  }
  if (cand.empty())
    return {};
  Pass p(k, cand);
  ConstEnv env;
  p.walk(k.body, env);
  std::vector<int> done;
  for (const auto &[a, mark] : decls) {
    if (!cand.count(a) || p.disqualified.count(a))
      continue;
    const Array &arr = k.arrays[a];
    std::vector<int> cell(static_cast<size_t>(arr.elementCount()));
    for (int64_t f = 0; f < arr.elementCount(); ++f) {
      std::string name = arr.name;
      int64_t rest = f;
      std::vector<int64_t> ix(arr.dims.size());
      for (size_t d = arr.dims.size(); d-- > 0;) {
        ix[d] = rest % arr.dims[d];
        rest /= arr.dims[d];
      }
      for (int64_t i : ix)
        name += "[" + std::to_string(i) + "]";
      Var v;
      v.name = name;
      v.type = arr.elem;
      v.loc = arr.loc;
      cell[static_cast<size_t>(f)] = k.addVar(v);
      auto h = std::make_shared<Stmt>();
      h->kind = StmtKind::Havoc;
      h->loc = mark->loc;
      h->var = cell[static_cast<size_t>(f)];
      h->text = "the initial value of local array element '" + name + "'";
      mark->body.push_back(h);
    }
    for (const Access &acc : p.accesses[a]) {
      Stmt &s = *acc.stmt;
      int v = cell[static_cast<size_t>(*acc.flat)];
      if (s.kind == StmtKind::Load) {
        s.kind = StmtKind::Assign;
        s.value = mkVar(v, k.vars[v].type, s.loc);
        if (s.var >= 0 && !(k.vars[s.var].type == arr.elem))
          s.value = mkCast(k.vars[s.var].type, s.value, s.loc);
      } else {
        s.kind = StmtKind::Assign;
        s.var = v;
      }
      s.ptr = nullptr;
      s.index.clear();
      s.precondition = false;
    }
    done.push_back(a);
  }
  return done;
}

} // namespace ksynth::ir
