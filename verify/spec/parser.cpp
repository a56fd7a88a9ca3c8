#include "verify/spec/parser.h"

#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

namespace ksynth::spec {

namespace {

// ---- S-expressions --------------------------------------------------------------------

struct SExpr {
  enum Kind { Atom, String, List } kind = Atom;
  std::string text;
  std::vector<SExpr> kids;
  Loc loc;
  bool isAtom() const { return kind == Atom; }
  bool isList() const { return kind == List; }
};

std::string locText(Loc l) { return std::to_string(l.line) + ":" + std::to_string(l.col); }

class Reader {
public:
  Reader(const std::string &s, std::vector<Diagnostic> &errs) : s_(s), errs_(errs) {}

  std::vector<SExpr> readAll() {
    std::vector<SExpr> out;
    for (;;) {
      skip();
      if (pos_ >= s_.size())
        return out;
      if (s_[pos_] == ')') {
        errs_.push_back({here(), "unexpected ')'"});
        advance();
        continue;
      }
      SExpr e;
      if (!read(e))
        return out;
      out.push_back(std::move(e));
    }
  }

private:
  const std::string &s_;
  std::vector<Diagnostic> &errs_;
  size_t pos_ = 0;
  unsigned line_ = 1, col_ = 1;

  Loc here() const { return {line_, col_}; }
  void advance() {
    if (s_[pos_] == '\n')
      ++line_, col_ = 1;
    else
      ++col_;
    ++pos_;
  }
  void skip() {
    while (pos_ < s_.size()) {
      char c = s_[pos_];
      if (c == ';') {
        while (pos_ < s_.size() && s_[pos_] != '\n')
          advance();
      } else if (isspace(static_cast<unsigned char>(c))) {
        advance();
      } else {
        return;
      }
    }
  }
  // false: unrecoverable (end of input inside a list or string)
  bool read(SExpr &e) {
    e.loc = here();
    char c = s_[pos_];
    if (c == '(') {
      e.kind = SExpr::List;
      advance();
      for (;;) {
        skip();
        if (pos_ >= s_.size()) {
          errs_.push_back({e.loc, "'(' is never closed"});
          return false;
        }
        if (s_[pos_] == ')') {
          advance();
          return true;
        }
        SExpr k;
        if (!read(k))
          return false;
        e.kids.push_back(std::move(k));
      }
    }
    if (c == '"') {
      e.kind = SExpr::String;
      advance();
      for (;;) {
        if (pos_ >= s_.size()) {
          errs_.push_back({e.loc, "string is never closed"});
          return false;
        }
        if (s_[pos_] == '"') {
          advance();
          if (pos_ < s_.size() && s_[pos_] == '"') { // "" is a quote, as in SMT-LIB
            e.text += '"';
            advance();
            continue;
          }
          return true;
        }
        e.text += s_[pos_];
        advance();
      }
    }
    e.kind = SExpr::Atom;
    while (pos_ < s_.size() && !isspace(static_cast<unsigned char>(s_[pos_])) && s_[pos_] != '(' &&
           s_[pos_] != ')' && s_[pos_] != ';' && s_[pos_] != '"') {
      e.text += s_[pos_];
      advance();
    }
    return true;
  }
};

// ---- elaboration ----------------------------------------------------------------------

bool isIdent(const std::string &s) {
  if (s.empty() || !(isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_'))
    return false;
  for (char c : s)
    if (!(isalnum(static_cast<unsigned char>(c)) || c == '_'))
      return false;
  return true;
}

const std::set<std::string> kFns = {"exp", "log", "sqrt", "rsqrt", "tanh", "erf", "pow"};

struct OpInfo {
  Op op;
  int minArgs, maxArgs; // maxArgs -1: unbounded
};
const std::map<std::string, OpInfo> &opTable() {
  static const std::map<std::string, OpInfo> t = {
      {"ite", {Op::Ite, 3, 3}},       {"and", {Op::And, 1, -1}},     {"or", {Op::Or, 1, -1}},
      {"not", {Op::Not, 1, 1}},       {"=>", {Op::Implies, 2, -1}},  {"=", {Op::Eq, 2, -1}},
      {"distinct", {Op::Distinct, 2, -1}}, {"<", {Op::Lt, 2, -1}},   {"<=", {Op::Le, 2, -1}},
      {">", {Op::Gt, 2, -1}},         {">=", {Op::Ge, 2, -1}},       {"+", {Op::Add, 2, -1}},
      {"-", {Op::Sub, 1, -1}},        {"*", {Op::Mul, 2, -1}},       {"/", {Op::Div, 2, -1}},
      {"div", {Op::IntDiv, 2, 2}},    {"mod", {Op::Mod, 2, 2}},      {"abs", {Op::Abs, 1, 1}},
      {"max", {Op::Max, 2, -1}},      {"min", {Op::Min, 2, -1}},     {"to_real", {Op::ToReal, 1, 1}},
      {"sum", {Op::Sum, 4, 4}},       {"prod", {Op::Prod, 4, 4}},    {"max-over", {Op::MaxOver, 4, 4}},
      {"min-over", {Op::MinOver, 4, 4}}, {"argmax-over", {Op::ArgmaxOver, 4, 4}},
      {"argmin-over", {Op::ArgminOver, 4, 4}}, {"let", {Op::Let, 2, 2}}, {"old", {Op::Old, 1, -1}},
  };
  return t;
}

bool isReserved(const std::string &s) {
  return opTable().count(s) || kFns.count(s) || s == "true" || s == "false";
}

std::string plural(size_t n, const std::string &what) {
  if (n == 1)
    return "1 " + what;
  return std::to_string(n) + " " + (what == "index" ? std::string("indices") : what + "s");
}

// Exact value of a decimal literal: digits[.digits][e[+-]digits].
bool parseReal(const std::string &s, __int128 &num, __int128 &den) {
  size_t i = 0;
  bool neg = false;
  if (i < s.size() && s[i] == '-')
    neg = true, ++i;
  const __int128 lim = static_cast<__int128>(1) << 100;
  num = 0, den = 1;
  bool digits = false, dot = false;
  for (; i < s.size() && (isdigit(static_cast<unsigned char>(s[i])) || s[i] == '.'); ++i) {
    if (s[i] == '.') {
      if (dot)
        return false;
      dot = true;
      continue;
    }
    digits = true;
    num = num * 10 + (s[i] - '0');
    if (dot)
      den *= 10;
    if (num > lim || den > lim)
      return false;
  }
  if (!digits || (!dot && i == s.size()))
    return false;
  if (i < s.size()) {
    if (s[i] != 'e' && s[i] != 'E')
      return false;
    ++i;
    bool eneg = false;
    if (i < s.size() && (s[i] == '-' || s[i] == '+'))
      eneg = s[i] == '-', ++i;
    if (i >= s.size())
      return false;
    int ex = 0;
    for (; i < s.size(); ++i) {
      if (!isdigit(static_cast<unsigned char>(s[i])) || ex > 40)
        return false;
      ex = ex * 10 + (s[i] - '0');
    }
    for (int k = 0; k < ex; ++k) {
      (eneg ? den : num) *= 10;
      if (num > lim || den > lim)
        return false;
    }
  }
  __int128 a = num, b = den;
  while (b) {
    __int128 t = a % b;
    a = b;
    b = t;
  }
  if (a > 1)
    num /= a, den /= a;
  if (neg)
    num = -num;
  return true;
}

bool isIntLiteral(const std::string &s) {
  size_t i = s.size() > 1 && s[0] == '-' ? 1 : 0;
  if (i >= s.size())
    return false;
  for (; i < s.size(); ++i)
    if (!isdigit(static_cast<unsigned char>(s[i])))
      return false;
  return true;
}

TermPtr mk(Op op, Sort sort, Loc loc, std::vector<TermPtr> args = {}) {
  auto t = std::make_shared<Term>();
  t->op = op;
  t->sort = sort;
  t->loc = loc;
  t->args = std::move(args);
  return t;
}

class Elab {
public:
  explicit Elab(std::vector<Diagnostic> &errs) : errs_(errs) {}

  std::optional<Spec> run(const std::vector<SExpr> &top) {
    if (top.empty()) {
      err({1, 1}, "empty spec file: expected (spec NAME ...)");
      return std::nullopt;
    }
    for (size_t i = 1; i < top.size(); ++i)
      err(top[i].loc, "only one (spec ...) form is allowed per file");
    const SExpr &sp = top[0];
    if (!sp.isList() || sp.kids.empty() || !sp.kids[0].isAtom() || sp.kids[0].text != "spec") {
      err(sp.loc, "expected (spec NAME ...)");
      return std::nullopt;
    }
    s_.loc = sp.loc;
    if (sp.kids.size() < 2 || !sp.kids[1].isAtom() || !isIdent(sp.kids[1].text)) {
      err(sp.kids.size() < 2 ? sp.loc : sp.kids[1].loc, "expected the spec's name after 'spec'");
    } else {
      s_.name = sp.kids[1].text;
    }
    declare(sp);
    elaborateDefines();
    for (size_t i = 0; i < s_.tensors.size(); ++i)
      for (const SExpr *x : tensorExtents_[i]) {
        Ctx c{Where::Extent};
        TermPtr t = expect(term(*x, c), Sort::Int, *x);
        s_.tensors[i].extents.push_back(t);
      }
    for (const SExpr *a : assumes_) {
      Ctx c{Where::Assume};
      s_.assumes.push_back(expect(term(*a, c), Sort::Bool, *a));
    }
    for (const SExpr *e : ensures_)
      elaborateEnsures(*e);
    for (const Tensor &t : s_.tensors)
      if (t.mode != Mode::In && t.ensures < 0 && !ensuresTried_.count(t.name))
        err(t.loc, std::string(t.mode == Mode::Out ? "output" : "inout") + " tensor '" + t.name + "' has no ensures");
    if (!errs_.empty())
      return std::nullopt;
    return std::move(s_);
  }

private:
  enum class Where { Body, Assume, Extent };
  struct Bound {
    std::string name;
    int slot;
    Sort sort;
  };
  struct Ctx {
    Where where = Where::Body;
    std::vector<Bound> scope;
    int nextSlot = 0;
    int defineLimit = 1 << 30; // defines usable: index < defineLimit
    std::string inDefine;
  };

  std::vector<Diagnostic> &errs_;
  Spec s_;
  std::map<std::string, std::pair<std::string, Loc>> globals_; // name -> (what, where)
  std::vector<std::vector<const SExpr *>> tensorExtents_;
  std::vector<const SExpr *> defineBodies_, assumes_, ensures_;
  std::map<std::string, Loc> ensuresTried_; // tensors with an ensures (possibly with errors)
  std::vector<bool> defineReads_; // define reads a tensor (directly or through another define)
  std::vector<bool> defineDone_;
  std::vector<Sort> defineSort_;

  void err(Loc l, std::string m) { errs_.push_back({l, std::move(m)}); }

  bool declareName(const SExpr &at, const std::string &what) {
    if (!at.isAtom() || !isIdent(at.text)) {
      err(at.loc, "'" + at.text + "' is not a valid name (letters, digits and '_', not starting with a digit)");
      return false;
    }
    if (isReserved(at.text)) {
      err(at.loc, "'" + at.text + "' is reserved and cannot name a " + what);
      return false;
    }
    auto it = globals_.find(at.text);
    if (it != globals_.end()) {
      err(at.loc, "duplicate name '" + at.text + "' (first declared as a " + it->second.first + " at " +
                      locText(it->second.second) + ")");
      return false;
    }
    globals_[at.text] = {what, at.loc};
    return true;
  }

  void declare(const SExpr &sp) {
    bool haveDoc = false;
    for (size_t i = 2; i < sp.kids.size(); ++i) {
      const SExpr &it = sp.kids[i];
      if (!it.isList() || it.kids.empty() || !it.kids[0].isAtom()) {
        err(it.loc, "expected a spec item: (doc ...), (dims ...), (scalar ...), (assume ...), (tensor ...), "
                    "(define ...) or (ensures ...)");
        continue;
      }
      const std::string &kw = it.kids[0].text;
      size_t n = it.kids.size() - 1;
      if (kw == "doc") {
        if (haveDoc)
          err(it.loc, "more than one (doc ...)");
        if (n != 1 || it.kids[1].kind != SExpr::String)
          err(it.loc, "(doc \"TEXT\") takes one string");
        else
          s_.doc = it.kids[1].text;
        haveDoc = true;
      } else if (kw == "dims") {
        for (size_t k = 1; k < it.kids.size(); ++k)
          if (declareName(it.kids[k], "dim"))
            s_.dims.push_back({it.kids[k].text, it.kids[k].loc});
      } else if (kw == "scalar") {
        if (n != 2) {
          err(it.loc, "(scalar NAME TYPE) takes 2 arguments, got " + std::to_string(n));
          continue;
        }
        auto ty = parseElemType(it.kids[2].text);
        if (!ty || !it.kids[2].isAtom()) {
          err(it.kids[2].loc, "unknown type '" + it.kids[2].text + "' (f16 bf16 f32 f64 i8 i16 i32 i64 u8 u16 u32 u64)");
          continue;
        }
        if (declareName(it.kids[1], "scalar"))
          s_.scalars.push_back({it.kids[1].text, *ty, it.kids[1].loc});
      } else if (kw == "assume") {
        for (size_t k = 1; k < it.kids.size(); ++k)
          assumes_.push_back(&it.kids[k]);
      } else if (kw == "tensor") {
        if (n != 4) {
          err(it.loc, "(tensor NAME TYPE (EXTENT ...) in|out|inout) takes 4 arguments, got " + std::to_string(n));
          continue;
        }
        auto ty = parseElemType(it.kids[2].text);
        bool ok = true;
        if (!ty || !it.kids[2].isAtom()) {
          err(it.kids[2].loc, "unknown type '" + it.kids[2].text + "' (f16 bf16 f32 f64 i8 i16 i32 i64 u8 u16 u32 u64)");
          ok = false;
        }
        if (!it.kids[3].isList()) {
          err(it.kids[3].loc, "the extents of a tensor are a list, e.g. (M K)");
          ok = false;
        }
        const std::string &m = it.kids[4].text;
        Mode mode = m == "out" ? Mode::Out : m == "inout" ? Mode::InOut : Mode::In;
        if (!it.kids[4].isAtom() || (m != "in" && m != "out" && m != "inout")) {
          err(it.kids[4].loc, "expected in, out or inout, got '" + m + "'");
          ok = false;
        }
        if (!declareName(it.kids[1], "tensor") || !ok)
          continue;
        Tensor t;
        t.name = it.kids[1].text;
        t.type = *ty;
        t.mode = mode;
        t.loc = it.kids[1].loc;
        s_.tensors.push_back(t);
        std::vector<const SExpr *> ext;
        for (const SExpr &x : it.kids[3].kids)
          ext.push_back(&x);
        tensorExtents_.push_back(ext);
      } else if (kw == "define") {
        if (n != 2) {
          err(it.loc, "(define NAME TERM) or (define (F i ...) TERM) takes 2 arguments, got " + std::to_string(n));
          continue;
        }
        Define d;
        const SExpr &head = it.kids[1];
        const SExpr *nameAt = &head;
        if (head.isList()) {
          if (head.kids.empty()) {
            err(head.loc, "expected (F i ...) or NAME");
            continue;
          }
          d.function = true;
          nameAt = &head.kids[0];
          std::set<std::string> seen;
          bool ok = true;
          for (size_t k = 1; k < head.kids.size(); ++k) {
            const SExpr &p = head.kids[k];
            if (!p.isAtom() || !isIdent(p.text) || isReserved(p.text)) {
              err(p.loc, "'" + p.text + "' is not a valid parameter name");
              ok = false;
            } else if (!seen.insert(p.text).second) {
              err(p.loc, "duplicate parameter '" + p.text + "'");
              ok = false;
            }
            d.params.push_back(p.text);
          }
          if (!ok)
            continue;
        }
        if (!declareName(*nameAt, "define"))
          continue;
        d.name = nameAt->text;
        d.loc = nameAt->loc;
        s_.defines.push_back(d);
        defineBodies_.push_back(&it.kids[2]);
      } else if (kw == "ensures") {
        ensures_.push_back(&it);
      } else if (kw == "spec") {
        err(it.loc, "nested (spec ...)");
      } else {
        err(it.kids[0].loc, "unknown spec item '" + kw + "' (expected doc, dims, scalar, assume, tensor, define or ensures)");
      }
    }
  }

  void elaborateDefines() {
    defineReads_.assign(s_.defines.size(), false);
    defineDone_.assign(s_.defines.size(), false);
    defineSort_.assign(s_.defines.size(), Sort::Int);
    for (size_t i = 0; i < s_.defines.size(); ++i) {
      Define &d = s_.defines[i];
      Ctx c;
      c.defineLimit = static_cast<int>(i);
      c.inDefine = d.name;
      for (const std::string &p : d.params) {
        if (globals_.count(p)) {
          err(d.loc, "parameter '" + p + "' of '" + d.name + "' has the name of a " + globals_[p].first);
          continue;
        }
        c.scope.push_back({p, c.nextSlot++, Sort::Int});
      }
      reads_ = false;
      d.body = term(*defineBodies_[i], c);
      if (d.body && d.body->sort == Sort::Bool)
        err(defineBodies_[i]->loc, "a define must be a number (Int or Real), got Bool");
      d.numSlots = c.nextSlot;
      defineReads_[i] = reads_;
      defineDone_[i] = d.body != nullptr;
      if (d.body)
        defineSort_[i] = d.body->sort;
    }
  }

  void elaborateEnsures(const SExpr &it) {
    if (it.kids.size() != 3 || !it.kids[1].isList() || it.kids[1].kids.empty() || !it.kids[1].kids[0].isAtom()) {
      err(it.loc, "expected (ensures (OUT i ...) TERM)");
      return;
    }
    const SExpr &head = it.kids[1];
    const std::string &tn = head.kids[0].text;
    int ti = s_.findTensor(tn);
    if (ti < 0) {
      err(head.kids[0].loc, "'" + tn + "' is not a tensor");
      return;
    }
    Tensor &t = s_.tensors[ti];
    if (t.mode == Mode::In) {
      err(head.kids[0].loc, "'" + tn + "' is an input (in) tensor; ensures is for out and inout tensors");
      return;
    }
    auto [prev, first] = ensuresTried_.emplace(tn, it.loc);
    if (!first) {
      err(it.loc, "second ensures for '" + tn + "' (first at " + locText(prev->second) + ")");
      return;
    }
    size_t rank = tensorExtents_[ti].size();
    if (head.kids.size() - 1 != rank) {
      err(head.loc, "tensor '" + tn + "' has " + plural(rank, "dimension") + " but the ensures names " +
                        plural(head.kids.size() - 1, "index"));
      return;
    }
    Ensures e;
    e.tensor = ti;
    e.loc = it.loc;
    Ctx c;
    bool ok = true;
    for (size_t k = 1; k < head.kids.size(); ++k) {
      const SExpr &v = head.kids[k];
      if (!bindVar(v, c, Sort::Int)) {
        ok = false;
        continue;
      }
      e.index.push_back(v.text);
    }
    if (!ok)
      return;
    TermPtr body = term(it.kids[2], c);
    if (body) {
      if (isFloat(t.type))
        body = expect(body, Sort::Real, it.kids[2]);
      else if (body->sort != Sort::Int) {
        err(it.kids[2].loc, "tensor '" + tn + "' holds " + elemTypeName(t.type) + " values: its ensures must be Int, got " +
                                sortName(body->sort));
        body = nullptr;
      }
    }
    if (!body)
      return;
    e.body = body;
    e.numSlots = c.nextSlot;
    t.ensures = static_cast<int>(s_.ensures.size());
    s_.ensures.push_back(e);
  }

  // A new bound variable in c; false (with a diagnostic) when the name is unusable.
  bool bindVar(const SExpr &v, Ctx &c, Sort sort) {
    if (!v.isAtom() || !isIdent(v.text)) {
      err(v.loc, "'" + v.text + "' is not a valid variable name");
      return false;
    }
    if (isReserved(v.text)) {
      err(v.loc, "'" + v.text + "' is reserved and cannot name a variable");
      return false;
    }
    auto g = globals_.find(v.text);
    if (g != globals_.end()) {
      err(v.loc, "variable '" + v.text + "' has the name of a " + g->second.first + " (declared at " +
                     locText(g->second.second) + ")");
      return false;
    }
    for (const Bound &b : c.scope)
      if (b.name == v.text) {
        err(v.loc, "variable '" + v.text + "' is already bound here");
        return false;
      }
    c.scope.push_back({v.text, c.nextSlot++, sort});
    return true;
  }

  // Int -> Real promotion; a diagnostic for anything else that does not fit.
  TermPtr expect(TermPtr t, Sort want, const SExpr &at) {
    if (!t)
      return nullptr;
    if (t->sort == want)
      return t;
    if (t->sort == Sort::Int && want == Sort::Real) {
      auto r = mk(Op::ToReal, Sort::Real, t->loc, {t});
      std::const_pointer_cast<Term>(r)->implicit = true;
      return r;
    }
    err(at.loc, std::string("expected ") + sortName(want) + ", got " + sortName(t->sort));
    return nullptr;
  }
  TermPtr expectNumber(TermPtr t, const SExpr &at) {
    if (t && t->sort == Sort::Bool) {
      err(at.loc, "expected a number (Int or Real), got Bool");
      return nullptr;
    }
    return t;
  }

  bool reads_ = false;

  TermPtr atom(const SExpr &e, Ctx &c) {
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

  TermPtr defineRef(const SExpr &e, Ctx &c, int i, std::vector<TermPtr> args) {
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

  TermPtr read(const SExpr &e, Ctx &c, int ti, std::vector<TermPtr> idx, bool old) {
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

  TermPtr term(const SExpr &e, Ctx &c) {
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
    auto elabArgs = [&](size_t from, std::vector<TermPtr> &out) {
      bool ok = true;
      for (size_t i = from; i < e.kids.size(); ++i) {
        TermPtr t = term(e.kids[i], c);
        ok &= t != nullptr;
        out.push_back(t);
      }
      return ok;
    };
    // Tensor reads and define calls.
    if (!isReserved(f)) {
      std::vector<TermPtr> args;
      bool ok = elabArgs(1, args);
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
    if (kFns.count(f)) {
      size_t want = f == "pow" ? 2 : 1;
      if (n != want) {
        err(e.loc, "'" + f + "' takes " + plural(want, "argument") + ", got " + std::to_string(n));
        return nullptr;
      }
      std::vector<TermPtr> args;
      bool ok = elabArgs(1, args);
      for (size_t i = 0; ok && i < args.size(); ++i)
        ok = (args[i] = expect(args[i], Sort::Real, e.kids[i + 1])) != nullptr;
      if (!ok)
        return nullptr;
      auto t = std::const_pointer_cast<Term>(mk(Op::Fn, Sort::Real, e.loc, std::move(args)));
      t->name = f;
      return t;
    }
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
    if (oi.op == Op::Old) {
      const SExpr &tn = e.kids[1];
      int ti = tn.isAtom() ? s_.findTensor(tn.text) : -1;
      if (ti < 0) {
        err(tn.loc, "(old T i ...) needs a tensor name, got '" + tn.text + "'");
        return nullptr;
      }
      std::vector<TermPtr> args;
      bool ok = elabArgs(2, args);
      for (size_t i = 0; ok && i < args.size(); ++i)
        ok = (args[i] = expect(args[i], Sort::Int, e.kids[i + 2])) != nullptr;
      return ok ? read(e, c, ti, std::move(args), true) : nullptr;
    }
    if (isRangeBinder(oi.op)) {
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
    if (oi.op == Op::Let) {
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
    std::vector<TermPtr> args;
    if (!elabArgs(1, args))
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
};

} // namespace

ParseResult parse(const std::string &text) {
  ParseResult r;
  Reader rd(text, r.errors);
  std::vector<SExpr> top = rd.readAll();
  if (!r.errors.empty())
    return r;
  Elab el(r.errors);
  r.spec = el.run(top);
  if (!r.errors.empty())
    r.spec.reset();
  return r;
}

ParseResult parseFile(const std::string &path) {
  std::ifstream in(path);
  if (!in) {
    ParseResult r;
    r.errors.push_back({{}, "cannot read spec file"});
    return r;
  }
  std::stringstream ss;
  ss << in.rdbuf();
  return parse(ss.str());
}

} // namespace ksynth::spec
