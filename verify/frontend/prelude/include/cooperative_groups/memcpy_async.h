// ksynth: cooperative groups' asynchronous copies, declared so that files using them parse.
// ksynth does not model asynchronous copies: a kernel that calls one is unknown, naming it.
#pragma once
namespace cooperative_groups {
template <class Group, class T> __device__ void memcpy_async(const Group &group, T *dst, const T *src, size_t bytes);
template <class Group> __device__ void wait(const Group &group);
template <unsigned N, class Group> __device__ void wait_prior(const Group &group);
} // namespace cooperative_groups
