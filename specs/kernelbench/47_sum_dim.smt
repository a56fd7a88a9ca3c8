; KernelBench level 1, problem 47: torch.sum(x, dim=1, keepdim=True) on a 3-D tensor.
(spec kb47_sum_dim
  (doc "Y[b][0][j] = sum over k < D1 of X[b][k][j]: the sum over dim 1 with keepdim=True, so Y keeps a size-1 middle dim (shape B x 1 x D2), not B x D2.")
  (dims B D1 D2)
  (assume (<= (* B D1 D2) 2147483647) (<= B 65535))
  (sizes (B 128) (D1 4096) (D2 4095))
  (tensor X f32 (B D1 D2) in)
  (tensor Y f32 (B 1 D2) out)
  (ensures (Y b z j) (sum k 0 D1 (X b k j))))
