// ksynth: the asynchronous-copy primitives, declared so that files using them parse. ksynth
// does not model asynchronous copies (the destination is written at some point before the
// wait): a kernel that calls one is unknown, naming the call.
#pragma once
__device__ void __pipeline_memcpy_async(void *dst_shared, const void *src_global, size_t size_and_align,
                                        size_t zfill = 0);
__device__ void __pipeline_commit(void);
__device__ void __pipeline_wait_prior(size_t prior);
