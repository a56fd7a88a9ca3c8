// Spec parser: S-expressions (the reader), private to the parser.
#pragma once

#include "verify/spec/spec.h"

#include <string>
#include <vector>

namespace ksynth::spec::parser_detail {

struct SExpr {
  enum Kind { Atom, String, List } kind = Atom;
  std::string text;
  std::vector<SExpr> kids;
  Loc loc;
  bool isAtom() const { return kind == Atom; }
  bool isList() const { return kind == List; }
};

std::string locText(Loc l);

// How deep lists may nest in a spec (its terms are elaborated, evaluated and printed by
// recursion); deeper is an error naming the limit.
inline constexpr unsigned kMaxSpecNesting = 1000;

class Reader {
public:
  Reader(const std::string &s, std::vector<Diagnostic> &errs) : s_(s), errs_(errs) {}

  std::vector<SExpr> readAll();

private:
  const std::string &s_;
  std::vector<Diagnostic> &errs_;
  size_t pos_ = 0;
  unsigned line_ = 1, col_ = 1;
  unsigned depth_ = 0; // lists open around the one being read

  Loc here() const { return {line_, col_}; }
  void advance();
  void skip();
  bool read(SExpr &e);
};

} // namespace ksynth::spec::parser_detail
