// Concrete interpreter: values (fitting to types), the effects of code regions, math functions.

#include "verify/interp/interp_internal.h"

#include <cmath>
#include <functional>
#include <limits>

namespace ksynth::interp::detail {

Value zeroOf(const Type &t) {
  if (t.isFloat())
    return floatVal(0);
  if (t.isPtr()) {
    Value v;
    v.kind = Value::Kind::Ptr;
    return v;
  }
  return intVal(0);
}

// Brings a value given from outside (parameters, initial memory) or a same-typed result into
// type `t` without recording anything.
Value fit(Value v, const Type &t) {
  if (t.isFloat()) {
    if (v.kind != Value::Kind::Float) {
      v.f = static_cast<double>(v.i);
      v.kind = Value::Kind::Float;
    }
    v.f = roundTo(v.f, t);
  } else if (t.isInt() || t.isBool()) {
    if (v.kind == Value::Kind::Float) {
      double tr = std::trunc(v.f);
      v.i = std::isfinite(tr) && std::fabs(tr) < 1e38 ? static_cast<__int128>(tr) : 0;
      v.kind = Value::Kind::Int;
    }
    if (v.kind == Value::Kind::Int)
      v.i = wrapTo(v.i, t);
  }
  return v;
}

int64_t clamp64(__int128 v) {
  if (v > std::numeric_limits<int64_t>::max())
    return std::numeric_limits<int64_t>::max();
  if (v < std::numeric_limits<int64_t>::min())
    return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(v);
}

// The array a pointer expression certainly points into, or -1.
int baseArray(const Expr &p) {
  switch (p.op) {
  case Op::ArrayRef: return p.id;
  case Op::PtrAdd: return baseArray(*p.args[0]);
  default: return -1;
  }
}

std::unordered_map<const Expr *, int> launchOnlyExprs(const Kernel &k, unsigned minNodes) {
  std::unordered_map<const Expr *, int> out;
  std::function<void(const ir::ExprPtr &)> expr = [&](const ir::ExprPtr &e) {
    if (!e)
      return;
    if (e->launchOnly >= minNodes) {
      out.emplace(e.get(), static_cast<int>(out.size()));
      return;
    }
    for (const ir::ExprPtr &a : e->args)
      expr(a);
  };
  std::function<void(const ir::Block &)> block = [&](const ir::Block &b) {
    for (const ir::StmtPtr &s : b) {
      for (const ir::ExprPtr *e : {&s->value, &s->value2, &s->ptr, &s->cond})
        expr(*e);
      for (const ir::ExprPtr &e : s->index)
        expr(e);
      for (const ir::Block *sub : {&s->pre, &s->body, &s->elseBody, &s->step})
        block(*sub);
    }
  };
  block(k.body);
  return out;
}

void collectEffects(const ir::Block &b, Effects &e) {
  for (const ir::StmtPtr &s : b) {
    switch (s->kind) {
    case StmtKind::Assign:
    case StmtKind::Load:
    case StmtKind::Havoc:
      e.vars.insert(s->var);
      break;
    case StmtKind::Atomic:
    case StmtKind::Store: {
      if (s->var >= 0)
        e.vars.insert(s->var);
      int a = baseArray(*s->ptr);
      if (a >= 0)
        e.arrays.insert(a);
      else
        e.anyArray = true;
      break;
    }
    case StmtKind::Barrier: e.barrier = true; break;
    default: break;
    }
    for (const ir::Block *c : {&s->pre, &s->body, &s->elseBody, &s->step})
      collectEffects(*c, e);
  }
}

// Math functions by name; the name is normalised (`__expf` -> `exp`) by the caller.
bool mathCall(const std::string &n, const std::vector<double> &a, double &r) {
  if (a.size() == 1) {
    double x = a[0];
    if (n == "exp") r = std::exp(x);
    else if (n == "exp2") r = std::exp2(x);
    else if (n == "exp10") r = std::pow(10.0, x);
    else if (n == "expm1") r = std::expm1(x);
    else if (n == "log") r = std::log(x);
    else if (n == "log2") r = std::log2(x);
    else if (n == "log10") r = std::log10(x);
    else if (n == "log1p") r = std::log1p(x);
    else if (n == "sqrt" || n == "fsqrt_rn") r = std::sqrt(x);
    else if (n == "rsqrt" || n == "frsqrt_rn") r = 1.0 / std::sqrt(x);
    else if (n == "cbrt") r = std::cbrt(x);
    else if (n == "frcp_rn") r = 1.0 / x;
    else if (n == "tanh") r = std::tanh(x);
    else if (n == "sinh") r = std::sinh(x);
    else if (n == "cosh") r = std::cosh(x);
    else if (n == "erf") r = std::erf(x);
    else if (n == "erfc") r = std::erfc(x);
    else if (n == "fabs") r = std::fabs(x);
    else if (n == "sin") r = std::sin(x);
    else if (n == "cos") r = std::cos(x);
    else if (n == "tan") r = std::tan(x);
    else if (n == "asin") r = std::asin(x);
    else if (n == "acos") r = std::acos(x);
    else if (n == "atan") r = std::atan(x);
    else if (n == "floor") r = std::floor(x);
    else if (n == "ceil") r = std::ceil(x);
    else if (n == "trunc") r = std::trunc(x);
    else if (n == "round") r = std::round(x);
    else if (n == "rint") r = std::nearbyint(x);
    else if (n == "saturate") r = std::isnan(x) ? 0.0 : std::fmin(std::fmax(x, 0.0), 1.0);
    else return false;
    return true;
  }
  if (a.size() == 2) {
    double x = a[0], y = a[1];
    if (n == "pow") r = std::pow(x, y);
    else if (n == "fmin") r = std::fmin(x, y);
    else if (n == "fmax") r = std::fmax(x, y);
    else if (n == "fmod") r = std::fmod(x, y);
    else if (n == "atan2") r = std::atan2(x, y);
    else if (n == "copysign") r = std::copysign(x, y);
    else if (n == "fdivide" || n == "fdiv_rn") r = x / y;
    else if (n == "fadd_rn") r = x + y;
    else if (n == "fsub_rn") r = x - y;
    else if (n == "fmul_rn") r = x * y;
    else return false;
    return true;
  }
  if (a.size() == 3 && (n == "fma" || n == "fma_rn")) {
    r = std::fma(a[0], a[1], a[2]);
    return true;
  }
  return false;
}

bool knownMath(const std::string &n) {
  double r;
  for (size_t arity = 1; arity <= 3; ++arity)
    if (mathCall(n, std::vector<double>(arity, 1.0), r))
      return true;
  return false;
}

// `__expf` -> `exp`, `fabsf` -> `fabs`, `__fmaf_rn` -> `fma_rn`, `erff` -> `erf`.
std::string normaliseMath(std::string n) {
  if (n.rfind("__", 0) == 0)
    n = n.substr(2);
  if (n.rfind("std::", 0) == 0)
    n = n.substr(5);
  if (knownMath(n))
    return n;
  if (n.size() > 1 && n.back() == 'f' && knownMath(n.substr(0, n.size() - 1)))
    return n.substr(0, n.size() - 1);
  auto rn = n.find("f_rn"); // fmaf_rn
  if (rn != std::string::npos && rn + 4 == n.size() && knownMath(n.substr(0, rn) + "_rn"))
    return n.substr(0, rn) + "_rn";
  return n;
}

} // namespace ksynth::interp::detail
