#include "verify/spec/eval.h"

#include "util/int128.h"

#include <cassert>
#include <cmath>
#include <map>

namespace ksynth::spec {

namespace {

using i128 = __int128;

struct EvalError {
  std::string msg;
};

struct V {
  Sort s = Sort::Int;
  i128 i = 0; // Int, Bool (0/1)
  double r = 0;
};

V mkInt(i128 i) { return {Sort::Int, i, 0}; }
V mkReal(double r) { return {Sort::Real, 0, r}; }
V mkBool(bool b) { return {Sort::Bool, b ? 1 : 0, 0}; }

std::string i128Text(i128 v) { return util::int128Text(v); }

class Evaluator {
public:
  Evaluator(const Spec &s, const Inputs &in) : s_(s), in_(in) {}

  // Binds dims and scalars (a missing scalar is an error only when `needScalars`).
  void prepareSizes(bool needScalars = false) {
    for (const Dim &d : s_.dims) {
      auto it = in_.dims.find(d.name);
      if (it == in_.dims.end())
        throw EvalError{"no value for dim '" + d.name + "'"};
      if (it->second < 1)
        throw EvalError{"dim '" + d.name + "' = " + std::to_string(it->second) + " (dims are at least 1)"};
      dims_.push_back(it->second);
    }
    for (const Scalar &x : s_.scalars) {
      auto it = in_.scalars.find(x.name);
      if (it == in_.scalars.end()) {
        if (needScalars)
          throw EvalError{"no value for scalar '" + x.name + "'"};
        scalars_.push_back(isFloat(x.type) ? mkReal(0) : mkInt(0));
        continue;
      }
      if (isFloat(x.type)) {
        scalars_.push_back(mkReal(it->second));
      } else {
        if (it->second != std::floor(it->second))
          throw EvalError{"scalar '" + x.name + "' is " + elemTypeName(x.type) + " but has the value " +
                          std::to_string(it->second)};
        scalars_.push_back(mkInt(static_cast<i128>(it->second)));
      }
    }
    consts_.assign(s_.defines.size(), std::nullopt);
  }

  void checkAssumptionsOnly() {
    prepareSizes(true);
    for (size_t i = 0; i < s_.assumes.size(); ++i) {
      std::vector<V> env;
      if (!eval(*s_.assumes[i], env).i)
        throw EvalError{"assumption " + infix(s_, *s_.assumes[i], {}) + " does not hold"};
    }
  }

  // Binds dims, scalars and tensors, and checks the assumptions.
  void prepare() {
    checkAssumptionsOnly();
    for (size_t t = 0; t < s_.tensors.size(); ++t) {
      shapes_.push_back(shape(static_cast<int>(t)));
      const Tensor &tn = s_.tensors[t];
      if (tn.mode == Mode::Out) {
        data_.push_back(nullptr);
        continue;
      }
      auto it = in_.tensors.find(tn.name);
      if (it == in_.tensors.end())
        throw EvalError{"no value for input tensor '" + tn.name + "'"};
      if (it->second.shape != shapes_.back())
        throw EvalError{"input tensor '" + tn.name + "' has shape " + shapeText(it->second.shape) + ", the spec says " +
                        shapeText(shapes_.back())};
      if (it->second.data.size() != count(shapes_.back()))
        throw EvalError{"input tensor '" + tn.name + "' holds " + std::to_string(it->second.data.size()) +
                        " values for " + std::to_string(count(shapes_.back())) + " elements"};
      data_.push_back(&it->second);
    }
  }

  std::vector<int64_t> shape(int t) {
    std::vector<int64_t> sh;
    for (const TermPtr &e : s_.tensors[t].extents) {
      std::vector<V> env;
      i128 v = eval(*e, env).i;
      if (v < 0 || v > INT64_MAX)
        throw EvalError{"extent " + infix(s_, *e, {}) + " of '" + s_.tensors[t].name + "' is " + i128Text(v)};
      sh.push_back(static_cast<int64_t>(v));
    }
    return sh;
  }

