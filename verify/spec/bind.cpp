#include "verify/spec/bind.h"

#include <cassert>
#include <optional>

namespace ksynth::spec {

namespace {

using ir::ExprPtr;

std::optional<ir::Type> irType(ElemType t) {
  switch (t) {
  case ElemType::F32: return ir::Type::f32();
  case ElemType::F64: return ir::Type::f64();
  case ElemType::F16: return ir::Type::f16();
  case ElemType::BF16: return ir::Type::bf16();
  default: return ir::Type::integer(bitsOf(t), isSigned(t));
  }
}

const ir::Type I64 = ir::Type::i64();

class Binder {
public:
  Binder(const Spec &s, const ir::Kernel &k, Binding &b) : s_(s), k_(k), b_(b) {}

  void run() {
    std::vector<bool> tensorBound(s_.tensors.size()), dimBound(s_.dims.size()), scalarBound(s_.scalars.size());
    dimVar_.assign(s_.dims.size(), -1);
    scalarVar_.assign(s_.scalars.size(), -1);
    tensorArr_.assign(s_.tensors.size(), -1);
    for (const ir::Param &p : k_.params) {
      const std::string &name = p.isArray ? k_.arrays[p.id].name : k_.vars[p.id].name;
      ir::Loc loc = p.isArray ? k_.arrays[p.id].loc : k_.vars[p.id].loc;
      int ti = s_.findTensor(name), di = s_.findDim(name), si = s_.findScalar(name);
      if (p.isArray) {
        const ir::Array &a = k_.arrays[p.id];
        if (ti < 0) {
          kerr(loc, "pointer parameter '" + name + "' of kernel '" + k_.name + "' is not a tensor of spec '" + s_.name +
                        "'" + (di >= 0 || si >= 0 ? std::string(" (it is a ") + (di >= 0 ? "dim" : "scalar") + " there)" : ""));
          continue;
        }
        const Tensor &t = s_.tensors[ti];
        auto want = irType(t.type);
        if (!want || !(a.elem == *want)) {
          kerr(loc, "parameter '" + name + "' points to " + a.elem.str() + ", but tensor '" + name + "' of spec '" + s_.name +
                        "' is " + elemTypeName(t.type));
          continue;
        }
        tensorBound[ti] = true;
        tensorArr_[ti] = p.id;
        b_.tensorOfArray[p.id] = ti;
        continue;
      }
      const ir::Var &v = k_.vars[p.id];
      if (ti >= 0) {
        kerr(loc, "parameter '" + name + "' is a value (" + v.type.str() + "), but '" + name + "' is a tensor of spec '" +
                      s_.name + "': it must be a pointer");
        continue;
      }
      if (di >= 0) {
        if (!v.type.isInt()) {
          kerr(loc, "parameter '" + name + "' is " + v.type.str() + ", but '" + name + "' is a dim (an integer size) of spec '" +
                        s_.name + "'");
          continue;
        }
        dimBound[di] = true;
        dimVar_[di] = p.id;
        b_.dimOfVar[p.id] = di;
        continue;
      }
      if (si >= 0) {
        auto want = irType(s_.scalars[si].type);
        if (!want || !(v.type == *want)) {
          kerr(loc, "parameter '" + name + "' is " + v.type.str() + ", but scalar '" + name + "' of spec '" + s_.name + "' is " +
                        elemTypeName(s_.scalars[si].type));
          continue;
        }
        scalarBound[si] = true;
        scalarVar_[si] = p.id;
        b_.scalarOfVar[p.id] = si;
        continue;
      }
      kerr(loc, "parameter '" + name + "' of kernel '" + k_.name + "' is not in spec '" + s_.name +
                    "' (parameters are named like its tensors, dims and scalars)");
    }
    auto missing = [&](const std::string &what, const std::string &name, Loc at) {
      BindError e;
      e.line = k_.loc.line;
      e.col = k_.loc.col;
      e.message = "kernel '" + k_.name + "' has no parameter for " + what + " '" + name + "' of spec '" + s_.name +
                  "' (declared at " + std::to_string(at.line) + ":" + std::to_string(at.col) + ")";
      b_.errors.push_back(e);
    };
    for (size_t i = 0; i < s_.tensors.size(); ++i)
      if (!tensorBound[i] && !hasParamNamed(s_.tensors[i].name))
        missing("tensor", s_.tensors[i].name, s_.tensors[i].loc);
    for (size_t i = 0; i < s_.dims.size(); ++i)
      if (!dimBound[i] && !hasParamNamed(s_.dims[i].name))
        missing("dim", s_.dims[i].name, s_.dims[i].loc);
    for (size_t i = 0; i < s_.scalars.size(); ++i)
      if (!scalarBound[i] && !hasParamNamed(s_.scalars[i].name))
        missing("scalar", s_.scalars[i].name, s_.scalars[i].loc);
    if (!b_.errors.empty())
      return;

    for (size_t i = 0; i < s_.dims.size(); ++i)
      add(ir::mkBinary(ir::Op::Ge, ir::Type::boolean(), var(dimVar_[i]), ir::mkConstInt(1, I64)));
    for (const TermPtr &a : s_.assumes) {
      std::vector<const Term *> conj;
      split(*a, conj);
      for (const Term *c : conj) {
        std::string why;
        std::vector<ExprPtr> env;
        if (ExprPtr e = toIr(*c, env, why))
          add(e);
        else
          b_.unused.push_back("assumption " + infix(s_, *c, {}) + " is not used by the safety checks (" + why + ")");
      }
    }
    for (size_t i = 0; i < s_.tensors.size(); ++i) {
      const Tensor &t = s_.tensors[i];
      ExprPtr prod;
      std::string why;
      for (const TermPtr &x : t.extents) {
        std::vector<ExprPtr> env;
        ExprPtr e = toIr(*x, env, why);
        if (!e) {
          prod = nullptr;
          break;
        }
        prod = prod ? ir::mkBinary(ir::Op::Mul, I64, prod, e) : e;
      }
      if (t.extents.empty())
        prod = ir::mkConstInt(1, I64);
      if (!prod) {
        b_.unused.push_back("the size of tensor '" + t.name + "' is not given to the checker (" + why + ")");
        continue;
      }
      add(ir::mkBinary(ir::Op::Eq, ir::Type::boolean(), ir::mkLen(tensorArr_[i]), prod));
    }
  }

private:
  const Spec &s_;
  const ir::Kernel &k_;
  Binding &b_;
  std::vector<int> dimVar_, scalarVar_, tensorArr_;

