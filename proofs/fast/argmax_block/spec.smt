(spec argmax_rows
  (doc "For each row, the column of its largest element (the first one on ties).")
  (dims R C)
  (assume (<= R 65536) (<= C 16384))
  (tensor X f32 (R C) in)
  (tensor I i32 (R) out)
  (ensures (I r) (argmax-over c 0 C (X r c))))
