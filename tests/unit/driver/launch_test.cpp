// The launch a file states: `// ksynth:launch` anywhere, else GPUVerify's flag comment in the
// leading comment block (with its -D definitions), and what the report says about it.
#include "verify/driver/driver.h"
#include "verify/driver/launch.h"

#include "util/files.h"

#include <doctest/doctest.h>

#include <filesystem>

using namespace ksynth;
using driver::findLaunchLineIn;
using Strings = std::vector<std::string>;

TEST_CASE("launch line: ksynth's own line anywhere, GPUVerify's only in the leading comments") {
  driver::LaunchLine a = findLaunchLineIn("__global__ void k(int *A) {}\n// ksynth:launch grid=((N + 255) / 256) block=(256)\n");
  CHECK(a.found);
  CHECK_FALSE(a.gpuverify);
  CHECK(a.line == 2);
  CHECK(a.grid == Strings{"(N + 255) / 256"});
  CHECK(a.block == Strings{"256"});

  // GPUVerify's layout: the expectation, then the flags; a licence block before them.
  driver::LaunchLine b = findLaunchLineIn("/*\n * licence\n */\n//pass\n  // a note\n"
                                          "//--blockDim=[8, 8] --gridDim=64 --no-inline -DWIDTH=16 -D H\n\n"
                                          "__global__ void k(int *A) {}\n");
  CHECK(b.found);
  CHECK(b.gpuverify);
  CHECK(b.line == 6);
  CHECK(b.block == Strings{"8", "8"});
  CHECK(b.grid == Strings{"64"});
  CHECK(b.defines == Strings{"WIDTH=16", "H"});
  CHECK(b.ignored == Strings{"--no-inline"});

  // Spelled with a space, inside a block comment.
  driver::LaunchLine c = findLaunchLineIn("/* --blockDim 32 --gridDim [2,2] */\n__global__ void k() {}\n");
  CHECK(c.gpuverify);
  CHECK(c.block == Strings{"32"});
  CHECK(c.grid == Strings{"2", "2"});

  // Not flag lines: after the first code, prose that mentions a flag, no dimension at all.
  CHECK_FALSE(findLaunchLineIn("#include <cuda.h>\n//--blockDim=64 --gridDim=1\n").found);
  CHECK_FALSE(findLaunchLineIn("int x;\n//--blockDim=64\n").found);
  CHECK_FALSE(findLaunchLineIn("// run it with --blockDim=64\n__global__ void k() {}\n").found);
  CHECK_FALSE(findLaunchLineIn("//--no-inline -DWIDTH=3\n__global__ void k() {}\n").found);

  // ksynth's line wins over GPUVerify's.
  driver::LaunchLine d = findLaunchLineIn("//--blockDim=64 --gridDim=1\n__global__ void k() {}\n// ksynth:launch grid=(2) block=(32)\n");
  CHECK_FALSE(d.gpuverify);
  CHECK(d.block == Strings{"32"});
}

TEST_CASE("launch dimensions: a tuple in brackets, or one expression that starts with a parenthesis") {
  CHECK(driver::splitDims("(64, 4)") == Strings{"64", "4"});
  CHECK(driver::splitDims("[8,8]") == Strings{"8", "8"});
  CHECK(driver::splitDims("256") == Strings{"256"});
  CHECK(driver::splitDims("((N + 255) / 256)") == Strings{"(N + 255) / 256"});
  CHECK(driver::splitDims("(N + 255) / 256") == Strings{"(N + 255) / 256"}); // was "N + 255) / 256"
  CHECK(driver::splitDims("(N + 255) / 256, 2") == Strings{"(N + 255) / 256", "2"});
  CHECK(driver::splitDims("((N + 255) / 256, (M + 7) / 8)") == Strings{"(N + 255) / 256", "(M + 7) / 8"});
  CHECK(driver::splitDims(",1,1") == Strings{"", "1", "1"});
}

TEST_CASE("launch line: the command line's -D wins, and the note says what was taken") {
  driver::LaunchLine ll = findLaunchLineIn("//--blockDim=64 --gridDim=4 -DWIDTH=16 -DH=2 --warp-sync=32\n");
  Strings defines{"WIDTH=15"};
  driver::addLineDefines(ll, defines);
  CHECK(defines == Strings{"WIDTH=15", "H=2"});
  CHECK(ll.defines == Strings{"H=2"});
  std::string note = driver::launchLineNote(ll, false, true);
  CHECK(note == "from the GPUVerify flag comment on line 1: block=(64) -DH=2; ignored: --warp-sync=32 "
                "-DWIDTH=16 (the command line defines WIDTH)");
  driver::LaunchLine none = findLaunchLineIn("// ksynth:launch grid=(1) block=(1)\n");
  CHECK(driver::launchLineNote(none, false, false).empty());
}

TEST_CASE("launch line: the driver verifies at the flag line's launch with its definitions") {
  namespace fs = std::filesystem;
  // Safe only for the stated launch: 8x8 threads in 2x2 blocks, a WIDTH of 16. Symbolic, the
  // y threads would collide; without -DWIDTH the file does not parse.
  const std::string src = "//pass\n//--blockDim=[8,8] --gridDim=[2,2] -DWIDTH=16\n"
                          "__global__ void k(int *A) {\n"
                          "  __requires(__len(A) >= WIDTH * WIDTH);\n"
                          "  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;\n"
                          "  A[y * WIDTH + x] = 1;\n}\n";
  fs::path p = fs::temp_directory_path() / "ksynth_launch_test_flags.cu";
  REQUIRE(util::writeFileAtomic(p, src));
  driver::VerifyRequest req;
  req.file = p.string();
  req.checks = {"race", "barrier", "bounds"};
  req.checksSet = true;
  driver::FileReport rep = driver::verifyFile(req);
  REQUIRE(rep.outcome == driver::FileReport::Outcome::Verified);
  REQUIRE(rep.kernels.size() == 1);
  CHECK(rep.verdict == check::Status::Proven);
  bool noted = false;
  for (const std::string &a : rep.kernels[0].report.assumptions)
    noted = noted || a.find("GPUVerify flag comment on line 2: block=(8,8) grid=(2,2) -DWIDTH=16") != std::string::npos;
  CHECK(noted);

  // A grid the line does not state, given on the command line: 4 blocks of 8x8 over a 16-wide
  // array write out of bounds.
  req.grid = {"4", "4"};
  req.gridSet = true;
  CHECK(driver::verifyFile(req).verdict == check::Status::Refuted);
  // The command line's WIDTH wins: 15 wide, the rows overlap.
  req.gridSet = false;
  req.fe.defines = {"WIDTH=15"};
  CHECK(driver::verifyFile(req).verdict == check::Status::Refuted);
  fs::remove(p);
}
