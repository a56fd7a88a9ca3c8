// The exponential's law over the reals, exp(a) * exp(b) = exp(a + b), as a rewrite on terms.
//
// ksynth's real semantics reads expf, __expf and exp as the real exponential (DESIGN.md,
// "Fast math"); the law is an identity of that function. An online softmax keeps its running
// sum relative to its running max, d * exp(m - m') + exp(x - m'), and the law is what makes
// that sum the plain sum of exp(x - max) the spec names. Nothing else here: the rewrite does
// not distribute over sums or introduce exp where the kernel had none.
#pragma once

#include "verify/smt/term.h"

namespace ksynth::smt {

// Whether `name` (an App's, "fn.__expf") is the real exponential: exp, expf, __expf, std::exp.
bool isExpFunction(const std::string &name);

// t with, in every product, two or more exponentials (of any of the names above: one function
// over the reals; the result is named "fn.exp" where a factor was) combined into one,
// exp(a) * exp(b) -> exp(a + b), its argument a real linear form (atoms by id, rational
// coefficients, the constant last) so that what cancels does: exp(x - m) * exp(m - p) is
// exp(x - p), and exp(0) is 1. A product of an exponential and a sum some of whose terms hold
// one is distributed first ((d1 exp(a) + d2 exp(b)) exp(c): a merge of two running sums), and
// one of an exponential and a choice ite(p, a, b) holding one is taken in each case.
// Terms without such products are returned as they are.
Term combineExps(TermContext &tc, Term t);

// t with every exponential's argument in real linear form (realLinear): terms that differ only
// in how their exponents are written compare equal.
Term linearExpArgs(TermContext &tc, Term t);

// t with each choice on c, ite(c, a, b), replaced by a (holds) or by b: t where c's value is
// known.
Term decided(TermContext &tc, Term t, Term c, bool holds);

// The real linear form of t: sum of coefficient * atom, atoms ordered by id, constant last.
// An atom is any subterm that is not a real sum, a product by a constant or a constant.
Term realLinear(TermContext &tc, Term t);

} // namespace ksynth::smt
