// Spec parser: elaboration of terms (names, tensor reads, operators).

#include "verify/spec/elab.h"

#include <cctype>
#include <memory>
#include <string>

namespace ksynth::spec::parser_detail {

TermPtr Elab::atom(const SExpr &e, Ctx &c) {
  const std::string &x = e.text;
  if (isIntLiteral(x)) {
    auto t = mk(Op::IntLit, Sort::Int, e.loc);
    try {
      size_t used = 0;
      std::const_pointer_cast<Term>(t)->ival = std::stoll(x, &used, 10);
    } catch (...) {
      err(e.loc, "integer literal '" + x + "' is out of range");
      return nullptr;
    }
    return t;
  }
  if (!x.empty() && (isdigit(static_cast<unsigned char>(x[0])) || (x[0] == '-' && x.size() > 1) || x[0] == '.')) {
    __int128 num, den;
    if (!parseReal(x, num, den)) {
      err(e.loc, "malformed number '" + x + "'");
      return nullptr;
    }
    auto t = std::const_pointer_cast<Term>(mk(Op::RealLit, Sort::Real, e.loc));
    t->num = num;
    t->den = den;
    t->text = x;
    return t;
  }
  if (x == "true" || x == "false") {
    auto t = std::const_pointer_cast<Term>(mk(Op::BoolLit, Sort::Bool, e.loc));
    t->ival = x == "true";
    return t;
  }
  for (auto it = c.scope.rbegin(); it != c.scope.rend(); ++it)
    if (it->name == x) {
      auto t = std::const_pointer_cast<Term>(mk(Op::Var, it->sort, e.loc));
      t->ref = it->slot;
      t->name = x;
      return t;
    }
  if (int i = s_.findDim(x); i >= 0) {
    auto t = std::const_pointer_cast<Term>(mk(Op::Dim, Sort::Int, e.loc));
    t->ref = i;
    t->name = x;
    return t;
  }
  if (int i = s_.findScalar(x); i >= 0) {
    if (c.where == Where::Extent) {
      err(e.loc, "scalar '" + x + "' cannot appear in an extent (extents are over dims)");
      return nullptr;
    }
    auto t = std::const_pointer_cast<Term>(mk(Op::Scalar, sortOf(s_.scalars[i].type), e.loc));
    t->ref = i;
    t->name = x;
    return t;
  }
  if (int i = s_.findDefine(x); i >= 0) {
    if (s_.defines[i].function) {
      err(e.loc, "'" + x + "' takes " + plural(s_.defines[i].params.size(), "argument") + ": write (" + x + " ...)");
      return nullptr;
    }
    return defineRef(e, c, i, {});
  }
  if (int i = s_.findTensor(x); i >= 0) {
    if (tensorExtents_[i].empty()) // a rank-0 tensor may be read as a bare name
      return read(e, c, i, {}, false);
    err(e.loc, "tensor '" + x + "' is read with indices: (" + x + " i ...)");
    return nullptr;
  }
  if (isReserved(x)) {
    err(e.loc, "'" + x + "' is an operator; write (" + x + " ...)");
    return nullptr;
  }
  err(e.loc, "unbound name '" + x + "'");
  return nullptr;
}

TermPtr Elab::defineRef(const SExpr &e, Ctx &c, int i, std::vector<TermPtr> args) {
  const Define &d = s_.defines[i];
  if (i >= c.defineLimit) {
    err(e.loc, "'" + d.name + "' is used before its definition" +
                   (c.inDefine == d.name ? std::string(" (a define cannot refer to itself)") : ""));
    return nullptr;
  }
  if (!defineDone_[i])
    return nullptr; // its own errors were reported
  if (c.where != Where::Body && defineReads_[i]) {
    err(e.loc, "'" + d.name + "' reads tensors and cannot appear in " +
                   (c.where == Where::Extent ? "an extent" : "an assumption"));
    return nullptr;
  }
  reads_ |= defineReads_[i];
  auto t = std::const_pointer_cast<Term>(mk(d.function ? Op::Call : Op::Const, defineSort_[i], e.loc, std::move(args)));
  t->ref = i;
  t->name = d.name;
  return t;
}

TermPtr Elab::read(const SExpr &e, Ctx &c, int ti, std::vector<TermPtr> idx, bool old) {
  const Tensor &t = s_.tensors[ti];
  if (c.where != Where::Body) {
    err(e.loc, "tensor '" + t.name + "' cannot be read in " + (c.where == Where::Extent ? "an extent" : "an assumption"));
    return nullptr;
  }
  if (old && t.mode != Mode::InOut) {
    err(e.loc, "(old " + t.name + " ...) needs an inout tensor; '" + t.name + "' is " + modeName(t.mode));
    return nullptr;
  }
  if (!old && t.mode == Mode::Out) {
    err(e.loc, "'" + t.name + "' is an output; its value is what the ensures defines, it cannot be read");
    return nullptr;
  }
  if (!old && t.mode == Mode::InOut) {
    err(e.loc, "'" + t.name + "' is inout: read its value before the kernel as (old " + t.name + " ...)");
    return nullptr;
  }
  size_t rank = tensorExtents_[ti].size();
  if (idx.size() != rank) {
    err(e.loc, "tensor '" + t.name + "' has " + plural(rank, "dimension") + " but is read with " +
                   plural(idx.size(), "index") );
    return nullptr;
  }
  reads_ = true;
  auto r = std::const_pointer_cast<Term>(mk(old ? Op::Old : Op::Read, sortOf(t.type), e.loc, std::move(idx)));
  r->ref = ti;
  r->name = t.name;
  return r;
}

// The arguments e.kids[from..], elaborated into out; false if any failed.
bool Elab::elabArgs(const SExpr &e, Ctx &c, size_t from, std::vector<TermPtr> &out) {
  bool ok = true;
  for (size_t i = from; i < e.kids.size(); ++i) {
    TermPtr t = term(e.kids[i], c);
    ok &= t != nullptr;
    out.push_back(t);
  }
  return ok;
}

TermPtr Elab::term(const SExpr &e, Ctx &c) {
  if (e.kind == SExpr::String) {
    err(e.loc, "unexpected string in a term");
    return nullptr;
  }
  if (e.isAtom())
    return atom(e, c);
  if (e.kids.empty()) {
    err(e.loc, "empty list '()' is not a term");
    return nullptr;
  }
  const SExpr &h = e.kids[0];
  if (!h.isAtom()) {
    err(h.loc, "expected an operator, tensor or define name");
    return nullptr;
  }
  const std::string &f = h.text;
  size_t n = e.kids.size() - 1;
  // Tensor reads and define calls.
  if (!isReserved(f))
    return termApply(e, c);
  if (kFns.count(f))
    return termFn(e, c);
  if (f == "true" || f == "false") {
    err(h.loc, "'" + f + "' is a constant, not a function");
    return nullptr;
  }
  const OpInfo &oi = opTable().at(f);
  if (static_cast<int>(n) < oi.minArgs || (oi.maxArgs >= 0 && static_cast<int>(n) > oi.maxArgs)) {
    std::string want = oi.minArgs == oi.maxArgs ? plural(static_cast<size_t>(oi.minArgs), "argument")
                                                : "at least " + plural(static_cast<size_t>(oi.minArgs), "argument");
    err(e.loc, "'" + f + "' takes " + want + ", got " + std::to_string(n));
    return nullptr;
  }
  if (oi.op == Op::Old)
    return termOld(e, c);
  if (isRangeBinder(oi.op))
    return termBinder(e, c, oi);
  if (oi.op == Op::Let)
    return termLet(e, c);
  return termOp(e, c, oi);
}

// term(): a tensor read (T i ...) or a define call (F x ...).
TermPtr Elab::termApply(const SExpr &e, Ctx &c) {
  const SExpr &h = e.kids[0];
  const std::string &f = h.text;
  size_t n = e.kids.size() - 1;
  std::vector<TermPtr> args;
  bool ok = elabArgs(e, c, 1, args);
  for (size_t i = 0; ok && i < args.size(); ++i)
    if (!(args[i] = expect(args[i], Sort::Int, e.kids[i + 1])))
      ok = false;
  if (int ti = s_.findTensor(f); ti >= 0)
    return ok ? read(e, c, ti, std::move(args), false) : nullptr;
  if (int di = s_.findDefine(f); di >= 0) {
    const Define &d = s_.defines[di];
    if (!d.function) {
      err(h.loc, "'" + f + "' is a constant, not a function: write " + f + " without parentheses");
      return nullptr;
    }
    if (d.params.size() != n) {
      err(e.loc, "'" + f + "' takes " + plural(d.params.size(), "argument") + ", got " + std::to_string(n));
      return nullptr;
    }
    return ok ? defineRef(e, c, di, std::move(args)) : nullptr;
  }
  if (s_.findDim(f) >= 0 || s_.findScalar(f) >= 0) {
    err(h.loc, "'" + f + "' is a " + (s_.findDim(f) >= 0 ? "dim" : "scalar") + ", not a function");
    return nullptr;
  }
  for (const Bound &b : c.scope)
    if (b.name == f) {
      err(h.loc, "'" + f + "' is a variable, not a function");
      return nullptr;
    }
  err(h.loc, "unknown function '" + f + "'");
  return nullptr;
}

// term(): a function of kFns, e.g. (exp x).
TermPtr Elab::termFn(const SExpr &e, Ctx &c) {
  const std::string &f = e.kids[0].text;
  size_t n = e.kids.size() - 1;
  size_t want = f == "pow" ? 2 : 1;
  if (n != want) {
    err(e.loc, "'" + f + "' takes " + plural(want, "argument") + ", got " + std::to_string(n));
    return nullptr;
  }
  std::vector<TermPtr> args;
  bool ok = elabArgs(e, c, 1, args);
  for (size_t i = 0; ok && i < args.size(); ++i)
    ok = (args[i] = expect(args[i], Sort::Real, e.kids[i + 1])) != nullptr;
  if (!ok)
    return nullptr;
  auto t = std::const_pointer_cast<Term>(mk(Op::Fn, Sort::Real, e.loc, std::move(args)));
  t->name = f;
  return t;
}

// term(): (old T i ...), a read of an inout tensor before the kernel.
TermPtr Elab::termOld(const SExpr &e, Ctx &c) {
  const SExpr &tn = e.kids[1];
  int ti = tn.isAtom() ? s_.findTensor(tn.text) : -1;
  if (ti < 0) {
    err(tn.loc, "(old T i ...) needs a tensor name, got '" + tn.text + "'");
    return nullptr;
  }
  std::vector<TermPtr> args;
  bool ok = elabArgs(e, c, 2, args);
  for (size_t i = 0; ok && i < args.size(); ++i)
    ok = (args[i] = expect(args[i], Sort::Int, e.kids[i + 2])) != nullptr;
  return ok ? read(e, c, ti, std::move(args), true) : nullptr;
}

// term(): a range binder, e.g. (sum i lo hi BODY), (argmax-over i lo hi BODY).
TermPtr Elab::termBinder(const SExpr &e, Ctx &c, const OpInfo &oi) {
  const SExpr &v = e.kids[1];
  TermPtr lo = expect(term(e.kids[2], c), Sort::Int, e.kids[2]);
  TermPtr hi = expect(term(e.kids[3], c), Sort::Int, e.kids[3]);
  size_t mark = c.scope.size();
  if (!bindVar(v, c, Sort::Int))
    return nullptr;
  int slot = c.scope.back().slot;
  TermPtr body = expectNumber(term(e.kids[4], c), e.kids[4]);
  c.scope.resize(mark);
  if (!lo || !hi || !body)
    return nullptr;
  Sort s = oi.op == Op::ArgmaxOver || oi.op == Op::ArgminOver ? Sort::Int : body->sort;
  auto t = std::const_pointer_cast<Term>(mk(oi.op, s, e.loc, {lo, hi, body}));
  t->name = v.text;
  t->ref = slot;
  return t;
}

// term(): (let ((x TERM) ...) BODY).
TermPtr Elab::termLet(const SExpr &e, Ctx &c) {
  const SExpr &bs = e.kids[1];
  if (!bs.isList() || bs.kids.empty()) {
    err(bs.loc, "expected (let ((x TERM) ...) BODY)");
    return nullptr;
  }
  std::vector<TermPtr> vals;
  std::vector<std::string> names;
  bool ok = true;
  for (const SExpr &b : bs.kids) {
    if (!b.isList() || b.kids.size() != 2 || !b.kids[0].isAtom()) {
      err(b.loc, "expected a binding (x TERM)");
      ok = false;
      continue;
    }
    TermPtr v = term(b.kids[1], c);
    ok &= v != nullptr;
    vals.push_back(v);
    names.push_back(b.kids[0].text);
  }
  if (!ok)
    return nullptr;
  size_t mark = c.scope.size();
  int first = c.nextSlot;
  for (size_t i = 0; i < names.size(); ++i)
    if (!bindVar(bs.kids[i].kids[0], c, vals[i]->sort)) {
      c.scope.resize(mark);
      return nullptr;
    }
  TermPtr body = term(e.kids[2], c);
  c.scope.resize(mark);
  if (!body)
    return nullptr;
  vals.push_back(body);
  auto t = std::const_pointer_cast<Term>(mk(Op::Let, body->sort, e.loc, std::move(vals)));
  t->letVars = names;
  t->ref = first;
  return t;
}

// term(): logic, comparison, arithmetic and ite over elaborated arguments.
TermPtr Elab::termOp(const SExpr &e, Ctx &c, const OpInfo &oi) {
  std::vector<TermPtr> args;
  if (!elabArgs(e, c, 1, args))
    return nullptr;
  auto arg = [&](size_t i) -> const SExpr & { return e.kids[i + 1]; };
  // Sort of a group of numeric arguments: Real if any is Real.
  auto numericJoin = [&](size_t from, Sort &out) {
    out = Sort::Int;
    bool ok = true;
    for (size_t i = from; i < args.size(); ++i) {
      if (!expectNumber(args[i], arg(i)))
        ok = false;
      else if (args[i]->sort == Sort::Real)
        out = Sort::Real;
    }
    for (size_t i = from; ok && i < args.size(); ++i)
      args[i] = expect(args[i], out, arg(i));
    return ok;
  };
  auto allOf = [&](Sort want) {
    bool ok = true;
    for (size_t i = 0; i < args.size(); ++i)
      ok &= (args[i] = expect(args[i], want, arg(i))) != nullptr;
    return ok;
  };
  Sort s = Sort::Int;
  switch (oi.op) {
  case Op::And:
  case Op::Or:
  case Op::Not:
  case Op::Implies:
    if (!allOf(Sort::Bool))
      return nullptr;
    s = Sort::Bool;
    break;
  case Op::Eq:
  case Op::Distinct:
    if (args[0]->sort == Sort::Bool || args[1]->sort == Sort::Bool) {
      if (!allOf(Sort::Bool))
        return nullptr;
    } else if (!numericJoin(0, s)) {
      return nullptr;
    }
    s = Sort::Bool;
    break;
  case Op::Lt:
  case Op::Le:
  case Op::Gt:
  case Op::Ge:
    if (!numericJoin(0, s))
      return nullptr;
    s = Sort::Bool;
    break;
  case Op::Ite: {
    if (!(args[0] = expect(args[0], Sort::Bool, arg(0))))
      return nullptr;
    if (args[1]->sort == Sort::Bool || args[2]->sort == Sort::Bool) {
      if (args[1]->sort != args[2]->sort) {
        err(e.loc, std::string("the branches of 'ite' have sorts ") + sortName(args[1]->sort) + " and " +
                       sortName(args[2]->sort));
        return nullptr;
      }
      s = Sort::Bool;
    } else if (!numericJoin(1, s)) {
      return nullptr;
    }
    break;
  }
  case Op::Add:
  case Op::Sub:
  case Op::Mul:
  case Op::Max:
  case Op::Min:
  case Op::Abs:
    if (!numericJoin(0, s))
      return nullptr;
    break;
  case Op::Div:
    if (!allOf(Sort::Real))
      return nullptr;
    s = Sort::Real;
    break;
  case Op::IntDiv:
  case Op::Mod:
    if (!allOf(Sort::Int))
      return nullptr;
    break;
  case Op::ToReal:
    if (!allOf(Sort::Int))
      return nullptr;
    s = Sort::Real;
    break;
  default: break;
  }
  Op op = oi.op == Op::Sub && args.size() == 1 ? Op::Neg : oi.op;
  return mk(op, s, e.loc, std::move(args));
}

} // namespace ksynth::spec::parser_detail
