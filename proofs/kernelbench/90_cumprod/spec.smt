; KernelBench level 1, problem 90: torch.cumprod(x, dim=1) of a (batch_size, 32768) tensor.
(spec kb90_cumprod
  (doc "Inclusive prefix product along dim 1: Y[b][i] = X[b][0] * ... * X[b][i].")
  (dims B N)
  (assume (<= B 65535) (<= N 1073741824) (<= (* B N) 2147483647))
  (tensor X f32 (B N) in)
  (tensor Y f32 (B N) out)
  (ensures (Y b i) (prod k 0 (+ i 1) (X b k)))
  (sizes (B 32768) (N 32768)))
