// The wall-clock limit of the command in progress (`ksynth verify --timeout S`): one per
// process. Long-running work asks it at its checkpoints and stops with TimeLimit; each solver
// query is cut to the time that is left.
#pragma once

#include <stdexcept>
#include <string>

namespace ksynth::util {

// Thrown at a checkpoint once the limit has passed; the driver turns it into an unknown
// verdict whose reason is the limit.
struct TimeLimit : std::runtime_error {
  TimeLimit() : std::runtime_error("the time limit was reached") {}
};

// The limit: `seconds` from now (<= 0: none). Also remembers the seconds for messages.
void setDeadline(double seconds);
void clearDeadline();
bool hasDeadline();
bool deadlinePassed();
// Seconds left (a large number when there is no limit; 0 once it has passed).
double secondsLeft();
// The limit as it was given, for messages ("8 s").
std::string deadlineText();
// Throws TimeLimit when the limit has passed.
void checkDeadline();

// The limit `seconds` from now for the scope's lifetime (<= 0: leaves things as they are).
class DeadlineScope {
public:
  explicit DeadlineScope(double seconds) : on_(seconds > 0) {
    if (on_)
      setDeadline(seconds);
  }
  ~DeadlineScope() {
    if (on_)
      clearDeadline();
  }
  DeadlineScope(const DeadlineScope &) = delete;
  DeadlineScope &operator=(const DeadlineScope &) = delete;

private:
  bool on_;
};

} // namespace ksynth::util
