#include "verify/spec/spec.h"

#include "util/float16.h"
#include "util/int128.h"

#include <cassert>

namespace ksynth::spec {

std::string format(const std::string &file, const Diagnostic &d) {
  std::string where = file;
  if (d.loc.valid())
    where += ":" + std::to_string(d.loc.line) + ":" + std::to_string(d.loc.col);
  return where + ": error: " + d.message;
}

const char *sortName(Sort s) {
  switch (s) {
  case Sort::Bool: return "Bool";
  case Sort::Int: return "Int";
  case Sort::Real: return "Real";
  }
  return "?";
}

namespace {
struct ElemInfo {
  ElemType t;
  const char *name;
  bool isFloat, isSigned;
  unsigned bits;
};
const ElemInfo kElems[] = {
    {ElemType::F16, "f16", true, true, 16},  {ElemType::BF16, "bf16", true, true, 16},
    {ElemType::F32, "f32", true, true, 32},  {ElemType::F64, "f64", true, true, 64},
    {ElemType::I8, "i8", false, true, 8},    {ElemType::I16, "i16", false, true, 16},
    {ElemType::I32, "i32", false, true, 32}, {ElemType::I64, "i64", false, true, 64},
    {ElemType::U8, "u8", false, false, 8},   {ElemType::U16, "u16", false, false, 16},
    {ElemType::U32, "u32", false, false, 32}, {ElemType::U64, "u64", false, false, 64},
};
const ElemInfo &info(ElemType t) {
  for (const ElemInfo &e : kElems)
    if (e.t == t)
      return e;
  assert(false && "element type missing from kElems");
  return kElems[0];
}
} // namespace

const char *elemTypeName(ElemType t) { return info(t).name; }
std::optional<ElemType> parseElemType(const std::string &s) {
  for (const ElemInfo &e : kElems)
    if (s == e.name)
      return e.t;
  return std::nullopt;
}
bool isFloat(ElemType t) { return info(t).isFloat; }
bool isSigned(ElemType t) { return info(t).isSigned; }
unsigned bitsOf(ElemType t) { return info(t).bits; }
double representable(ElemType t, double v) {
  switch (t) {
  case ElemType::F16: return util::roundToHalf(v);
  case ElemType::BF16: return util::roundToBf16(v);
  case ElemType::F32: return static_cast<double>(static_cast<float>(v));
  default: return v;
  }
}

const char *modeName(Mode m) {
  switch (m) {
  case Mode::In: return "in";
  case Mode::Out: return "out";
  case Mode::InOut: return "inout";
  }
  return "?";
}

const char *opKeyword(Op op) {
  switch (op) {
  case Op::Old: return "old";
  case Op::Ite: return "ite";
  case Op::Let: return "let";
  case Op::And: return "and";
  case Op::Or: return "or";
  case Op::Not: return "not";
  case Op::Implies: return "=>";
  case Op::Eq: return "=";
  case Op::Distinct: return "distinct";
  case Op::Lt: return "<";
  case Op::Le: return "<=";
  case Op::Gt: return ">";
  case Op::Ge: return ">=";
  case Op::Add: return "+";
  case Op::Sub: return "-";
  case Op::Neg: return "-";
  case Op::Mul: return "*";
  case Op::Div: return "/";
  case Op::IntDiv: return "div";
  case Op::Mod: return "mod";
  case Op::Abs: return "abs";
  case Op::Max: return "max";
  case Op::Min: return "min";
  case Op::ToReal: return "to_real";
  case Op::Sum: return "sum";
  case Op::Prod: return "prod";
  case Op::MaxOver: return "max-over";
  case Op::MinOver: return "min-over";
  case Op::ArgmaxOver: return "argmax-over";
  case Op::ArgminOver: return "argmin-over";
  default: return "";
  }
}

bool isRangeBinder(Op op) {
  return op == Op::Sum || op == Op::Prod || op == Op::MaxOver || op == Op::MinOver || op == Op::ArgmaxOver ||
         op == Op::ArgminOver;
}
bool needsNonEmptyRange(Op op) { return isRangeBinder(op) && op != Op::Sum && op != Op::Prod; }

int Spec::findDim(const std::string &n) const {
  for (size_t i = 0; i < dims.size(); ++i)
    if (dims[i].name == n)
      return static_cast<int>(i);
  return -1;
}
int Spec::findScalar(const std::string &n) const {
  for (size_t i = 0; i < scalars.size(); ++i)
    if (scalars[i].name == n)
      return static_cast<int>(i);
  return -1;
}
int Spec::findTensor(const std::string &n) const {
  for (size_t i = 0; i < tensors.size(); ++i)
    if (tensors[i].name == n)
      return static_cast<int>(i);
  return -1;
}
int Spec::findDefine(const std::string &n) const {
  for (size_t i = 0; i < defines.size(); ++i)
    if (defines[i].name == n)
      return static_cast<int>(i);
  return -1;
}

// ---- equality -------------------------------------------------------------------------

bool equal(const Term &a, const Term &b) {
  if (a.op != b.op || a.sort != b.sort || a.ref != b.ref || a.ival != b.ival || a.implicit != b.implicit ||
      a.args.size() != b.args.size() || a.letVars != b.letVars)
    return false;
  if (a.op == Op::RealLit && a.num * b.den != b.num * a.den)
    return false;
  // Names matter for symbols and functions; slots already identify variables.
  if ((a.op == Op::Fn || isRangeBinder(a.op)) && a.name != b.name)
    return false;
  for (size_t i = 0; i < a.args.size(); ++i)
    if (!equal(*a.args[i], *b.args[i]))
      return false;
  return true;
}

static bool equalTerms(const std::vector<TermPtr> &a, const std::vector<TermPtr> &b) {
  if (a.size() != b.size())
    return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (!equal(*a[i], *b[i]))
      return false;
  return true;
}

bool equal(const Spec &a, const Spec &b) {
  if (a.name != b.name || a.doc != b.doc || a.dims.size() != b.dims.size() || a.scalars.size() != b.scalars.size() ||
      a.tensors.size() != b.tensors.size() || a.defines.size() != b.defines.size() ||
      a.ensures.size() != b.ensures.size() || !equalTerms(a.assumes, b.assumes) || a.sizes != b.sizes)
    return false;
  for (size_t i = 0; i < a.dims.size(); ++i)
    if (a.dims[i].name != b.dims[i].name)
      return false;
  for (size_t i = 0; i < a.scalars.size(); ++i)
    if (a.scalars[i].name != b.scalars[i].name || a.scalars[i].type != b.scalars[i].type)
      return false;
  for (size_t i = 0; i < a.tensors.size(); ++i) {
    const Tensor &x = a.tensors[i], &y = b.tensors[i];
    if (x.name != y.name || x.type != y.type || x.mode != y.mode || !equalTerms(x.extents, y.extents) ||
        x.ensures != y.ensures)
      return false;
  }
  for (size_t i = 0; i < a.defines.size(); ++i) {
    const Define &x = a.defines[i], &y = b.defines[i];
    if (x.name != y.name || x.function != y.function || x.params != y.params || x.numSlots != y.numSlots ||
        !equal(*x.body, *y.body))
      return false;
  }
  for (size_t i = 0; i < a.ensures.size(); ++i) {
    const Ensures &x = a.ensures[i], &y = b.ensures[i];
    if (x.tensor != y.tensor || x.index != y.index || x.numSlots != y.numSlots || !equal(*x.body, *y.body))
      return false;
  }
  return true;
}

// ---- spec syntax ----------------------------------------------------------------------

namespace {

using util::int128Text;

void setSlot(std::vector<std::string> &slots, int slot, const std::string &name) {
  if (slot < 0)
    return;
  if (static_cast<size_t>(slot) >= slots.size())
    slots.resize(static_cast<size_t>(slot) + 1);
  slots[static_cast<size_t>(slot)] = name;
}

std::string slotName(const std::vector<std::string> &slots, int slot) {
  return slot >= 0 && static_cast<size_t>(slot) < slots.size() ? slots[static_cast<size_t>(slot)] : "?v" + std::to_string(slot);
}

std::string sx(const Spec &s, const Term &t, std::vector<std::string> &slots) {
  auto args = [&](size_t from) {
    std::string r;
    for (size_t i = from; i < t.args.size(); ++i)
      r += " " + sx(s, *t.args[i], slots);
    return r;
  };
  switch (t.op) {
  case Op::IntLit: return std::to_string(t.ival);
  case Op::RealLit: return t.text.empty() ? "(/ " + int128Text(t.num) + ".0 " + int128Text(t.den) + ".0)" : t.text;
  case Op::BoolLit: return t.ival ? "true" : "false";
  case Op::Dim: return s.dims[t.ref].name;
  case Op::Scalar: return s.scalars[t.ref].name;
  case Op::Const: return s.defines[t.ref].name;
  case Op::Var: return slotName(slots, t.ref);
  case Op::Read: return "(" + s.tensors[t.ref].name + args(0) + ")";
  case Op::Old: return "(old " + s.tensors[t.ref].name + args(0) + ")";
  case Op::Call: return "(" + s.defines[t.ref].name + args(0) + ")";
  case Op::ToReal:
    if (t.implicit)
      return sx(s, *t.args[0], slots);
    return "(to_real" + args(0) + ")";
  case Op::Fn: return "(" + t.name + args(0) + ")";
  case Op::Let: {
    std::string r = "(let (";
    for (size_t i = 0; i < t.letVars.size(); ++i)
      r += std::string(i ? " " : "") + "(" + t.letVars[i] + " " + sx(s, *t.args[i], slots) + ")";
    for (size_t i = 0; i < t.letVars.size(); ++i)
      setSlot(slots, t.ref + static_cast<int>(i), t.letVars[i]);
    return r + ") " + sx(s, *t.args.back(), slots) + ")";
  }
  default: break;
  }
  if (isRangeBinder(t.op)) {
    std::string lo = sx(s, *t.args[0], slots), hi = sx(s, *t.args[1], slots);
    setSlot(slots, t.ref, t.name);
    return "(" + std::string(opKeyword(t.op)) + " " + t.name + " " + lo + " " + hi + " " + sx(s, *t.args[2], slots) + ")";
  }
  return "(" + std::string(opKeyword(t.op)) + args(0) + ")";
}

std::string quote(const std::string &s) {
  std::string r = "\"";
  for (char c : s)
    r += c == '"' ? std::string("\"\"") : std::string(1, c);
  return r + "\"";
}

} // namespace

std::string print(const Spec &s, const Term &t, const std::vector<std::string> &slots) {
  std::vector<std::string> sl = slots;
  return sx(s, t, sl);
}

std::string print(const Spec &s) {
  std::string r = "(spec " + s.name;
  if (!s.doc.empty())
    r += "\n  (doc " + quote(s.doc) + ")";
  if (!s.dims.empty()) {
    r += "\n  (dims";
    for (const Dim &d : s.dims)
      r += " " + d.name;
    r += ")";
  }
  for (const Scalar &x : s.scalars)
    r += "\n  (scalar " + x.name + " " + elemTypeName(x.type) + ")";
  if (!s.assumes.empty()) {
    r += "\n  (assume";
    for (const TermPtr &a : s.assumes)
      r += " " + print(s, *a, {});
    r += ")";
  }
  for (const Tensor &t : s.tensors) {
    r += "\n  (tensor " + t.name + " " + elemTypeName(t.type) + " (";
    for (size_t i = 0; i < t.extents.size(); ++i)
      r += (i ? " " : "") + print(s, *t.extents[i], {});
    r += ") " + std::string(modeName(t.mode)) + ")";
  }
  for (const Define &d : s.defines) {
    if (d.function) {
      r += "\n  (define (" + d.name;
      for (const std::string &p : d.params)
        r += " " + p;
      r += ") " + print(s, *d.body, d.params) + ")";
    } else {
      r += "\n  (define " + d.name + " " + print(s, *d.body, {}) + ")";
    }
  }
  for (const Ensures &e : s.ensures) {
    r += "\n  (ensures (" + s.tensors[e.tensor].name;
    for (const std::string &i : e.index)
      r += " " + i;
    r += ") " + print(s, *e.body, e.index) + ")";
  }
  if (!s.sizes.empty()) {
    r += "\n  (sizes";
    for (const auto &[n, v] : s.sizes)
      r += " (" + n + " " + std::to_string(v) + ")";
    r += ")";
  }
  return r + ")\n";
}

// ---- plain language -------------------------------------------------------------------

namespace {

// Precedence: higher binds tighter.
int prec(const Term &t) {
  switch (t.op) {
  case Op::Let:
  case Op::Ite: return 0;
  case Op::Implies: return 1;
  case Op::Or: return 2;
  case Op::And: return 3;
  case Op::Not: return 4;
  case Op::Eq:
  case Op::Distinct:
  case Op::Lt:
  case Op::Le:
  case Op::Gt:
  case Op::Ge: return 5;
  case Op::Add:
  case Op::Sub: return 6;
  case Op::Mul:
  case Op::Div:
  case Op::IntDiv:
  case Op::Mod: return 7;
  case Op::Neg: return 8;
  case Op::ToReal: return t.implicit ? prec(*t.args[0]) : 9;
  default: return isRangeBinder(t.op) ? 0 : 9;
  }
}

std::string inf(const Spec &s, const Term &t, std::vector<std::string> &slots, int ctx) {
  auto sub = [&](size_t i, int c) { return inf(s, *t.args[i], slots, c); };
  auto list = [&](size_t from) {
    std::string r;
    for (size_t i = from; i < t.args.size(); ++i)
      r += (i > from ? ", " : "") + sub(i, 0);
    return r;
  };
  auto join = [&](const std::string &sep, int p, bool leftAssoc) {
    std::string r;
    for (size_t i = 0; i < t.args.size(); ++i)
      r += (i ? sep : "") + sub(i, (leftAssoc && i == 0) ? p : p + 1);
    return r;
  };
  std::string r;
  int p = prec(t);
  switch (t.op) {
  case Op::IntLit:
  case Op::RealLit:
  case Op::BoolLit:
  case Op::Dim:
  case Op::Scalar:
  case Op::Const:
  case Op::Var: {
    std::vector<std::string> sl = slots;
    return sx(s, t, sl);
  }
  case Op::Read:
  case Op::Old: {
    r = s.tensors[t.ref].name;
    for (size_t i = 0; i < t.args.size(); ++i)
      r += "[" + sub(i, 0) + "]";
    return t.op == Op::Old ? "old " + r : r;
  }
  case Op::Call: return s.defines[t.ref].name + "(" + list(0) + ")";
  case Op::Fn:
  case Op::Abs:
  case Op::Max:
  case Op::Min: return std::string(t.op == Op::Fn ? t.name : opKeyword(t.op)) + "(" + list(0) + ")";
  case Op::Distinct: r = "all different(" + list(0) + ")"; break;
  case Op::ToReal: return t.implicit ? inf(s, *t.args[0], slots, ctx) : "real(" + list(0) + ")";
  case Op::Ite: r = "if " + sub(0, 1) + " then " + sub(1, 1) + " else " + sub(2, 0); break;
  case Op::Let: {
    r = "let ";
    for (size_t i = 0; i < t.letVars.size(); ++i)
      r += (i ? ", " : "") + t.letVars[i] + " = " + sub(i, 1);
    for (size_t i = 0; i < t.letVars.size(); ++i)
      setSlot(slots, t.ref + static_cast<int>(i), t.letVars[i]);
    r += " in " + sub(t.args.size() - 1, 0);
    break;
  }
  case Op::Not: r = "not " + sub(0, p); break;
  case Op::Neg: r = "-" + sub(0, p + 1); break;
  case Op::And: r = join(" and ", p, false); break;
  case Op::Or: r = join(" or ", p, false); break;
  case Op::Implies: r = join(" implies ", p, false); break;
  case Op::Eq: r = join(" = ", p, false); break;
  case Op::Lt: r = join(" < ", p, false); break;
  case Op::Le: r = join(" <= ", p, false); break;
  case Op::Gt: r = join(" > ", p, false); break;
  case Op::Ge: r = join(" >= ", p, false); break;
  case Op::Add: r = join(" + ", p, true); break;
  case Op::Sub: r = join(" - ", p, true); break;
  case Op::Mul: r = join(" * ", p, true); break;
  case Op::Div: r = join(" / ", p, true); break;
  case Op::IntDiv: r = join(" div ", p, true); break;
  case Op::Mod: r = join(" mod ", p, true); break;
  default: {
    assert(isRangeBinder(t.op));
    std::string lo = sub(0, 0), hi = sub(1, 0);
    setSlot(slots, t.ref, t.name);
    std::string range = t.name + " in [" + lo + ", " + hi + ")";
    std::string body = sub(2, 0);
    switch (t.op) {
    case Op::Sum: r = "sum over " + range + " of " + body; break;
    case Op::Prod: r = "product over " + range + " of " + body; break;
    case Op::MaxOver: r = "max over " + range + " of " + body; break;
    case Op::MinOver: r = "min over " + range + " of " + body; break;
    case Op::ArgmaxOver: r = "the first " + range + " maximising " + body; break;
    default: r = "the first " + range + " minimising " + body; break;
    }
  }
  }
  return p < ctx ? "(" + r + ")" : r;
}

std::string shape(const Spec &s, const Tensor &t) {
  std::string r = elemTypeName(t.type);
  for (const TermPtr &e : t.extents)
    r += "[" + infix(s, *e, {}) + "]";
  return r;
}

} // namespace

std::string infix(const Spec &s, const Term &t, const std::vector<std::string> &slots) {
  std::vector<std::string> sl = slots;
  return inf(s, t, sl, 0);
}

std::string explain(const Spec &s) {
  std::string r = "Spec '" + s.name + "'" + (s.doc.empty() ? "." : ": " + s.doc) + "\n";
  if (!s.dims.empty()) {
    r += "Sizes (integers, each at least 1): ";
    for (size_t i = 0; i < s.dims.size(); ++i)
      r += (i ? ", " : "") + s.dims[i].name;
    r += ".\n";
  }
  if (!s.scalars.empty()) {
    r += "Scalar arguments: ";
    for (size_t i = 0; i < s.scalars.size(); ++i)
      r += (i ? ", " : "") + s.scalars[i].name + " (" + elemTypeName(s.scalars[i].type) + ")";
    r += ".\n";
  }
  if (!s.assumes.empty()) {
    r += "Assumptions: ";
    for (size_t i = 0; i < s.assumes.size(); ++i)
      r += (i ? "; " : "") + infix(s, *s.assumes[i], {});
    r += ".\n";
  }
  if (!s.sizes.empty()) {
    r += "The problem's own sizes (the kernel must still be right for every admitted size): ";
    for (size_t i = 0; i < s.sizes.size(); ++i)
      r += (i ? ", " : "") + s.sizes[i].first + " = " + std::to_string(s.sizes[i].second);
    r += ".\n";
  }
  for (Mode m : {Mode::In, Mode::InOut, Mode::Out}) {
    std::string line;
    for (const Tensor &t : s.tensors)
      if (t.mode == m)
        line += (line.empty() ? "" : "; ") + t.name + ": " + shape(s, t);
    if (line.empty())
      continue;
    r += m == Mode::In      ? "Inputs: "
         : m == Mode::InOut ? "Updated in place (old X[...] is the value before the kernel): "
                            : "Outputs: ";
    r += line + ".\n";
  }
  for (const Define &d : s.defines) {
    std::string head = d.name;
    if (d.function) {
      head += "(";
      for (size_t i = 0; i < d.params.size(); ++i)
        head += (i ? ", " : "") + d.params[i];
      head += ")";
    }
    r += "Where " + head + " = " + infix(s, *d.body, d.params) + ".\n";
  }
  for (const Ensures &e : s.ensures) {
    const Tensor &t = s.tensors[e.tensor];
    std::string lhs = t.name, ranges;
    for (size_t i = 0; i < e.index.size(); ++i) {
      lhs += "[" + e.index[i] + "]";
      ranges += (i ? ", " : "") + std::string("0 <= ") + e.index[i] + " < " + infix(s, *t.extents[i], {});
    }
    r += "Result: " + lhs + " = " + infix(s, *e.body, e.index) + (ranges.empty() ? "" : ", for " + ranges) + ".\n";
  }
  r += "Tensors are dense and row-major; values are real numbers (rounding is not part of the spec); "
       "exp, log, sqrt, rsqrt, tanh, erf and pow are the usual functions.\n";
  return r;
}

} // namespace ksynth::spec
