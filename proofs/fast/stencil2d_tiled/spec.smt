; 5-point Jacobi step on the interior of an H x W grid.
(spec stencil2d
  (doc "Y[i][j] = average of X at (i+1, j+1) and its four neighbours, for the (H-2) x (W-2) interior.")
  (dims H W)
  (assume (>= H 3) (>= W 3) (<= H 8192) (<= W 8192))
  (tensor X f32 (H W) in)
  (tensor Y f32 ((- H 2) (- W 2)) out)
  (ensures (Y i j)
    (* 0.2 (+ (X (+ i 1) (+ j 1)) (X i (+ j 1)) (X (+ i 2) (+ j 1)) (X (+ i 1) j) (X (+ i 1) (+ j 2))))))
