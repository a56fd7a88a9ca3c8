; Accumulation with float atomicAdd; the caller zero-initialises S (or accumulates into it).
(spec atomic_sum
  (doc "S = S + the sum of X (S is a single value updated in place; 0 before the first call gives the total).")
  (dims N)
  (assume (<= N 1073741824))
  (tensor X f32 (N) in)
  (tensor S f32 () inout)
  (ensures (S) (+ (old S) (sum i 0 N (X i)))))
