// The explorer on a socket: an event-driven HTTP/1.1 server (Boost.Beast over Asio, Debian's
// libboost-dev) in front of an Explorer (server/explorer.hpp). A connection holds a thread only
// while its request is answered, never while it is read or written, so slow clients cannot take
// the threads; games, adjudications and solves are judged on a pool of its own with a bounded
// queue. Limits: docs/API.md, "Limits".
#pragma once
#include <chrono>
#include <cstddef>
#include <memory>
#include <string>

#include "dtb/rules/expected.hpp"
#include "dtb/server/explorer.hpp"

namespace dtb::server {

inline constexpr int kDefaultThreads = 8;
// The request line's target, and the header fields together.
inline constexpr std::size_t kMaxTargetBytes = 8 * 1024;
inline constexpr std::size_t kMaxHeaderBytes = 8 * 1024;
// A whole request, header and body, from the moment the server waits for it (the connection's
// start, or the end of the previous answer on a keep-alive connection).
inline constexpr std::chrono::seconds kRequestDeadline{10};
inline constexpr std::chrono::seconds kWriteDeadline{10};
inline constexpr int kMaxRequestsPerConnection = 1000;
// Connections open at once; more are closed as they arrive (the process's file limit may lower it).
inline constexpr int kMaxConnections = 4096;
// Requests of games (POST), adjudications and solves waiting for or being judged; more are
// answered 503 with Retry-After.
inline constexpr int kMaxQueuedJudgements = 16;

struct HttpOptions {
    std::string host = "127.0.0.1";
    int port = 8080;          // 0: any free port (port() says which)
    int threads = 0;          // threads answering requests; 0: kDefaultThreads
    int judging_threads = 0;  // threads judging games, adjudications, solves; 0: the machine's cores (at least 1)
    std::chrono::milliseconds request_deadline = kRequestDeadline;
    std::chrono::milliseconds write_deadline = kWriteDeadline;
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
