// util/: hashes, 128-bit decimal text, atomic files, child processes, half precision.
#include "util/files.h"
#include "util/float16.h"
#include "util/int128.h"
#include "util/invariant.h"
#include "util/process.h"
#include "util/sha256.h"

#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>

#include <sys/wait.h>
#include <unistd.h>

using namespace ksynth;

TEST_CASE("sha256: the FIPS 180-4 examples") {
  CHECK(util::sha256Hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(util::sha256Hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  // Two blocks (the padding does not fit in the first).
  CHECK(util::sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST_CASE("int128Text: zero, signs, and the extremes") {
  CHECK(util::int128Text(0) == "0");
  CHECK(util::int128Text(-42) == "-42");
  __int128 big = static_cast<__int128>(1) << 100;
  CHECK(util::int128Text(big) == "1267650600228229401496703205376");
  __int128 min = static_cast<__int128>(static_cast<unsigned __int128>(1) << 127);
  CHECK(util::int128Text(min) == "-170141183460469231731687303715884105728");
}

TEST_CASE("files: an atomic write replaces the file and leaves no temporary behind") {
  std::filesystem::path p = std::filesystem::temp_directory_path() / "ksynth_util_test.txt";
  REQUIRE(util::writeFileAtomic(p, "one"));
  REQUIRE(util::writeFileAtomic(p, "two\n"));
  std::string back;
  REQUIRE(util::readFile(p, back));
  CHECK(back == "two\n");
  CHECK_FALSE(std::filesystem::exists(p.string() + ".tmp"));
  CHECK_FALSE(util::readFile(p.string() + ".missing", back));
  CHECK_FALSE(util::writeFileAtomic("/nonexistent-dir/x", "y"));
}

TEST_CASE("child processes: output, exit status, and the watchdog") {
  util::ProcessResult r = util::runProcess({"/bin/sh", "-c", "echo out; echo err >&2; exit 3"}, 10);
  CHECK(r.started);
  CHECK(r.exitCode == 3);
  CHECK(!r.ok());
  CHECK(r.output.find("out") != std::string::npos);
  CHECK(r.output.find("err") != std::string::npos);
  r = util::runProcess({"/bin/sh", "-c", "sleep 30 & sleep 30"}, 0.5);
  CHECK(r.timedOut);
  CHECK(r.ms < 5000);
  CHECK(r.how(0.5).find("did not finish") != std::string::npos);
  r = util::runProcess({"/nonexistent/program"}, 1);
  CHECK(!r.ok());
}

TEST_CASE("process: programs on PATH") {
  CHECK_FALSE(util::findOnPath("sh").empty());
  CHECK(util::findOnPath("no-such-program-ksynth").empty());
}

TEST_CASE("invariant: a broken one stops the program with file, line, reason and exit 70") {
  int fds[2];
  REQUIRE(pipe(fds) == 0);
  pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) { // the child breaks an invariant; its stderr goes to the pipe
    dup2(fds[1], 2);
    close(fds[0]);
    int answer = 41;
    KSYNTH_INVARIANT(answer == 42, "the answer is known");
    _exit(0); // not reached
  }
  close(fds[1]);
  std::string err;
  char buf[512];
  for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) > 0;)
    err.append(buf, static_cast<size_t>(n));
  close(fds[0]);
  int status = 0;
  REQUIRE(waitpid(pid, &status, 0) == pid);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 70);
  CHECK(err.find("util_test.cpp:") != std::string::npos);
  CHECK(err.find("answer == 42") != std::string::npos);
  CHECK(err.find("the answer is known") != std::string::npos);
}

TEST_CASE("roundToHalf: to nearest, ties to even, subnormals, overflow to infinity") {
  CHECK(util::roundToHalf(1.0 / 3) == 0.333251953125); // 0x3555
  CHECK(util::roundToHalf(2049) == 2048);              // a tie: to the even neighbour
  CHECK(util::roundToHalf(2051) == 2052);
  CHECK(util::roundToHalf(65519) == 65504);            // below the midpoint to 65536
  CHECK(std::isinf(util::roundToHalf(65520)));         // the midpoint rounds to even: 65536, too large
  CHECK(util::roundToHalf(-65504) == -65504);
  CHECK(util::roundToHalf(std::ldexp(1.0, -25)) == 0);  // half the smallest subnormal: ties to 0
  CHECK(util::roundToHalf(3 * std::ldexp(1.0, -26)) == std::ldexp(1.0, -24));
  // Rounded once, from the double: through float first it would tie and round down to 1.
  CHECK(util::roundToHalf(1 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40)) == 1 + std::ldexp(1.0, -10));
  CHECK(std::isnan(util::roundToHalf(NAN)));
}

TEST_CASE("roundToBf16: 8 significant bits, float's exponent range") {
  CHECK(util::roundToBf16(1 + std::ldexp(1.0, -8)) == 1); // a tie, to even
  CHECK(util::roundToBf16(1 + 3 * std::ldexp(1.0, -9)) == 1 + std::ldexp(1.0, -7));
  CHECK(util::roundToBf16(1.0 / 3) == 0.333984375);
  double big = util::roundToBf16(1e30);
  CHECK(big != 1e30);
  CHECK(std::fabs(big - 1e30) <= std::ldexp(1e30, -8));
  CHECK(std::isfinite(util::roundToBf16(3.38e38)));
  CHECK(std::isinf(util::roundToBf16(3.4e38)));
}

TEST_CASE("half and bfloat16 bit patterns round-trip") {
  CHECK(util::halfBits(1.0) == 0x3c00);
  CHECK(util::halfBits(-2.0) == 0xc000);
  CHECK(util::halfBits(65504) == 0x7bff);
  CHECK(util::halfBits(std::ldexp(1.0, -24)) == 0x0001);
  CHECK(util::halfBits(1e6) == 0x7c00);
  CHECK(util::halfBits(-0.0) == 0x8000);
  CHECK(util::bf16Bits(1.0) == 0x3f80);
  CHECK(util::bf16Bits(-2.0) == 0xc000);
  for (uint32_t h = 0; h < 0x10000; ++h) {
    auto b = static_cast<uint16_t>(h);
    double v = util::halfValue(b);
    if (!std::isnan(v))
      REQUIRE(util::halfBits(v) == b);
    double w = util::bf16Value(b);
    if (!std::isnan(w))
      REQUIRE(util::bf16Bits(w) == b);
  }
}
