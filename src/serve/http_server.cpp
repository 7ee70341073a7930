// The explorer over HTTP (http_server.hpp).
#include "zermelo/serve/http_server.hpp"

#include <httplib.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "zermelo/serve/web_assets.hpp"

namespace zermelo {
namespace {

using nlohmann::json;

constexpr const char* kJson = "application/json";

void send_json(httplib::Response& res, int status, const json& body) {
  res.status = status;
  // Replaced rather than failing: a state's text may carry bytes that are not UTF-8.
  res.set_content(body.dump(-1, ' ', false, json::error_handler_t::replace), kJson);
}

// An API handler: its answer, a 400 for a BadRequest, a 500 for anything else, never a throw.
httplib::Server::Handler api(std::function<json(const Explorer::Params&)> answer) {
  return [answer = std::move(answer)](const httplib::Request& req, httplib::Response& res) {
    try {
      Explorer::Params params;
      for (auto& [name, value] : req.params) {
        if (params.count(name))
          throw BadRequest("the parameter " + name.substr(0, 40) + " is given twice");
        params[name] = value;
      }
      send_json(res, 200, answer(params));
    } catch (const BadRequest& e) {
      send_json(res, 400, {{"error", e.what()}});
    } catch (const std::exception& e) {
      send_json(res, 500, {{"error", e.what()}});
    }
  };
}

const WebAsset* asset(std::string_view name) {
  for (const WebAsset& a : web_assets())
    if (a.name == name) return &a;
  return nullptr;
}

void send_asset(httplib::Response& res, std::string_view name) {
  const WebAsset* a = asset(name);
  if (!a) {
    res.status = 404;
    res.set_content("no such file: " + std::string(name), "text/plain");
    return;
  }
  res.set_content(std::string(a->body), std::string(a->content_type));
}

std::string file_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}

}  // namespace

std::string system_chart_js() {
  // Debian's libjs-chart.js: chart.min.js in 3.x, chart.umd.js from 4.x.
  for (const char* p : {"/usr/share/javascript/chart.js/chart.umd.js",
                        "/usr/share/javascript/chart.js/chart.min.js",
                        "/usr/share/javascript/chart.js/Chart.min.js"})
    if (std::filesystem::exists(p)) return p;
  return "";
}

struct ExplorerServer::Impl {
  Explorer& explorer;
  httplib::Server server;
};

ExplorerServer::ExplorerServer(Explorer& explorer) : impl_(new Impl{explorer, {}}) {
  httplib::Server& s = impl_->server;
  Explorer& e = impl_->explorer;
  // An answer goes out as headers, then body: with Nagle's algorithm the body waits for the
  // client's delayed ACK of the headers, 40 ms a click.
  s.set_tcp_nodelay(true);
  s.Get("/",
        [](const httplib::Request&, httplib::Response& res) { send_asset(res, "index.html"); });
  s.Get(R"(/static/([A-Za-z0-9_.-]+))", [](const httplib::Request& req, httplib::Response& res) {
    send_asset(res, req.matches[1].str());
  });
  s.Get("/chart.js", [](const httplib::Request&, httplib::Response& res) {
    const std::string path = system_chart_js();
    if (path.empty()) {
      res.status = 404;
      res.set_content("chart.js is not installed here (Debian: apt-get install libjs-chart.js)",
                      "text/plain");
      return;
    }
    res.set_content(file_text(path), "text/javascript; charset=utf-8");
  });
  s.Get("/api/game", api([&e](const Explorer::Params&) { return e.game(); }));
  s.Get("/api/position", api([&e](const Explorer::Params& p) { return e.position(p); }));
  s.Get("/api/line", api([&e](const Explorer::Params& p) { return e.line(p); }));
  s.Get("/api/tables", api([&e](const Explorer::Params&) { return e.tables(); }));
  s.Get(R"(/api/.*)", [](const httplib::Request& req, httplib::Response& res) {
    send_json(res, 404,
              {{"error", "no such API: " + req.path.substr(0, 80) +
                             " (there are /api/game, /api/position, /api/line, "
                             "/api/tables)"}});
  });
  // What cpp-httplib refuses itself (no such page, a path too long, a request it cannot read)
  // gets a message too; the answers above already carry theirs.
  s.set_error_handler(
      httplib::Server::HandlerWithResponse([](const httplib::Request& req, httplib::Response& res) {
        if (!res.body.empty()) return httplib::Server::HandlerResponse::Unhandled;
        const std::string path = req.path.substr(0, 80);
        const std::string what = res.status == 404
                                     ? "no such page: " + path
                                     : "HTTP " + std::to_string(res.status) + " for " + path;
        send_json(res, res.status, {{"error", what}});
        return httplib::Server::HandlerResponse::Handled;
      }));
}

ExplorerServer::~ExplorerServer() { stop(); }

int ExplorerServer::bind(const std::string& host, int port) {
  httplib::Server& s = impl_->server;
  const int bound = port == 0 ? s.bind_to_any_port(host) : (s.bind_to_port(host, port) ? port : -1);
  if (bound < 0)
    throw std::runtime_error("cannot listen on " + host + ":" + std::to_string(port) +
                             " (in use, or not an address of this machine)");
  return bound;
}

void ExplorerServer::run() { impl_->server.listen_after_bind(); }

void ExplorerServer::stop() { impl_->server.stop(); }

}  // namespace zermelo
