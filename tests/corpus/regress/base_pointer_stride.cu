// expect: unknown
// args: --block 32 --grid 1 --checks race
// note: regression (review): b[t] on a Base* into an Item array steps by sizeof(Base), so thread 1 writes items[0].value like thread 0; indexing such a pointer is refused (it was proven)
struct Base { int key; };
struct Item : Base { int value; };
__global__ void tag(Item *items) {
  __requires(__len(items) >= 64);
  unsigned t = threadIdx.x;
  Base *b = items;
  b[t].key = 1;        // byte offset 4t
  items[t].value = 2;  // byte offset 8t+4 ; t=1 writes off 4 = items[0].value written by t=0
}
