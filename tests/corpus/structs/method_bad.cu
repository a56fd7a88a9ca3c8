// expect: refuted race
// args: --block 128 --checks race,barrier,overflow,assert
// note: threads 0 and 1 of block 0 both call put(0, ...) and write out[0]
class Sink {
  float *out;
  int n;

public:
  __device__ void put(int i, float v) {
    if (i < n)
      out[i] = v;
  }
};

__global__ void fill(Sink s) {
  __requires(gridDim.y == 1 && gridDim.z == 1);
  s.put((blockIdx.x * blockDim.x + threadIdx.x) / 2, 1.0f);
}
