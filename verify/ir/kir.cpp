#include "verify/ir/kir.h"

#include "util/float16.h"

#include <algorithm>
#include <cassert>
#include <cfloat>
#include <cstdio>
#include <set>
#include <sstream>

namespace ksynth::ir {

std::string Type::str() const {
  switch (kind) {
  case TypeKind::Void: return "void";
  case TypeKind::Bool: return "bool";
  case TypeKind::Int: return (isSigned ? "i" : "u") + std::to_string(bits);
  case TypeKind::Float: return (bfloat ? "bf" : "f") + std::to_string(bits);
  case TypeKind::Ptr: return "ptr";
  }
  return "?";
}

double Type::largestFinite() const {
  if (bits == 16)
    return bfloat ? util::kBf16Max : util::kHalfMax;
  return bits == 32 ? FLT_MAX : DBL_MAX;
}

const char *spaceName(Space s) {
  switch (s) {
  case Space::Global: return "global";
  case Space::Shared: return "shared";
  case Space::Local: return "local";
  case Space::Constant: return "constant";
  }
  return "?";
}

int64_t Array::elementCount() const {
  int64_t n = 1;
  for (int64_t d : dims)
    n *= d;
  return n;
}

const char *opName(Op op) {
  switch (op) {
  case Op::Const: return "const";
  case Op::VarRef: return "var";
  case Op::ArrayRef: return "array";
  case Op::Builtin: return "builtin";
  case Op::Len: return "len";
  case Op::Neg: return "neg";
  case Op::Not: return "not";
  case Op::BitNot: return "bitnot";
  case Op::Add: return "+";
  case Op::Sub: return "-";
  case Op::Mul: return "*";
  case Op::Div: return "/";
  case Op::Rem: return "%";
  case Op::Shl: return "<<";
  case Op::Shr: return ">>";
  case Op::BitAnd: return "&";
  case Op::BitOr: return "|";
  case Op::BitXor: return "^";
  case Op::LAnd: return "&&";
  case Op::LOr: return "||";
  case Op::Eq: return "==";
  case Op::Ne: return "!=";
  case Op::Lt: return "<";
  case Op::Le: return "<=";
  case Op::Gt: return ">";
  case Op::Ge: return ">=";
  case Op::Min: return "min";
  case Op::Max: return "max";
  case Op::Select: return "select";
  case Op::Cast: return "cast";
  case Op::Call: return "call";
  case Op::PtrAdd: return "ptradd";
  case Op::PtrOffset: return "ptroffset";
  case Op::PtrBaseAlign: return "ptrbasealign";
  }
  return "?";
}

const char *atomicOpName(AtomicOp op) {
  switch (op) {
  case AtomicOp::Add: return "add";
  case AtomicOp::Sub: return "sub";
  case AtomicOp::Min: return "min";
  case AtomicOp::Max: return "max";
  case AtomicOp::Exch: return "exch";
  case AtomicOp::CAS: return "cas";
  case AtomicOp::And: return "and";
  case AtomicOp::Or: return "or";
  case AtomicOp::Xor: return "xor";
  case AtomicOp::Inc: return "inc";
  case AtomicOp::Dec: return "dec";
  }
  return "?";
}

static std::shared_ptr<Expr> node(Op op, Type t, Loc loc = {}) {
  auto e = std::make_shared<Expr>();
  e->op = op;
  e->type = t;
  e->loc = loc;
  return e;
}

// Expr::launchOnly of an operation on its (final) operands.
static void deriveLaunchOnly(Expr &e) {
  switch (e.op) {
  case Op::Neg: case Op::Not: case Op::BitNot: case Op::LAnd: case Op::LOr: case Op::Select: case Op::Cast:
  case Op::Add: case Op::Sub: case Op::Mul: case Op::Div: case Op::Rem: case Op::Shl: case Op::Shr:
  case Op::BitAnd: case Op::BitOr: case Op::BitXor: case Op::Min: case Op::Max:
  case Op::Eq: case Op::Ne: case Op::Lt: case Op::Le: case Op::Gt: case Op::Ge: break;
  default: return;
  }
  if (!e.type.isInt() && !e.type.isBool())
    return;
  unsigned n = 1;
  for (const ExprPtr &a : e.args) {
    if (!a || !a->launchOnly)
      return;
    n += a->launchOnly;
  }
  e.launchOnly = static_cast<uint8_t>(n > 255 ? 255 : n);
}

ExprPtr mkConstInt(int64_t v, Type t, Loc loc) {
  auto e = node(Op::Const, t, loc);
  e->ival = v;
  e->launchOnly = t.isInt() || t.isBool() ? 1 : 0;
  return e;
}
ExprPtr mkConstBool(bool v) { return mkConstInt(v ? 1 : 0, Type::boolean()); }
ExprPtr mkConstFloat(double v, Type t, Loc loc) {
  auto e = node(Op::Const, t, loc);
  e->fval = v;
  return e;
}
ExprPtr mkVar(int id, Type t, Loc loc) {
  auto e = node(Op::VarRef, t, loc);
  e->id = id;
  return e;
}
ExprPtr mkArrayRef(int id, Loc loc) {
  auto e = node(Op::ArrayRef, Type::pointer(), loc);
  e->id = id;
  return e;
}
ExprPtr mkBuiltin(Builtin b, int dim) {
  auto e = node(Op::Builtin, Type::u32());
  e->id = static_cast<int>(b);
  e->dim = dim;
  e->launchOnly = 1;
  return e;
}
ExprPtr mkLen(int array) {
  auto e = node(Op::Len, Type::u64());
  e->id = array;
  return e;
}
ExprPtr mkUnary(Op op, Type t, ExprPtr a, Loc loc) {
  auto e = node(op, t, loc);
  e->args = {std::move(a)};
  deriveLaunchOnly(*e);
  return e;
}
ExprPtr mkBinary(Op op, Type t, ExprPtr a, ExprPtr b, Loc loc) {
  auto e = node(op, t, loc);
  e->args = {std::move(a), std::move(b)};
  deriveLaunchOnly(*e);
  return e;
}
ExprPtr mkSelect(Type t, ExprPtr c, ExprPtr a, ExprPtr b, Loc loc) {
  auto e = node(Op::Select, t, loc);
  e->args = {std::move(c), std::move(a), std::move(b)};
  deriveLaunchOnly(*e);
  return e;
}
ExprPtr mkCast(Type t, ExprPtr a, Loc loc) {
  auto e = node(Op::Cast, t, loc);
  e->args = {std::move(a)};
  deriveLaunchOnly(*e);
  return e;
}
ExprPtr mkCall(std::string name, Type t, std::vector<ExprPtr> args, Loc loc) {
  auto e = node(Op::Call, t, loc);
  e->name = std::move(name);
  e->args = std::move(args);
  return e;
}
ExprPtr mkPtrAdd(ExprPtr p, ExprPtr off, Loc loc) {
  auto e = node(Op::PtrAdd, Type::pointer(), loc);
  e->args = {std::move(p), std::move(off)};
  return e;
}

int Kernel::addVar(Var v) {
  vars.push_back(std::move(v));
  return static_cast<int>(vars.size()) - 1;
}
int Kernel::addArray(Array a) {
  arrays.push_back(std::move(a));
  return static_cast<int>(arrays.size()) - 1;
}
int Kernel::findParamVar(const std::string &name) const {
  for (const Param &p : params)
    if (!p.isArray && vars[p.id].name == name)
      return p.id;
  return -1;
}
int Kernel::findParamArray(const std::string &name) const {
  for (const Param &p : params)
    if (p.isArray && arrays[p.id].name == name)
      return p.id;
  // A pointer-to-struct parameter `ps` is one array per field (`ps.x`, ...), all of one length.
  for (const Param &p : params)
    if (p.isArray && arrays[p.id].sameLength < 0 && arrays[p.id].name.size() > name.size() &&
        arrays[p.id].name.compare(0, name.size() + 1, name + ".") == 0) {
      for (const Param &q : params)
        if (q.isArray && arrays[q.id].sameLength == p.id)
          return p.id;
    }
  return -1;
}

bool containsGridBarrier(const Block &b) {
  for (const StmtPtr &s : b) {
    if (s->kind == StmtKind::Barrier && s->barrier == BarrierKind::Grid)
      return true;
    if (containsGridBarrier(s->pre) || containsGridBarrier(s->body) ||
        containsGridBarrier(s->elseBody) || containsGridBarrier(s->step))
      return true;
  }
  return false;
}

bool containsBarrier(const Block &b) {
  for (const StmtPtr &s : b) {
    if (s->kind == StmtKind::Barrier)
      return true;
    if (containsBarrier(s->pre) || containsBarrier(s->body) ||
        containsBarrier(s->elseBody) || containsBarrier(s->step))
      return true;
  }
  return false;
}

std::optional<uint32_t> warpMask(const Stmt &s) {
  if (s.kind != StmtKind::Barrier || s.barrier != BarrierKind::Warp || !s.value || s.value->op != Op::Const)
    return std::nullopt;
  return static_cast<uint32_t>(s.value->ival);
}

std::string maskHex(uint32_t m) {
  char hex[16];
  snprintf(hex, sizeof hex, "0x%08x", m);
  return hex;
}

std::vector<std::pair<int64_t, int64_t>> maskRuns(uint32_t m) {
  std::vector<std::pair<int64_t, int64_t>> runs;
  for (int64_t l = 0; l < 32;) {
    if (!laneInMask(m, l)) {
      ++l;
      continue;
    }
    int64_t e = l;
    while (e < 32 && laneInMask(m, e))
      ++e;
    runs.push_back({l, e});
    l = e;
  }
  return runs;
}

SyncLevel strongestBarrier(const Block &b, bool masked) {
  SyncLevel best = SyncLevel::None;
  for (const StmtPtr &s : b) {
    if (s->kind == StmtKind::Barrier && (masked || !s->value))
      best = std::max(best, s->barrier == BarrierKind::Warp ? SyncLevel::Warp : SyncLevel::Block);
    for (const Block *c : {&s->pre, &s->body, &s->elseBody, &s->step})
      best = std::max(best, strongestBarrier(*c, masked));
    if (best == SyncLevel::Block)
      break;
  }
  return best;
}

static void collectLabels(const Block &b, std::set<int> &own, std::set<int> &targets) {
  for (const StmtPtr &s : b) {
    if (s->kind == StmtKind::Exit)
      targets.insert(s->label);
    if (s->kind == StmtKind::Block || s->kind == StmtKind::Loop)
      own.insert(s->label);
    if (s->kind == StmtKind::Loop)
      own.insert(s->contLabel);
    for (const Block *c : {&s->pre, &s->body, &s->elseBody, &s->step})
      collectLabels(*c, own, targets);
  }
}

std::vector<int> exitsLeaving(const Block &b) {
  std::set<int> own, targets;
  collectLabels(b, own, targets);
  std::vector<int> out;
  for (int t : targets)
    if (!own.count(t))
      out.push_back(t);
  return out;
}

// ---- printer -------------------------------------------------------------------------

namespace {
struct Printer {
  const Kernel &k;
  std::ostringstream os;

