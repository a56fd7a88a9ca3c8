(spec shift_u64_trips
  (doc "Wrong on purpose: 63 X[0]; the kernel adds X[0] 64 times.")
  (tensor X f32 (1) in)
  (tensor Y f32 () out)
  (ensures (Y) (sum k 0 63 (X 0))))
