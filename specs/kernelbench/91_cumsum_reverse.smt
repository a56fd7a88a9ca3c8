; KernelBench level 1, problem 91: torch.cumsum(x.flip(1), dim=1).flip(1) of a (batch_size, 32768) tensor.
(spec kb91_cumsum_reverse
  (doc "Reverse (suffix) cumulative sum along dim 1: flip, inclusive cumsum, flip back, i.e. Y[b][i] = X[b][i] + ... + X[b][N-1].")
  (dims B N)
  (assume (<= B 65535) (<= N 1073741824) (<= (* B N) 2147483647))
  (tensor X f32 (B N) in)
  (tensor Y f32 (B N) out)
  (ensures (Y b i) (sum k i N (X b k)))
  (sizes (B 32768) (N 32768)))
