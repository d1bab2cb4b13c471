// The explorer on a socket: cpp-httplib (Debian's libcpp-httplib) parses HTTP; every request
// goes to an Explorer (server/explorer.hpp). Limits: docs/API.md, "Limits".
#pragma once
#include <memory>
#include <string>

#include "dtb/rules/expected.hpp"
#include "dtb/server/explorer.hpp"

namespace dtb::server {

inline constexpr int kDefaultThreads = 32;

struct HttpOptions {
    std::string host = "127.0.0.1";
    int port = 8080;  // 0: any free port (port() says which)
    int threads = 0;  // connections served at once (each keep-alive connection holds one); 0: kDefaultThreads
};

class HttpServer {
  public:
    // Binds the socket (errors name the address: in use, not an address of this machine).
    static Expected<std::unique_ptr<HttpServer>> bind(const Explorer& explorer, const HttpOptions& options);
    ~HttpServer();
    HttpServer(const HttpServer&) = delete;
    HttpServer& operator=(const HttpServer&) = delete;

    int port() const;
    // Answers requests until stop() (from any thread); then returns.
    void run();
    void stop();

  private:
    struct Impl;
    explicit HttpServer(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> impl_;
};

}  // namespace dtb::server