  bool hasParamNamed(const std::string &n) const {
    return k_.findParamArray(n) >= 0 || k_.findParamVar(n) >= 0;
  }

  void kerr(ir::Loc l, const std::string &m) {
    BindError e;
    e.line = l.line;
    e.col = l.col;
    e.message = m;
    b_.errors.push_back(e);
  }

  void add(ExprPtr e) { b_.preconditions.push_back({e, cText(k_, *e)}); }

  ExprPtr var(int id) {
    ExprPtr v = ir::mkVar(id, k_.vars[id].type);
    return k_.vars[id].type == I64 ? v : ir::mkCast(I64, v);
  }

  static void split(const Term &t, std::vector<const Term *> &out) {
    if (t.op == Op::And) {
      for (const TermPtr &a : t.args)
        split(*a, out);
      return;
    }
    out.push_back(&t);
  }

  ExprPtr fold(ir::Op op, ir::Type ty, const std::vector<ExprPtr> &xs) {
    ExprPtr r = xs[0];
    for (size_t i = 1; i < xs.size(); ++i)
      r = ir::mkBinary(op, ty, r, xs[i]);
    return r;
  }

  // Int and Bool terms over dims, Int scalars and constant defines, in 64-bit KIR
  // arithmetic (the checker evaluates these as mathematical integers; `div`/`mod` are
  // Euclidean there, as in the spec).
  ExprPtr toIr(const Term &t, std::vector<ExprPtr> &env, std::string &why) {
    if (t.sort == Sort::Real) {
      why = "it is real-valued";
      return nullptr;
    }
    std::vector<ExprPtr> xs;
    auto args = [&](size_t from) {
      xs.clear();
      for (size_t i = from; i < t.args.size(); ++i) {
        ExprPtr e = toIr(*t.args[i], env, why);
        if (!e)
          return false;
        xs.push_back(e);
      }
      return true;
    };
    const ir::Type B = ir::Type::boolean();
    switch (t.op) {
    case Op::IntLit: return ir::mkConstInt(t.ival, I64);
    case Op::BoolLit: return ir::mkConstBool(t.ival != 0);
    case Op::Dim: return var(dimVar_[t.ref]);
    case Op::Scalar: return var(scalarVar_[t.ref]);
    case Op::Const: return toIr(*s_.defines[t.ref].body, env, why);
    case Op::Var:
      if (static_cast<size_t>(t.ref) < env.size() && env[t.ref])
        return env[t.ref];
      why = "it uses a bound variable";
      return nullptr;
    case Op::Let: {
      size_t n = t.letVars.size();
      if (!args(0))
        return nullptr;
      for (size_t i = 0; i < n; ++i) {
        if (env.size() <= static_cast<size_t>(t.ref) + i)
          env.resize(static_cast<size_t>(t.ref) + i + 1);
        env[static_cast<size_t>(t.ref) + i] = xs[i];
      }
      return xs[n];
    }
    case Op::Ite: return args(0) ? ir::mkSelect(xs[1]->type, xs[0], xs[1], xs[2]) : nullptr;
    case Op::And: return args(0) ? fold(ir::Op::LAnd, B, xs) : nullptr;
    case Op::Or: return args(0) ? fold(ir::Op::LOr, B, xs) : nullptr;
    case Op::Not: return args(0) ? ir::mkUnary(ir::Op::Not, B, xs[0]) : nullptr;
    case Op::Implies: {
      if (!args(0))
        return nullptr;
      ExprPtr r = xs.back();
      for (size_t i = xs.size() - 1; i-- > 0;)
        r = ir::mkBinary(ir::Op::LOr, B, ir::mkUnary(ir::Op::Not, B, xs[i]), r);
      return r;
    }
    case Op::Eq:
    case Op::Lt:
    case Op::Le:
    case Op::Gt:
    case Op::Ge: {
      if (!args(0))
        return nullptr;
      ir::Op op = t.op == Op::Eq ? ir::Op::Eq : t.op == Op::Lt ? ir::Op::Lt : t.op == Op::Le ? ir::Op::Le
                  : t.op == Op::Gt ? ir::Op::Gt : ir::Op::Ge;
      if (xs[0]->type.isBool())
        op = ir::Op::Eq; // Bool equality (only Eq admits Bool)
      ExprPtr r;
      for (size_t i = 1; i < xs.size(); ++i) {
        ExprPtr c = ir::mkBinary(op, B, xs[i - 1], xs[i]);
        r = r ? ir::mkBinary(ir::Op::LAnd, B, r, c) : c;
      }
      return r;
    }
    case Op::Distinct: {
      if (!args(0))
        return nullptr;
      ExprPtr r;
      for (size_t i = 0; i < xs.size(); ++i)
        for (size_t j = i + 1; j < xs.size(); ++j) {
          ExprPtr c = ir::mkBinary(ir::Op::Ne, B, xs[i], xs[j]);
          r = r ? ir::mkBinary(ir::Op::LAnd, B, r, c) : c;
        }
      return r;
    }
    case Op::Add: return args(0) ? fold(ir::Op::Add, I64, xs) : nullptr;
    case Op::Sub: return args(0) ? fold(ir::Op::Sub, I64, xs) : nullptr;
    case Op::Mul: return args(0) ? fold(ir::Op::Mul, I64, xs) : nullptr;
    case Op::Neg: return args(0) ? ir::mkBinary(ir::Op::Sub, I64, ir::mkConstInt(0, I64), xs[0]) : nullptr;
    case Op::IntDiv: return args(0) ? ir::mkBinary(ir::Op::Div, I64, xs[0], xs[1]) : nullptr;
    case Op::Mod: return args(0) ? ir::mkBinary(ir::Op::Rem, I64, xs[0], xs[1]) : nullptr;
    case Op::Abs:
      if (!args(0))
        return nullptr;
      return ir::mkSelect(I64, ir::mkBinary(ir::Op::Lt, B, xs[0], ir::mkConstInt(0, I64)),
                          ir::mkBinary(ir::Op::Sub, I64, ir::mkConstInt(0, I64), xs[0]), xs[0]);
    case Op::Max:
    case Op::Min: {
      if (!args(0))
        return nullptr;
      ExprPtr r = xs[0];
      for (size_t i = 1; i < xs.size(); ++i)
        r = ir::mkSelect(I64, ir::mkBinary(t.op == Op::Max ? ir::Op::Gt : ir::Op::Lt, B, xs[i], r), xs[i], r);
      return r;
    }
    default: break;
    }
    why = isRangeBinder(t.op) ? std::string("it uses '") + opKeyword(t.op) + "'"
          : t.op == Op::Read || t.op == Op::Old || t.op == Op::Call ? "it reads tensors"
                                                                      : "it is not integer arithmetic";
    return nullptr;
  }
};

void cTextRec(const ir::Kernel &k, const ir::Expr &e, std::string &out, bool top) {
  auto sub = [&](size_t i) { cTextRec(k, *e.args[i], out, false); };
  switch (e.op) {
  case ir::Op::Const:
    out += e.type.isBool() ? (e.ival ? "true" : "false") : std::to_string(e.ival);
    return;
  case ir::Op::VarRef: out += k.vars[e.id].name; return;
  case ir::Op::Len: out += "__len(" + k.arrays[e.id].name + ")"; return;
  case ir::Op::Cast: sub(0); return;
  case ir::Op::Not:
    out += "!";
    sub(0);
    return;
  case ir::Op::Select:
    out += "(";
    sub(0);
    out += " ? ";
    sub(1);
    out += " : ";
    sub(2);
    out += ")";
    return;
  default: break;
  }
  const char *op = nullptr;
  switch (e.op) {
  case ir::Op::Add: op = " + "; break;
  case ir::Op::Sub: op = " - "; break;
  case ir::Op::Mul: op = " * "; break;
  case ir::Op::Div: op = " / "; break;
  case ir::Op::Rem: op = " % "; break;
  case ir::Op::Eq: op = " == "; break;
  case ir::Op::Ne: op = " != "; break;
  case ir::Op::Lt: op = " < "; break;
  case ir::Op::Le: op = " <= "; break;
  case ir::Op::Gt: op = " > "; break;
  case ir::Op::Ge: op = " >= "; break;
  case ir::Op::LAnd: op = " && "; break;
  case ir::Op::LOr: op = " || "; break;
  default: assert(false && "not a uniform expression"); op = " ? ";
  }
  if (!top)
    out += "(";
  sub(0);
  out += op;
  sub(1);
  if (!top)
    out += ")";
}

} // namespace

std::string cText(const ir::Kernel &k, const ir::Expr &e) {
  std::string out;
  cTextRec(k, e, out, true);
  return out;
}

Binding bind(const Spec &s, const ir::Kernel &k) {
  Binding b;
  Binder(s, k, b).run();
  return b;
}

} // namespace ksynth::spec
