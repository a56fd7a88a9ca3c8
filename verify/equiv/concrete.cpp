#include "verify/equiv/concrete.h"

#include "verify/interp/interp.h"
#include "verify/spec/eval.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <functional>
#include <limits>
#include <random>
#include <set>
#include <sstream>

namespace ksynth::equiv {

namespace {

using interp::Value;

// Tests cost roughly the product of the sizes (the iteration space of a matmul, a conv).
constexpr double kMaxWork = 1 << 15;
// What unwritten shared memory and stale outputs hold in the second run.
constexpr double kGarbage = 4097.25;


std::string numText(double x) {
  std::ostringstream os;
  os.precision(9);
  os << x;
  return os.str();
}

std::string tupleText(const std::vector<int64_t> &v) {
  std::string s;
  for (int64_t x : v)
    s += "[" + std::to_string(x) + "]";
  return s;
}

std::string dim3Text(const interp::Dim3 &d) {
  return "(" + std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z) + ")";
}

nlohmann::json dim3Json(const interp::Dim3 &d) { return {d.x, d.y, d.z}; }


// (saturating: the grid's sizes are also evaluated at dims up to 2^16, where a tensor of five
// dims has more elements than an int64 holds)
int64_t count(const std::vector<int64_t> &shape) {
  int64_t n = 1;
  for (int64_t e : shape)
    if (__builtin_mul_overflow(n, e, &n))
      return std::numeric_limits<int64_t>::max();
  return n;
}

// A dyadic value in [-2, 2] (sums of a few thousand of them are exact in double).
// The coarse 33 values make ties likely (argmax must take the first one).
double randomReal(std::mt19937 &rng) { return (static_cast<int>(rng() % 33) - 16) / 8.0; }

// How a test run fills float inputs. Every size runs with Coarse values; cheap sizes also
// with the others: among 4097 values (multiples of 2^-10) the largest of a few hundred is
// rarely taken twice, so a max that misses part of its range shows, and ramps put the
// largest element last (or first) in every row.
enum class Fill { Coarse, Fine, Ascending, Descending };
constexpr int kFills = 4;

double fillValue(Fill f, std::mt19937 &rng, int64_t i) {
  switch (f) {
  case Fill::Coarse: return randomReal(rng);
  case Fill::Fine: return (static_cast<int>(rng() % 4097) - 2048) / 1024.0;
  case Fill::Ascending: return static_cast<double>(i % 4097 - 2048) / 1024.0;
  case Fill::Descending: return static_cast<double>(2048 - i % 4097) / 1024.0;
  }
  return 0;
}
int64_t randomInt(std::mt19937 &rng, spec::ElemType t) {
  return spec::isSigned(t) ? static_cast<int64_t>(rng() % 17) - 8 : static_cast<int64_t>(rng() % 17);
}

bool evalLaunch(const ir::Kernel &k, const interp::Env &env, const std::array<ir::ExprPtr, 3> &e,
                interp::Dim3 &out, std::string &why) {
  for (int d = 0; d < 3; ++d) {
    if (!e[d]) {
      out[d] = 1;
      continue;
    }
    Value v;
    if (!interp::evalConstExpr(k, env, *e[d], v) || v.kind != Value::Kind::Int) {
      why = "the launch cannot be evaluated";
      return false;
    }
    if (v.i < 1 || v.i > (static_cast<__int128>(1) << 31)) {
      why = "launch dimension " + std::to_string(static_cast<long long>(v.i)) + " is not positive";
      return false;
    }
    out[d] = static_cast<int64_t>(v.i);
  }
  return true;
}

struct ThreadName {
  interp::Dim3 block, thread;
};
ThreadName threadOf(int64_t linear, const interp::Dim3 &block, const interp::Dim3 &grid) {
  int64_t per = block.x * block.y * block.z;
  int64_t b = linear / per, t = linear % per;
  ThreadName n;
  n.thread = {t % block.x, (t / block.x) % block.y, t / (block.x * block.y)};
  n.block = {b % grid.x, (b / grid.x) % grid.y, b / (grid.x * grid.y)};
  return n;
}

} // namespace

std::vector<int64_t> unflatten(int64_t flat, const std::vector<int64_t> &shape) {
  std::vector<int64_t> idx(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    idx[d] = shape[d] ? flat % shape[d] : 0;
    flat = shape[d] ? flat / shape[d] : 0;
  }
  return idx;
}

