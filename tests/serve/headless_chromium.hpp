// A headless Chromium driven over the DevTools protocol through a pipe (--remote-debugging-pipe:
// JSON messages ended by NUL on file descriptors 3 and 4), for the explorer's browser test.
//
// A pipe needs no WebSocket client, no npm package and no port: the test depends on Debian's
// chromium alone. A browser that is missing, or that cannot start on this machine, is reported
// by `available()` with the reason, so that the test skips saying why instead of failing.
// As root (CI containers) Chromium runs only with --no-sandbox, which is then added.
#pragma once
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace zermelo::testing {

class HeadlessChromium {
 public:
  // Starts the browser with its profile in `profile_dir`; check available() before use.
  explicit HeadlessChromium(const std::string& profile_dir) {
    ::signal(SIGPIPE, SIG_IGN);  // a browser gone mid-write is an error to report, not a kill
    const std::string exe = find_browser();
    if (exe.empty()) {
      why_not_ = "no Chromium found (Debian: apt-get install chromium; or set ZERMELO_CHROMIUM)";
      return;
    }
    int to_browser[2], from_browser[2];
    if (::pipe(to_browser) != 0 || ::pipe(from_browser) != 0) {
      why_not_ = "pipe() failed";
      return;
    }
    const std::string log = profile_dir + "/chromium.log";
    std::vector<std::string> args{exe,
                                  "--headless",
                                  "--remote-debugging-pipe",
                                  "--disable-gpu",
                                  "--no-first-run",
                                  "--no-default-browser-check",
                                  "--no-proxy-server",
                                  "--window-size=1200,800",
                                  "--disable-dev-shm-usage",  // containers' /dev/shm is small
                                  "--user-data-dir=" + profile_dir + "/profile"};
    if (::geteuid() == 0) args.push_back("--no-sandbox");
    args.push_back("about:blank");
    pid_ = ::fork();
    if (pid_ == 0) {
      ::dup2(to_browser[0], 3);
      ::dup2(from_browser[1], 4);
      for (int fd : {to_browser[0], to_browser[1], from_browser[0], from_browser[1]})
        if (fd > 4) ::close(fd);
      const int out = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      ::dup2(out, 1);
      ::dup2(out, 2);
      std::vector<char*> argv;
      for (auto& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      ::execv(argv[0], argv.data());
      ::dprintf(2, "cannot run %s: %s\n", argv[0], std::strerror(errno));
      ::_exit(127);
    }
    ::close(to_browser[0]);
    ::close(from_browser[1]);
    to_ = to_browser[1];
    from_ = from_browser[0];
    try {
      call("Browser.getVersion");
    } catch (const std::exception& e) {
      why_not_ = std::string("Chromium (") + exe + ") did not start: " + e.what() +
                 "; its log: " + tail(log);
    }
  }

  ~HeadlessChromium() {
    if (pid_ <= 0) return;
    try {
      if (why_not_.empty()) send("Browser.close", {}, "");
    } catch (const std::exception&) {
    }
    for (int i = 0; i < 50; ++i) {
      if (::waitpid(pid_, nullptr, WNOHANG) == pid_) {
        close_pipes();
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
    close_pipes();
  }

  bool available() const { return why_not_.empty(); }
  const std::string& why_not() const { return why_not_; }

  // One DevTools command (to the browser, or to a page's session); its result, or a throw with
  // the protocol's error or a timeout.
  nlohmann::json call(const std::string& method,
                      const nlohmann::json& params = nlohmann::json::object(),
                      const std::string& session = "") {
    const int id = send(method, params, session);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (true) {
      nlohmann::json m = next_message(deadline);
      if (!m.contains("id") || m["id"] != id) continue;  // an event, or another answer
      if (m.contains("error")) throw std::runtime_error(method + ": " + m["error"].dump());
      return m["result"];
    }
  }

 private:
  static std::string find_browser() {
    if (const char* e = std::getenv("ZERMELO_CHROMIUM"); e && *e) return e;
    const char* path = std::getenv("PATH");
    std::string dirs = path ? path : "/usr/bin:/bin";
    for (const char* name : {"chromium", "chromium-browser", "google-chrome"}) {
      std::size_t from = 0;
      while (from <= dirs.size()) {
        const std::size_t to = std::min(dirs.find(':', from), dirs.size());
        const std::string candidate = dirs.substr(from, to - from) + "/" + name;
        if (::access(candidate.c_str(), X_OK) == 0) return candidate;
        from = to + 1;
      }
    }
    return "";
  }

  static std::string tail(const std::string& file) {
    std::error_code ec;
    const auto size = std::filesystem::file_size(file, ec);
    if (ec) return "(none)";
    FILE* f = std::fopen(file.c_str(), "r");
    if (!f) return "(unreadable)";
    std::fseek(f, static_cast<long>(size > 600 ? size - 600 : 0), SEEK_SET);
    std::string out(600, '\0');
    out.resize(std::fread(out.data(), 1, out.size(), f));
    std::fclose(f);
    return out;
  }

  int send(const std::string& method, const nlohmann::json& params, const std::string& session) {
    nlohmann::json m{{"id", ++next_id_}, {"method", method}, {"params", params}};
    if (!session.empty()) m["sessionId"] = session;
    std::string text = m.dump();
    text.push_back('\0');
    for (std::size_t done = 0; done < text.size();) {
      const ssize_t n = ::write(to_, text.data() + done, text.size() - done);
      if (n <= 0) throw std::runtime_error("the browser's pipe is closed");
      done += static_cast<std::size_t>(n);
    }
    return next_id_;
  }

  nlohmann::json next_message(std::chrono::steady_clock::time_point deadline) {
    while (true) {
      if (auto end = buffer_.find('\0'); end != std::string::npos) {
        const std::string text = buffer_.substr(0, end);
        buffer_.erase(0, end + 1);
        return nlohmann::json::parse(text);
      }
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) throw std::runtime_error("no answer from the browser in 20 s");
      pollfd p{from_, POLLIN, 0};
      if (::poll(&p, 1, static_cast<int>(left.count())) <= 0) continue;
      char chunk[65536];
      const ssize_t n = ::read(from_, chunk, sizeof chunk);
      if (n <= 0) throw std::runtime_error("the browser closed its pipe");
      buffer_.append(chunk, static_cast<std::size_t>(n));
    }
  }

  void close_pipes() {
    if (to_ >= 0) ::close(to_);
    if (from_ >= 0) ::close(from_);
    to_ = from_ = -1;
  }

  pid_t pid_ = -1;
  int to_ = -1, from_ = -1;
  int next_id_ = 0;
  std::string buffer_;
  std::string why_not_;
};

}  // namespace zermelo::testing
