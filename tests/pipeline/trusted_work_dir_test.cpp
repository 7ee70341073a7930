// A solved work dir that cannot lie (issue 20): readers bound to the manifest, verify that misses
// no single-byte flip, one writer at a time, resume past a damaged run, moved work dirs, and
// option values refused with a clear error. Each case is what a user once got wrong with exit 0.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/wait.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "tests/test_util.hpp"
#include "zermelo/pipeline/manifest_seal.hpp"
#include "zermelo/pipeline/verify_job.hpp"
#include "zermelo/pipeline/work_dir_lock.hpp"

namespace zermelo {
namespace {

namespace fs = std::filesystem;
using testing::CommandResult;

CommandResult cli(const std::string& args) {
  return testing::run_command(std::string(ZERMELO_CLI) + " --quiet " + args + " 2>&1");
}
bool has(const std::string& s, const std::string& needle) {
  return s.find(needle) != std::string::npos;
}

void flip_byte(const std::string& file, std::uintmax_t at) {
  std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
  f.seekg(static_cast<std::streamoff>(at));
  const char c = static_cast<char>(f.get());
  f.seekp(static_cast<std::streamoff>(at));
  f.put(static_cast<char>(c ^ 0x5a));
}

TEST(TrustedWorkDir, ReadersTakeTheGameFromTheManifest) {
  testing::ScratchDir dir;
  const std::string w = dir / "w";
  ASSERT_EQ(cli("--work-dir " + w + " solve nim 4x7").code, 0);
  // Named without options, the game is the manifest's: 4 heaps of 7, not the default 3x5.
  CommandResult q = cli("--json --work-dir " + w + " query nim start");
  ASSERT_EQ(q.code, 0) << q.out;
  EXPECT_EQ(nlohmann::json::parse(q.out)["variant"], "4x7");
  EXPECT_EQ(q.out, cli("--json --work-dir " + w + " query start").out);
  CommandResult other = cli("--work-dir " + w + " query nim 3x5 start");
  EXPECT_NE(other.code, 0);
  EXPECT_TRUE(has(other.out, "nim 3x5") && has(other.out, "nim 4x7")) << other.out;
  CommandResult check = cli("--work-dir " + w + " check-solution nim 5x7");
  EXPECT_NE(check.code, 0) << check.out;
  EXPECT_NE(cli("--work-dir " + w + " query tictactoe start").code, 0);
  EXPECT_NE(cli("--work-dir " + (dir / "nothing") + " query nim start").code, 0);
}

TEST(TrustedWorkDir, AValuesRunCopiedOverAnotherIsRefused) {
  testing::ScratchDir dir;
  const std::string w = dir / "w";
  ASSERT_EQ(cli("--work-dir " + w + " solve nim 3x4 tiered").code, 0);
  CommandResult before = cli("--work-dir " + w + " check-solution");
  ASSERT_EQ(before.code, 0) << before.out;
  std::vector<std::string> runs;
  for (auto& e : fs::recursive_directory_iterator(w))
    if (e.path().extension() == ".run") runs.push_back(e.path().string());
  std::sort(runs.begin(), runs.end());
  ASSERT_GE(runs.size(), 3u);
  fs::copy_file(runs[0], runs[1], fs::copy_options::overwrite_existing);
  CommandResult after = cli("--work-dir " + w + " check-solution");
  EXPECT_NE(after.code, 0);
  EXPECT_TRUE(has(after.out, "not the values run")) << after.out;
  EXPECT_NE(cli("--work-dir " + w + " query start").code, 0);
}

// Every single-byte change of every file of a finished tiered job is caught by verify (the
// smallest tiered job: a root manifest and two tiers, each a manifest and a values run).
TEST(TrustedWorkDir, VerifyCatchesEveryFlippedByte) {
  testing::ScratchDir dir;
  const std::string w = dir / "w";
  ASSERT_EQ(cli("--work-dir " + w + " solve nim 1x1 tiered").code, 0);
  ASSERT_TRUE(verify_job(w).problems.empty());
  std::vector<std::string> files;
  for (auto& e : fs::recursive_directory_iterator(w))
    if (e.is_regular_file()) files.push_back(e.path().string());
  // Every byte in Release; under the sanitizers every 7th (a verify of the whole directory each).
  const auto stride = testing::release_else_sanitized<std::uintmax_t>(1, 7);
  std::size_t flips = 0, caught = 0;
  for (auto& f : files)
    for (std::uintmax_t at = 0; at < fs::file_size(f); at += stride) {
      flip_byte(f, at);
      ++flips;
      caught += !verify_job(w).problems.empty();
      flip_byte(f, at);
      ASSERT_EQ(flips, caught) << f << " byte " << at << " flipped and not caught";
    }
  EXPECT_GT(flips, 10000u / stride);
  EXPECT_TRUE(verify_job(w).problems.empty());
}

TEST(TrustedWorkDir, VerifyRefusesHollowManifests) {
  testing::ScratchDir dir;
  const std::string w = dir / "w";
  ASSERT_EQ(cli("--work-dir " + w + " solve tictactoe").code, 0);
  const std::string m = w + "/manifest.json";
  auto doc = nlohmann::json::parse(std::ifstream(m));
  auto write_sealed = [&](nlohmann::json d) {
    d["checksum"] = "";
    std::ofstream(m, std::ios::trunc) << seal_manifest_text(d.dump(2) + "\n");
  };
  for (const char* hollow : {"stages", "outputs"}) {
    nlohmann::json d = doc;
    if (std::string(hollow) == "stages")
      d["stages"] = nlohmann::json::array();
    else
      d["stages"][0]["outputs"] = nlohmann::json::array();
    write_sealed(d);
    EXPECT_FALSE(verify_job(w).problems.empty()) << hollow;
  }
  std::ofstream(m, std::ios::trunc) << "{}";
  EXPECT_FALSE(verify_job(w).problems.empty());
  nlohmann::json edited = doc;
  edited["stages"][0]["facts"]["wins"] = 5;  // edited by hand, not resealed
  std::ofstream(m, std::ios::trunc) << edited.dump(2);
  CommandResult solve = cli("--work-dir " + w + " solve tictactoe");
  EXPECT_NE(solve.code, 0);
  EXPECT_TRUE(has(solve.out, "checksum")) << solve.out;
}

TEST(TrustedWorkDir, OneWriterAtATime) {
  testing::ScratchDir dir;
  const std::string w = dir / "w";
  ASSERT_EQ(cli("--work-dir " + w + " solve tictactoe").code, 0);
  {
    WorkDirLock writer(w, WorkDirLock::Mode::kWrite, "a test");
    CommandResult second = cli("--work-dir " + w + " solve tictactoe");
    EXPECT_NE(second.code, 0);
    EXPECT_TRUE(has(second.out, "pid " + std::to_string(::getpid()))) << second.out;
    EXPECT_NE(cli("--work-dir " + w + " query start").code, 0);
  }
  WorkDirLock reader(w, WorkDirLock::Mode::kRead, "a test");
  EXPECT_EQ(cli("--work-dir " + w + " query start").code, 0);  // readers share
  EXPECT_NE(cli("--work-dir " + w + " solve tictactoe").code, 0);
}

TEST(TrustedWorkDir, ResumeFallsBackPastADamagedRun) {
  testing::ScratchDir dir;
  const std::string args = " --json solve nim 4x7 --checkpoint-states 100";
  CommandResult ref = cli("--work-dir " + (dir / "ref") + args);
  const std::string w = dir / "w";
  setenv("ZERMELO_FAULT_AFTER_STAGE", "level-5", 1);
  EXPECT_EQ(cli("--work-dir " + w + args).code, 77);
  unsetenv("ZERMELO_FAULT_AFTER_STAGE");
  flip_byte(w + "/states-6.run", 4096 + 50);
  CommandResult resumed = cli("--work-dir " + w + args);
  ASSERT_EQ(resumed.code, 0) << resumed.out;
  EXPECT_TRUE(has(resumed.out, "cannot be built on")) << resumed.out;
  auto digest = [](const std::string& out) {
    return nlohmann::json::parse(out.substr(out.find('{')))["digest"];
  };
  EXPECT_EQ(digest(resumed.out), digest(ref.out));
}

TEST(TrustedWorkDir, AMovedTieredWorkDirResumesAndAnswers) {
  testing::ScratchDir dir;
  ASSERT_EQ(cli("--work-dir " + (dir / "a") + " solve nim 3x4 tiered").code, 0);
  fs::rename(dir / "a", dir / "b");
  CommandResult again =
      cli("--json --work-dir " + fs::absolute(dir / "b").string() + " solve nim 3x4 tiered");
  EXPECT_EQ(again.code, 0) << again.out;
  EXPECT_TRUE(has(again.out, "\"resumed\": true")) << again.out;
  EXPECT_EQ(cli("verify " + (dir / "b")).code, 0);
  EXPECT_EQ(cli("--work-dir " + (dir / "b") + " query start").code, 0);
}

TEST(TrustedWorkDir, BadOptionValuesAreClearErrors) {
  testing::ScratchDir dir;
  ASSERT_EQ(cli("--work-dir " + (dir / "w") + " solve tictactoe").code, 0);
  const std::string w = " --work-dir " + (dir / "w");
  for (const std::string& args : std::vector<std::string>{
           w + " check-solution --sample -1", w + " play --games -1", "--threads '' games",
           "--memory '' games", "--memory 1T games", "--memory 99999999999999999999G games",
           "othello weak-solve --leaf-empties -1", "--work-dir '' games"}) {
    CommandResult r = cli(args);
    EXPECT_NE(r.code, 0) << args;
    EXPECT_FALSE(has(r.out, "bad_alloc")) << args << ": " << r.out;
  }
  CommandResult small = cli("--memory 100M --work-dir " + (dir / "s") + " solve nim 4x7");
  EXPECT_NE(small.code, 0);
  EXPECT_TRUE(has(small.out, "120M")) << small.out;
  EXPECT_EQ(cli("--memory 120M --work-dir " + (dir / "s") + " solve nim 4x7").code, 0);
}

// --max-states: refused before any work where the game counts its states (Onitama), else as soon
// as the enumeration passes the limit (tic-tac-toe), leaving no job that answers.
TEST(TrustedWorkDir, MaxStatesRefusesTheSolve) {
  testing::ScratchDir dir;
  CommandResult counted = cli("--work-dir " + (dir / "o") + " solve onitama 3x3 --max-states 1000");
  EXPECT_NE(counted.code, 0);
  EXPECT_TRUE(has(counted.out, "states, more than --max-states 1000")) << counted.out;
  CommandResult enumerated = cli("--work-dir " + (dir / "t") + " solve tictactoe --max-states 100");
  EXPECT_NE(enumerated.code, 0);
  EXPECT_TRUE(has(enumerated.out, "more than --max-states 100 states")) << enumerated.out;
  EXPECT_NE(cli("--work-dir " + (dir / "t") + " query start").code, 0);
  EXPECT_EQ(cli("--work-dir " + (dir / "t") + " solve tictactoe --max-states 100000").code, 0);
}

// The solve writes a progress line a level to stderr, more than a page in all. With stderr a
// one-page pipe that nobody reads, it cannot finish before the test reads: the signal lands while
// work is left, however fast the machine (a timed kill let a fast machine finish first).
pid_t start_solve_blocked_on_stderr(const std::string& work_dir, int& err_fd) {
  int out[2];
  if (pipe(out) != 0 || fcntl(out[0], F_SETPIPE_SZ, 4096) < 0) return -1;
  pid_t pid = fork();
  if (pid == 0) {
    dup2(out[1], 2);
    execl(ZERMELO_CLI, ZERMELO_CLI, "--work-dir", work_dir.c_str(), "--memory", "128M", "solve",
          "nim", "5x7", static_cast<char*>(nullptr));
    _exit(127);
  }
  close(out[1]);
  err_fd = out[0];
  return pid;
}

// Half a page of progress: the solve is past its start, with its signal handlers set.
bool wait_until_levels_run(int fd, pid_t pid) {
  for (int i = 0; i < 60000; ++i) {
    int queued = 0;
    if (ioctl(fd, FIONREAD, &queued) != 0) return false;
    if (queued >= 2048) return true;
    if (waitpid(pid, nullptr, WNOHANG) == pid) return false;
    usleep(1000);
  }
  return false;
}

TEST(TrustedWorkDir, InterruptedSolveSaysWhereAndResumes) {
  testing::ScratchDir dir;
  for (int sig : {SIGINT, SIGTERM}) {
    const std::string w = dir / ("w" + std::to_string(sig));
    int err_fd = -1;
    pid_t pid = start_solve_blocked_on_stderr(w, err_fd);
    ASSERT_GT(pid, 0);
    ASSERT_TRUE(wait_until_levels_run(err_fd, pid)) << "no progress from the solve";
    kill(pid, sig);
    std::string err;
    char buf[4096];
    for (ssize_t n; (n = read(err_fd, buf, sizeof buf)) > 0;)
      err.append(buf, static_cast<std::size_t>(n));
    close(err_fd);
    int st = 0;
    waitpid(pid, &st, 0);
    ASSERT_TRUE(WIFEXITED(st)) << "signal " << sig;
    EXPECT_EQ(WEXITSTATUS(st), 128 + sig);
    EXPECT_TRUE(has(err, "interrupted") && has(err, "the same command resumes")) << err;
    EXPECT_NE(cli("--work-dir " + w + " query start").code, 0) << "an unfinished job answered";
    EXPECT_EQ(cli("--memory 128M --work-dir " + w + " solve nim 5x7").code, 0);
    EXPECT_EQ(cli("verify " + w).code, 0);
  }
}

}  // namespace
}  // namespace zermelo