LaunchEnv launchEnv(const ir::Kernel &k, const spec::Spec &s, const spec::Binding &b, const spec::Inputs &in,
                    const std::array<ir::ExprPtr, 3> &block, const std::array<ir::ExprPtr, 3> &grid) {
  LaunchEnv le;
  interp::Env &env = le.env;
  env.wideFloats = true;
  env.maxGridSteps = 10'000'000;
  for (const auto &[var, d] : b.dimOfVar)
    env.params[var] = Value::ofInt(in.dims.at(s.dims[d].name));
  for (const auto &[var, x] : b.scalarOfVar) {
    double v = in.scalars.at(s.scalars[x].name);
    env.params[var] = k.vars[var].type.isFloat() ? Value::ofFloat(v) : Value::ofInt(static_cast<int64_t>(v));
  }
  for (const auto &[a, t] : b.tensorOfArray) {
    std::string why;
    auto shape = spec::shapeOf(s, t, in, why);
    le.shapes[t] = *shape;
    env.lens[a] = count(*shape);
    const spec::Tensor &T = s.tensors[t];
    if (T.mode == spec::Mode::Out) {
      env.poisoned.insert(a);
      continue;
    }
    const spec::TensorValue &tv = in.tensors.at(T.name);
    for (size_t i = 0; i < tv.data.size(); ++i)
      env.memory[{a, static_cast<int64_t>(i)}] =
          k.arrays[a].elem.isFloat() ? Value::ofFloat(tv.data[i]) : Value::ofInt(static_cast<int64_t>(tv.data[i]));
  }
  for (const spec::Precondition &p : b.preconditions) {
    Value v;
    if (interp::evalConstExpr(k, env, *p.expr, v) && v.kind == Value::Kind::Int && v.i == 0) {
      le.why = "kernel precondition " + p.text + " does not hold";
      le.preconditionFails = true;
      return le;
    }
  }
  if (!evalLaunch(k, env, block, env.block, le.why) || !evalLaunch(k, env, grid, env.grid, le.why))
    return le;
  double threads = static_cast<double>(env.block.x * env.block.y * env.block.z) *
                   static_cast<double>(env.grid.x * env.grid.y * env.grid.z);
  if (threads > (1 << 18)) {
    le.why = numText(threads) + " threads is too many for a test run";
    return le;
  }
  le.ok = true;
  return le;
}

std::string sizesText(const Sizes &sz) {
  std::string s;
  for (const auto &[n, v] : sz)
    s += (s.empty() ? "" : ", ") + n + "=" + std::to_string(v);
  return s.empty() ? "no sizes" : s;
}

// What a test run at sizes sz costs: the larger of the product of the dims (the iteration
// space of a matmul, a conv) and the number of threads the launch runs (where the launch
// needs only the dims to evaluate).
// The launch's block and grid at sizes sz, where the launch needs only the dims to evaluate.
bool launchAt(const ir::Kernel &k, const spec::Spec &s, const spec::Binding &b, const ConcreteOptions &o,
              const Sizes &sz, interp::Env &e) {
  for (const auto &[var, d] : b.dimOfVar)
    e.params[var] = Value::ofInt(sz.at(s.dims[d].name));
  spec::Inputs in;
  in.dims = sz;
  for (const auto &[a, t] : b.tensorOfArray) {
    std::string why;
    if (auto shape = spec::shapeOf(s, t, in, why))
      e.lens[a] = count(*shape);
  }
  std::string why;
  return evalLaunch(k, e, o.block, e.block, why) && evalLaunch(k, e, o.grid, e.grid, why);
}

// The smallest v (up to 16) such that every dim at v satisfies the spec's assumptions; 1 if none.
int64_t smallestSharedSize(const spec::Spec &s) {
  for (int64_t v = 1; v <= 16; ++v) {
    spec::Inputs in;
    for (const spec::Dim &d : s.dims)
      in.dims[d.name] = v;
    if (spec::checkAssumptions(s, in).empty())
      return v;
  }
  return 1;
}

double sizeCost(const ir::Kernel &k, const spec::Spec &s, const spec::Binding &b, const ConcreteOptions &o,
                const Sizes &sz) {
  double work = 1;
  for (const auto &[n, v] : sz)
    work *= static_cast<double>(v);
  interp::Env e;
  if (!launchAt(k, s, b, o, sz, e))
    return work;
  return std::max(work, static_cast<double>(e.block.x * e.block.y * e.block.z) *
                            static_cast<double>(e.grid.x * e.grid.y * e.grid.z));
}

