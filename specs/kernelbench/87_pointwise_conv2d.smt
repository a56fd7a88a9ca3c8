; KernelBench level 1, problem 87: nn.Conv2d(in_channels=64, out_channels=128, kernel_size=1, stride=1, padding=0, bias=False) on x of shape (16, 64, 1024, 1024).
(spec kb87_pointwise_conv2d
  (doc "Pointwise (1 x 1) convolution: Y[n][co][h][w] = sum over ci < CI of X[n][ci][h][w] * Wt[co][ci][0][0], a per-pixel matrix product over the channels. The weight keeps PyTorch's shape (CO, CI, 1, 1); kernel size 1, stride 1 and padding 0 are fixed by the problem, so the output has the input's spatial extents. bias = False. The output has more than 2^31 elements at KernelBench's sizes (64-bit indices).")
  (dims B CI CO H W)
  (assume (<= B 4096) (<= CI 4096) (<= CO 4096) (<= H 65536) (<= W 65536) (<= (* B CO) 65535))
  (tensor X f32 (B CI H W) in)
  (tensor Wt f32 (CO CI 1 1) in)
  (tensor Y f32 (B CO H W) out)
  (ensures (Y n co h w) (sum ci 0 CI (* (X n ci h w) (Wt co ci 0 0))))
  (sizes (B 16) (CI 64) (CO 128) (H 1024) (W 1024)))
