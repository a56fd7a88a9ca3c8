#include "verify/ir/cexpr.h"

#include "util/nesting.h"

#include <cctype>

namespace ksynth::ir {

namespace {

class Parser {
public:
  Parser(const Kernel &k, const std::string &s) : k_(k), s_(s) {}

  ExprPtr parse(std::string &err) {
    ExprPtr e = ternary();
    skip();
    if (!error_.empty() || pos_ != s_.size()) {
      err = error_.empty() ? "unexpected '" + s_.substr(pos_) + "'" : error_;
      return nullptr;
    }
    return e;
  }

private:
  const Kernel &k_;
  const std::string &s_;
  size_t pos_ = 0;
  std::string error_;

  void skip() {
    while (pos_ < s_.size() && isspace(static_cast<unsigned char>(s_[pos_])))
      ++pos_;
  }
  bool eat(const std::string &tok) {
    skip();
    if (s_.compare(pos_, tok.size(), tok) == 0) {
      // do not split "<=" into "<" "=" or "&&" into "&"
      if ((tok == "<" || tok == ">") && pos_ + 1 < s_.size() && (s_[pos_ + 1] == '=' || s_[pos_ + 1] == s_[pos_]))
        return false;
      if ((tok == "&" || tok == "|") && pos_ + 1 < s_.size() && s_[pos_ + 1] == tok[0])
        return false;
      if (tok == "=" || tok == "!")
        if (pos_ + 1 < s_.size() && s_[pos_ + 1] == '=')
          return false;
      pos_ += tok.size();
      return true;
    }
    return false;
  }
  void fail(const std::string &m) {
    if (error_.empty())
      error_ = m;
  }

  static Type arith(const ExprPtr &a, const ExprPtr &b) {
    // Launch and assumption arithmetic is done in 64-bit signed: no surprises from wrapping.
    (void)a;
    (void)b;
    return Type::i64();
  }
  ExprPtr bin(Op op, ExprPtr a, ExprPtr b) {
    if (!a || !b) { // an operand is missing ("N +"): its parser said why
      fail("expected an expression");
      return nullptr;
    }
    bool cmp = op == Op::Eq || op == Op::Ne || op == Op::Lt || op == Op::Le || op == Op::Gt ||
               op == Op::Ge || op == Op::LAnd || op == Op::LOr;
    Type t = cmp ? Type::boolean() : arith(a, b);
    if (!cmp) {
      a = a->type == t ? a : mkCast(t, a);
      b = b->type == t ? b : mkCast(t, b);
    } else if (op != Op::LAnd && op != Op::LOr) {
      a = a->type == Type::i64() ? a : mkCast(Type::i64(), a);
      b = b->type == Type::i64() ? b : mkCast(Type::i64(), b);
    }
    return mkBinary(op, t, a, b);
  }

  // Parentheses, ?: and unary operators nest by recursion: bounded, so a hostile launch line
  // is an error, not a stack overflow.
  static constexpr unsigned kMaxDepth = 256;
  unsigned depth_ = 0;
  bool tooDeep() {
    if (depth_ <= kMaxDepth)
      return false;
    fail("nested more than " + std::to_string(kMaxDepth) + " levels deep (ksynth's limit)");
    return true;
  }

