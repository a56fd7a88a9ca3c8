(spec row_sum
  (doc "Sum of each row of an R x C matrix.")
  (dims R C)
  (assume (<= R 65536) (<= C 16384))
  (tensor X f32 (R C) in)
  (tensor Y f32 (R) out)
  (ensures (Y r) (sum c 0 C (X r c))))
