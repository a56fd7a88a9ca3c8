#include "verify/spec/parser.h"

#include "verify/spec/elab.h"

#include <cctype>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace ksynth::spec {

namespace parser_detail {

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

TermPtr mk(Op op, Sort sort, Loc loc, std::vector<TermPtr> args) {
  auto t = std::make_shared<Term>();
  t->op = op;
  t->sort = sort;
  t->loc = loc;
  t->args = std::move(args);
  return t;
}

} // namespace parser_detail

using parser_detail::Elab;
using parser_detail::Reader;
using parser_detail::SExpr;

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
