// Equivalence proofs: shared-memory tree reductions (sum, max, min).
#include "verify/equiv/prover.h"

#include <cstdio>
#include <cstdlib>

namespace ksynth::equiv::prove_detail {

// ---- block tree reductions ---------------------------------------------------------------
//
// A store site S in a loop of T rounds (not inside another loop) is the step of a halving
// tree over the cells [0, P), P = 2^T, of shared array A when, for every round r < T and
// every thread k of a 1-D block, with h = P >> (r + 1):
//   (1) thread k stores in round r only if k < h, and then stores A[k] := A[k] + A[k + h],
//       both operands read as the content at the start of the round's barrier interval,
//       which is interval bc0 + r (bc0: round 0's interval);
//   (2) if thread 0 stores in the last round, every thread k < h stores in round r;
//   (3) no other statement stores to A in the intervals [bc0, bc0 + T).
// By induction on r, at the start of interval bc0 + r each cell k < P >> r holds the sum of
// the cells k + m (P >> r), m < 2^r, as they were at the start of bc0; so after the last
// round (thread 0's store) A[0] holds the sum of A[0..P) at the start of bc0 (over the
// reals: the order of the additions does not matter). The doubling tree (treeOf) is the
// mirror image: cell k with k mod 2^r = 0 holds the cells k .. k + 2^r.

// Whether launch extents d are (x, 1, 1), with x constant when `x` is asked for.
bool Prover::oneDim(const std::array<Term, 3> &d, int128 *x) {
  int128 one = 0;
  return (!x || tc_.isConst(d[0], x)) && tc_.isConst(d[1], &one) && one == 1 && tc_.isConst(d[2], &one) && one == 1;
}

// The substitution for thread (k, 0, 0) of w3's block `bid` in round r of S's loop.
std::unordered_map<Term, Term> Prover::roundOf(const check::AccessSite &S, Term k, Term r,
                                               const std::array<Term, 3> &bid) {
  std::unordered_map<Term, Term> w{{w3_.tid[0], k}, {w3_.tid[1], tc_.intConst(0)},
                                   {w3_.tid[2], tc_.intConst(0)}, {S.iters[0], r}};
  for (int d = 0; d < 3; ++d)
    if (bid[d] != w3_.bid[d])
      w[w3_.bid[d]] = bid[d];
  return w;
}

std::unordered_map<Term, Term> Prover::treeWitness(const Tree &t, const check::AccessSite &S,
                                                   const std::array<Term, 3> &bid) {
  return roundOf(S, tc_.intConst(0), tc_.intConst(t.rounds - 1), bid);
}

// No statement but S stores to S's shared array in the block's barrier intervals
// [bc0, bc0 + T) (the rounds of `what` at S's line).
bool Prover::aloneDuring(const check::AccessSite &S, Term bc0, int128 T, const std::string &what) {
  for (const check::AccessSite &S2 : m2_.accesses) {
    if (!S2.write || S2.array != S.array || S2.stmt == S.stmt)
      continue;
    std::vector<Term> blk;
    for (int d = 0; d < 3; ++d)
      blk.push_back(tc_.eq(w2_.bid[d], w3_.bid[d]));
    Step st(*this, "no other statement stores to shared '" + k_.arrays[S.array].name + "' during " + what +
                       " at line " + std::to_string(S.stmt->loc.line),
            {S.stmt->loc.line, S2.stmt->loc.line});
    if (!unsat(tc_.mkAnd({S2.pc, tc_.mkAnd(blk), tc_.le(bc0, S2.bc), tc_.lt(S2.bc, tc_.add(bc0, tc_.intConst(T)))})))
      return false;
  }
  return true;
}

const Prover::Tree *Prover::treeOf(const check::AccessSite &S) {
  auto [it, fresh] = trees_.try_emplace(S.stmt);
  if (!fresh)
    return it->second ? &*it->second : nullptr;
  if (S.iters.size() != 1 || !S.value || !sharedOk_.count(S.array))
    return nullptr;
  // The operation and its two operands.
  std::string fold;
  std::array<Term, 2> ops;
  Term p, q;
  bool isMax = false;
  if (S.value->kind == smt::Kind::Add && S.value->kids.size() == 2) {
    fold = "lsum.";
    ops = {S.value->kids[0], S.value->kids[1]};
  } else if (check::extremumOf(S.value, p, q, isMax)) {
    fold = isMax ? "lmax." : "lmin.";
    ops = {p, q};
  } else {
    return nullptr;
  }
  auto tr = m3_.trips.find(S.iters[0]);
  int128 T = 0, B = 0;
  if (tr == m3_.trips.end() || !tc_.isConst(tr->second, &T) || T < 1 || T > 12 || !oneDim(g_.blockDim, &B))
    return nullptr;
  int128 P = static_cast<int128>(1) << T;
  if (P / 2 > B)
    return nullptr;
  std::string shm = check::shmName(k_, S.array);
  for (Term op : ops)
    if (op->kind != smt::Kind::App || op->name != shm || op->kids[0] != S.bc)
      return nullptr;
  Term f1 = ops[0]->kids[1], f2 = ops[1]->kids[1];
  Term k = tc_.fresh("tree.k", Sort::Int);
  Term zero = tc_.intConst(0);
  auto w0 = roundOf(S, zero, zero, w3_.bid);
  Term bc0 = tc_.substitute(S.bc, w0);
  Term lastPc = tc_.substitute(S.pc, treeWitness(Tree{static_cast<int>(T), P}, S, w3_.bid));
  // Round r's storing threads and partner offset h: halving (k < h, h = P >> (r + 1)), or
  // doubling (k mod 2h = 0, k < P, h = 2^r: `for (s = 1; s < blockDim.x; s *= 2) if (t % (2 * s)
  // == 0) ...`), where cell k then holds the cells k .. k + 2h of round 0 after round r.
  auto rounds = [&](bool doubling) {
    if (doubling && P > B)
      return false;
    Step st(*this, std::string("the store at line ") + std::to_string(S.stmt->loc.line) + " is a " +
                       (doubling ? "doubling" : "halving") + " tree reduction over shared '" +
                       k_.arrays[S.array].name + "': each round's storing threads and operand cells",
            lineOf(S));
    for (int128 r = 0; r < T; ++r) {
      int128 hv = doubling ? static_cast<int128>(1) << r : P >> (r + 1);
      Term h = tc_.intConst(hv);
      Term stores = doubling ? tc_.mkAnd(tc_.eq(tc_.mod(k, tc_.intConst(2 * hv)), zero), tc_.lt(k, tc_.intConst(P)))
                             : tc_.lt(k, h);
      auto w = roundOf(S, k, tc_.intConst(r), w3_.bid);
      Term pcK = tc_.substitute(S.pc, w);
      Term g1 = tc_.substitute(f1, w), g2 = tc_.substitute(f2, w);
      Term kh = tc_.add(k, h);
      Term shape = tc_.mkAnd({stores, tc_.eq(tc_.substitute(S.flat, w), k),
                              tc_.eq(tc_.substitute(S.bc, w), tc_.add(bc0, tc_.intConst(r))),
                              tc_.mkOr(tc_.mkAnd(tc_.eq(g1, k), tc_.eq(g2, kh)),
                                       tc_.mkAnd(tc_.eq(g1, kh), tc_.eq(g2, k)))});
      Term kIn = tc_.mkAnd(tc_.le(zero, k), tc_.lt(k, g_.blockDim[0]));
      if (!unsat(tc_.mkAnd({kIn, pcK, tc_.mkNot(shape)})) ||
          !unsat(tc_.mkAnd({lastPc, tc_.le(zero, k), stores, tc_.mkNot(pcK)}))) {
        if (getenv("KSYNTH_DEBUG_EQ"))
          fprintf(stderr, "tree (%s) at line %u fails in round %d: pc %s\n", doubling ? "doubling" : "halving",
                  S.stmt->loc.line, static_cast<int>(r), smt::show(pcK, 300).c_str());
        return false;
      }
    }
    return true;
  };
  if (!rounds(false) && !rounds(true))
    return nullptr;
  if (!aloneDuring(S, bc0, T, "the tree reduction"))
    return nullptr;
  it->second = Tree{static_cast<int>(T), P, fold};
  return &*it->second;
}

// The reduction's value for the reader's block: lsum.tree.N(P), the sum over k < P of the
// content of A[k] at the start of round 0, each resolved to its writer's value.
Term Prover::treeValue(const Tree &t, const check::AccessSite &S, const std::unordered_map<Term, Term> &w, Term ctx) {
  auto w0 = roundOf(S, tc_.intConst(0), tc_.intConst(0), w1_.bid);
  (void)w;
  Term bc0 = tc_.substitute(S.bc, w0);
  Term k = tc_.fresh("tree.k", Sort::Int);
  tc_.setBounds(k, 0, t.cells - 1);
  Term cell = tc_.app(check::shmName(k_, S.array), Sort::Real, {bc0, k});
  Term range = tc_.mkAnd(tc_.le(tc_.intConst(0), k), tc_.lt(k, tc_.intConst(t.cells)));
  Term body = writerValue(cell, S.array, tc_.mkAnd(ctx, range), true);
  if (!body)
    body = cell;
  // The reader's block is a parameter, so the application can be moved to another thread.
  std::string name = t.fold + "tree." + std::to_string(treeSums_.size());
  treeSums_[name] = check::SumDef{k, body, {w1_.bid[0], w1_.bid[1], w1_.bid[2]}};
  return tc_.app(name, Sort::Real, {tc_.intConst(t.cells), w1_.bid[0], w1_.bid[1], w1_.bid[2]});
}

} // namespace ksynth::equiv::prove_detail