  static size_t count(const std::vector<int64_t> &sh) {
    size_t n = 1;
    for (int64_t x : sh)
      n *= static_cast<size_t>(x);
    return n;
  }
  static std::string shapeText(const std::vector<int64_t> &sh) {
    std::string r;
    for (int64_t x : sh)
      r += "[" + std::to_string(x) + "]";
    return r.empty() ? "[] (a single value)" : r;
  }

  V element(int t, const std::vector<int64_t> &idx) {
    const Ensures &e = s_.ensures[s_.tensors[t].ensures];
    std::vector<V> env(static_cast<size_t>(e.numSlots));
    for (size_t k = 0; k < idx.size(); ++k)
      env[k] = mkInt(idx[k]);
    return eval(*e.body, env);
  }

  const std::vector<int64_t> &shapeAt(int t) const { return shapes_[t]; }

private:
  const Spec &s_;
  const Inputs &in_;
  std::vector<int64_t> dims_;
  std::vector<V> scalars_;
  std::vector<std::vector<int64_t>> shapes_;
  std::vector<const TensorValue *> data_;
  std::vector<std::optional<V>> consts_;
  std::map<std::vector<i128>, V> calls_; // (define, arguments) -> value

  static i128 checked(bool overflow, i128 v) {
    if (overflow)
      throw EvalError{"Int overflow in the spec's arithmetic"};
    return v;
  }

  static bool compare(Op op, const V &a, const V &b) {
    if (a.s == Sort::Real) {
      switch (op) {
      case Op::Lt: return a.r < b.r;
      case Op::Le: return a.r <= b.r;
      case Op::Gt: return a.r > b.r;
      case Op::Ge: return a.r >= b.r;
      default: return a.r == b.r;
      }
    }
    switch (op) {
    case Op::Lt: return a.i < b.i;
    case Op::Le: return a.i <= b.i;
    case Op::Gt: return a.i > b.i;
    case Op::Ge: return a.i >= b.i;
    default: return a.i == b.i;
    }
  }

  V readTensor(const Term &t, std::vector<V> &env) {
    const std::vector<int64_t> &sh = shapes_[t.ref];
    std::vector<int64_t> idx;
    for (const TermPtr &a : t.args)
      idx.push_back(static_cast<int64_t>(eval(*a, env).i));
    size_t flat = 0;
    for (size_t k = 0; k < idx.size(); ++k) {
      if (idx[k] < 0 || idx[k] >= sh[k]) {
        std::string at;
        for (int64_t x : idx)
          at += "[" + std::to_string(x) + "]";
        throw EvalError{"the spec reads " + s_.tensors[t.ref].name + at + ", outside its shape " + shapeText(sh)};
      }
      flat = flat * static_cast<size_t>(sh[k]) + static_cast<size_t>(idx[k]);
    }
    double v = data_[t.ref]->data[flat];
    if (isFloat(s_.tensors[t.ref].type))
      return mkReal(v);
    if (v != std::floor(v))
      throw EvalError{"tensor '" + s_.tensors[t.ref].name + "' holds " + elemTypeName(s_.tensors[t.ref].type) +
                      " values, got " + std::to_string(v)};
    return mkInt(static_cast<i128>(v));
  }

