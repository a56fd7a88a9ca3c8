// expect: proven
// args: --checks race,barrier,bounds,overflow,assert
// note: a whole program with texture objects (the runtime's texture API parses). A fetch reads
// note: memory ksynth does not see: tex2D has no body, so its value is unknown, and no
// note: obligation here depends on it (each thread stores to its own out[y * w + x])
__global__ void copyTex(cudaTextureObject_t tex, float *out, int w, int h) {
  __requires(gridDim.z == 1 && w >= 0 && h >= 0 && w <= 4096 && h <= 4096);
  __requires(__len(out) >= w * h);
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) {
    out[y * w + x] = 0.0f; // cleared first, as a kernel that may fail part way would
    float v = tex2D<float>(tex, x + 0.5f, y + 0.5f);
    out[y * w + x] = v;
  }
}

int main() {
  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeArray;
  cudaTextureDesc td = {};
  td.addressMode[0] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModePoint;
  td.readMode = cudaReadModeElementType;
  cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
  cudaArray_t arr;
  cudaMallocArray(&arr, &cd, 64, 64);
  res.res.array.array = arr;
  cudaTextureObject_t tex = 0;
  cudaCreateTextureObject(&tex, &res, &td, nullptr);
  float *out;
  cudaMalloc(&out, 64 * 64 * sizeof(float));
  copyTex<<<dim3(4, 4), dim3(16, 16)>>>(tex, out, 64, 64);
  cudaDestroyTextureObject(tex);
  cudaFreeArray(arr);
  return 0;
}