std::vector<Sizes> chooseSizes(const ir::Kernel &k, const spec::Spec &s, const spec::Binding &b,
                               const ConcreteOptions &o) {
  std::set<int64_t> vals = {1, 2, 3};
  std::set<int64_t> blocks; // the launch's block extents past 3
  interp::Env env;
  for (const ir::ExprPtr &e : o.block) {
    Value v;
    if (e && interp::evalConstExpr(k, env, *e, v) && v.kind == Value::Kind::Int && v.i > 3 && v.i <= 1024) {
      int64_t b = static_cast<int64_t>(v.i);
      vals.insert({b - 1, b + 1});
      blocks.insert(b);
    }
  }
  // A path taken only where a size is a multiple of m (`C % 4 == 0`: a float4 path) does m
  // times the work per thread: the size one past the block there is m (b + 1), and m itself.
  std::set<int64_t> moduli;
  std::function<void(const ir::Expr &)> modOf = [&](const ir::Expr &e) {
    const ir::Expr *x = e.args.empty() ? nullptr : e.args[0].get();
    while (x && x->op == ir::Op::Cast)
      x = x->args[0].get();
    if (e.op == ir::Op::Rem && x && x->op == ir::Op::VarRef && b.dimOfVar.count(x->id) &&
        e.args[1]->op == ir::Op::Const && e.args[1]->ival >= 2 && e.args[1]->ival <= 64)
      moduli.insert(e.args[1]->ival);
    for (const ir::ExprPtr &a : e.args)
      modOf(*a);
  };
  std::function<void(const ir::Block &)> walk = [&](const ir::Block &bl) {
    for (const ir::StmtPtr &st : bl) {
      for (const ir::ExprPtr &e : {st->value, st->value2, st->ptr, st->cond})
        if (e)
          modOf(*e);
      for (const ir::ExprPtr &e : st->index)
        modOf(*e);
      for (const ir::Block *sub : {&st->pre, &st->body, &st->elseBody, &st->step})
        walk(*sub);
    }
  };
  walk(k.body);
  std::set<int64_t> multiples; // (tested one dim at a time, after the others)
  for (int64_t m : moduli) {
    multiples.insert(m);
    for (int64_t bl : blocks)
      multiples.insert(m * (bl + 1));
  }
  std::vector<int64_t> cand(vals.begin(), vals.end());
  std::vector<Sizes> out;
  auto work = [&](const Sizes &sz) {
    double w = 1;
    for (const auto &[n, v] : sz)
      w *= static_cast<double>(v);
    return w;
  };
  auto add = [&](const Sizes &sz, double limit = kMaxWork) {
    if (work(sz) <= limit && std::find(out.begin(), out.end(), sz) == out.end())
      out.push_back(sz);
  };
  // (every dim past the block allowed four times the work: where the assumptions tie the dims
  // together, N >= K, K = 257 alone is no admissible size, and a filter loaded in one pass of
  // a block of 256 is wrong only past 256 taps)
  for (int64_t v : cand) {
    Sizes sz;
    for (const spec::Dim &d : s.dims)
      sz[d.name] = v;
    add(sz, 4 * kMaxWork);
  }
  // One size at a time past a block boundary, the others 1 (an output extent like N - K + 1
  // then reaches b + 1 too).
  for (const spec::Dim &d : s.dims)
    for (int64_t v : cand)
      if (v > 3) {
        Sizes sz;
        for (const spec::Dim &e : s.dims)
          sz[e.name] = e.name == d.name ? v : 1;
        add(sz);
      }
  std::mt19937 rng(o.seed);
  for (int i = 0; i < 6; ++i) {
    Sizes sz;
    for (const spec::Dim &d : s.dims)
      sz[d.name] = cand[rng() % cand.size()];
    add(sz);
  }
  // A few sizes off the grid of candidates (bugs at N = 7 or N % 4 == 0 exist too).
  int64_t top = std::max<int64_t>(40, *vals.rbegin() + 2);
  for (int i = 0; i < 3; ++i) {
    Sizes sz;
    for (const spec::Dim &d : s.dims)
      sz[d.name] = 1 + static_cast<int64_t>(rng() % static_cast<uint64_t>(top));
    add(sz);
  }
  for (const spec::Dim &d : s.dims)
    for (int64_t v : multiples) {
      Sizes sz;
      for (const spec::Dim &e : s.dims)
        sz[e.name] = e.name == d.name ? v : 1;
      add(sz);
    }
  // Where the assumptions tie the sizes together (output_padding below stride, groups dividing
  // the channels), few of the sizes above are admissible: small ones drawn at random until a
  // few satisfy every assumption (scalars, which the tests draw later, are not drawn here).
  auto admissible = [&](const Sizes &sz) {
    spec::Inputs in;
    in.dims = sz;
    return spec::checkAssumptions(s, in).empty();
  };
  if (s.scalars.empty()) {
    if (std::count_if(out.begin(), out.end(), admissible) < 3) {
      // Of up to 64 admissible draws, the four with the fewest dims at 1 (groups of 1 and
      // strides of 1 hide the bugs that grouping and striding can have).
      std::vector<Sizes> drawn;
      for (int tries = 0; drawn.size() < 64 && tries < 20000; ++tries) {
        Sizes sz;
        for (const spec::Dim &d : s.dims) { // 1 or 2 mostly (19 dims of a 3-D conv multiply up)
          unsigned r = rng() % 20;
          sz[d.name] = r < 9 ? 1 : r < 18 ? 2 : r < 19 ? 3 : 4;
        }
        if (work(sz) <= kMaxWork && admissible(sz) && std::find(drawn.begin(), drawn.end(), sz) == drawn.end())
          drawn.push_back(sz);
      }
      auto ones = [](const Sizes &sz) {
        return std::count_if(sz.begin(), sz.end(), [](const auto &p) { return p.second == 1; });
      };
      std::stable_sort(drawn.begin(), drawn.end(), [&](const Sizes &x, const Sizes &y) { return ones(x) < ones(y); });
      for (size_t i = 0; i < drawn.size() && i < 4; ++i)
        add(drawn[i]);
      if (getenv("KSYNTH_DEBUG_CONCRETE"))
        for (size_t i = 0; i < drawn.size() && i < 4; ++i)
          fprintf(stderr, "drawn admissible size: %s\n", sizesText(drawn[i]).c_str());
    }
  }
  // The first sizes at which the grid has a second block in a dimension: the seam between two
  // blocks' tiles (a halo column loaded short shows only where a block has a right neighbour;
  // W = 33 past a block of 32 is not that where the outputs are W - 2 wide). From the smallest
  // size every dim may share, one dim raised at a time, then all together until every grid
  // extent that grows with the sizes has grown.
  {
    auto gridAt = [&](const Sizes &sz, interp::Dim3 &g) {
      interp::Env e;
      if (!launchAt(k, s, b, o, sz, e))
        return false;
      g = e.grid;
      return true;
    };
    auto uniform = [&](int64_t v) {
      Sizes sz;
      for (const spec::Dim &d : s.dims)
        sz[d.name] = v;
      return sz;
    };
    int64_t base = smallestSharedSize(s);
    constexpr int64_t kTop = int64_t(1) << 16;
    interp::Dim3 g0, gTop;
    // The smallest v in (base, kTop] with grown(v), grown monotone in v; 0 if none.
    auto firstGrown = [&](const std::function<bool(int64_t)> &grown) -> int64_t {
      int64_t lo = base, hi = base + 1;
      while (hi <= kTop && !grown(hi)) {
        lo = hi;
        hi *= 2;
      }
      if (hi > kTop)
        return 0;
      while (hi - lo > 1) {
        int64_t mid = lo + (hi - lo) / 2;
        (grown(mid) ? hi : lo) = mid;
      }
      return hi;
    };
    if (gridAt(uniform(base), g0) && gridAt(uniform(kTop), gTop)) {
      for (const spec::Dim &d : s.dims) {
        auto at = [&](int64_t v) {
          Sizes sz = uniform(base);
          sz[d.name] = v;
          return sz;
        };
        int64_t v = firstGrown([&](int64_t v) {
          interp::Dim3 g;
          return gridAt(at(v), g) && (g.x > g0.x || g.y > g0.y || g.z > g0.z);
        });
        if (v) {
          add(at(v));
          if (getenv("KSYNTH_DEBUG_CONCRETE"))
            fprintf(stderr, "size where the grid first grows: %s\n", sizesText(at(v)).c_str());
        }
      }
      int64_t v = firstGrown([&](int64_t v) {
        interp::Dim3 g;
        if (!gridAt(uniform(v), g))
          return false;
        for (int i = 0; i < 3; ++i)
          if (gTop[i] > g0[i] && g[i] <= g0[i])
            return false;
        return true;
      });
      if (v && s.dims.size() > 1) {
        add(uniform(v));
        if (getenv("KSYNTH_DEBUG_CONCRETE"))
          fprintf(stderr, "size where every grid extent has grown: %s\n", sizesText(uniform(v)).c_str());
      }
    }
  }
  // The problem's own small sizes (`(sizes (KS 4) (ST 1) ...)`: a window, a stride, a
  // padding), the large ones drawn small: a bound left from another configuration (a loop
  // that stops at 3 taps) shows at the problem's own window and may not at 1, 2 or 3.
  if (s.scalars.empty() && !s.sizes.empty()) {
    std::map<std::string, int64_t> nominal;
    for (const auto &[n, v] : s.sizes)
      if (v >= 1 && v <= 8)
        nominal[n] = v;
    bool past3 = std::any_of(nominal.begin(), nominal.end(), [](const auto &p) { return p.second > 3; });
    int found = 0;
    for (int tries = 0; past3 && found < 2 && tries < 4000; ++tries) {
      Sizes sz;
      for (const spec::Dim &d : s.dims) {
        auto it = nominal.find(d.name);
        sz[d.name] = it != nominal.end() ? it->second : 1 + static_cast<int64_t>(rng() % (tries < 1000 ? 3 : 6));
      }
      if (work(sz) <= kMaxWork && admissible(sz) &&
          std::find(out.begin(), out.end(), sz) == out.end()) {
        out.push_back(sz);
        ++found;
        if (getenv("KSYNTH_DEBUG_CONCRETE"))
          fprintf(stderr, "size at the problem's own small dims: %s\n", sizesText(sz).c_str());
      }
    }
  }
  std::map<Sizes, double> cost;
  for (const Sizes &sz : out)
    cost[sz] = sizeCost(k, s, b, o, sz);
  std::stable_sort(out.begin(), out.end(), [&](const Sizes &x, const Sizes &y) { return cost[x] < cost[y]; });
  // With a fixed grid every run costs the whole grid, and the time budget may run out before
  // the larger sizes come up: the size one past the block (where most bugs show) goes first.
  // (After the three smallest, a grid of 264 blocks of 256 ran N = 1 alone: a warp-shuffle
  // tree that loses lanes 16 to 31 agreed there.)
  std::function<bool(const ir::Expr &)> usesParams = [&](const ir::Expr &e) {
    if (e.op == ir::Op::VarRef || e.op == ir::Op::Len)
      return true;
    for (const ir::ExprPtr &a : e.args)
      if (usesParams(*a))
        return true;
    return false;
  };
  bool fixedGrid = true;
  for (const ir::ExprPtr &e : o.grid)
    fixedGrid &= !e || !usesParams(*e);
  if (fixedGrid && *vals.rbegin() > 3) {
    Sizes past;
    for (const spec::Dim &d : s.dims)
      past[d.name] = *vals.rbegin();
    auto it = std::find(out.begin(), out.end(), past);
    if (it != out.end() && it != out.begin()) {
      out.erase(it);
      out.insert(out.begin(), past);
    }
  }
  return out;
}

