// expect: proven
// args: --block 64 --checks race,barrier,bounds,overflow,assert
// note: a struct passed by reference is updated in place: count is 2 after two calls
struct Acc {
  float sum;
  int count;
};
__device__ void add(Acc &a, float v) {
  a.sum += v;
  a.count++;
}
__global__ void mean2(const float *X, float *Y) {
  __requires(__len(X) >= 128 && __len(Y) >= 192 && gridDim.x == 1 && gridDim.y == 1 && gridDim.z == 1);
  Acc acc = {0.0f, 0};
  add(acc, X[threadIdx.x]);
  add(acc, X[64 + threadIdx.x]);
  Y[acc.count * 64 + threadIdx.x] = acc.sum / acc.count;
}
