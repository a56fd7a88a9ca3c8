// Helpers for the frontend's tests: parse a CUDA string, walk the KIR it lowers
// to.
#pragma once

#include "verify/frontend/frontend.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

namespace ksynth::frontend::test {

using namespace ksynth::ir;

inline ParseResult parse(const std::string &code, const Options &opts = {}) {
  return parseSource(code, "t.cu", opts);
}

// The single kernel of a source that must parse.
inline Kernel one(const std::string &code,
                  std::vector<Diagnostic> *notes = nullptr,
                  const Options &opts = {}) {
  ParseResult r = parse(code, opts);
  INFO(r.clangOutput);
  REQUIRE(r.parsed);
  REQUIRE(r.kernels.size() == 1);
  REQUIRE(r.notes.size() == 1);
  if (notes)
    *notes = r.notes[0];
  return r.kernels[0];
}

// Every statement, pre-order, including loop headers, bodies, else branches and
// steps.
inline void walk(const Block &b, const std::function<void(const Stmt &)> &f) {
  for (const StmtPtr &s : b) {
    f(*s);
    for (const Block *c : {&s->pre, &s->body, &s->elseBody, &s->step})
      walk(*c, f);
  }
}

inline std::vector<const Stmt *> stmts(const Kernel &k, StmtKind kind) {
  std::vector<const Stmt *> out;
  walk(k.body, [&](const Stmt &s) {
    if (s.kind == kind)
      out.push_back(&s);
  });
  return out;
}

inline std::vector<const Stmt *> stmts(const Block &b, StmtKind kind) {
  std::vector<const Stmt *> out;
  walk(b, [&](const Stmt &s) {
    if (s.kind == kind)
      out.push_back(&s);
  });
  return out;
}

inline void walkExpr(const Expr &e,
                     const std::function<void(const Expr &)> &f) {
  f(e);
  for (const ExprPtr &a : e.args)
    walkExpr(*a, f);
}

inline int varNamed(const Kernel &k, const std::string &n) {
  for (size_t i = 0; i < k.vars.size(); ++i)
    if (k.vars[i].name == n)
      return static_cast<int>(i);
  return -1;
}

inline int arrayNamed(const Kernel &k, const std::string &n) {
  for (size_t i = 0; i < k.arrays.size(); ++i)
    if (k.arrays[i].name == n)
      return static_cast<int>(i);
  return -1;
}

// The kernel's top-level Block (label 0) and its statements.
inline const Block &top(const Kernel &k) {
  REQUIRE(k.body.size() == 1);
  REQUIRE(k.body[0]->kind == StmtKind::Block);
  REQUIRE(k.body[0]->label == 0);
  return k.body[0]->body;
}

inline bool startsWith(const std::string &s, const std::string &p) {
  return s.rfind(p, 0) == 0;
}

} // namespace ksynth::frontend::test
