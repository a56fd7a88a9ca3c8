// Concrete interpreter: whole-grid execution (runGrid): one memory, threads switched at barriers.

#include "verify/interp/interp_internal.h"

#include <ucontext.h>

#include <algorithm>
#include <memory>

namespace ksynth::interp {

namespace detail {

struct CellLog {
  std::vector<int64_t> threads; // distinct storing threads, in order of first store
  bool atomic = false;
};

struct GridCtx {
  using Key = std::pair<int, int64_t>;
  const Kernel &k;
  std::map<Key, Value> global; // cells of global memory written by the launch
  std::map<Key, Value> shared; // the running block's shared memory (cells written)
  std::map<Key, CellLog> log;
  int64_t blockNo = 0; // linear id of the running block

  enum class State : uint8_t { Run, WarpWait, BlockWait, Done };
  struct Thread {
    ThreadId id;
    int64_t linear = 0;
    int warp = 0;
    ucontext_t ctx{};
    char *stack = nullptr; // GridCtx::stacks[thread in block], reused by every block
    std::unique_ptr<Machine> m;
    State st = State::Run;
    Flow flow;
    std::string stop; // non-empty: the thread stopped early
  };
  std::vector<Thread> threads; // the running block
  std::vector<std::unique_ptr<char[]>> stacks;
  size_t current = 0;
  ucontext_t sched{};