  void expr(const Expr &e) {
    switch (e.op) {
    case Op::Const:
      if (e.type.isFloat())
        os << e.fval << (e.type.bits == 32 ? "f" : e.type.bits == 16 ? (e.type.bfloat ? "bf16" : "f16") : "");
      else if (e.type.isBool())
        os << (e.ival ? "true" : "false");
      else
        os << e.ival << ":" << e.type.str();
      return;
    case Op::VarRef: os << "%" << k.vars[e.id].name; return;
    case Op::ArrayRef: os << "@" << k.arrays[e.id].name; return;
    case Op::Builtin: {
      static const char *names[] = {"threadIdx", "blockIdx", "blockDim", "gridDim"};
      os << names[e.id] << "." << "xyz"[e.dim];
      return;
    }
    case Op::Len: os << "len(@" << k.arrays[e.id].name << ")"; return;
    default: break;
    }
    os << "(" << opName(e.op);
    if (e.op == Op::Cast)
      os << " " << e.type.str();
    if (e.op == Op::Call)
      os << " " << e.name;
    for (const ExprPtr &a : e.args) {
      os << " ";
      expr(*a);
    }
    os << ")";
  }

  void access(const Stmt &s) {
    expr(*s.ptr);
    for (const ExprPtr &i : s.index) {
      os << "[";
      expr(*i);
      os << "]";
    }
  }

