; tanh approximation of GELU; tanh is uninterpreted in proofs.
(spec gelu
  (doc "GELU (tanh form): Y = 0.5 X (1 + tanh(0.7978845608 (X + 0.044715 X^3))).")
  (dims N)
  (tensor X f32 (N) in)
  (tensor Y f32 (N) out)
  (ensures (Y i)
    (let ((x (X i)))
      (* 0.5 x (+ 1.0 (tanh (* 0.7978845608 (+ x (* 0.044715 x x x)))))))))
