#include "util/deadline.h"

#include <atomic>
#include <chrono>
#include <sstream>

namespace ksynth::util {

namespace {
using Clock = std::chrono::steady_clock;
std::atomic<int64_t> gDeadlineNs{0}; // steady-clock nanoseconds; 0: none
std::atomic<double> gGivenS{0};

int64_t nowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch()).count();
}
} // namespace

void setDeadline(double seconds) {
  if (!(seconds > 0)) {
    clearDeadline();
    return;
  }
  gGivenS = seconds;
  gDeadlineNs = nowNs() + static_cast<int64_t>(seconds * 1e9);
}

void clearDeadline() { gDeadlineNs = 0; }

bool hasDeadline() { return gDeadlineNs.load() != 0; }

bool deadlinePassed() {
  int64_t d = gDeadlineNs.load();
  return d != 0 && nowNs() >= d;
}

double secondsLeft() {
  int64_t d = gDeadlineNs.load();
  if (d == 0)
    return 1e12;
  int64_t left = d - nowNs();
  return left > 0 ? static_cast<double>(left) / 1e9 : 0.0;
}

std::string deadlineText() {
  std::ostringstream o;
  o << gGivenS.load() << " s";
  return o.str();
}

void checkDeadline() {
  if (deadlinePassed())
    throw TimeLimit();
}

} // namespace ksynth::util
