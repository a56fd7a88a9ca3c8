// Counting how deep a recursive reader is: the spec reader and the C expression parser stop
// at a fixed depth instead of overflowing the stack on hostile input.
#pragma once

namespace ksynth::util {

// ++depth for the guard's lifetime.
class NestingLevel {
public:
  explicit NestingLevel(unsigned &depth) : depth_(depth) { ++depth_; }
  ~NestingLevel() { --depth_; }
  NestingLevel(const NestingLevel &) = delete;
  NestingLevel &operator=(const NestingLevel &) = delete;

private:
  unsigned &depth_;
};

} // namespace ksynth::util
