// expect: proven
// args: --block 16,8 --grid 4 --checks race,barrier,bounds,overflow,assert
// note: thread_block's thread_rank() is threadIdx linearised (x fastest) and size() its thread
// note: count: each thread of a 16x8 block writes its own element, after cg::sync
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void ranks(int *out) {
  __requires(__len(out) >= 4 * 128 && gridDim.y == 1 && gridDim.z == 1);
  cg::thread_block block = cg::this_thread_block();
  __shared__ int s[128];
  s[block.thread_rank()] = 1;
  cg::sync(block);
  out[blockIdx.x * block.size() + block.thread_rank()] = s[block.size() - 1 - block.thread_rank()];
}
