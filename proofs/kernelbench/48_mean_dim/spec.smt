; KernelBench level 1, problem 48: torch.mean(x, dim=1) on a 3-D tensor.
(spec kb48_mean_dim
  (doc "Y[b][j] = (sum over k < D1 of X[b][k][j]) / D1: the mean over dim 1, which is removed (keepdim=False), so Y is B x D2; the sum is divided by the count D1 of reduced elements.")
  (dims B D1 D2)
  (assume (<= (* B D1 D2) 2147483647) (<= B 65535))
  (sizes (B 128) (D1 4096) (D2 4095))
  (tensor X f32 (B D1 D2) in)
  (tensor Y f32 (B D2) out)
  (ensures (Y b j) (/ (sum k 0 D1 (X b k j)) D1)))
