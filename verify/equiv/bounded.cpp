// Bounded equivalence: the driver, every size tuple up to the bound run and compared (bounded.h).
#include "verify/equiv/bounded.h"
#include "verify/equiv/bounded_detail.h"

#include "verify/smt/solver.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <map>
#include <optional>
#include <random>
#include <set>

namespace ksynth::equiv {

namespace bounded_detail {

namespace {

// ---- the driver ---------------------------------------------------------------------------

std::vector<Rat> specConstants(const spec::Spec &s) {
  std::vector<Rat> out;
  std::function<void(const spec::Term &)> walk = [&](const spec::Term &t) {
    if (t.op == spec::Op::RealLit)
      if (auto r = mkRat(t.num, t.den))
        out.push_back(*r);
    for (const spec::TermPtr &a : t.args)
      walk(*a);
  };
  for (const spec::Ensures &e : s.ensures)
    walk(*e.body);
  for (const spec::Define &d : s.defines)
    walk(*d.body);
  for (const spec::TermPtr &a : s.assumes)
    walk(*a);
  return out;
}

double randomReal(std::mt19937 &rng) { return (static_cast<int>(rng() % 33) - 16) / 8.0; }

// Size tuples with every dim in [1, level] and at least one equal to level.
std::vector<Sizes> levelTuples(const spec::Spec &s, int level) {
  std::vector<Sizes> out;
  size_t n = s.dims.size();
  std::vector<int64_t> cur(n, 1);
  while (true) {
    if (std::find(cur.begin(), cur.end(), level) != cur.end() || n == 0) {
      Sizes sz;
      for (size_t i = 0; i < n; ++i)
        sz[s.dims[i].name] = cur[i];
      out.push_back(sz);
    }
    size_t i = 0;
    while (i < n && ++cur[i] > level)
      cur[i++] = 1;
    if (i == n)
      break;
  }
  return out;
}

// What comes after a step of the check: the next element or tuple, or the end of the check
// (the report then holds all but its time).
enum class Flow { Next, End };

// One size tuple: the term DAG, the spec at those sizes, the concrete inputs that steer the
// run, the shapes of the tensors, and what the run of the grid left.
struct Tuple {
  Tuple(const ir::Kernel &k, const spec::Spec &s, const spec::Binding &b, const std::vector<Rat> &consts,
        const Sizes &sz)
      : sz(sz), st(k, consts), spec(s, b, k, st, sz) {}
  const Sizes &sz;
  Store st;
  SpecTerms spec;
  spec::Inputs in;
  std::map<int, std::vector<int64_t>> shapes;
  interp::GridRun run;
};

// The check, level by level and tuple by tuple, and its report.
class Check {
public:
  Check(const ir::Kernel &k, const spec::Spec &s, const spec::Binding &b, const BoundedOptions &o)
      : k_(k), s_(s), b_(b), o_(o) {}

  BoundedReport run();

private:
  const ir::Kernel &k_;
  const spec::Spec &s_;
  const spec::Binding &b_;
  const BoundedOptions &o_;
  BoundedReport rep_;
  std::chrono::steady_clock::time_point t0_ = std::chrono::steady_clock::now();
  std::vector<Rat> consts_;
  std::map<int, int> arrayOfTensor_;
  std::set<std::string> notes_;
  bool floatRange_ = false;
  unsigned tupleNo_ = 0;

