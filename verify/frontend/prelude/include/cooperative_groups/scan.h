// ksynth: cooperative groups' scans, declared. They have no bodies here: a kernel that calls
// one is unknown, naming the call (ksynth does not model them yet).
#pragma once
namespace cooperative_groups {
template <class Group, class T> __device__ T inclusive_scan(const Group &group, T value);
template <class Group, class T, class Op> __device__ T inclusive_scan(const Group &group, T value, Op op);
template <class Group, class T> __device__ T exclusive_scan(const Group &group, T value);
template <class Group, class T, class Op> __device__ T exclusive_scan(const Group &group, T value, Op op);
} // namespace cooperative_groups
