; KernelBench level 1, problem 97: torch.nn.functional.scaled_dot_product_attention(Q, K, V) with
; Q, K, V of shape (batch_size, num_heads, sequence_length, embedding_dimension) in float16.
(spec kb97_sdpa
  (doc "Scaled dot-product attention with the defaults (no mask, dropout 0, not causal, scale None = 1 / sqrt(E)): per (b, h), scores s[i][j] = (Q[i] . K[j]) * (1 / sqrt(E)); P[i][j] = exp(s[i][j] - max_j s[i][j]) / sum over j of exp(s[i][j] - max_j s[i][j]) (softmax over the keys); O[i][e] = sum over j of P[i][j] V[j][e]. Computed over the reals (PyTorch computes in f16 with f32 accumulation); inputs and output are f16.")
  (dims B H S E)
  (assume (<= B 65535) (<= H 65535) (<= (* B H S E) 1073741824))
  (tensor Q f16 (B H S E) in)
  (tensor K f16 (B H S E) in)
  (tensor V f16 (B H S E) in)
  (tensor O f16 (B H S E) out)
  (define (score b h i j) (* (sum d 0 E (* (Q b h i d) (K b h j d))) (/ 1.0 (sqrt E))))
  (define (smax b h i) (max-over j 0 S (score b h i j)))
  (define (denom b h i) (sum j 0 S (exp (- (score b h i j) (smax b h i)))))
  (ensures (O b h i e)
    (sum j 0 S (* (/ (exp (- (score b h i j) (smax b h i))) (denom b h i)) (V b h j e))))
  (sizes (B 32) (H 32) (S 512) (E 1024)))
