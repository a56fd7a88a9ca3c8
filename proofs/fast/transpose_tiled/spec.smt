(spec transpose
  (doc "Out = In transposed: In is H x W, Out is W x H.")
  (dims H W)
  (assume (<= H 8192) (<= W 8192))
  (tensor In f32 (H W) in)
  (tensor Out f32 (W H) out)
  (ensures (Out i j) (In j i)))
