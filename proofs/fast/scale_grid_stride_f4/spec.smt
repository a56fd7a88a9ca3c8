(spec scale_grid_stride
  (doc "Y = alpha X, for vectors of any length (the kernel uses a fixed grid and a grid-stride loop).")
  (dims N)
  (scalar alpha f32)
  (assume (<= N 2147467264)) ; 2^31 - 64 * 256: i + the grid stride still fits an int
  (tensor X f32 (N) in)
  (tensor Y f32 (N) out)
  (ensures (Y i) (* alpha (X i))))