std::vector<Sizes> tileCrossingSizes(const ir::Kernel &k, const spec::Spec &s, const spec::Binding &b,
                                     const ConcreteOptions &o) {
  auto blocksAt = [&](const Sizes &sz) -> double {
    interp::Env e;
    if (!launchAt(k, s, b, o, sz, e))
      return -1;
    return static_cast<double>(e.grid.x * e.grid.y * e.grid.z);
  };
  int64_t maxBlock = 1;
  {
    interp::Env env;
    for (const ir::ExprPtr &e : o.block) {
      Value v;
      if (e && interp::evalConstExpr(k, env, *e, v) && v.kind == Value::Kind::Int && v.i <= 1024)
        maxBlock = std::max<int64_t>(maxBlock, static_cast<int64_t>(v.i));
    }
  }
  // (from the smallest size all dims may share: at H = W = 1 a stencil's grid of (W + 29) / 32
  // blocks is empty, and W = 3 would be its first "growth")
  Sizes ones, past;
  int64_t start = smallestSharedSize(s);
  for (const spec::Dim &d : s.dims)
    ones[d.name] = start;
  double base = blocksAt(ones);
  if (base < 0)
    return {};
  std::set<std::string> crossing;
  for (const spec::Dim &d : s.dims) {
    // The first value at which the launch grows a block along d.
    for (int64_t v = start + 1; v <= 4096; ++v) {
      Sizes sz = ones;
      sz[d.name] = v;
      if (blocksAt(sz) > base) {
        past[d.name] = v;
        crossing.insert(d.name);
        break;
      }
    }
  }
  if (crossing.empty()) {
    // A fixed grid: the usual sizes go past its block already. For a problem of one dim, one
    // size more, past a whole sweep of the grid: a grid-stride loop whose stride is short of
    // the grid (blocks whose second sweep overlaps others' first) is wrong only past
    // gridDim * blockDim elements.
    interp::Env e;
    if (s.dims.empty() || !launchAt(k, s, b, o, ones, e))
      return {};
    int64_t threads = e.block.x * e.block.y * e.block.z * e.grid.x * e.grid.y * e.grid.z;
    if (threads < 2 || threads >= (int64_t(1) << 20))
      return {};
    // A problem of several dims: each dim in turn one past a sweep of the grid's warps (a warp
    // per row in a grid-stride loop over rows) and of its threads, the others at 3: a loop
    // over rows whose stride skips or repeats rows is wrong only there.
    if (s.dims.size() > 1) {
      std::vector<Sizes> out;
      for (const spec::Dim &d : s.dims)
        for (int64_t n : {threads / 32 + 1, threads + 1}) {
          if (n <= 3)
            continue;
          Sizes sz;
          double elems = 1;
          for (const spec::Dim &d2 : s.dims) {
            sz[d2.name] = d2.name == d.name ? n : std::max<int64_t>(3, start);
            elems *= static_cast<double>(sz[d2.name]);
          }
          if (elems <= (1 << 18) && std::find(out.begin(), out.end(), sz) == out.end())
            out.push_back(sz);
        }
      return out;
    }
    past[s.dims[0].name] = threads + 1;
    // And, for a kernel with vector accesses, past four sweeps at a multiple of 4: a float4
    // path taken where N % 4 == 0 reads four elements per thread per sweep.
    std::function<bool(const ir::Block &)> vectors = [&](const ir::Block &bl) {
      for (const ir::StmtPtr &st : bl)
        if ((st->kind == ir::StmtKind::Assert && st->assertKind == ir::AssertKind::Align) || vectors(st->pre) ||
            vectors(st->body) || vectors(st->elseBody) || vectors(st->step))
          return true;
      return false;
    };
    if (!vectors(k.body))
      return {past};
    Sizes past4 = past;
    past4[s.dims[0].name] = 4 * threads + 4;
    return {past, past4};
  }
  // The other dims one past the block, or small where that makes too much work.
  std::vector<Sizes> out;
  int64_t wide = std::max(std::min<int64_t>(maxBlock + 1, 17), start);
  for (int64_t other : {wide, int64_t{3}}) {
    double work = 1;
    for (const spec::Dim &d : s.dims) {
      if (!crossing.count(d.name))
        past[d.name] = std::max(other, start);
      work *= static_cast<double>(past[d.name]);
    }
    if (work <= (1 << 18)) {
      out.push_back(past);
      break;
    }
  }
  // Where that left the other dims small, those dims past a tile once more with the grid's
  // small (a matmul's K = 17 at M = N = 3: a slice loop `k0 += 16` that skips a slice's last
  // column is wrong only from K = 16 on).
  if (!out.empty() && out[0].size() > crossing.size()) {
    Sizes inner = ones;
    bool smaller = false;
    for (const spec::Dim &d : s.dims)
      if (!crossing.count(d.name)) {
        inner[d.name] = wide;
        smaller |= out[0][d.name] < wide;
      } else {
        inner[d.name] = std::max<int64_t>(3, start);
      }
    if (smaller)
      out.push_back(inner);
  }
  return out;
}

