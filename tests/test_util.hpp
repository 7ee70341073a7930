// Helpers shared by the tests: a scratch directory per test, removed afterwards.
#pragma once
#include <gtest/gtest.h>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

// A test of scale rather than of code paths the smaller tests miss: under the sanitizers (about
// 5x slower) it would cost CI minutes, so it runs in the Release configuration only.
#ifdef ZERMELO_SANITIZED
#define ZERMELO_RELEASE_ONLY_SCALE_TEST() GTEST_SKIP() << "a test of scale: Release only"
#else
#define ZERMELO_RELEASE_ONLY_SCALE_TEST() static_cast<void>(0)
#endif

namespace zermelo::testing {

#ifdef ZERMELO_SANITIZED
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif

// A test of code paths that also checks a whole instance picks its size with this: the full
// instance in Release, a smaller one with the same code paths under the sanitizers, where the
// memory errors are looked for rather than the numbers (which Release checks in full).
template <class T>
constexpr T release_else_sanitized(T release, T sanitized) {
  return kSanitized ? sanitized : release;
}

class ScratchDir {
 public:
  ScratchDir() {
    auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    path_ = std::filesystem::path(::testing::TempDir()) /
            ("zermelo-" + std::string(info->test_suite_name()) + "-" + info->name() + "-" +
             std::to_string(::getpid()));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~ScratchDir() { std::filesystem::remove_all(path_); }
  std::string operator/(const std::string& name) const { return (path_ / name).string(); }
  std::string str() const { return path_.string(); }

 private:
  std::filesystem::path path_;
};

// Runs a shell command; returns its exit code and standard output.
struct CommandResult {
  int code;
  std::string out;
};
inline CommandResult run_command(const std::string& cmd) {
  FILE* p = popen(cmd.c_str(), "r");
  std::string out;
  char buf[4096];
  while (std::size_t n = fread(buf, 1, sizeof buf, p)) out.append(buf, n);
  int st = pclose(p);
  return {WIFEXITED(st) ? WEXITSTATUS(st) : -1, out};
}

// The `zermelo` binary of this build (ZERMELO_CLI), quiet, with `args`; stderr is kept apart.
inline CommandResult run_cli(const std::string& args) {
  return run_command(std::string(ZERMELO_CLI) + " --quiet " + args);
}
// The same with its stderr after its stdout, for tests that read the command's messages.
inline CommandResult run_cli_with_stderr(const std::string& args) {
  return run_cli(args + " 2>&1");
}

// How many times `what` occurs in `s`, overlapping occurrences counted.
inline std::size_t count_occurrences(const std::string& s, const std::string& what) {
  std::size_t n = 0;
  for (auto at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
  return n;
}

// `zermelo ARGS...` (ZERMELO_CLI) as a child process, its stdout into `stdout_path` (empty: this
// process's): its exit code (-1 if it did not exit) and the kernel's account of it (getrusage of
// the waited-for child: peak RSS, CPU time), for tests of what a run costs. The kernel counts in
// a child's peak RSS the pages of the process that forked it, even across exec (posix_spawn too),
// so the figure is the CLI's only from a small test process: ctest runs each test alone; a
// --gtest_filter run of many tests in one process can see 170 MB for a 66 MB solve.
struct MeasuredRun {
  int code;
  rusage usage;
};
inline MeasuredRun run_cli_measured(std::vector<std::string> args,
                                    const std::string& stdout_path = "") {
  args.insert(args.begin(), ZERMELO_CLI);
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    if (!stdout_path.empty() && !std::freopen(stdout_path.c_str(), "w", stdout)) _exit(126);
    execv(ZERMELO_CLI, argv.data());
    _exit(127);
  }
  int status = 0;
  rusage usage{};
  wait4(pid, &status, 0, &usage);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, usage};
}

// `zermelo solve GAME...` into dir/name, which it returns; a failed solve fails the test.
inline std::string solved_work_dir(const ScratchDir& dir, const std::string& name,
                                   const std::string& game) {
  const std::string work = dir / name;
  const CommandResult r = run_cli("--work-dir " + work + " solve " + game + " 2>&1");
  EXPECT_EQ(r.code, 0) << r.out;
  return work;
}

}  // namespace zermelo::testing
