// The explorer's HTTP side (`zermelo serve`): the single page and its scripts, chart.js from the
// system, and the JSON API under /api/, over cpp-httplib (Debian's libcpp-httplib-dev).
//
// It is kept apart from the Explorer so that what a request may ask is decided in one place
// and how it travels in another. Every handler turns a BadRequest into a 400 and any other error
// into a 500, each with a JSON body {"error": message}: a malformed request never ends the
// server. It listens on 127.0.0.1 unless told another address: a solved database is a file on
// this machine, not a service.
#pragma once
#include <memory>
#include <string>

#include "zermelo/serve/explorer.hpp"

namespace zermelo {

class ExplorerServer {
 public:
  explicit ExplorerServer(Explorer& explorer);
  ~ExplorerServer();
  ExplorerServer(const ExplorerServer&) = delete;
  ExplorerServer& operator=(const ExplorerServer&) = delete;

  // Binds host:port (port 0: a free port) and returns the port; throws if it cannot.
  int bind(const std::string& host, int port);
  // Answers requests until stop() (from another thread or a handler).
  void run();
  void stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Where Debian's libjs-chart.js puts the script the charts view loads ("" if it is not there).
std::string system_chart_js();

}  // namespace zermelo
