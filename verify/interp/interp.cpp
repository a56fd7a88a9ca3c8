// Concrete interpreter of KIR (see interp.h). The semantics here is the reference the
// symbolic checker mirrors; every choice a C/CUDA program leaves open is fixed in its sources
// (thread*.cpp, values.cpp, grid.cpp) and marked "SEMANTICS:" so the two sides can be
// compared line by line.
//
// SEMANTICS summary:
//  - Integers are computed exactly in __int128. An Int-typed Add/Sub/Mul/Neg/Shl/Div/Rem
//    whose exact result is outside its type records Overflow (exact = that result, saturated
//    to the __int128 range if it does not fit) and continues with the two's-complement wrap.
//    This applies to unsigned types too (u32 `0 - 1` is an Overflow). Signed arithmetic
//    overflow is undefined behaviour: the thread stops after its Overflow event (stopReason
//    "signed integer overflow (undefined behaviour)"); unsigned wrap and conversions go on.
//  - Rem is exact: INT_MIN % -1 == 0 is in range, so no event (INT_MIN / -1 is an Overflow).
//  - Shl/Shr: a shift amount < 0 or >= the result's bit width records Overflow with
//    exact = the amount, and the result is 0. Shr is arithmetic (floor) for signed types.
//  - Bitwise ops and Min/Max never overflow.
//  - `&&`, `||` and Select evaluate lazily as in C: an unevaluated operand records no events.
//  - Cast int->int that changes the value: Overflow (exact = source value), wrapped.
//    float->int truncates; NaN or out of range: Overflow (exact = truncated value, NaN: 0)
//    and the result saturates to the target range (NaN: 0), as CUDA's cvt.rzi does.
//    int/float->bool is `!= 0`. f32 results are rounded to float.
//  - Float ops run in double; an f32-typed result is rounded to float. No float events.
//  - Atomics wrap silently (they are memory operations, not index arithmetic).
//    CAS: `value` is the new value, `value2` the compare value (kir.h); Inc/Dec are CUDA's
//    atomicInc/atomicDec.
//  - An AssertFail event does not stop the thread.
//  - Malformed KIR (wrong number of indices, a non-pointer base, an exit to a label that
//    encloses nothing) stops the thread with stopReason "malformed KIR: ...".
//  - `__len(p)` in the kernel body without Env::lens[p] stops the thread with
//    stopReason "unknown length: __len(p)".
//
// Taint (replay only; the symbolic side has no counterpart): beyond the data and control
// flow of the brief, values that *would* have been written on a path not taken are tainted
// too, so an untainted event really does not depend on memory:
//  - after an If with a tainted condition, every variable assigned in either branch, every
//    array stored to in either branch, and (if either branch has a barrier) the barrier count
//    are tainted; likewise after a Loop whose condition was tainted in some iteration;
//  - an If with a tainted condition whose branches contain an Exit taints control for the
//    rest of the exited scope (reachability), and that scope's effects when it ends;
//  - a store through a tainted address taints the whole array.
//  Access and Barrier events also carry the barrier-count taint (their barrier interval then
//  depends on memory).
#include "verify/interp/interp_internal.h"

namespace ksynth::interp {

namespace {
constexpr const char *kInvented = "a value ksynth does not know: ";
}

std::string inventedOrigin(const std::string &what) { return kInvented + what; }

const char *eventKindName(EventKind k) {
  switch (k) {
  case EventKind::Access: return "access";
  case EventKind::Barrier: return "barrier";
  case EventKind::Overflow: return "integer overflow";
  case EventKind::DivByZero: return "division by zero";
  case EventKind::OutOfBounds: return "out-of-bounds access";
  case EventKind::AssertFail: return "assertion failure";
  case EventKind::Uniform: return "a warp-wide operation's argument that differs between lanes of the warp";
  }
  return "event";
}

bool isInvented(const std::string &taint) { return taint.rfind(kInvented, 0) == 0; }

std::string inventedWhat(const std::string &taint) {
  return isInvented(taint) ? taint.substr(std::string(kInvented).size()) : taint;
}

using namespace detail;

Trace runThread(const Kernel &k, const Env &env, const ThreadId &tid) {
  WideFloats wide(env.wideFloats);
  Machine m(k, env, &tid);
  try {
    Flow f = m.execBlock(k.body);
    // An exit to label 0 that reaches the top is the kernel's `return`.
    if (f.exit && f.label != 0) {
      m.trace.stopReason =
          "malformed KIR: exit to label " + std::to_string(f.label) + " that encloses nothing";
    } else {
      m.trace.completed = true;
    }
  } catch (const Stop &s) {
    if (s.reason == kTimeLimitStop)
      throw util::TimeLimit();
    m.trace.completed = false;
    m.trace.stopReason = s.reason;
  }
  for (const auto &[key, v] : m.writes())
    if (k.arrays[key.first].space != ir::Space::Local)
      m.trace.writes.emplace(key, v);
  return std::move(m.trace);
}

bool evalConstExpr(const Kernel &k, const Env &env, const ir::Expr &e, Value &out) {
  Machine m(k, env, nullptr);
  try {
    out = m.eval(e);
    return true;
  } catch (const CannotEval &) {
    return false;
  } catch (const Stop &) {
    return false;
  }
}

} // namespace ksynth::interp
