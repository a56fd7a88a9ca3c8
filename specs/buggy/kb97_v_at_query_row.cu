// ksynth:spec kernelbench/97_sdpa expect=equivalence
// Buggy twin of kb97_sdpa: the weighted sum reads V at the query row i instead of the key row
// j, so every output row is a multiple of V[i].
#include <cuda_fp16.h>
// ksynth:launch grid=((E + 255) / 256, H, B) block=(256)
// F.scaled_dot_product_attention(Q, K, V). One thread per (b, h, e) column of the output (e on
// x, head on y, batch on z); for each query row i it recomputes the row's statistics in f32:
// the max of the scaled scores, the softmax denominator, then the weighted sum of V's column e
// (a reference: every thread of a row repeats the row's score computations).
__global__ void kb97_sdpa(const __half *Q, const __half *K, const __half *V, __half *O, int B, int H,
                          int S, int E) {
  int e = blockIdx.x * blockDim.x + threadIdx.x;
  int h = blockIdx.y;
  int b = blockIdx.z;
  if (e < E) {
    float scale = 1.0f / sqrtf((float)E);
    for (int i = 0; i < S; ++i) {
      float s0 = 0.0f; // the max starts at the score of key 0
      for (int d = 0; d < E; ++d)
        s0 += __half2float(Q[(((long long)b * H + h) * S + i) * E + d]) *
              __half2float(K[((long long)b * H + h) * S * E + d]);
      float m = s0 * scale;
      for (int j = 1; j < S; ++j) {
        float s = 0.0f;
        for (int d = 0; d < E; ++d)
          s += __half2float(Q[(((long long)b * H + h) * S + i) * E + d]) *
               __half2float(K[(((long long)b * H + h) * S + j) * E + d]);
        m = fmaxf(m, s * scale);
      }
      float den = 0.0f;
      for (int j = 0; j < S; ++j) {
        float s = 0.0f;
        for (int d = 0; d < E; ++d)
          s += __half2float(Q[(((long long)b * H + h) * S + i) * E + d]) *
               __half2float(K[(((long long)b * H + h) * S + j) * E + d]);
        den += expf(s * scale - m);
      }
      float acc = 0.0f;
      for (int j = 0; j < S; ++j) {
        float s = 0.0f;
        for (int d = 0; d < E; ++d)
          s += __half2float(Q[(((long long)b * H + h) * S + i) * E + d]) *
               __half2float(K[(((long long)b * H + h) * S + j) * E + d]);
        acc += expf(s * scale - m) / den * __half2float(V[(((long long)b * H + h) * S + i) * E + e]);
      }
      O[(((long long)b * H + h) * S + i) * E + e] = __float2half(acc);
    }
  }
}
