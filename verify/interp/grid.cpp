// Concrete interpreter: whole-grid execution (runGrid): one memory, threads switched at barriers.

#include "verify/interp/interp_internal.h"

#include "util/deadline.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <tuple>

// Simulated threads are coroutines on their own stacks. swapcontext() saves and restores the
// signal mask with a system call at every switch, which was more than half of a concrete
// test's time (a block of 256 threads switches at every barrier); on x86-64 a switch saves
// only what the ABI says a call preserves: rbx, rbp, r12-r15, the stack pointer, and the
// MXCSR and x87 control words. Other machines use ucontext.
#if defined(__x86_64__) && defined(__ELF__) && !defined(KSYNTH_UCONTEXT)
#define KSYNTH_FAST_SWITCH 1
extern "C" void ksynth_interp_switch(void **saveSp, void *loadSp);
extern "C" void ksynth_interp_trampoline();
asm(R"(
  .text
  .p2align 4
  .globl ksynth_interp_switch
  .hidden ksynth_interp_switch
  .type ksynth_interp_switch, @function
ksynth_interp_switch:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  subq $8, %rsp
  stmxcsr (%rsp)
  fnstcw 4(%rsp)
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  ldmxcsr (%rsp)
  fldcw 4(%rsp)
  addq $8, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .size ksynth_interp_switch, .-ksynth_interp_switch

  .p2align 4
  .globl ksynth_interp_trampoline
  .hidden ksynth_interp_trampoline
  .type ksynth_interp_trampoline, @function
ksynth_interp_trampoline:
  .cfi_startproc
  .cfi_undefined rip
  callq *%r13
  ud2
  .cfi_endproc
  .size ksynth_interp_trampoline, .-ksynth_interp_trampoline
)");
#else
#include <ucontext.h>
#endif

// Under AddressSanitizer every switch is announced (its fiber interface), so that it knows
// which stack is running (exceptions thrown on a simulated thread's stack, its fake stacks).
#if defined(__SANITIZE_ADDRESS__)
#define KSYNTH_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define KSYNTH_ASAN 1
#endif
#endif
#ifdef KSYNTH_ASAN
#include <sanitizer/common_interface_defs.h>
#endif

namespace ksynth::interp {

namespace detail {

// A suspended simulated thread (or the scheduler).
struct Context {
#ifdef KSYNTH_FAST_SWITCH
  void *sp = nullptr;
#else
  ucontext_t uc{};
#endif
  const void *bottom = nullptr; // the context's stack (AddressSanitizer's fiber interface)
  size_t size = 0;
};

// Saves the running context in `from` and resumes `to`; `leaving`: `from` never runs again.
inline void switchContext(Context &from, Context &to, bool leaving = false) {
#ifdef KSYNTH_ASAN
  void *fake = nullptr;
  __sanitizer_start_switch_fiber(leaving ? nullptr : &fake, to.bottom, to.size);
#else
  (void)leaving;
#endif
#ifdef KSYNTH_FAST_SWITCH
  ksynth_interp_switch(&from.sp, to.sp);
#else
  swapcontext(&from.uc, &to.uc);
#endif
#ifdef KSYNTH_ASAN
  __sanitizer_finish_switch_fiber(fake, nullptr, nullptr);
#endif
}

// Makes `c` start `entry` on [stack, stack + size) when first resumed. `entry` must never
// return: it ends by switching away for good.
[[gnu::noinline]] void prepareContext(Context &c, char *stack, size_t size, void (*entry)()) {
  c.bottom = stack;
  c.size = size;
#ifdef KSYNTH_FAST_SWITCH
  // The frame ksynth_interp_switch pops: the control words, r15, r14, r13 (entry), r12, rbx,
  // rbp, then the return address (the trampoline, which calls r13). The trampoline's call is
  // made with the stack pointer at the 16-aligned top, as the ABI wants.
  auto top = reinterpret_cast<uintptr_t>(stack + size) & ~uintptr_t{15};
  auto *f = reinterpret_cast<uint64_t *>(top - 64);
  uint32_t mxcsr = 0;
  uint16_t fpucw = 0;
  asm volatile("stmxcsr %0" : "=m"(mxcsr));
  asm volatile("fnstcw %0" : "=m"(fpucw));
  f[0] = static_cast<uint64_t>(mxcsr) | static_cast<uint64_t>(fpucw) << 32;
  f[1] = f[2] = 0;                                   // r15, r14
  f[3] = reinterpret_cast<uint64_t>(entry);          // r13
  f[4] = f[5] = f[6] = 0;                            // r12, rbx, rbp
  f[7] = reinterpret_cast<uint64_t>(&ksynth_interp_trampoline);
  c.sp = f;
#else
  // Kept out of runGrid: getcontext returns twice as far as the compiler knows.
  getcontext(&c.uc);
  c.uc.uc_stack.ss_sp = stack;
  c.uc.uc_stack.ss_size = size;
  c.uc.uc_link = nullptr;
  makecontext(&c.uc, entry, 0);
#endif
}

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
    Context ctx;
    char *stack = nullptr; // GridCtx::stacks[thread in block], reused by every block
    std::unique_ptr<Machine> m;
    State st = State::Run;
    uint32_t waitMask = 0xffffffffu; // WarpWait: the lanes the barrier waits for
    Flow flow;
    std::string stop; // non-empty: the thread stopped early
  };
  std::vector<Thread> threads; // the running block
  // A simulated thread's stack: mapped on first use, with an inaccessible page below it so
  // that running off its end faults at once instead of overwriting other memory.
  struct Stack {
    char *mem = nullptr; // the mapping, guard page first
    size_t bytes = 0;
    explicit Stack(size_t size) {
      size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
      bytes = size + page;
      void *p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (p == MAP_FAILED)
        throw std::bad_alloc();
      mem = static_cast<char *>(p);
      mprotect(mem, page, PROT_NONE);
    }
    Stack(const Stack &) = delete;
    Stack &operator=(const Stack &) = delete;
    ~Stack() {
      if (mem)
        munmap(mem, bytes);
    }
    char *base() const { return mem + (bytes - usable()); }
    size_t usable() const { return bytes - static_cast<size_t>(sysconf(_SC_PAGESIZE)); }
    void release() { mem = nullptr; } // left mapped: frames on it are abandoned, not unwound
  };
  std::vector<std::unique_ptr<Stack>> stacks;
  size_t current = 0;
  Context sched;