  void block(const Block &b, int ind) {
    for (const StmtPtr &s : b)
      stmt(*s, ind);
  }

  void stmt(const Stmt &s, int ind) {
    std::string pad(ind * 2, ' ');
    os << pad;
    switch (s.kind) {
    case StmtKind::Assign:
      os << "%" << k.vars[s.var].name << " = ";
      expr(*s.value);
      break;
    case StmtKind::Load:
      os << "%" << k.vars[s.var].name << " = load ";
      access(s);
      break;
    case StmtKind::Store:
      os << "store ";
      access(s);
      os << " = ";
      expr(*s.value);
      break;
    case StmtKind::Atomic:
      if (s.var >= 0)
        os << "%" << k.vars[s.var].name << " = ";
      os << "atomic." << atomicOpName(s.atomic) << " ";
      access(s);
      os << ", ";
      expr(*s.value);
      if (s.value2) {
        os << ", ";
        expr(*s.value2);
      }
      break;
    case StmtKind::If:
      os << "if ";
      expr(*s.cond);
      os << " {\n";
      block(s.body, ind + 1);
      if (!s.elseBody.empty()) {
        os << pad << "} else {\n";
        block(s.elseBody, ind + 1);
      }
      os << pad << "}";
      break;
    case StmtKind::Loop:
      os << "loop L" << s.label << " cont L" << s.contLabel << (s.testFirst ? "" : " do-while")
         << " {\n";
      if (!s.pre.empty()) {
        os << pad << " pre:\n";
        block(s.pre, ind + 1);
      }
      os << pad << " while ";
      expr(*s.cond);
      os << "\n";
      block(s.body, ind + 1);
      if (!s.step.empty()) {
        os << pad << " step:\n";
        block(s.step, ind + 1);
      }
      os << pad << "}";
      break;
    case StmtKind::Block:
      os << "block L" << s.label << " {\n";
      block(s.body, ind + 1);
      os << pad << "}";
      break;
    case StmtKind::Exit: os << "exit L" << s.label; break;
    case StmtKind::Barrier:
      os << (s.barrier == BarrierKind::Block  ? "barrier"
             : s.barrier == BarrierKind::Grid ? "gridbarrier"
                                              : "syncwarp");
      if (s.value) {
        os << " mask ";
        expr(*s.value);
      }
      break;
    case StmtKind::Assume:
      os << (s.precondition ? "requires " : "assume ");
      expr(*s.cond);
      break;
    case StmtKind::Assert:
      os << (s.assertKind == AssertKind::Warp      ? "assert.warp "
             : s.assertKind == AssertKind::Align   ? "assert.align "
             : s.assertKind == AssertKind::Uniform ? "assert.uniform "
             : s.assertKind == AssertKind::Modelled ? "assert.modelled "
                                                   : "assert ");
      expr(*s.cond);
      break;
    case StmtKind::Unsupported: os << "unsupported \"" << s.text << "\""; break;
    case StmtKind::Havoc:
      os << "%" << k.vars[s.var].name << " = havoc \"" << s.text << "\"";
      break;
    }
    if (s.loc.valid())
      os << "  ; " << s.loc.line << ":" << s.loc.col;
    os << "\n";
  }
};
} // namespace

std::string print(const Kernel &k, const Expr &e) {
  Printer p{k, {}};
  p.expr(e);
  return p.os.str();
}

std::string print(const Kernel &k) {
  Printer p{k, {}};
  p.os << "kernel " << k.name << "(";
  for (size_t i = 0; i < k.params.size(); ++i) {
    const Param &pa = k.params[i];
    if (i)
      p.os << ", ";
    if (pa.isArray)
      p.os << "@" << k.arrays[pa.id].name << ": " << k.arrays[pa.id].elem.str() << "*";
    else
      p.os << "%" << k.vars[pa.id].name << ": " << k.vars[pa.id].type.str();
  }
  p.os << ")\n";
  for (const Array &a : k.arrays) {
    if (a.paramIndex >= 0)
      continue;
    p.os << "  " << spaceName(a.space) << " @" << a.name << ": " << a.elem.str();
    for (int64_t d : a.dims)
      p.os << "[" << d << "]";
    if (a.dynamicShared)
      p.os << "[dynamic]";
    p.os << "\n";
  }
  p.block(k.body, 1);
  return p.os.str();
}

} // namespace ksynth::ir
