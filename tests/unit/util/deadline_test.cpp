// The command's time limit (util/deadline.h): set, passed, cleared.
#include "util/deadline.h"

#include <doctest/doctest.h>

#include <chrono>
#include <thread>

using namespace ksynth::util;

TEST_CASE("deadline: none by default, passes after its seconds, cleared again") {
  clearDeadline();
  CHECK(!hasDeadline());
  CHECK(!deadlinePassed());
  CHECK(secondsLeft() > 1e9);
  CHECK_NOTHROW(checkDeadline());

  setDeadline(30);
  CHECK(hasDeadline());
  CHECK(!deadlinePassed());
  CHECK(secondsLeft() > 29);
  CHECK(secondsLeft() <= 30);
  CHECK(deadlineText() == "30 s");

  setDeadline(0.02);
  std::this_thread::sleep_for(std::chrono::milliseconds(40));
  CHECK(deadlinePassed());
  CHECK(secondsLeft() == 0);
  CHECK_THROWS_AS(checkDeadline(), TimeLimit);

  setDeadline(0); // not positive: no limit
  CHECK(!hasDeadline());
  setDeadline(-1);
  CHECK(!hasDeadline());
  CHECK_NOTHROW(checkDeadline());
  clearDeadline();
}