  double elapsed() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count(); }
  BoundedReport finish() {
    rep_.ms = elapsed() * 1000;
    return rep_;
  }
  Flow stop(const Sizes &sz, const std::string &why) {
    rep_.stopped = sizesText(sz) + ": " + why;
    rep_.result = rep_.reached > 0 ? BoundedReport::Result::Agrees : BoundedReport::Result::Stopped;
    return Flow::End;
  }
  Flow tuple(const Sizes &sz);
  Flow runGrid(Tuple &tu, bool &excluded);
  Flow replay(const Tuple &tu, const std::optional<spec::Inputs> &given, const std::string &what);
  Flow compare(Tuple &tu);
  Flow element(Tuple &tu, Canon &canon, size_t t, int a, const std::vector<int64_t> &idx, int64_t e);
  Flow solverCheck(Tuple &tu, const std::string &elem, int got, int want);
};

BoundedReport Check::run() {
  if (!o_.block[0] && !o_.block[1] && !o_.block[2]) {
    rep_.stopped = "no launch (a '// ksynth:launch' line or --block/--grid)";
    return finish();
  }
  for (const spec::Scalar &x : s_.scalars)
    if (!spec::isFloat(x.type)) {
      rep_.stopped = "Int scalar '" + x.name + "': its values would have to be enumerated too";
      return finish();
    }
  consts_ = specConstants(s_);
  for (const auto &[a, t] : b_.tensorOfArray)
    arrayOfTensor_[t] = a;

  for (int level = 1; level <= o_.bound; ++level) {
    for (const Sizes &sz : levelTuples(s_, level)) {
      if (elapsed() > o_.budgetSeconds) {
        rep_.stopped = "the time budget (" + std::to_string(static_cast<int>(o_.budgetSeconds)) + " s) ran out at " +
                       sizesText(sz);
        rep_.result = rep_.reached > 0 ? BoundedReport::Result::Agrees : BoundedReport::Result::Stopped;
        return finish();
      }
      if (tuple(sz) == Flow::End)
        return finish();
    }
    rep_.reached = level;
    rep_.levelMs.emplace_back(level, elapsed() * 1000);
  }
  rep_.result = rep_.tuples > 0 ? BoundedReport::Result::Agrees : BoundedReport::Result::Stopped;
  if (rep_.tuples == 0)
    rep_.stopped = "the spec admits no sizes with every dim <= " + std::to_string(o_.bound);
  if (floatRange_)
    notes_.insert("float inputs are finite values of their type (f32 within FLT_MAX, f64 within DBL_MAX)");
  rep_.assumptions.assign(notes_.begin(), notes_.end());
  return finish();
}

// One size tuple: the symbolic run of the grid, then every output element against the spec.
// Next also where the spec or the kernel does not admit the tuple.
Flow Check::tuple(const Sizes &sz) {
  Tuple tu(k_, s_, b_, consts_, sz);
  try {
    if (!tu.spec.admitted())
      return Flow::Next;
  } catch (const Fail &f) {
    return stop(sz, f.why);
  }
  bool excluded = false;
  if (runGrid(tu, excluded) == Flow::End)
    return Flow::End;
  if (excluded)
    return Flow::Next;
  if (compare(tu) == Flow::End)
    return Flow::End;
  for (const std::string &n : tu.st.notes)
    notes_.insert(n);
  ++rep_.tuples;
  return Flow::Next;
}

// The run of the whole grid on symbolic inputs, steered by concrete ones. `excluded`: the
// kernel does not admit the tuple (counted, not checked).
Flow Check::runGrid(Tuple &tu, bool &excluded) {
  const Sizes &sz = tu.sz;
  // Concrete values to steer the run: random inputs, as the tests draw them.
  std::mt19937 rng(o_.seed * 104729u + tupleNo_++);
  spec::Inputs &in = tu.in;
  in.dims = sz;
  for (const spec::Scalar &x : s_.scalars)
    in.scalars[x.name] = spec::isFloat(x.type) ? randomReal(rng) : 1.0;
  std::map<int, std::vector<int64_t>> &shapes = tu.shapes;
  try {
    for (size_t t = 0; t < s_.tensors.size(); ++t) {
      shapes[static_cast<int>(t)] = tu.spec.shape(static_cast<int>(t));
      const spec::Tensor &T = s_.tensors[t];
      if (T.mode == spec::Mode::Out)
        continue;
      spec::TensorValue tv;
      tv.shape = shapes[static_cast<int>(t)];
      int64_t cnt = 1;
      for (int64_t e : tv.shape)
        cnt *= e;
      for (int64_t i = 0; i < cnt; ++i)
        tv.data.push_back(spec::isFloat(T.type) ? randomReal(rng) : static_cast<double>(rng() % 9));
      in.tensors[T.name] = std::move(tv);
    }
  } catch (const Fail &f) {
    return stop(sz, f.why);
  }
  // Scalars that satisfy the spec's assumptions (eps > 0), so that a replay on these
  // inputs can refute (a few draws; the run itself does not depend on them).
  for (int attempt = 0; attempt < 8 && !s_.scalars.empty(); ++attempt) {
    spec::EvalResult ev = spec::evaluate(s_, in);
    if (ev.ok() || ev.error.find("assumption") == std::string::npos)
      break;
    for (const spec::Scalar &x : s_.scalars)
      in.scalars[x.name] = randomReal(rng);
  }
  LaunchEnv le = launchEnv(k_, s_, b_, in, o_.block, o_.grid);
  if (le.preconditionFails) {
    ++rep_.excluded; // not a size the kernel admits
    excluded = true;
    return Flow::Next;
  }
  if (!le.ok)
    return stop(sz, le.why);
  le.env.symbolic = &tu.st;
  tu.run = interp::runGrid(k_, le.env);
  const interp::GridRun &run = tu.run;
  if (!run.completed && run.error == "assumption violated" && tu.st.dependence.empty()) {
    ++rep_.excluded; // the kernel's own precondition excludes these sizes
    excluded = true;
    return Flow::Next;
  }
  if (!run.completed)
    return stop(sz, "the run stopped: " + run.error);
  if (!run.faults.empty())
    return stop(sz, "the run faulted (the safety obligations speak for it)");
  if (!tu.st.dependence.empty())
    return stop(sz, "one run cannot stand for every input (" + tu.st.dependence + ")");
  return Flow::Next;
}

// A failure, replayed on the concrete tests: a real difference refutes, else the check stops.
Flow Check::replay(const Tuple &tu, const std::optional<spec::Inputs> &given, const std::string &what) {
  ConcreteOptions co;
  co.block = o_.block;
  co.grid = o_.grid;
  co.sizes = {tu.sz};
  co.inputs = given;
  co.seed = o_.seed;
  ConcreteReport cr = testAgainstSpec(k_, s_, b_, co);
  if (cr.outcome != Outcome::Agrees) {
    rep_.result = BoundedReport::Result::Refuted;
    rep_.refutation = cr;
    return Flow::End;
  }
  return stop(tu.sz, what + "; the concrete replay did not show a difference");
}

// Compare every output element; a failure is replayed on the concrete tests.
Flow Check::compare(Tuple &tu) {
  Canon canon(tu.st);
  for (size_t t = 0; t < s_.tensors.size(); ++t) {
    const spec::Tensor &T = s_.tensors[t];
    if (T.mode == spec::Mode::In)
      continue;
    int a = arrayOfTensor_.at(static_cast<int>(t));
    const std::vector<int64_t> &shape = tu.shapes.at(static_cast<int>(t));
    int64_t cnt = 1;
    for (int64_t e : shape)
      cnt *= e;
    for (int64_t e = 0; e < cnt; ++e) {
      std::vector<int64_t> idx(shape.size());
      for (size_t d = shape.size(), rest = static_cast<size_t>(e); d-- > 0;) {
        idx[d] = static_cast<int64_t>(rest % static_cast<size_t>(shape[d]));
        rest /= static_cast<size_t>(shape[d]);
      }
      if (element(tu, canon, t, a, idx, e) == Flow::End)
        return Flow::End;
    }
  }
  floatRange_ |= canon.usedFloatRange();
  return Flow::Next;
}

// Element idx (flat e, of kernel array a) of output tensor t: equal canonical forms agree;
// otherwise the concrete replay on the steering inputs, then the solver.
Flow Check::element(Tuple &tu, Canon &canon, size_t t, int a, const std::vector<int64_t> &idx, int64_t e) {
  const spec::Tensor &T = s_.tensors[t];
  const interp::GridRun &run = tu.run;
  const Sizes &sz = tu.sz;
  std::string elem = T.name;
  for (int64_t x : idx)
    elem += "[" + std::to_string(x) + "]";
  auto w = run.writers.find({a, e});
  if (w == run.writers.end() && T.mode == spec::Mode::Out)
    return replay(tu, std::nullopt, elem + " is never written");
  if (w != run.writers.end() && w->second.threads.size() > 1 && !w->second.atomic)
    return replay(tu, std::nullopt, elem + " is written by two threads");
  int got = -1;
  if (w != run.writers.end()) {
    const interp::Value &v = run.memory.at({a, e});
    got = v.sym >= 0 ? v.sym : tu.st.constant(v, false);
  } else {
    got = tu.st.cell(k_.arrays[a], e, false, -1); // inout, untouched
  }
  if (got < 0)
    return stop(sz, elem + ": the kernel stores a value with no real counterpart (an infinity or NaN)");
  int want;
  try {
    want = tu.spec.element(static_cast<int>(t), idx);
  } catch (const Fail &f) {
    return stop(sz, elem + ": " + f.why);
  }
  // Before agreeing: the kernel may divide only by what the spec divides by. Where a
  // divisor of the kernel's alone is 0, the GPU computes an infinity or NaN and the
  // spec a number.
  // Nor may it depend on memory it did not write, which may hold NaN or infinity.
  auto divisorsOk = [&]() {
    int g = canon.garbageLeaf(got);
    if (g >= 0) {
      stop(sz, elem + ": the kernel's value depends on " + canon.show(g) +
                   ", memory the launch did not write (it may hold NaN or infinity)");
      return false;
    }
    std::string stray;
    if (canon.partialsWithin(got, want, stray))
      return true;
    stop(sz, elem + ": the kernel computes " + stray +
                 ", which the spec does not; where that has no real value (a divisor 0, sqrt or log of a "
                 "negative) the kernel computes none");
    return false;
  };
  auto cg = canon.of(got), cw = canon.of(want);
  if (cg && cw && cg->id == cw->id && cg->isBool == cw->isBool) {
    if (!divisorsOk())
      return Flow::End;
    return Flow::Next;
  }
  // Different forms: first the concrete replay on the inputs that steered the run
  // (cheap, and often enough), then the solver.
  {
    ConcreteOptions co;
    co.block = o_.block;
    co.grid = o_.grid;
    co.inputs = tu.in;
    co.seed = o_.seed;
    ConcreteReport cr = testAgainstSpec(k_, s_, b_, co);
    if (cr.outcome != Outcome::Agrees) {
      rep_.result = BoundedReport::Result::Refuted;
      rep_.refutation = cr;
      return Flow::End;
    }
  }
  // Z3: kernel != spec for some finite-float inputs?
  ++rep_.solverQueries;
  if (!divisorsOk())
    return Flow::End;
  return solverCheck(tu, elem, got, want);
}

// Z3 on an element whose forms differ: unsat agrees; a model's inputs are replayed.
Flow Check::solverCheck(Tuple &tu, const std::string &elem, int got, int want) {
  const Store &st = tu.st;
  if (std::max(st.nodes[got].depth, st.nodes[want].depth) > 2000)
    return stop(tu.sz, elem + ": the terms differ in form and are too deep for the solver");
  smt::TermContext tc;
  ToSmt tr(st, tc);
  smt::Result r;
  try {
    smt::Term goal = tc.ne(tr.real(got), tr.real(want));
    smt::Solver sv(tc, o_.solverMs);
    for (int f : tu.spec.facts)
      sv.addBackground(tr.boolean(f));
    for (const auto &[node, v] : tr.leaves())
      if (v->sort == smt::Sort::Real && st.nodes[node].range > 0) {
        smt::Term lim = tr.bigConst(st.nodes[node].range);
        sv.addBackground(tc.mkAnd(tc.le(tc.neg(lim), v), tc.le(v, lim)));
      }
    sv.setLog(o_.log);
    r = sv.check(goal, {k_.name + ".bounded." + std::to_string(rep_.solverQueries) + " " + elem, {}});
  } catch (const Fail &f) {
    return stop(tu.sz, elem + ": " + f.why);
  }
  if (r.status == smt::Status::Unsat) {
    floatRange_ = true;
    return Flow::Next;
  }
  if (r.status == smt::Status::Unknown)
    return stop(tu.sz, elem + ": the solver gave up (" + r.reason + ")");
  // sat: the model's inputs, replayed.
  spec::Inputs given = tu.in;
  for (const auto &[node, v] : tr.leaves()) {
    auto mv = r.model.find(v);
    if (mv == r.model.end())
      continue;
    double x = static_cast<double>(mv->second.num) / static_cast<double>(mv->second.den);
    const SNode &n = st.nodes[node];
    if (n.array >= 0) {
      auto tt = b_.tensorOfArray.find(n.array);
      if (tt != b_.tensorOfArray.end())
        given.tensors[s_.tensors[tt->second].name].data.at(static_cast<size_t>(n.flat)) = x;
    } else if (n.var >= 0) {
      auto sx = b_.scalarOfVar.find(n.var);
      if (sx != b_.scalarOfVar.end())
        given.scalars[s_.scalars[sx->second].name] = x;
    }
  }
  return replay(tu, given, elem + ": Z3 finds inputs on which the kernel's value differs from the spec's");
}

} // namespace

} // namespace bounded_detail

BoundedReport boundedCheck(const ir::Kernel &k, const spec::Spec &s, const spec::Binding &b,
                           const BoundedOptions &o) {
  return bounded_detail::Check(k, s, b, o).run();
}

} // namespace ksynth::equiv
