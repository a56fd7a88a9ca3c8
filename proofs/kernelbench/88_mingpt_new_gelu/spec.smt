; KernelBench level 1, problem 88 (88_MinGPTNewGelu.py): minGPT's tanh-form GELU.
(spec kb88_mingpt_new_gelu
  (doc "minGPT's 'new GELU' (the tanh approximation, not torch's erf GELU): Y = 0.5 x (1 + tanh(c (x + 0.044715 x^3))) with c = math.sqrt(2 / math.pi), the double 0.7978845608028654 (the literal here), and torch.pow(x, 3.0), which torch evaluates as x * x * x (exact over the reals).")
  (dims B D)
  (assume (<= B 65535) (<= (* B D) 2147483647)) ; B is a grid y extent; b * D + d fits an int
  (sizes (B 8192) (D 8192))
  (tensor X f32 (B D) in)
  (tensor Y f32 (B D) out)
  (ensures (Y b d)
    (let ((x (X b d)))
      (* 0.5 x (+ 1.0 (tanh (* 0.7978845608028654 (+ x (* 0.044715 (* x x x))))))))))
