// expect: refuted race
// args: --block 32 --grid 1 --checks race,barrier,bounds,overflow,assert
// note: thread 1 writes items[0].key (the base field) that thread 0 writes too
struct Base {
  int key;
};
struct Item : Base {
  int value;
};

__global__ void tag(Item *items) {
  __requires(__len(items) >= 32);
  unsigned t = threadIdx.x;
  items[t / 2].key = t;
  items[t].value = 2 * t;
}
