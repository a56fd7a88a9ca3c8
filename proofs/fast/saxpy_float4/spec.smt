; y := a * x + y, in place.
(spec saxpy
  (doc "y = a x + y, updating y in place.")
  (dims N)
  (scalar a f32)
  (tensor x f32 (N) in)
  (tensor y f32 (N) inout)
  (ensures (y i) (+ (* a (x i)) (old y i))))
