// util/: hashes, 128-bit decimal text, atomic files, child processes.
#include "util/files.h"
#include "util/int128.h"
#include "util/invariant.h"
#include "util/process.h"
#include "util/sha256.h"

#include <doctest/doctest.h>

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
