// Spec parser: elaboration of the spec items (names, defines, ensures) and sort checks.

#include "verify/spec/elab.h"

#include <memory>
#include <set>

namespace ksynth::spec::parser_detail {

std::optional<Spec> Elab::run(const std::vector<SExpr> &top) {
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
  elaborateSizes();
  for (const Tensor &t : s_.tensors)
    if (t.mode != Mode::In && t.ensures < 0 && !ensuresTried_.count(t.name))
      err(t.loc, std::string(t.mode == Mode::Out ? "output" : "inout") + " tensor '" + t.name + "' has no ensures");
  if (!errs_.empty())
    return std::nullopt;
  return std::move(s_);
}

bool Elab::declareName(const SExpr &at, const std::string &what) {
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

void Elab::declare(const SExpr &sp) {
  bool haveDoc = false;
  for (size_t i = 2; i < sp.kids.size(); ++i) {
    const SExpr &it = sp.kids[i];
    if (!it.isList() || it.kids.empty() || !it.kids[0].isAtom()) {
      err(it.loc, "expected a spec item: (doc ...), (dims ...), (scalar ...), (assume ...), (tensor ...), "
                  "(define ...), (sizes ...) or (ensures ...)");
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
    } else if (kw == "sizes") {
      if (sizes_)
        err(it.loc, "more than one (sizes ...)");
      else
        sizes_ = &it;
    } else if (kw == "spec") {
      err(it.loc, "nested (spec ...)");
    } else {
      err(it.kids[0].loc, "unknown spec item '" + kw + "' (expected doc, dims, scalar, assume, tensor, define, sizes or ensures)");
    }
  }
}

// (sizes (D V) ...): every dim of the spec once, each with a positive integer literal. Whether
// they satisfy the assumptions is checked with the spec (checkSpec), not here.
void Elab::elaborateSizes() {
  if (!sizes_)
    return;
  s_.sizesLoc = sizes_->loc;
  std::set<std::string> seen;
  for (size_t k = 1; k < sizes_->kids.size(); ++k) {
    const SExpr &p = sizes_->kids[k];
    if (!p.isList() || p.kids.size() != 2 || !p.kids[0].isAtom() || !p.kids[1].isAtom()) {
      err(p.loc, "expected (DIM VALUE) in (sizes ...), e.g. (M 4096)");
      continue;
    }
    const std::string &n = p.kids[0].text;
    if (s_.findDim(n) < 0) {
      err(p.kids[0].loc, "'" + n + "' is not a dim of the spec (sizes give dims only)");
      continue;
    }
    if (!seen.insert(n).second) {
      err(p.kids[0].loc, "'" + n + "' is given twice in (sizes ...)");
      continue;
    }
    const std::string &v = p.kids[1].text;
    int64_t val = 0;
    bool ok = isIntLiteral(v) && v.size() <= 12;
    if (ok)
      val = std::stoll(v);
    if (!ok || val < 1) {
      err(p.kids[1].loc, "the size of '" + n + "' must be an integer literal between 1 and 10^12, got '" + v + "'");
      continue;
    }
    s_.sizes.push_back({n, val});
  }
  for (const Dim &d : s_.dims)
    if (!seen.count(d.name)) {
      err(sizes_->loc, "(sizes ...) gives no value for dim '" + d.name + "' (it must give every dim)");
      break;
    }
}

void Elab::elaborateDefines() {
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

void Elab::elaborateEnsures(const SExpr &it) {
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
bool Elab::bindVar(const SExpr &v, Ctx &c, Sort sort) {
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
TermPtr Elab::expect(TermPtr t, Sort want, const SExpr &at) {
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

TermPtr Elab::expectNumber(TermPtr t, const SExpr &at) {
  if (t && t->sort == Sort::Bool) {
    err(at.loc, "expected a number (Int or Real), got Bool");
    return nullptr;
  }
  return t;
}

} // namespace ksynth::spec::parser_detail
