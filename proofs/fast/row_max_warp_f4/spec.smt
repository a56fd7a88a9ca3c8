(spec row_max
  (doc "Largest element of each row of an R x C matrix.")
  (dims R C)
  (assume (<= R 65535) (<= C 16384))
  (tensor X f32 (R C) in)
  (tensor Y f32 (R) out)
  (ensures (Y r) (max-over c 0 C (X r c))))