ConcreteReport testAgainstSpec(const ir::Kernel &k, const spec::Spec &s, const spec::Binding &b,
                               const ConcreteOptions &o) {
  ConcreteReport rep;
  if (!o.block[0] && !o.block[1] && !o.block[2]) {
    rep.unavailable = "no launch (a '// ksynth:launch' line or --block/--grid)";
    return rep;
  }
  std::vector<Sizes> sizes = o.inputs ? std::vector<Sizes>{o.inputs->dims} : o.sizes.empty() ? chooseSizes(k, s, b, o) : o.sizes;
  std::map<int, int> arrayOfTensor;
  for (const auto &[a, t] : b.tensorOfArray)
    arrayOfTensor[t] = a;
  // The budget is counted in interpreter steps (ConcreteOptions::budgetSteps), so a loaded
  // machine tests the same sizes (a twin buggy only past size 256 ended bounded under load);
  // the guard in CPU seconds is the calling thread's.
  auto cpuNow = [] {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
  };
  double start = cpuNow();
  int runs = 0;
  uint64_t stepsTotal = 0;
  // Each size with coarse random inputs; a cheap one (at most 1024 threads and elements of
  // work, and a coarse run of at most 1/64 of the step budget) right after with each other
  // fill. (Other values at a larger size find what they find at a small one: a max that misses
  // part of its range, a ramp's last element. Before the step limit was part of it, the fills
  // of 31 rows of a warp reduction took half of its tests.)
  std::vector<std::pair<size_t, Fill>> plan;
  std::vector<double> costs;
  for (size_t si = 0; si < sizes.size(); ++si) {
    costs.push_back(std::max(1.0, sizeCost(k, s, b, o, sizes[si])));
    plan.emplace_back(si, Fill::Coarse);
    if (!o.inputs && costs.back() <= 1024)
      for (int f = 1; f < kFills; ++f)
        plan.emplace_back(si, static_cast<Fill>(f));
  }
  std::map<size_t, uint64_t> coarseSteps; // size -> the steps of its coarse run
  // The most steps a coarse run took per unit of its size's cost: a size that would take the
  // tests past their step budget is left out (the sizes come cheapest first, so it is one of
  // the last; before, the run that crossed the budget often cost more than all before it).
  double stepsPerCost = 0;
  for (const auto &[si, fill] : plan) {
    const Sizes &sz = sizes[si];
    if (fill != Fill::Coarse && coarseSteps[si] > o.budgetSteps / 64)
      continue;
    double elapsed = cpuNow() - start;
    if ((runs >= o.maxRuns && fill == Fill::Coarse) || stepsTotal > o.budgetSteps || elapsed > o.budgetSeconds)
      break;
    if (fill == Fill::Coarse && runs > 0 &&
        static_cast<double>(stepsTotal) + stepsPerCost * costs[si] > static_cast<double>(o.budgetSteps))
      continue; // (as the sizes after the budget ran out: not listed as skipped)
    std::mt19937 rng(o.seed * 7919u + static_cast<unsigned>(si) + 1000003u * static_cast<unsigned>(fill));
    spec::Inputs in;
    in.dims = sz;
    // Scalars: random until the assumptions hold (a few tries).
    spec::EvalResult expected;
    std::string why;
    for (int attempt = 0; attempt < 8; ++attempt) {
      if (o.inputs) { // given, not drawn
        in = *o.inputs;
        in.dims = sz;
        expected = spec::evaluate(s, in);
        why = expected.error;
        break;
      }
      in.scalars.clear();
      in.tensors.clear();
      for (const spec::Scalar &x : s.scalars)
        in.scalars[x.name] =
            spec::isFloat(x.type) ? spec::representable(x.type, randomReal(rng)) : static_cast<double>(1 + rng() % 4);
      bool shaped = true;
      for (size_t t = 0; t < s.tensors.size() && shaped; ++t) {
        const spec::Tensor &T = s.tensors[t];
        auto shape = spec::shapeOf(s, static_cast<int>(t), in, why);
        if (!shape) {
          shaped = false;
          break;
        }
        if (T.mode == spec::Mode::Out)
          continue;
        spec::TensorValue tv;
        tv.shape = *shape;
        int64_t n = count(*shape);
        if (n > (1 << 20)) {
          shaped = false;
          why = "tensor '" + T.name + "' has " + std::to_string(n) + " elements";
          break;
        }
        for (int64_t i = 0; i < n; ++i)
          tv.data.push_back(spec::isFloat(T.type) ? spec::representable(T.type, fillValue(fill, rng, i))
                                                 : static_cast<double>(randomInt(rng, T.type)));
        in.tensors[T.name] = std::move(tv);
      }
      if (!shaped) {
        // (no inputs drawn: skipped with the reason, never run on tensors left empty)
        expected.error = why.empty() ? "the tensors' shapes could not be computed" : why;
        break;
      }
      expected = spec::evaluate(s, in);
      why = expected.error;
      if (expected.ok() || s.scalars.empty() || expected.error.find("assumption") == std::string::npos)
        break;
    }
    if (!expected.ok()) {
      rep.skipped.push_back(sizesText(sz) + ": " + why);
      continue;
    }

    // The kernel's environment.
    LaunchEnv le = launchEnv(k, s, b, in, o.block, o.grid);
    if (!le.ok) {
      rep.skipped.push_back(sizesText(sz) + ": " + le.why);
      continue;
    }
    interp::Env &env = le.env;
    std::map<int, std::vector<int64_t>> &shapes = le.shapes; // tensor -> shape
    interp::GridRun run = interp::runGrid(k, env);
    stepsTotal += run.steps;
    if (fill == Fill::Coarse) {
      coarseSteps[si] = run.steps;
      stepsPerCost = std::max(stepsPerCost, static_cast<double>(run.steps) / costs[si]);
    }
    if (getenv("KSYNTH_DEBUG_CONCRETE"))
      fprintf(stderr, "concrete run: %s fill %d, grid %s block %s, %.0f steps, %.3f s CPU so far\n", sizesText(sz).c_str(),
              static_cast<int>(fill), dim3Text(env.grid).c_str(), dim3Text(env.block).c_str(),
              static_cast<double>(run.steps), cpuNow() - start);
    runs += fill == Fill::Coarse; // maxRuns counts sizes; a cheap size's other fills are extra
    // Outputs that depend on memory the launch did not write: rerun with that memory holding
    // another value (only a value that changes is reported).
    // NaN too: a GPU's unwritten memory may hold it, and x + (g - g) is x for every finite g.
    interp::GridRun rerun, rerunNaN;
    bool tainted = false;
    for (const auto &[key, v] : run.memory)
      tainted |= !v.taint.empty();
    if (tainted && run.completed) {
      interp::Env env2 = env;
      env2.garbageSet = true;
      env2.garbage = kGarbage;
      rerun = interp::runGrid(k, env2);
      env2.garbage = std::numeric_limits<double>::quiet_NaN();
      rerunNaN = interp::runGrid(k, env2);
      stepsTotal += rerun.steps + rerunNaN.steps;
    }
    if (!run.completed) {
      std::string what = run.error;
      if (what == "assumption violated") {
        rep.skipped.push_back(sizesText(sz) + ": the kernel's own assumption does not hold");
        continue;
      }
      rep.skipped.push_back(sizesText(sz) + ": the run stopped (block " + dim3Text(run.errorThread.block) +
                            " thread " + dim3Text(run.errorThread.thread) + "): " + what);
      continue;
    }
    if (!run.faults.empty()) {
      const interp::Fault &f = run.faults.front();
      rep.skipped.push_back(sizesText(sz) + ": the run faulted (" + interp::eventKindName(f.event.kind) +
                            " by block " + dim3Text(f.thread.block) + " thread " + dim3Text(f.thread.thread) +
                            "), so its outputs were not compared");
      continue;
    }

    auto witnessBase = [&]() {
      nlohmann::json w;
      w["sizes"] = sz;
      w["launch"] = {{"grid", dim3Json(env.grid)}, {"block", dim3Json(env.block)}};
      nlohmann::json tensors = nlohmann::json::object();
      for (const auto &[name, tv] : in.tensors)
        tensors[name] = {{"shape", tv.shape}, {"data", tv.data}};
      w["inputs"] = tensors;
      if (!in.scalars.empty())
        w["scalars"] = in.scalars;
      w["replayed"] = "whole grid on the concrete interpreter; floats in double";
      return w;
    };
    auto writersJson = [&](const interp::CellWrites &cw) {
      nlohmann::json list = nlohmann::json::array();
      for (int64_t id : cw.threads) {
        ThreadName tn = threadOf(id, env.block, env.grid);
        list.push_back({{"block", dim3Json(tn.block)}, {"thread", dim3Json(tn.thread)}});
      }
      return list;
    };
    // `extra`: the element and what was found there; the base (sizes, inputs) is added here.
    auto fail = [&](Outcome oc, const std::string &tensor, const std::string &headline, const nlohmann::json &extra) {
      rep.outcome = oc;
      rep.tensor = tensor;
      rep.headline = headline + " (" + sizesText(sz) + ")";
      rep.witness = witnessBase();
      for (auto it = extra.begin(); it != extra.end(); ++it)
        rep.witness[it.key()] = it.value();
    };

    // A failure found where a made-up value (a havoc: the result of a function without a body,
    // ...) decided the control flow, or made the value compared, is no evidence: the size is
    // skipped, with the reason.
    bool invented = false;
    auto madeUp = [&](const std::string &elem, const std::string &origin) {
      rep.skipped.push_back(sizesText(sz) + ": " + elem + " depends on " + interp::inventedWhat(origin) +
                            ", whose value ksynth does not know, so it was not compared");
      invented = true;
      return false;
    };
    bool failed = [&]() -> bool {
      // Stores to inputs.
      for (const auto &[key, cw] : run.writers) {
        auto t = b.tensorOfArray.find(key.first);
        if (t == b.tensorOfArray.end() || s.tensors[t->second].mode != spec::Mode::In)
          continue;
        const spec::Tensor &T = s.tensors[t->second];
        nlohmann::json w;
        w["element"] = {{"tensor", T.name}, {"index", unflatten(key.second, shapes[t->second])}};
        w["writers"] = writersJson(cw);
        if (!run.inventedControl.empty())
          return madeUp("a store to " + T.name, run.inventedControl);
        fail(Outcome::Coverage, T.name,
             "the kernel stores to " + T.name + tupleText(unflatten(key.second, shapes[t->second])) +
                 ", an input of the spec",
             w);
        return true;
      }
      // Every output element: written once, with the spec's value.
      for (size_t t = 0; t < s.tensors.size(); ++t) {
        const spec::Tensor &T = s.tensors[t];
        if (T.mode == spec::Mode::In)
          continue;
        int a = arrayOfTensor.at(static_cast<int>(t));
        const spec::TensorValue &want = expected.outputs.at(T.name);
        int64_t n = count(want.shape);
        for (int64_t e = 0; e < n; ++e) {
          std::vector<int64_t> idx = unflatten(e, want.shape);
          std::string elem = T.name + tupleText(idx);
          auto wit = run.writers.find({a, e});
          nlohmann::json w;
          w["element"] = {{"tensor", T.name}, {"index", idx}};
          if (wit == run.writers.end() && T.mode == spec::Mode::Out) {
            if (!run.inventedControl.empty())
              return madeUp("whether " + elem + " is written", run.inventedControl);
            fail(Outcome::Coverage, T.name, elem + " is never written", w);
            return true;
          }
          if (wit != run.writers.end()) {
            if (wit->second.threads.size() > 1 && !wit->second.atomic) {
              if (!run.inventedControl.empty())
                return madeUp("which threads write " + elem, run.inventedControl);
              w["writers"] = writersJson(wit->second);
              ThreadName t1 = threadOf(wit->second.threads[0], env.block, env.grid);
              ThreadName t2 = threadOf(wit->second.threads[1], env.block, env.grid);
              fail(Outcome::Coverage, T.name,
                   elem + " is written by two threads: block " + dim3Text(t1.block) + " thread " + dim3Text(t1.thread) +
                       " and block " + dim3Text(t2.block) + " thread " + dim3Text(t2.thread),
                   w);
              return true;
            }
          }
          Value got;
          if (wit != run.writers.end())
            got = run.memory.at({a, e});
          else
            got = env.memory.at({a, e}); // inout, untouched
          double x = got.kind == Value::Kind::Float ? got.f : static_cast<double>(got.i);
          double y = want.data[static_cast<size_t>(e)];
          if (!std::isfinite(y))
            continue; // the spec itself is undefined here (log of a negative, ...)
          auto details = [&]() {
            w["expected"] = y;
            w["computed"] = std::isfinite(x) ? nlohmann::json(x)
                            : std::isnan(x)    ? nlohmann::json("NaN")
                                               : nlohmann::json(x > 0 ? "inf" : "-inf");
            // The spec's term for the element, with its index variables bound.
            for (const spec::Ensures &en : s.ensures)
              if (en.tensor == static_cast<int>(t)) {
                std::string at;
                for (size_t d = 0; d < en.index.size() && d < idx.size(); ++d)
                  at += (d ? ", " : "") + en.index[d] + " = " + std::to_string(idx[d]);
                w["expected_term"] = spec::print(s, *en.body, en.index) + (at.empty() ? "" : " at " + at);
              }
            if (wit != run.writers.end())
              w["writers"] = writersJson(wit->second);
            return w;
          };
          // (a kernel's infinity against the spec's finite value is wrong: the tolerance, relative
          // to the larger magnitude, would be infinite too)
          bool same = spec::isFloat(T.type) ? std::isfinite(x) && std::fabs(x - y) <= 1e-6 * std::max({1.0, std::fabs(x),
                                                                                                        std::fabs(y)})
                                            : x == y;
          double x2 = x;
          if (!got.taint.empty() && rerun.completed) {
            auto again = rerun.memory.find({a, e});
            if (again != rerun.memory.end())
              x2 = again->second.kind == Value::Kind::Float ? again->second.f : static_cast<double>(again->second.i);
          }
          // Another value when that memory changes (two NaNs are the same outcome).
          bool moved = x2 != x && !(std::isnan(x2) && std::isnan(x));
          double held = kGarbage;
          if (!moved && !got.taint.empty() && rerunNaN.completed && !std::isnan(x)) {
            auto again = rerunNaN.memory.find({a, e});
            if (again != rerunNaN.memory.end() && again->second.kind == Value::Kind::Float &&
                std::isnan(again->second.f)) {
              moved = true;
              x2 = again->second.f;
              held = again->second.f;
            }
          }
          if (same && !moved)
            continue;
          if (interp::isInvented(got.taint) || !run.inventedControl.empty())
            return madeUp(elem, interp::isInvented(got.taint) ? got.taint : run.inventedControl);
          w = details();
          if (moved) {
            w["depends_on"] = got.taint;
            w["computed_with_other_memory"] = {{"memory_holds", std::isnan(held) ? nlohmann::json("NaN") : nlohmann::json(held)},
                                               {"computed", std::isnan(x2) ? nlohmann::json("NaN") : nlohmann::json(x2)}};
            fail(Outcome::Equivalence, T.name,
                 elem + " depends on " + got.taint + ": it is " + numText(x) + " when that memory holds 0 and " +
                     numText(x2) + " when it holds " + numText(held) + "; the spec gives " + numText(y),
                 w);
            return true;
          }
          {
            std::string term = w.contains("expected_term") ? " = " + w["expected_term"].get<std::string>() : "";
            fail(Outcome::Equivalence, T.name, elem + " is " + numText(x) + " but the spec gives " + numText(y) + term,
                 w);
            return true;
          }
        }
      }
      return false;
    }();
    if (failed)
      return rep;
    if (invented)
      continue;
    if (std::find(rep.agreed.begin(), rep.agreed.end(), sz) == rep.agreed.end())
      rep.agreed.push_back(sz);
  }
  if (getenv("KSYNTH_DEBUG_CONCRETE"))
    fprintf(stderr, "concrete: %d runs, %.0f interpreter steps, %.3f s CPU\n", runs, static_cast<double>(stepsTotal),
            cpuNow() - start);
  if (rep.agreed.empty() && rep.skipped.empty())
    rep.unavailable = "no sizes to test";
  return rep;
}

} // namespace ksynth::equiv
