// Concrete interpreter of KIR: runs one thread of a kernel with concrete ids, launch,
// parameters and initial memory, and records what it did (accesses, barriers, arithmetic
// errors) as a trace. It replays counterexamples before they are shown: a witness is only
// reported when the threads it names really do what it claims here.
//
// Memory model for replay: each thread runs alone against its own copy of memory. A cell the
// thread has not written itself reads its initial value (from Env::memory, else 0) and the
// value is *tainted* with its origin ("x[5]"); taint flows through arithmetic and through
// control (everything executed under a tainted branch is tainted). An event whose address or
// reachability is tainted depends on a value loaded from memory.
#pragma once

#include "verify/ir/kir.h"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace ksynth::interp {

// A taint origin that is a value ksynth made up, not one the kernel read: a Havoc (the result of
// a function declared without a body, a texture fetch, an uninitialised variable). Joining
// taints keeps such an origin over a memory one, so a result that depends on a made-up value
// says so: it is never evidence about the kernel.
std::string inventedOrigin(const std::string &what);
bool isInvented(const std::string &taint);
std::string inventedWhat(const std::string &taint); // what inventedOrigin was given

struct Dim3 {
  int64_t x = 1, y = 1, z = 1;
  int64_t operator[](int i) const { return i == 0 ? x : i == 1 ? y : z; }
  int64_t &operator[](int i) { return i == 0 ? x : i == 1 ? y : z; }
};

struct Value {
  enum class Kind : uint8_t { Int, Float, Ptr } kind = Kind::Int;
  __int128 i = 0;    // Int (also Bool: 0/1)
  double f = 0;      // Float
  int array = -1;    // Ptr: array id
  int64_t offset = 0; // Ptr: element offset
  std::string taint; // empty: not derived from memory; else the first origin, e.g. "x[5]"
  int sym = -1;      // with Env::symbolic: the value as a term of Symbolic (-1: the constant held)

  static Value ofInt(__int128 v) {
    Value x;
    x.i = v;
    return x;
  }
  static Value ofFloat(double v) {
    Value x;
    x.kind = Kind::Float;
    x.f = v;
    return x;
  }
};

// Symbolic values for bounded equivalence (equiv/bounded.h). With Env::symbolic set, runGrid
// also computes every float value (and every integer derived from memory) as a term over the
// launch's inputs, built through this interface; Value::sym holds the term's id. The concrete
// values still decide control flow: a branch, loop test or address that depends on a
// symbolic value makes the run a single path, and the first such place is recorded in
// `dependence`. An `if` on a symbolic condition whose arms only assign variables is not
// such a place: both arms run and the variables they assign are merged with "ite".
class Symbolic {
public:
  virtual ~Symbolic() = default;
  // The content of a global or shared cell the launch had not written when it was read:
  // an input (`stale` false), or stale/uninitialised memory (`stale` true; `owner` is the
  // reading block's linear id for shared memory, -2 - the thread's linear id in the grid for
  // local arrays, else -1).
  virtual int cell(const ir::Array &a, int64_t flat, bool stale, int64_t owner) = 0;
  // A float scalar parameter.
  virtual int param(const ir::Var &v) = 0;
  // Some value nothing determines (an uninitialised variable, a havoc): a new unknown each call.
  virtual int unknown(const std::string &what) = 0;
  // A constant; `literal`: a float literal of the kernel source.
  virtual int constant(const Value &v, bool literal) = 0;
  // An operation: + - * / neg min max == != < <= > >= not and or bool ite toreal toint, and math
  // functions by their plain names (exp, sqrt, ...). -1: not expressible.
  virtual int op(const std::string &name, const std::vector<int> &args) = 0;
  virtual bool isConstant(int id) const = 0;
  std::string dependence; // non-empty: "line L: what" of the first data-dependent decision
  // Cells updated by atomics in this run, and by which operation (two different ones make
  // the result depend on their order).
  std::map<std::pair<int, int64_t>, int> atomicOps;
};

struct Event;

struct Env {
  Dim3 block, grid;
  std::map<int, Value> params;                     // scalar parameter var id -> value
  std::map<int, int64_t> lens;                     // pointer parameter array id -> __len
  std::map<std::pair<int, int64_t>, Value> memory; // (array id, flat index) -> initial value
  int64_t maxSteps = 5'000'000;                    // statements executed before giving up
  // runThread: whether Access events (each with the thread's variables) are recorded; off for
  // a replay that looks for a fault only (millions of loads then cost seconds of allocation).
  bool recordAccesses = true;
  // runThread: when set, only the accesses these statements make are recorded (a race replay
  // matches two statements' accesses: a grid-stride loop of 65536 steps recording every other
  // load, each with a copy of the thread's variables, took 48 s).
  const std::set<const ir::Stmt *> *recordOnly = nullptr;
  // runThread: the run stops right after recording an event this accepts (stopReason "stopped
  // at the event sought"); unset: it runs to the end.
  std::function<bool(const Event &)> stopAt;
  // The initial memory is a real state that no other thread changes while this one runs
  // (the thread runs alone, before or after another thread that has finished): values read
  // from it are facts, not tainted. Used to replay two threads one after the other.
  bool exactMemory = false;
  // Float arithmetic in double without rounding f32 results (closer to the spec's reals;
  // used when comparing with a spec).
  bool wideFloats = false;
  // runGrid: arrays whose cells hold stale values from before the launch (outputs): a read
  // of a cell the launch has not written yet is tainted.
  std::set<int> poisoned;
  // runGrid: what unwritten shared and poisoned cells hold (else Env::memory, else zero);
  // rerunning with another value shows whether an output really depends on them.
  bool garbageSet = false;
  double garbage = 0;
  int64_t maxGridSteps = 200'000'000; // runGrid: statements over all threads
  Symbolic *symbolic = nullptr;        // runGrid: symbolic values too (see Symbolic)
  // runThread: the lane (0..31) of the other thread of a pair whose accesses are compared: a
  // warp barrier with a partial mask that does not name it does not order the two threads, so
  // it is not counted in Event::warpBarriers. -1: every barrier is counted.
  int peerLane = -1;
  // runGrid: only this block runs (a legal schedule's start: blocks may run in any order, and
  // the first sees the launch's initial memory); unset: every block, in order.
  std::optional<Dim3> onlyBlock;
};