  ExprPtr ternary() {
    util::NestingLevel n(depth_);
    if (tooDeep())
      return nullptr;
    ExprPtr c = lor();
    if (eat("?")) {
      ExprPtr a = ternary();
      if (!eat(":"))
        fail("expected ':'");
      ExprPtr b = ternary();
      if (!c || !a || !b)
        return nullptr;
      return mkSelect(Type::i64(), c, a, b);
    }
    return c;
  }
  ExprPtr lor() {
    ExprPtr e = land();
    while (e && eat("||"))
      e = bin(Op::LOr, e, land());
    return e;
  }
  ExprPtr land() {
    ExprPtr e = cmp();
    while (e && eat("&&"))
      e = bin(Op::LAnd, e, cmp());
    return e;
  }
  ExprPtr cmp() {
    ExprPtr e = add();
    for (;;) {
      if (!e)
        return e;
      if (eat("=="))
        e = bin(Op::Eq, e, add());
      else if (eat("!="))
        e = bin(Op::Ne, e, add());
      else if (eat("<="))
        e = bin(Op::Le, e, add());
      else if (eat(">="))
        e = bin(Op::Ge, e, add());
      else if (eat("<"))
        e = bin(Op::Lt, e, add());
      else if (eat(">"))
        e = bin(Op::Gt, e, add());
      else
        return e;
    }
  }
  ExprPtr add() {
    ExprPtr e = mul();
    for (;;) {
      if (!e)
        return e;
      if (eat("+"))
        e = bin(Op::Add, e, mul());
      else if (eat("-"))
        e = bin(Op::Sub, e, mul());
      else
        return e;
    }
  }
  ExprPtr mul() {
    ExprPtr e = unary();
    for (;;) {
      if (!e)
        return e;
      if (eat("*"))
        e = bin(Op::Mul, e, unary());
      else if (eat("/"))
        e = bin(Op::Div, e, unary());
      else if (eat("%"))
        e = bin(Op::Rem, e, unary());
      else
        return e;
    }
  }
  ExprPtr unary() {
    util::NestingLevel n(depth_);
    if (tooDeep())
      return nullptr;
    if (eat("-")) {
      ExprPtr a = unary();
      return a ? bin(Op::Sub, mkConstInt(0, Type::i64()), a) : nullptr;
    }
    if (eat("!")) {
      ExprPtr a = unary();
      return a ? mkUnary(Op::Not, Type::boolean(), a) : nullptr;
    }
    return primary();
  }
  ExprPtr primary() {
    skip();
    if (eat("(")) {
      ExprPtr e = ternary();
      if (!eat(")"))
        fail("expected ')'");
      return e;
    }
    if (pos_ < s_.size() && isdigit(static_cast<unsigned char>(s_[pos_]))) {
      size_t start = pos_;
      while (pos_ < s_.size() && isalnum(static_cast<unsigned char>(s_[pos_])))
        ++pos_;
      std::string lit = s_.substr(start, pos_ - start);
      while (!lit.empty() && (lit.back() == 'u' || lit.back() == 'U' || lit.back() == 'l' || lit.back() == 'L'))
        lit.pop_back();
      try {
        size_t used = 0;
        long long v = std::stoll(lit, &used, 0);
        if (used != lit.size())
          throw std::invalid_argument(lit);
        return mkConstInt(v, Type::i64());
      } catch (...) {
        fail("bad number '" + lit + "'");
        return nullptr;
      }
    }
    if (pos_ < s_.size() && (isalpha(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_')) {
      size_t start = pos_;
      while (pos_ < s_.size() && (isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_' || s_[pos_] == '.'))
        ++pos_;
      std::string name = s_.substr(start, pos_ - start);
      if (name == "__len") {
        if (!eat("(")) {
          fail("expected '(' after __len");
          return nullptr;
        }
        skip();
        size_t a = pos_;
        while (pos_ < s_.size() && (isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_'))
          ++pos_;
        std::string arr = s_.substr(a, pos_ - a);
        if (!eat(")")) {
          fail("expected ')'");
          return nullptr;
        }
        int id = k_.findParamArray(arr);
        if (id < 0) {
          fail("'" + arr + "' is not a pointer parameter of kernel '" + k_.name + "'");
          return nullptr;
        }
        return mkLen(id);
      }
      static const char *dims[] = {"x", "y", "z"};
      for (int d = 0; d < 3; ++d) {
        if (name == std::string("blockDim.") + dims[d])
          return mkBuiltin(Builtin::BlockDim, d);
        if (name == std::string("gridDim.") + dims[d])
          return mkBuiltin(Builtin::GridDim, d);
      }
      if (name == "true" || name == "false")
        return mkConstBool(name == "true");
      int id = k_.findParamVar(name);
      if (id < 0) {
        fail("'" + name + "' is not a scalar parameter of kernel '" + k_.name + "'");
        return nullptr;
      }
      if (!k_.vars[id].type.isInt()) {
        fail("parameter '" + name + "' is not an integer");
        return nullptr;
      }
      return mkVar(id, k_.vars[id].type);
    }
    fail(pos_ < s_.size() ? "unexpected '" + s_.substr(pos_, 1) + "'" : "unexpected end of expression");
    return nullptr;
  }
};

} // namespace

ExprPtr parseCExpr(const Kernel &k, const std::string &text, std::string &error) {
  Parser p(k, text);
  return p.parse(error);
}

} // namespace ksynth::ir