  V eval(const Term &t, std::vector<V> &env) {
    auto a = [&](size_t k) { return eval(*t.args[k], env); };
    switch (t.op) {
    case Op::IntLit: return mkInt(t.ival);
    case Op::RealLit: return mkReal(static_cast<double>(t.num) / static_cast<double>(t.den));
    case Op::BoolLit: return mkBool(t.ival != 0);
    case Op::Dim: return mkInt(dims_[t.ref]);
    case Op::Scalar: return scalars_[t.ref];
    case Op::Var: return env[t.ref];
    case Op::Const: {
      if (!consts_[t.ref]) {
        std::vector<V> e2(static_cast<size_t>(s_.defines[t.ref].numSlots));
        consts_[t.ref] = eval(*s_.defines[t.ref].body, e2);
      }
      return *consts_[t.ref];
    }
    case Op::Call: {
      // Defines are pure functions of their Int arguments: memoised (a row's max or sum is
      // computed once, not once per element of the row).
      const Define &d = s_.defines[t.ref];
      std::vector<V> e2(static_cast<size_t>(d.numSlots));
      std::vector<i128> key{static_cast<i128>(t.ref)};
      for (size_t k = 0; k < t.args.size(); ++k) {
        e2[k] = a(k);
        key.push_back(e2[k].i);
      }
      auto hit = calls_.find(key);
      if (hit != calls_.end())
        return hit->second;
      V v = eval(*d.body, e2);
      calls_.emplace(std::move(key), v);
      return v;
    }
    case Op::Read:
    case Op::Old: return readTensor(t, env);
    case Op::Ite: return a(0).i ? a(1) : a(2);
    case Op::Let: {
      size_t n = t.letVars.size();
      std::vector<V> vals;
      for (size_t k = 0; k < n; ++k)
        vals.push_back(a(k));
      for (size_t k = 0; k < n; ++k)
        env[static_cast<size_t>(t.ref) + k] = vals[k];
      return a(n);
    }
    case Op::And:
      for (size_t k = 0; k < t.args.size(); ++k)
        if (!a(k).i)
          return mkBool(false);
      return mkBool(true);
    case Op::Or:
      for (size_t k = 0; k < t.args.size(); ++k)
        if (a(k).i)
          return mkBool(true);
      return mkBool(false);
    case Op::Not: return mkBool(!a(0).i);
    case Op::Implies: { // right-associative: a => (b => c)
      for (size_t k = 0; k + 1 < t.args.size(); ++k)
        if (!a(k).i)
          return mkBool(true);
      return mkBool(a(t.args.size() - 1).i != 0);
    }
    case Op::Eq:
    case Op::Lt:
    case Op::Le:
    case Op::Gt:
    case Op::Ge: {
      V prev = a(0);
      for (size_t k = 1; k < t.args.size(); ++k) {
        V cur = a(k);
        if (!compare(t.op, prev, cur))
          return mkBool(false);
        prev = cur;
      }
      return mkBool(true);
    }
    case Op::Distinct: {
      std::vector<V> vs;
      for (size_t k = 0; k < t.args.size(); ++k)
        vs.push_back(a(k));
      for (size_t x = 0; x < vs.size(); ++x)
        for (size_t y = x + 1; y < vs.size(); ++y)
          if (compare(Op::Eq, vs[x], vs[y]))
            return mkBool(false);
      return mkBool(true);
    }
    default: break;
    }
    return evalArith(t, env);
  }

  // eval() of arithmetic: + - * neg / div mod abs max min to_real and the functions; a range
  // binder goes on to evalBinder.
  V evalArith(const Term &t, std::vector<V> &env) {
    auto a = [&](size_t k) { return eval(*t.args[k], env); };
    switch (t.op) {
    case Op::Add:
    case Op::Sub:
    case Op::Mul: {
      V acc = a(0);
      for (size_t k = 1; k < t.args.size(); ++k) {
        V b = a(k);
        if (t.sort == Sort::Real) {
          acc.r = t.op == Op::Add ? acc.r + b.r : t.op == Op::Sub ? acc.r - b.r : acc.r * b.r;
        } else {
          i128 r = 0;
          bool o = t.op == Op::Add   ? __builtin_add_overflow(acc.i, b.i, &r)
                   : t.op == Op::Sub ? __builtin_sub_overflow(acc.i, b.i, &r)
                                     : __builtin_mul_overflow(acc.i, b.i, &r);
          acc.i = checked(o, r);
        }
      }
      return acc;
    }
    case Op::Neg: {
      V x = a(0);
      if (x.s == Sort::Real)
        return mkReal(-x.r);
      return mkInt(-x.i);
    }
    case Op::Div: {
      double r = a(0).r;
      for (size_t k = 1; k < t.args.size(); ++k) {
        double d = a(k).r;
        if (d == 0)
          throw EvalError{"division by zero in " + infix(s_, t, {})};
        r /= d;
      }
      return mkReal(r);
    }
    case Op::IntDiv:
    case Op::Mod: {
      i128 x = a(0).i, y = a(1).i;
      if (y == 0)
        throw EvalError{std::string(t.op == Op::IntDiv ? "div" : "mod") + " by zero"};
      // SMT-LIB: Euclidean division, 0 <= x mod y < |y|.
      i128 q = x / y, r = x % y;
      if (r < 0) {
        r += y < 0 ? -y : y;
        q = y < 0 ? q + 1 : q - 1;
      }
      return mkInt(t.op == Op::IntDiv ? q : r);
    }
    case Op::Abs: {
      V x = a(0);
      return x.s == Sort::Real ? mkReal(std::fabs(x.r)) : mkInt(x.i < 0 ? -x.i : x.i);
    }
    case Op::Max:
    case Op::Min: {
      V acc = a(0);
      for (size_t k = 1; k < t.args.size(); ++k) {
        V b = a(k);
        bool greater = compare(Op::Gt, b, acc);
        if (t.op == Op::Max ? greater : compare(Op::Lt, b, acc))
          acc = b;
      }
      return acc;
    }
    case Op::ToReal: return mkReal(static_cast<double>(a(0).i));
    case Op::Fn: {
      double x = a(0).r;
      if (t.name == "exp")
        return mkReal(std::exp(x));
      if (t.name == "log")
        return mkReal(std::log(x));
      if (t.name == "sqrt")
        return mkReal(std::sqrt(x));
      if (t.name == "rsqrt")
        return mkReal(1.0 / std::sqrt(x));
      if (t.name == "tanh")
        return mkReal(std::tanh(x));
      if (t.name == "erf")
        return mkReal(std::erf(x));
      if (t.name == "pow")
        return mkReal(std::pow(x, a(1).r));
      assert(false && "function missing from the evaluator");
      return mkReal(0);
    }
    default: break;
    }
    return evalBinder(t, env);
  }