enum class EventKind : uint8_t {
  Access,      // a Load, Store or Atomic that happened (in bounds or not)
  Barrier,     // __syncthreads or __syncwarp executed
  Overflow,    // integer result outside its type, or a value-changing integer conversion
  DivByZero,   // integer division or remainder by zero (thread stops)
  OutOfBounds, // an access outside its array (also recorded as Access; not performed)
  AssertFail,  // __assert(cond) with cond false
  Uniform,     // an assert.uniform reached: `flat` holds the lane's value
};

// What an event is, for reports of a faulted run ("integer overflow", ...).
const char *eventKindName(EventKind k);

struct Event {
  EventKind kind = EventKind::Access;
  const ir::Stmt *stmt = nullptr; // the statement (Access, Barrier, OutOfBounds, Assert)
  const ir::Expr *expr = nullptr; // the operation (Overflow, DivByZero)
  int array = -1;
  int64_t flat = 0;               // flat element index
  std::vector<int64_t> indices;   // per-dimension index as written
  bool isWrite = false, isAtomic = false;
  ir::BarrierKind barrier = ir::BarrierKind::Block;
  uint64_t blockBarriers = 0;     // __syncthreads executed before this event
  uint64_t warpBarriers = 0;      // __syncwarp + __syncthreads executed before this event (see Env::peerLane)
  uint32_t mask = 0xffffffffu;    // Barrier: a warp barrier's mask (full unless `masked`)
  bool masked = false;            // Barrier: a warp barrier with a partial or computed mask
  uint64_t gridBarriers = 0;      // grid-wide barriers executed before this event
  std::vector<std::pair<int, int64_t>> iterations; // (loop label, iteration from 0), outermost first
  std::map<int, Value> vars;      // scalar variables' values at this event (Access/Overflow)
  __int128 exact = 0;             // Overflow: the mathematically exact result
  std::string taint;              // non-empty: depends on a value loaded from memory
};

struct Trace {
  std::vector<Event> events;
  bool completed = false;   // ran to the end of the kernel
  std::string stopReason;   // why not: "assumption violated", "step limit", "division by zero",
                            // "unsupported: ...", ...
  // The shared and global cells this thread wrote, with their final values (not local ones).
  std::map<std::pair<int, int64_t>, Value> writes;
  // The first made-up value (inventedOrigin) that decided a branch, a loop test or an address.
  std::string inventedControl;
};

struct ThreadId {
  Dim3 block, thread;
};

Trace runThread(const ir::Kernel &k, const Env &env, const ThreadId &tid);

// Whole-grid execution: every thread of the launch runs against one memory, block after block
// (blocks never overlap: grid-wide barriers are refused). Within a block threads run one at a
// time and switch only at barriers, so for a kernel free of races and barrier divergence the
// result is the kernel's result. Loads read what the launch stored, else Env::memory, else
// zero; reads of shared memory not yet written in the block and of Env::poisoned cells not
// yet written are tainted with that origin, and the taint flows into what depends on them.
// Only fault events (OutOfBounds, Overflow, DivByZero, AssertFail) are recorded.
struct CellWrites {
  std::vector<int64_t> threads; // linear ids of the threads that stored, in order of first store
  bool atomic = false;          // some store was an atomic read-modify-write
};
struct Fault {
  ThreadId thread;
  Event event;
};
struct GridRun {
  bool completed = false;
  std::string error; // why not: a thread stopped (its reason), barrier divergence, limits
  ThreadId errorThread;
  std::vector<Fault> faults; // the first few
  std::map<std::pair<int, int64_t>, Value> memory; // global cells stored by the launch: final values
  std::map<std::pair<int, int64_t>, CellWrites> writers;
  int64_t steps = 0;
  // The first made-up value that decided control flow or an address in some thread
  // (Trace::inventedControl): which cells were written then says nothing about the kernel.
  std::string inventedControl;
};
// Linear thread id in GridRun::writers: (block linear id) * threads per block + (thread
// linear id), both x fastest.
GridRun runGrid(const ir::Kernel &k, const Env &env);

// Evaluates a side-effect-free expression (launch lines, assumptions) with the given
// parameters; builtins other than blockDim/gridDim are 0. Returns false if it cannot.
bool evalConstExpr(const ir::Kernel &k, const Env &env, const ir::Expr &e, Value &out);

} // namespace ksynth::interp
