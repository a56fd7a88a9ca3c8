(spec tree_two_sizes
  (doc "Wrong on purpose: 512 X[b]; the kernel computes 320 X[b].")
  (dims N)
  (assume (<= N 65535))
  (tensor X f32 (N) in)
  (tensor Y f32 (N) out)
  (ensures (Y b) (+ (sum k 0 256 (X b)) (sum k 0 256 (X b)))))
