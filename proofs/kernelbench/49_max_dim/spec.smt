; KernelBench level 1, problem 49: torch.max(x, dim=1)[0] on a 3-D tensor.
(spec kb49_max_dim
  (doc "Y[b][j] = max over k < D1 of X[b][k][j]: the values of torch.max along dim 1 (the indices it also returns are dropped); dim 1 is removed, Y is B x D2.")
  (dims B D1 D2)
  (assume (<= (* B D1 D2) 2147483647) (<= B 65535))
  (sizes (B 128) (D1 4096) (D2 4095))
  (tensor X f32 (B D1 D2) in)
  (tensor Y f32 (B D2) out)
  (ensures (Y b j) (max-over k 0 D1 (X b k j))))