  // eval() of a range binder: sum, prod, max-over, min-over, argmax-over, argmin-over.
  V evalBinder(const Term &t, std::vector<V> &env) {
    auto a = [&](size_t k) { return eval(*t.args[k], env); };
    assert(isRangeBinder(t.op));
    i128 lo = a(0).i, hi = a(1).i;
    if (lo >= hi && needsNonEmptyRange(t.op))
      throw EvalError{std::string(opKeyword(t.op)) + " over the empty range [" + i128Text(lo) + ", " + i128Text(hi) + ")"};
    if (hi - lo > (static_cast<i128>(1) << 40))
      throw EvalError{"range [" + i128Text(lo) + ", " + i128Text(hi) + ") is too large to evaluate"};
    const Term &body = *t.args[2];
    bool real = body.sort == Sort::Real;
    V acc = t.op == Op::Sum ? (real ? mkReal(0) : mkInt(0)) : t.op == Op::Prod ? (real ? mkReal(1) : mkInt(1)) : V{};
    V best;
    i128 bestAt = lo;
    for (i128 k = lo; k < hi; ++k) {
      env[t.ref] = mkInt(k);
      V v = eval(body, env);
      switch (t.op) {
      case Op::Sum:
        if (real)
          acc.r += v.r;
        else if (__builtin_add_overflow(acc.i, v.i, &acc.i))
          throw EvalError{"Int overflow in the spec's arithmetic"};
        break;
      case Op::Prod:
        if (real)
          acc.r *= v.r;
        else if (__builtin_mul_overflow(acc.i, v.i, &acc.i))
          throw EvalError{"Int overflow in the spec's arithmetic"};
        break;
      default: {
        bool takeMax = t.op == Op::MaxOver || t.op == Op::ArgmaxOver;
        // strict comparison: the first index attaining the extreme wins
        if (k == lo || (takeMax ? compare(Op::Gt, v, best) : compare(Op::Lt, v, best))) {
          best = v;
          bestAt = k;
        }
      }
      }
    }
    if (t.op == Op::Sum || t.op == Op::Prod)
      return acc;
    if (t.op == Op::MaxOver || t.op == Op::MinOver)
      return best;
    return mkInt(bestAt);
  }
};

} // namespace

std::optional<std::vector<int64_t>> shapeOf(const Spec &s, int t, const Inputs &in, std::string &error) {
  try {
    Evaluator ev(s, in);
    ev.prepareSizes();
    return ev.shape(t);
  } catch (const EvalError &e) {
    error = e.msg;
    return std::nullopt;
  }
}

EvalResult evaluate(const Spec &s, const Inputs &in) {
  EvalResult r;
  try {
    Evaluator ev(s, in);
    ev.prepare();
    for (size_t t = 0; t < s.tensors.size(); ++t) {
      const Tensor &tn = s.tensors[t];
      if (tn.mode == Mode::In)
        continue;
      TensorValue out;
      out.shape = ev.shapeAt(static_cast<int>(t));
      size_t n = 1;
      for (int64_t x : out.shape)
        n *= static_cast<size_t>(x);
      std::vector<int64_t> idx(out.shape.size(), 0);
      for (size_t f = 0; f < n; ++f) {
        V v = ev.element(static_cast<int>(t), idx);
        out.data.push_back(v.s == Sort::Real ? v.r : static_cast<double>(v.i));
        for (size_t k = idx.size(); k-- > 0;) {
          if (++idx[k] < out.shape[k])
            break;
          idx[k] = 0;
        }
      }
      r.outputs[tn.name] = std::move(out);
    }
  } catch (const EvalError &e) {
    r.error = e.msg;
    r.outputs.clear();
  }
  return r;
}

std::optional<double> evaluateElement(const Spec &s, const Inputs &in, const std::string &tensor,
                                      const std::vector<int64_t> &index, std::string &error) {
  int t = s.findTensor(tensor);
  if (t < 0 || s.tensors[t].mode == Mode::In) {
    error = "'" + tensor + "' is not an output tensor of spec '" + s.name + "'";
    return std::nullopt;
  }
  try {
    Evaluator ev(s, in);
    ev.prepare();
    const std::vector<int64_t> &sh = ev.shapeAt(t);
    if (index.size() != sh.size())
      throw EvalError{"'" + tensor + "' has " + std::to_string(sh.size()) + " dimensions, got " +
                      std::to_string(index.size()) + " indices"};
    for (size_t k = 0; k < sh.size(); ++k)
      if (index[k] < 0 || index[k] >= sh[k])
        throw EvalError{"index " + std::to_string(index[k]) + " is outside dimension " + std::to_string(k) + " of '" +
                        tensor + "'"};
    V v = ev.element(t, index);
    return v.s == Sort::Real ? v.r : static_cast<double>(v.i);
  } catch (const EvalError &e) {
    error = e.msg;
    return std::nullopt;
  }
}

std::vector<std::optional<double>> evaluateElements(const Spec &s, const Inputs &in, const std::string &tensor,
                                                    const std::vector<int64_t> &flat, std::string &error) {
  std::vector<std::optional<double>> out(flat.size());
  int t = s.findTensor(tensor);
  if (t < 0 || s.tensors[t].mode == Mode::In) {
    error = "'" + tensor + "' is not an output tensor of spec '" + s.name + "'";
    return out;
  }
  try {
    Evaluator ev(s, in);
    ev.prepare();
    const std::vector<int64_t> sh = ev.shapeAt(t);
    int64_t n = 1;
    for (int64_t x : sh)
      n *= x;
    std::vector<int64_t> idx(sh.size());
    for (size_t e = 0; e < flat.size(); ++e) {
      if (flat[e] < 0 || flat[e] >= n) {
        if (error.empty())
          error = "element " + std::to_string(flat[e]) + " is outside '" + tensor + "'";
        continue;
      }
      int64_t f = flat[e];
      for (size_t k = sh.size(); k-- > 0;) {
        idx[k] = f % sh[k];
        f /= sh[k];
      }
      try {
        V v = ev.element(t, idx);
        out[e] = v.s == Sort::Real ? v.r : static_cast<double>(v.i);
      } catch (const EvalError &err) {
        if (error.empty())
          error = err.msg;
      }
    }
  } catch (const EvalError &e) {
    error = e.msg;
  }
  return out;
}

std::string checkAssumptions(const Spec &s, const Inputs &in) {
  try {
    Evaluator ev(s, in);
    ev.checkAssumptionsOnly();
  } catch (const EvalError &e) {
    return e.msg;
  }
  return "";
}

} // namespace ksynth::spec
