; 2 x 2 max pooling with stride 2 (the input has even extents).
(spec maxpool2d
  (doc "Y[i][j] = max of X over the 2 x 2 window at (2i, 2j).")
  (dims OH OW)
  (assume (<= OH 8192) (<= OW 8192))
  (tensor X f32 ((* 2 OH) (* 2 OW)) in)
  (tensor Y f32 (OH OW) out)
  (ensures (Y i j) (max-over a 0 2 (max-over b 0 2 (X (+ (* 2 i) a) (+ (* 2 j) b))))))
