; The sum of a vector accumulated into S: a shared-memory tree per block, then one atomicAdd
; per block (the same spec as atomic_sum, reached another way).
(spec reduce_atomic
  (doc "S = S + the sum of X (S is a single value updated in place; 0 before the first call gives the total).")
  (dims N)
  (assume (<= N 1073741824))
  (tensor X f32 (N) in)
  (tensor S f32 () inout)
  (ensures (S) (+ (old S) (sum i 0 N (X i)))))