  explicit GridCtx(const Kernel &k) : k(k) {}
  ~GridCtx();
  std::unique_ptr<Stack> takeStack();
};

thread_local GridCtx *tGrid = nullptr;

void gridYield(GridCtx &g, ir::BarrierKind kind, uint32_t mask) {
  GridCtx::Thread &t = g.threads[g.current];
  t.st = kind == ir::BarrierKind::Warp ? GridCtx::State::WarpWait : GridCtx::State::BlockWait;
  t.waitMask = mask;
  switchContext(t.ctx, g.sched);
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

// Runs the current thread to its end; everything it owns on its stack is gone before it
// switches back to the scheduler for good.
void runCurrentThread(GridCtx &g) {
  GridCtx::Thread &t = g.threads[g.current];
  try {
    t.flow = t.m->execBlock(g.k.body);
    if (t.flow.exit && t.flow.label != 0)
      t.stop = "malformed KIR: exit to label " + std::to_string(t.flow.label) + " that encloses nothing";
  } catch (const Stop &s) {
    t.stop = s.reason.empty() ? "stopped" : s.reason;
  } // anything else is a ksynth bug: it ends the program (std::terminate) at this stack's base
  t.st = GridCtx::State::Done;
}

[[noreturn]] void gridThreadEntry() {
  GridCtx &g = *tGrid;
#ifdef KSYNTH_ASAN
  // The first switch here ends at this entry, not in switchContext: finish it, learning the
  // scheduler's stack.
  __sanitizer_finish_switch_fiber(nullptr, &g.sched.bottom, &g.sched.size);
#endif
  runCurrentThread(g);
  switchContext(g.threads[g.current].ctx, g.sched, true);
  __builtin_unreachable(); // a finished thread is never resumed
}

// Per simulated thread: room for expressions and statements nested as deep as the frontend
// admits (frontend::kMaxNesting); pages are touched only as they are used.
// AddressSanitizer's frames are several times larger: its builds get 16 times the room.
#ifdef KSYNTH_ASAN
constexpr size_t kStack = 32 * 1024 * 1024;
#else
constexpr size_t kStack = 2 * 1024 * 1024;
#endif

// Stacks outlive their grid run: the concrete tests run a kernel's grid many times (sizes,
// seeds, replays), and mapping 256 fresh stacks per run, then faulting their pages in again,
// cost more system time than the interpretation itself (vec_add: 4,000 mmap/mprotect/munmap
// triples per `verify`). A finished run's stacks wait here for the next run, in this process.
// (At most one block's worth: a block has at most 1024 threads.)
// (Never destroyed: a grid run on another thread may still end while the process exits.)
std::mutex &stackPoolMutex = *new std::mutex;
std::vector<std::unique_ptr<GridCtx::Stack>> &stackPool = *new std::vector<std::unique_ptr<GridCtx::Stack>>;
constexpr size_t kStackPoolMax = 1024;

std::unique_ptr<GridCtx::Stack> GridCtx::takeStack() {
  {
    std::lock_guard<std::mutex> lk(stackPoolMutex);
    if (!stackPool.empty()) {
      std::unique_ptr<Stack> st = std::move(stackPool.back());
      stackPool.pop_back();
      return st;
    }
  }
  return std::make_unique<Stack>(kStack);
}

GridCtx::~GridCtx() {
  std::lock_guard<std::mutex> lk(stackPoolMutex);
  for (std::unique_ptr<Stack> &st : stacks)
    if (st && st->mem && stackPool.size() < kStackPoolMax) // (a released stack keeps its frames)
      stackPool.push_back(std::move(st));
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
  const std::unordered_map<const Expr *, int> launchSlots = launchOnlyExprs(k, kLaunchOnlyMin);
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
        if (env.onlyBlock && (env.onlyBlock->x != bx || env.onlyBlock->y != by || env.onlyBlock->z != bz))
          continue;
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
              t.m->launchSlots = &launchSlots;
              t.m->gridSteps = &gridSteps;
              if (g.stacks.size() <= n)
                g.stacks.push_back(g.takeStack());
              t.stack = g.stacks[n]->base();
              prepareContext(t.ctx, t.stack, kStack, gridThreadEntry);
            }
        // SEMANTICS (grid run): threads of a block run one at a time, in thread order, each
        // until it finishes or waits at a barrier. A __syncwarp releases once every unfinished
        // thread of the warp waits at a barrier (with a partial mask: every unfinished thread
        // the mask names); a __syncthreads once every unfinished thread of the block waits at
        // one. Nothing left to release with threads still waiting is barrier divergence.
        while (true) {
          for (size_t i = 0; i < g.threads.size(); ++i) {
            if (g.threads[i].st != State::Run)
              continue;
            g.current = i;
            switchContext(g.sched, g.threads[i].ctx);
          }
          bool waiting = false;
          for (const GridCtx::Thread &t : g.threads)
            waiting |= t.st != State::Done;
          if (!waiting)
            break;
          bool released = false;
          for (size_t w = 0; w * 32 < g.threads.size(); ++w) {
            size_t end = std::min(g.threads.size(), w * 32 + 32);
            std::vector<size_t> go;
            for (size_t i = w * 32; i < end; ++i) {
              if (g.threads[i].st != State::WarpWait)
                continue;
              bool all = true;
              for (size_t j = w * 32; j < end; ++j)
                if (ir::laneInMask(g.threads[i].waitMask, static_cast<int64_t>(j - w * 32)))
                  all &= g.threads[j].st != State::Run;
              if (all)
                go.push_back(i);
            }
            for (size_t i : go)
              g.threads[i].st = State::Run;
            released |= !go.empty();
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
              st->release();
            break;
          }
        }
        // A warp-wide operation's value (assert.uniform), per warp, site and call: the first
        // lane's, which every other lane must hold too.
        std::map<std::tuple<int64_t, const ir::Stmt *, size_t>, int64_t> warpValue;
        for (GridCtx::Thread &t : g.threads) {
          if (!t.m)
            continue;
          run.steps += t.m->stepsTaken();
          if (run.inventedControl.empty())
            run.inventedControl = t.m->trace.inventedControl;
          std::map<const ir::Stmt *, size_t> calls;
          int64_t warp = (t.id.thread.x + env.block.x * (t.id.thread.y + env.block.y * t.id.thread.z)) / 32;
          for (Event &ev : t.m->trace.events) {
            if (ev.kind == EventKind::Uniform) {
              auto [it, fresh] = warpValue.emplace(std::make_tuple(warp, ev.stmt, calls[ev.stmt]++), ev.flat);
              if (fresh || it->second == ev.flat || run.faults.size() >= 16)
                continue;
            }
            if (run.faults.size() < 16 && !definedWrap(ev))
              run.faults.push_back({t.id, std::move(ev)});
          }
          if (!t.stop.empty())
            fail(t.id, t.stop);
        }
        if (run.steps > env.maxGridSteps)
          fail(ThreadId{}, "step limit of the grid run");
      }
  tGrid = saved;
  util::checkDeadline(); // a thread stopped at the time limit: the run is abandoned
  run.memory = std::move(g.global);
  for (auto &[key, l] : g.log)
    run.writers.emplace(key, CellWrites{std::move(l.threads), l.atomic});
  run.completed = run.error.empty();
  return run;
}

} // namespace ksynth::interp
