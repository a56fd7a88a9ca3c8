// Terms as text: show() for people, toSmtLib2() for the dumped queries of proof bundles.
#include "verify/smt/term.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <set>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

namespace ksynth::smt {

namespace {

// Appends t's text to out, stopping once out holds `limit` characters (a term shared many
// times in a DAG would print exponentially long otherwise).
void showInto(Term t, std::string &out, size_t limit) {
  if (out.size() >= limit)
    return;
  switch (t->kind) {
  case Kind::Const:
    if (t->sort == Sort::Bool)
      out += t->num ? "true" : "false";
    else if (t->den != 1)
      out += toString(t->num) + "/" + toString(t->den);
    else
      out += toString(t->num);
    return;
  case Kind::Var: out += t->name; return;
  case Kind::App:
    out += t->name + "(";
    for (size_t i = 0; i < t->kids.size() && out.size() < limit; ++i) {
      if (i)
        out += ", ";
      showInto(t->kids[i], out, limit);
    }
    out += ")";
    return;
  case Kind::Not: out += "!"; showInto(t->kids[0], out, limit); return;
  case Kind::ToReal: out += "real("; showInto(t->kids[0], out, limit); out += ")"; return;
  case Kind::Ite:
    out += "(";
    showInto(t->kids[0], out, limit);
    out += " ? ";
    showInto(t->kids[1], out, limit);
    out += " : ";
    showInto(t->kids[2], out, limit);
    out += ")";
    return;
  default: break;
  }
  const char *op = t->kind == Kind::Add       ? "+"
                   : t->kind == Kind::Mul     ? "*"
                   : t->kind == Kind::Div     ? "div"
                   : t->kind == Kind::Mod     ? "mod"
                   : t->kind == Kind::RealDiv ? "/"
                   : t->kind == Kind::Eq      ? "=="
                   : t->kind == Kind::Le      ? "<="
                   : t->kind == Kind::Lt      ? "<"
                   : t->kind == Kind::And     ? "&&"
                   : t->kind == Kind::Or      ? "||"
                                              : nullptr;
  if (!op) {
    out += "?";
    return;
  }
  out += "(";
  for (size_t i = 0; i < t->kids.size() && out.size() < limit; ++i) {
    if (i)
      out += std::string(" ") + op + " ";
    showInto(t->kids[i], out, limit);
  }
  out += ")";
}

} // namespace

std::string show(Term t, size_t limit) {
  std::string out;
  showInto(t, out, limit);
  if (out.size() > limit) {
    out.resize(limit);
    out += "...";
  }
  return out;
}

static std::string sortName(Sort s) {
  return s == Sort::Bool ? "Bool" : s == Sort::Int ? "Int" : "Real";
}

static std::string quoteSym(const std::string &n) {
  for (char c : n)
    if (!(isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.'))
      return "|" + n + "|";
  return n;
}

static std::string smtNum(int128 v) {
  return v < 0 ? "(- " + toString(-v) + ")" : toString(v);
}

std::string toSmtLib2(const std::vector<Term> &assertions, const std::string &headerComment, bool pushGoal) {
  std::ostringstream os;
  std::istringstream hc(headerComment);
  for (std::string line; std::getline(hc, line);)
    os << "; " << line << "\n";
  os << "(set-logic ALL)\n";
  std::vector<Term> syms;
  std::unordered_set<Term> seen;
  std::map<std::string, Term> funs;
  std::function<void(Term)> collect = [&](Term x) {
    if (!seen.insert(x).second)
      return;
    for (Term k : x->kids)
      collect(k);
    if (x->kind == Kind::Var)
      syms.push_back(x);
    if (x->kind == Kind::App)
      funs.emplace(x->name, x);
  };
  for (Term a : assertions)
    collect(a);
  for (auto &[name, t] : funs) {
    os << "(declare-fun " << quoteSym(name) << " (";
    for (size_t i = 0; i < t->kids.size(); ++i)
      os << (i ? " " : "") << sortName(t->kids[i]->sort);
    os << ") " << sortName(t->sort) << ")\n";
  }
  for (Term s : syms)
    os << "(declare-const " << quoteSym(s->name) << " " << sortName(s->sort) << ")\n";
  // Terms are DAGs; printed as trees, one with much sharing (a max over the lanes of a warp,
  // each max an ite that repeats its operands) can grow exponentially. A query whose tree
  // would have more than kShareAbove nodes is written with each compound subterm used more
  // than once defined once (define-fun), in dependency order; smaller ones are written plain.
  constexpr uint64_t kShareAbove = 50000;
  std::unordered_map<Term, uint64_t> treeSize;
  std::function<uint64_t(Term)> sizeOf = [&](Term x) -> uint64_t {
    if (auto it = treeSize.find(x); it != treeSize.end())
      return it->second;
    uint64_t n = 1;
    for (Term k : x->kids)
      n = std::min<uint64_t>(n + sizeOf(k), uint64_t{1} << 40);
    treeSize[x] = n;
    return n;
  };
  uint64_t total = 0;
  for (Term a : assertions)
    total += sizeOf(a);
  std::unordered_map<Term, std::string> named;
  std::function<std::string(Term)> pr;
  pr = [&](Term x) -> std::string {
    if (auto it = named.find(x); it != named.end())
      return it->second;
    auto nary = [&](const char *op) {
      std::string s = std::string("(") + op;
      for (Term k : x->kids)
        s += " " + pr(k);
      return s + ")";
    };
    switch (x->kind) {
    case Kind::Const:
      if (x->sort == Sort::Bool)
        return x->num ? "true" : "false";
      if (x->sort == Sort::Real) {
        std::string r = "(/ " + toString(x->num < 0 ? -x->num : x->num) + ".0 " +
                        toString(x->den) + ".0)";
        return x->num < 0 ? "(- " + r + ")" : r;
      }
      return smtNum(x->num);
    case Kind::Var: return quoteSym(x->name);
    case Kind::App: return x->kids.empty() ? quoteSym(x->name) : "(" + quoteSym(x->name) + [&] {
      std::string s;
      for (Term k : x->kids)
        s += " " + pr(k);
      return s;
    }() + ")";
    case Kind::Add: return nary("+");
    case Kind::Mul: return nary("*");
    case Kind::Div: return nary("div");
    case Kind::Mod: return nary("mod");
    case Kind::RealDiv: return nary("/");
    case Kind::Ite: return nary("ite");
    case Kind::Eq: return nary("=");
    case Kind::Le: return nary("<=");
    case Kind::Lt: return nary("<");
    case Kind::Not: return nary("not");
    case Kind::And: return nary("and");
    case Kind::Or: return nary("or");
    case Kind::ToReal: return nary("to_real");
    }
    return "?";
  };
  if (total > kShareAbove) {
    std::unordered_map<Term, int> uses;
    std::unordered_set<Term> visited;
    std::vector<Term> order; // post-order: kids before parents
    std::function<void(Term)> count = [&](Term x) {
      if (!visited.insert(x).second)
        return;
      for (Term k : x->kids) {
        ++uses[k];
        count(k);
      }
      order.push_back(x);
    };
    for (Term a : assertions) {
      ++uses[a];
      count(a);
    }
    for (Term x : order) {
      bool compound = !x->kids.empty() && x->kind != Kind::Const && x->kind != Kind::Var;
      if (!compound || uses[x] < 2)
        continue;
      std::string body = pr(x); // its kids are named already where shared
      std::string name = "ksynth.s." + std::to_string(named.size());
      os << "(define-fun " << name << " () " << sortName(x->sort) << " " << body << ")\n";
      named[x] = name;
    }
  }
  for (size_t i = 0; i < assertions.size(); ++i) {
    if (pushGoal && i + 1 == assertions.size())
      os << "(push 1)\n";
    os << "(assert " << pr(assertions[i]) << ")\n";
  }
  os << "(check-sat)\n";
  return os.str();
}

} // namespace ksynth::smt
