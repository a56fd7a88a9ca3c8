// Integer division and remainder by constants, as linear definitions the solver shares.
//
// A coverage query names a writer by the digits of an element (e div 4 mod 256, e div 1024 mod
// 64, e div 65536, and the same of e - 1, e - 2, ...). Z3 gives each `x div k` its own
// quotient, so that (e div 4) div 256 and e div 1024 are unrelated unknowns until integer
// reasoning finds they are equal: such a query ran past 45 s. Written as one chain of
// quotients per dividend (e = 4 q1 + r, q1 = 256 q2 + s, ...), the same query is linear and
// takes milliseconds.
#pragma once

#include "verify/smt/term.h"

namespace ksynth::smt {

// t with every `x div k` and `x mod k` (k a positive constant) replaced by fresh quotient
// variables and linear forms of them, conjoined with their definitions: per dividend x, its
// divisors in increasing order, each a multiple of the one before it, make a chain
// x = d1 q1 + r1 (0 <= r1 < d1), q1 = (d2 / d1) q2 + s2 (0 <= s2 < d2 / d1), ...; x div d_i is
// q_i and x mod d_i is x - d_i q_i. A divisor that is not a multiple of the one before starts
// a chain of its own. First, (x div a) div b is x div (a b), (x div a) mod b is
// x div a - b (x div (a b)), and (x mod a) div b is x div b - (a / b) (x div a) where b divides
// a. Only for t of sort Bool: the definitions have exactly one solution for every value of
// the other symbols, so the result is satisfiable exactly when t is, and a model of it is one
// of t. t is returned as it is when there is nothing to share: no division nested in another
// and no dividend with two divisors (Z3 does as well alone there, and a query asked another
// way changes the solver's later course: one later query of a KernelBench twin's equivalence
// proof then ran past its limit, deaf to the interrupt).
Term purifyDivMod(TermContext &tc, Term t);

} // namespace ksynth::smt