  explicit GridCtx(const Kernel &k) : k(k) {}
};

thread_local GridCtx *tGrid = nullptr;

void gridYield(GridCtx &g, ir::BarrierKind kind) {
  GridCtx::Thread &t = g.threads[g.current];
  t.st = kind == ir::BarrierKind::Warp ? GridCtx::State::WarpWait : GridCtx::State::BlockWait;
  swapcontext(&t.ctx, &g.sched);
}

bool gridRead(GridCtx &g, const ir::Array &arr, const std::pair<int, int64_t> &key, const Env &env,
              Value &out) {
  const std::map<GridCtx::Key, Value> &cells = arr.space == ir::Space::Shared ? g.shared : g.global;
  auto it = cells.find(key);
  if (it != cells.end()) {
    out = it->second;
    return true;
  }
  auto init = env.memory.find(key);
  out = init != env.memory.end() ? fit(init->second, arr.elem) : zeroOf(arr.elem);
  bool stale = arr.space == ir::Space::Shared || env.poisoned.count(key.first);
  if (stale && env.garbageSet) {
    Value gv;
    gv.kind = Value::Kind::Float;
    gv.f = env.garbage;
    out = fit(gv, arr.elem);
  }
  // SEMANTICS (grid run): shared memory starts undefined in every block, and arrays the caller
  // marks poisoned (outputs) hold stale values from before the launch.
  if (arr.space == ir::Space::Shared)
    out.taint = "uninitialised shared memory " + arr.name + "[" + std::to_string(key.second) + "]";
  else if (env.poisoned.count(key.first))
    out.taint = "stale " + arr.name + "[" + std::to_string(key.second) + "] (read before this launch wrote it)";
  if (env.symbolic)
    out.sym = env.symbolic->cell(arr, key.second, stale, arr.space == ir::Space::Shared ? g.blockNo : -1);
  return false;
}

void gridWrite(GridCtx &g, const std::pair<int, int64_t> &key, Value v, bool atomic) {
  const ir::Array &arr = g.k.arrays[key.first];
  if (arr.space == ir::Space::Shared) {
    g.shared[key] = std::move(v);
    return;
  }
  g.global[key] = std::move(v);
  CellLog &l = g.log[key];
  int64_t me = g.threads[g.current].linear;
  if (std::find(l.threads.begin(), l.threads.end(), me) == l.threads.end())
    l.threads.push_back(me);
  l.atomic |= atomic;
}

void gridThreadEntry() {
  GridCtx &g = *tGrid;
  GridCtx::Thread &t = g.threads[g.current];
  try {
    t.flow = t.m->execBlock(g.k.body);
    if (t.flow.exit && t.flow.label != 0)
      t.stop = "malformed KIR: exit to label " + std::to_string(t.flow.label) + " that encloses nothing";
  } catch (const Stop &s) {
    t.stop = s.reason.empty() ? "stopped" : s.reason;
  }
  t.st = GridCtx::State::Done;
  // returning resumes uc_link (the scheduler)
}

// Kept out of runGrid: getcontext returns twice as far as the compiler knows.
constexpr size_t kStack = 256 * 1024; // per simulated thread

[[gnu::noinline]] void prepareContext(GridCtx &g, GridCtx::Thread &t) {
  getcontext(&t.ctx);
  t.ctx.uc_stack.ss_sp = t.stack;
  t.ctx.uc_stack.ss_size = kStack;
  t.ctx.uc_link = &g.sched;
  makecontext(&t.ctx, gridThreadEntry, 0);
}

} // namespace detail

using namespace detail;

// An Overflow event the language defines (unsigned arithmetic wraps modulo 2^n, conversions
// between integer types keep the value modulo 2^n): not a fault of a grid run. Signed
// arithmetic overflow and out-of-range shift amounts are undefined behaviour and stay faults;
// the overflow obligation (checker.h) treats them the same way.
bool definedWrap(const Event &ev) {
  if (ev.kind != EventKind::Overflow || !ev.expr)
    return false;
  const ir::Expr &e = *ev.expr;
  if (e.op == Op::Cast) // int -> int; float -> int out of range is undefined
    return e.type.isInt() && !e.args.empty() && (e.args[0]->type.isInt() || e.args[0]->type.isBool());
  bool shift = e.op == Op::Shl || e.op == Op::Shr;
  return !shift && e.type.isInt() && !e.type.isSigned;
}

GridRun runGrid(const Kernel &k, const Env &env) {
  WideFloats wide(env.wideFloats);
  GridRun run;
  int64_t perBlock = env.block.x * env.block.y * env.block.z;
  int64_t blocks = env.grid.x * env.grid.y * env.grid.z;
  if (perBlock <= 0 || blocks <= 0) {
    run.error = "empty launch";
    return run;
  }
  if (perBlock > 1024) {
    run.error = "more than 1024 threads per block";
    return run;
  }
  GridCtx g(k);
  GridCtx *saved = tGrid;
  tGrid = &g;
  using State = GridCtx::State;
  auto fail = [&](const ThreadId &t, const std::string &why) {
    if (run.error.empty()) {
      run.error = why;
      run.errorThread = t;
    }
  };
  int64_t blockNo = 0;
  int64_t gridSteps = 0; // counted as they happen, so a thread that spins stops the run
  for (int64_t bz = 0; bz < env.grid.z && run.error.empty(); ++bz)
    for (int64_t by = 0; by < env.grid.y && run.error.empty(); ++by)
      for (int64_t bx = 0; bx < env.grid.x && run.error.empty(); ++bx, ++blockNo) {
        g.shared.clear();
        g.blockNo = blockNo;
        g.threads.clear();
        g.threads.resize(static_cast<size_t>(perBlock));
        size_t n = 0;
        for (int64_t tz = 0; tz < env.block.z; ++tz)
          for (int64_t ty = 0; ty < env.block.y; ++ty)
            for (int64_t tx = 0; tx < env.block.x; ++tx, ++n) {
              GridCtx::Thread &t = g.threads[n];
              t.id.block = {bx, by, bz};
              t.id.thread = {tx, ty, tz};
              t.linear = blockNo * perBlock + static_cast<int64_t>(n);
              t.warp = static_cast<int>(n / 32);
              t.m = std::make_unique<Machine>(k, env, &t.id);
              t.m->grid = &g;
              t.m->gridSteps = &gridSteps;
              if (g.stacks.size() <= n)
                g.stacks.emplace_back(new char[kStack]); // not zeroed: pages are touched on use
              t.stack = g.stacks[n].get();
              prepareContext(g, t);
            }
        // SEMANTICS (grid run): threads of a block run one at a time, in thread order, each
        // until it finishes or waits at a barrier. A __syncwarp releases once every unfinished
        // thread of the warp waits at a barrier; a __syncthreads once every unfinished thread
        // of the block waits at one. Nothing left to release with threads still waiting is
        // barrier divergence.
        while (true) {
          for (size_t i = 0; i < g.threads.size(); ++i) {
            if (g.threads[i].st != State::Run)
              continue;
            g.current = i;
            swapcontext(&g.sched, &g.threads[i].ctx);
          }
          bool waiting = false;
          for (const GridCtx::Thread &t : g.threads)
            waiting |= t.st != State::Done;
          if (!waiting)
            break;
          bool released = false;
          for (size_t w = 0; w * 32 < g.threads.size(); ++w) {
            bool all = true, any = false;
            for (size_t i = w * 32; i < std::min(g.threads.size(), w * 32 + 32); ++i) {
              all &= g.threads[i].st != State::Run;
              any |= g.threads[i].st == State::WarpWait;
            }
            if (all && any) {
              for (size_t i = w * 32; i < std::min(g.threads.size(), w * 32 + 32); ++i)
                if (g.threads[i].st == State::WarpWait)
                  g.threads[i].st = State::Run;
              released = true;
            }
          }
          if (!released) {
            bool all = true;
            for (const GridCtx::Thread &t : g.threads)
              all &= t.st == State::Done || t.st == State::BlockWait;
            if (all) {
              for (GridCtx::Thread &t : g.threads)
                if (t.st == State::BlockWait)
                  t.st = State::Run;
              released = true;
            }
          }
          if (!released) {
            // The waiting threads are abandoned on their stacks, which are never reused (a
            // small leak on this path: what their frames own).
            for (GridCtx::Thread &t : g.threads)
              if (t.st != State::Done) {
                fail(t.id, "barrier divergence: threads of a block wait at different barriers");
                break;
              }
            for (GridCtx::Thread &t : g.threads)
              if (t.st != State::Done)
                t.m.release();
            for (auto &st : g.stacks)
              st.release();
            break;
          }
        }
        for (GridCtx::Thread &t : g.threads) {
          if (!t.m)
            continue;
          run.steps += t.m->stepsTaken();
          if (run.inventedControl.empty())
            run.inventedControl = t.m->trace.inventedControl;
          for (Event &ev : t.m->trace.events)
            if (run.faults.size() < 16 && !definedWrap(ev))
              run.faults.push_back({t.id, std::move(ev)});
          if (!t.stop.empty())
            fail(t.id, t.stop);
        }
        if (run.steps > env.maxGridSteps)
          fail(ThreadId{}, "step limit of the grid run");
      }
  tGrid = saved;
  run.memory = std::move(g.global);
  for (auto &[key, l] : g.log)
    run.writers.emplace(key, CellWrites{std::move(l.threads), l.atomic});
  run.completed = run.error.empty();
  return run;
}

} // namespace ksynth::interp
