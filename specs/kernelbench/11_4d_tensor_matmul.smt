; KernelBench level 1, problem 11 (11_4D_tensor_matrix_multiplication.py): torch.einsum("bijl,lk->bijk", A, B).
(spec kb11_4d_tensor_matmul
  (doc "A 4-D tensor contracted with a matrix over A's last axis: A is BATCH x I x J x L, B is L x K, C is BATCH x I x J x K (row-major); C[b][i][j][k] = sum over l < L of A[b][i][j][l] B[l][k]. KernelBench's b, i, j, l, k are the dims BATCH, I, J, L, K (B names the matrix). Over the reals.")
  (dims BATCH I J L K)
  (assume (<= (* BATCH I J L) 1099511627776) (<= (* L K) 1099511627776) (<= (* BATCH I J K) 1099511627776)
          (<= J 65535) (<= (* BATCH I) 65535) (<= K 2147483392)) ; grid y is J, grid z is BATCH I
  (tensor A f32 (BATCH I J L) in)
  (tensor B f32 (L K) in)
  (tensor C f32 (BATCH I J K) out)
  (sizes (BATCH 8) (I 256) (J 512) (L 256) (K 768))
  (ensures (C b i j k) (sum l 0 L (* (A b i j l) (B l k)))))
