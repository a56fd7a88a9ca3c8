// expect: proven
// args: --block 128 --checks race,barrier,overflow,assert
// note: a method of a struct passed by value writes through its pointer member
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
  s.put(blockIdx.x * blockDim.x + threadIdx.x, 1.0f);
}
