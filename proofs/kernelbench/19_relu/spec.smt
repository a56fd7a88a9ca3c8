; KernelBench level 1, problem 19 (19_ReLU.py): torch.relu on a (batch_size, dim) tensor.
(spec kb19_relu
  (doc "ReLU, elementwise on a (B, D) tensor: Y[b][d] = max(X[b][d], 0). Exact over the reals (torch.relu is max(x, 0); NaN propagation aside).")
  (dims B D)
  (assume (<= B 65535) (<= (* B D) 2147483647)) ; B is a grid y extent; b * D + d fits an int
  (sizes (B 4096) (D 393216))
  (tensor X f32 (B D) in)
  (tensor Y f32 (B D) out)
  (ensures (Y b d) (max (X b d) 0.0)))
