(spec row_sum_bf16
  (doc "Sum of each row of an R x C bfloat16 matrix, accumulated and returned in f32.")
  (dims R C)
  (assume (<= R 65536) (<= C 16384))
  (tensor X bf16 (R C) in)
  (tensor Y f32 (R) out)
  (ensures (Y r) (sum c 0 C (X r c))))
