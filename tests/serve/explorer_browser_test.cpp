// The explorer in a real browser (issue 23): `zermelo serve` on tic-tac-toe solved here, the page
// loaded in headless Chromium, a winning move clicked with the mouse, the value shown flipping to
// the opponent's loss, back, a screenshot, a malformed state pasted and its error shown, and the
// charts drawn by the system's chart.js, one switched to a log scale by its box. Skips, saying
// why, only where no Chromium can run.
// With ZERMELO_SCREENSHOTS=DIR set, the screenshots are kept there (explorer.png, charts.png,
// charts-log.png).
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>

#include "tests/serve/headless_chromium.hpp"
#include "tests/test_util.hpp"
#include "zermelo/serve/http_server.hpp"

namespace zermelo {
namespace {

using nlohmann::json;

// `zermelo serve --port 0` as a child process; the address it prints.
class ServeProcess {
 public:
  explicit ServeProcess(const std::string& work_dir) {
    int out[2];
    if (::pipe(out) != 0) return;
    pid_ = ::fork();
    if (pid_ == 0) {
      ::dup2(out[1], 1);
      ::close(out[0]);
      ::execl(ZERMELO_CLI, ZERMELO_CLI, "--work-dir", work_dir.c_str(), "serve", "--port", "0",
              static_cast<char*>(nullptr));
      ::_exit(127);
    }
    ::close(out[1]);
    std::string line;
    char ch;
    while (::read(out[0], &ch, 1) == 1 && ch != '\n') line += ch;
    ::close(out[0]);
    const auto at = line.find("http://");
    if (at != std::string::npos) url_ = line.substr(at, line.find(' ', at) - at);
  }
  ~ServeProcess() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGTERM);
    ::waitpid(pid_, nullptr, 0);
  }
  const std::string& url() const { return url_; }

 private:
  pid_t pid_ = -1;
  std::string url_;
};

// A page of the browser, with what the test does on it.
class Page {
 public:
  Page(testing::HeadlessChromium& b, const std::string& url) : b_(b) {
    const std::string target = b_.call("Target.createTarget", {{"url", "about:blank"}})["targetId"];
    const json attached =
        b_.call("Target.attachToTarget", {{"targetId", target}, {"flatten", true}});
    session_ = attached["sessionId"];
    call("Page.enable");
    call("Page.navigate", {{"url", url}});
  }

