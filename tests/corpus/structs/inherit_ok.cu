// expect: proven
// args: --block 32 --grid 1 --checks race,barrier,bounds,overflow,assert
// note: fields of a base class and of the derived class are separate storage
struct Base {
  int key;
};
struct Item : Base {
  int value;
};

__global__ void tag(Item *items) {
  __requires(__len(items) >= 32);
  unsigned t = threadIdx.x;
  items[t].key = t;
  items[t].value = 2 * t;
}
