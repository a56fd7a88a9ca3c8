// Spec parser: S-expressions (the reader).

#include "verify/spec/sexpr.h"

#include "util/nesting.h"

#include <cctype>
#include <string>

namespace ksynth::spec::parser_detail {

// ---- S-expressions --------------------------------------------------------------------

std::string locText(Loc l) { return std::to_string(l.line) + ":" + std::to_string(l.col); }

std::vector<SExpr> Reader::readAll() {
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

void Reader::advance() {
  if (s_[pos_] == '\n')
    ++line_, col_ = 1;
  else
    ++col_;
  ++pos_;
}

void Reader::skip() {
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
bool Reader::read(SExpr &e) {
  e.loc = here();
  char c = s_[pos_];
  if (c == '(') {
    e.kind = SExpr::List;
    if (depth_ >= kMaxSpecNesting) {
      errs_.push_back({e.loc, "lists nested more than " + std::to_string(kMaxSpecNesting) +
                                  " levels deep (ksynth's limit)"});
      return false;
    }
    util::NestingLevel nest(depth_);
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

} // namespace ksynth::spec::parser_detail
