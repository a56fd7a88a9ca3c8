; KernelBench level 1, problem 51: torch.argmax(x, dim=1) on a 3-D tensor.
(spec kb51_argmax_dim
  (doc "I[b][j] = the first k < D1 at which X[b][k][j] is largest: torch.argmax along dim 1, int64 indices, the first index on ties (NaN inputs, which torch treats as the maximum, are outside this real-valued spec); dim 1 is removed, I is B x D2.")
  (dims B D1 D2)
  (assume (<= (* B D1 D2) 2147483647) (<= B 65535))
  (sizes (B 128) (D1 4096) (D2 4095))
  (tensor X f32 (B D1 D2) in)
  (tensor I i64 (B D2) out)
  (ensures (I b j) (argmax-over k 0 D1 (X b k j))))