  json call(const std::string& method, const json& params = json::object()) {
    return b_.call(method, params, session_);
  }
  // The value of a JavaScript expression in the page.
  json eval(const std::string& expression) {
    const json r =
        call("Runtime.evaluate",
             {{"expression", expression}, {"returnByValue", true}, {"awaitPromise", true}});
    if (r.contains("exceptionDetails")) throw std::runtime_error(r["exceptionDetails"].dump());
    return r["result"].value("value", json());
  }
  // Waits until `condition` (JavaScript) is true; false after 10 s.
  bool wait_for(const std::string& condition) {
    for (int i = 0; i < 100; ++i) {
      try {
        if (eval("!!(" + condition + ")") == true) return true;
      } catch (const std::runtime_error&) {
        // The page is not there yet (no body, no element): wait on.
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return false;
  }
  std::string text(const std::string& selector) {
    return eval("document.querySelector('" + selector + "').textContent").get<std::string>();
  }
  // A real click: the mouse pressed and released at the middle of the element.
  void click(const std::string& selector) {
    const json box = eval("(() => { const r = document.querySelector(\"" + selector +
                          "\").getBoundingClientRect(); return [r.x + r.width / 2, "
                          "r.y + r.height / 2]; })()");
    for (const char* type : {"mousePressed", "mouseReleased"})
      call("Input.dispatchMouseEvent",
           {{"type", type}, {"x", box[0]}, {"y", box[1]}, {"button", "left"}, {"clickCount", 1}});
  }
  // A PNG of the page, written to `file` (and to $ZERMELO_SCREENSHOTS/); its size in bytes.
  std::size_t screenshot(const std::string& file) {
    const json shot = call("Page.captureScreenshot", {{"format", "png"}});
    const std::string png = base64_decoded(shot["data"]);
    std::ofstream(file, std::ios::binary) << png;
    if (const char* keep = std::getenv("ZERMELO_SCREENSHOTS"); keep && *keep)
      std::ofstream(std::filesystem::path(keep) / std::filesystem::path(file).filename(),
                    std::ios::binary)
          << png;
    EXPECT_EQ(png.substr(1, 3), "PNG");
    return png.size();
  }

 private:
  static std::string base64_decoded(const std::string& in) {
    static const std::string digits =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    unsigned bits = 0;
    int count = 0;
    for (char ch : in) {
      const auto d = digits.find(ch);
      if (d == std::string::npos) continue;  // '=' padding
      bits = (bits << 6) | static_cast<unsigned>(d);
      if ((count += 6) >= 8) out += static_cast<char>((bits >> (count -= 8)) & 0xff);
    }
    return out;
  }

  testing::HeadlessChromium& b_;
  std::string session_;
};

TEST(ExplorerBrowser, AWinningMoveClickedLeavesTheOpponentLost) {
  testing::ScratchDir dir;
  testing::HeadlessChromium browser(dir.str());
  if (!browser.available()) GTEST_SKIP() << "no browser can run here: " << browser.why_not();
  const std::string w = dir / "ttt";
  ASSERT_EQ(testing::run_command(std::string(ZERMELO_CLI) + " --quiet --work-dir " + w +
                                 " solve tictactoe --in-ram > /dev/null 2>&1")
                .code,
            0);
  ServeProcess serve(w);
  ASSERT_FALSE(serve.url().empty()) << "zermelo serve printed no address";

  // X in a corner, O on an edge: X to move wins in 5.
  Page page(browser, serve.url() + "#state=X.O......");
  ASSERT_TRUE(page.wait_for("document.body.dataset.ready === 'yes'")) << "the page never loaded";
  EXPECT_EQ(page.text("#side"), "X");
  EXPECT_EQ(page.text("#value"), "win in 5");
  EXPECT_EQ(page.text("#game-name"), "tictactoe");
  EXPECT_TRUE(page.eval("document.querySelector('#board svg') !== null"));
  EXPECT_EQ(page.eval("document.querySelectorAll('#moves button').length"), 7);

  const std::string key = page.text("#key");
  page.click("#moves button[data-outcome='win']");
  ASSERT_TRUE(page.wait_for("document.getElementById('key').textContent !== '" + key + "'"))
      << "the click played no move";
  EXPECT_EQ(page.text("#side"), "O");
  EXPECT_EQ(page.text("#value"), "loss in 4");
  EXPECT_EQ(page.eval("document.getElementById('value').dataset.outcome"), "loss");
  EXPECT_NE(page.eval("location.hash").get<std::string>().find("key="), std::string::npos);
  const std::string shot = dir / "explorer.png";
  EXPECT_GT(page.screenshot(shot), 10000u);

  page.click("#back");
  ASSERT_TRUE(page.wait_for("document.getElementById('key').textContent === '" + key + "'"));
  EXPECT_EQ(page.text("#value"), "win in 5");

  // A malformed state: a clear error, and the position shown stays.
  page.eval("document.getElementById('state-input').value = 'XXXX'");
  page.click("#state-go");
  ASSERT_TRUE(page.wait_for("!document.getElementById('error').hidden")) << "no error shown";
  EXPECT_NE(page.text("#error").find("cannot read state 'XXXX'"), std::string::npos)
      << page.text("#error");
  EXPECT_EQ(page.text("#key"), key);

  // The charts, drawn by the system's chart.js (where it is installed).
  if (system_chart_js().empty()) return;
  page.click("#show-charts");
  ASSERT_TRUE(page.wait_for("window.Chart && window.Chart.getChart('chart-plies')"))
      << page.text("#charts-error");
  EXPECT_EQ(page.eval("getComputedStyle(document.getElementById('explore')).display"), "none");
  EXPECT_GT(page.screenshot(dir / "charts.png"), 10000u);

  // The plies chart's "log scale" box, clicked: its y axis turns logarithmic, and back.
  const std::string plies_axis = "window.Chart.getChart('chart-plies').scales.y.type";
  EXPECT_EQ(page.eval(plies_axis), "linear");
  page.click("#plies-log");
  ASSERT_TRUE(page.wait_for(plies_axis + " === 'logarithmic'")) << "the box changed no axis";
  EXPECT_GT(page.screenshot(dir / "charts-log.png"), 10000u);
  page.click("#plies-log");
  ASSERT_TRUE(page.wait_for(plies_axis + " === 'linear'"));
}

}  // namespace
}  // namespace zermelo
