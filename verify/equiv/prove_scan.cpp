// Equivalence proofs: in-block inclusive scans over shared memory.
#include "verify/equiv/prover.h"

#include <cstdio>
#include <cstdlib>

namespace ksynth::equiv::prove_detail {

// ---- in-block scans -----------------------------------------------------------------------
//
// A store site S in a loop of T rounds (not inside another loop) is a Hillis-Steele inclusive
// scan over B cells (a 1-D block of constant size B <= 2^T) of shared array A when, for every
// round r < T and every thread k < B, with h = 2^r:
//   (1) thread k stores in round r, in interval bc0 + r, the value a + b if k >= h and a
//       otherwise (`v = A[R + k]; if (k >= h) v += A[R + k - h]; A[W + k] = v`), where a
//       and b read A[R_r + k] and A[R_r + k - h] at the start of the interval, and the store
//       is to A[W_r + k], with R_r and W_r constants;
//   (2) round r + 1 reads the half round r wrote (R_{r+1} = W_r);
//   (3) no other statement stores to A in the intervals [bc0, bc0 + T).
// By induction on r, after round r cell W_r + k holds the sum of A[R_0 + m] (as at the start
// of bc0) over max(0, k - 2h + 1) <= m <= k: the two windows of length h meet. After T
// rounds, 2^T >= B > k, so W_{T-1} + k holds the sum over 0 <= m <= k (over the reals).
// (The reads and stores of one round touch different halves: the safety proofs, which come
// first, rule out a race between them.)

const Prover::Scan *Prover::scanOf(const check::AccessSite &S) {
  auto [it, fresh] = scans_.try_emplace(S.stmt);
  if (!fresh)
    return it->second ? &*it->second : nullptr;
  if (S.iters.size() != 1 || !S.value || !sharedOk_.count(S.array) || !k_.arrays[S.array].elem.isFloat() ||
      S.value->kind != smt::Kind::Ite)
    return nullptr;
  auto tr = m3_.trips.find(S.iters[0]);
  int128 T = 0, B = 0;
  if (tr == m3_.trips.end() || !tc_.isConst(tr->second, &T) || T < 1 || T > 12 || !oneDim(g_.blockDim, &B) ||
      (static_cast<int128>(1) << T) < B)
    return nullptr;
  // ite(c, a + b, a)
  Term c = S.value->kids[0], sum = S.value->kids[1], a = S.value->kids[2];
  std::string shm = check::shmName(k_, S.array);
  auto isRead = [&](Term x) { return x->kind == smt::Kind::App && x->name == shm && x->kids[0] == S.bc; };
  if (sum->kind != smt::Kind::Add || sum->kids.size() != 2 || !isRead(a))
    return nullptr;
  Term b = sum->kids[0] == a ? sum->kids[1] : sum->kids[1] == a ? sum->kids[0] : nullptr;
  if (!b || !isRead(b))
    return nullptr;
  Term k = tc_.fresh("scan.k", Sort::Int);
  Term zero = tc_.intConst(0);
  Term kIn = tc_.mkAnd(tc_.le(zero, k), tc_.lt(k, tc_.intConst(B)));
  Term bc0 = tc_.substitute(S.bc, roundOf(S, zero, zero, w3_.bid));
  Scan scan{static_cast<int>(T), B, nullptr, nullptr};
  Term prevW = nullptr;
  Step st(*this, "the store at line " + std::to_string(S.stmt->loc.line) + " is an inclusive scan over shared '" +
                     k_.arrays[S.array].name + "': in each round every thread k stores A[R + k] + (k >= 2^r ? A[R + k - 2^r] : 0)",
          lineOf(S));
  for (int128 r = 0; r < T; ++r) {
    Term h = tc_.intConst(static_cast<int128>(1) << r);
    auto w = roundOf(S, k, tc_.intConst(r), w3_.bid);
    Term wBase = tc_.sub(tc_.substitute(S.flat, w), k);
    Term rBase = tc_.sub(tc_.substitute(a->kids[1], w), k);
    Term rBaseB = tc_.sub(tc_.substitute(b->kids[1], w), tc_.sub(k, h));
    if (!tc_.isConst(wBase) || !tc_.isConst(rBase) || rBaseB != rBase ||
        tc_.sub(tc_.substitute(S.bc, w), bc0) != tc_.intConst(r) || (prevW && rBase != prevW))
      return nullptr;
    Term pcK = tc_.substitute(S.pc, w), cK = tc_.substitute(c, w);
    if (!unsat(tc_.mkAnd(kIn, tc_.mkOr(tc_.mkNot(pcK), tc_.mkNot(tc_.eq(cK, tc_.le(h, k))))))) {
      if (getenv("KSYNTH_DEBUG_EQ"))
        fprintf(stderr, "scan at line %u fails in round %d\n", S.stmt->loc.line, static_cast<int>(r));
      return nullptr;
    }
    if (r == 0)
      scan.firstBase = rBase;
    prevW = wBase;
  }
  scan.lastBase = prevW;
  if (!aloneDuring(S, bc0, T, "the scan"))
    return nullptr;
  it->second = scan;
  return &*it->second;
}

// The scan's value in cell lastBase + k for the reader's block: lsum.scan.N(k + 1), the sum
// over m <= k of the content of A[firstBase + m] at the start of round 0, each resolved to its
// writer's value.
Term Prover::scanValue(const Scan &sc, const check::AccessSite &S, Term k, Term ctx) {
  Term bc0 = tc_.substitute(S.bc, roundOf(S, tc_.intConst(0), tc_.intConst(0), w1_.bid));
  Term m = tc_.fresh("scan.m", Sort::Int);
  tc_.setBounds(m, 0, sc.cells - 1);
  Term cell = tc_.app(check::shmName(k_, S.array), Sort::Real, {bc0, tc_.add(sc.firstBase, m)});
  Term range = tc_.mkAnd(tc_.le(tc_.intConst(0), m), tc_.lt(m, tc_.intConst(sc.cells)));
  Term body = writerValue(cell, S.array, tc_.mkAnd(ctx, range), true);
  if (!body)
    body = cell;
  std::string name = "lsum.scan." + std::to_string(treeSums_.size());
  treeSums_[name] = check::SumDef{m, body, {w1_.bid[0], w1_.bid[1], w1_.bid[2]}};
  return tc_.app(name, Sort::Real, {tc_.add(k, tc_.intConst(1)), w1_.bid[0], w1_.bid[1], w1_.bid[2]});
}

} // namespace ksynth::equiv::prove_detail
