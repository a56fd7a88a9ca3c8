// Spec parser: private declarations of the elaboration (class Elab and its helpers).
#pragma once

#include "verify/spec/sexpr.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace ksynth::spec::parser_detail {

bool isIdent(const std::string &s);

extern const std::set<std::string> kFns;

struct OpInfo {
  Op op;
  int minArgs, maxArgs; // maxArgs -1: unbounded
};
const std::map<std::string, OpInfo> &opTable();
bool isReserved(const std::string &s);
std::string plural(size_t n, const std::string &what);
bool parseReal(const std::string &s, __int128 &num, __int128 &den);
bool isIntLiteral(const std::string &s);
TermPtr mk(Op op, Sort sort, Loc loc, std::vector<TermPtr> args = {});

class Elab {
public:
  explicit Elab(std::vector<Diagnostic> &errs) : errs_(errs) {}

  std::optional<Spec> run(const std::vector<SExpr> &top);

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
  const SExpr *sizes_ = nullptr;
  std::map<std::string, Loc> ensuresTried_; // tensors with an ensures (possibly with errors)
  std::vector<bool> defineReads_; // define reads a tensor (directly or through another define)
  std::vector<bool> defineDone_;
  std::vector<Sort> defineSort_;

  void err(Loc l, std::string m) { errs_.push_back({l, std::move(m)}); }

  bool declareName(const SExpr &at, const std::string &what);
  void declare(const SExpr &sp);
  void elaborateDefines();
  void elaborateSizes();
  void elaborateEnsures(const SExpr &it);
  bool bindVar(const SExpr &v, Ctx &c, Sort sort);
  TermPtr expect(TermPtr t, Sort want, const SExpr &at);
  TermPtr expectNumber(TermPtr t, const SExpr &at);

  bool reads_ = false;

  TermPtr atom(const SExpr &e, Ctx &c);
  TermPtr defineRef(const SExpr &e, Ctx &c, int i, std::vector<TermPtr> args);
  TermPtr read(const SExpr &e, Ctx &c, int ti, std::vector<TermPtr> idx, bool old);
  TermPtr term(const SExpr &e, Ctx &c);
  // term() by operator group (elab_term.cpp)
  bool elabArgs(const SExpr &e, Ctx &c, size_t from, std::vector<TermPtr> &out);
  TermPtr termApply(const SExpr &e, Ctx &c);
  TermPtr termFn(const SExpr &e, Ctx &c);
  TermPtr termOld(const SExpr &e, Ctx &c);
  TermPtr termBinder(const SExpr &e, Ctx &c, const OpInfo &oi);
  TermPtr termLet(const SExpr &e, Ctx &c);
  TermPtr termOp(const SExpr &e, Ctx &c, const OpInfo &oi);
};

} // namespace ksynth::spec::parser_detail
