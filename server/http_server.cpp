#include "dtb/server/http_server.hpp"

#include <malloc.h>
#include <sys/resource.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <map>
#include <mutex>
#include <optional>
#include <stop_token>
#include <thread>
#include <vector>

#include "dtb/server/gzip.hpp"
#include "dtb/server/static_files.hpp"
#include "dtb/server/url.hpp"

namespace dtb::server {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;

namespace {

// Answers below this size go uncompressed: gzip would save little and cost a call.
constexpr std::size_t kGzipFrom = 1024;
constexpr int kGzipLevel = 6;
// A POST body from this size gives its memory back to the system once answered.
constexpr std::size_t kTrimFrom = 64 * 1024;
// After a last answer, what the client still sends is read and dropped, up to these bounds.
constexpr std::chrono::seconds kDrainTime{2};
constexpr std::size_t kMaxDrainBytes = 8 << 20;
// While a request is judged, what the client sends (a pipelined request) is kept for later, up
// to this; beyond it the connection is no longer watched for its end.
constexpr std::size_t kMaxWatchedBytes = 64 * 1024;

bool compressible(std::string_view content_type) {
    return content_type.starts_with("text/") || content_type.starts_with("application/json") ||
           content_type.starts_with("application/javascript") || content_type.starts_with("image/svg");
}

}  // namespace

// What every connection shares: the explorer, the pools, the counters, the page's files gzipped.
struct Shared {
    const Explorer& explorer;
    std::atomic<int> connections{0};
    std::atomic<int> queued_judgements{0};
    int max_connections = kMaxConnections;
    std::chrono::milliseconds request_deadline = kRequestDeadline;
    std::chrono::milliseconds write_deadline = kWriteDeadline;
    std::mutex gzipped_mutex;
    std::map<std::string, std::string, std::less<>> gzipped;  // static files by path
    std::atomic<std::size_t> next_context{0};
    // Requested when the server stops: the judgements still running end (a solve at once).
    std::stop_source stopping;
    // Last, so that they go first: the sessions they still hold touch the members above. One
    // context a thread: a connection stays on the thread that accepted it, and the threads share
    // no queue of handlers (a context shared by every thread serialises them on its lock).
    std::vector<std::unique_ptr<net::io_context>> contexts;
    net::thread_pool judging;

    Shared(const Explorer& e, int threads, int judging_threads)
        : explorer(e), judging(static_cast<std::size_t>(judging_threads)) {
        for (int i = 0; i < threads; ++i) contexts.push_back(std::make_unique<net::io_context>(1));
    }
    net::io_context& first() { return *contexts.front(); }
    // The context of the next connection, in turn.
    net::io_context& next() { return *contexts[next_context.fetch_add(1) % contexts.size()]; }

    // The gzip stream of a static file's body, made once.
    std::optional<std::string> gzipped_file(const std::string& path, const std::string& body) {
        std::lock_guard lock(gzipped_mutex);
        if (const auto it = gzipped.find(path); it != gzipped.end()) return it->second;
        auto z = gzip(body, kGzipLevel);
        if (z) gzipped.emplace(path, *z);
        return z;
    }
};

// The connection and the acceptor: named (not in an anonymous namespace) because the server's
// Impl holds the acceptor.
namespace connection {

// Beast's string_view as the standard one (they are the same type only under
// BOOST_BEAST_USE_STD_STRING_VIEW).
std::string_view view(beast::string_view s) {
    return {s.data(), s.size()};
}

// One connection: read a request (deadline for header and body together), answer it, and again
// while the client keeps it alive.
class Session : public std::enable_shared_from_this<Session> {
  public:
    Session(tcp::socket&& socket, Shared& shared) : stream_(std::move(socket)), shared_(shared) {
        ++shared_.connections;
    }
    ~Session() { --shared_.connections; }

    void start() {
        net::dispatch(stream_.get_executor(), beast::bind_front_handler(&Session::read_request, shared_from_this()));
    }

  private:
    using Request = http::request<http::string_body>;
    using Answer = http::response<http::string_body>;

    void read_request() {
        parser_.emplace();
        // The request line and the fields, each checked against its own limit once read; this
        // bound only stops a flood of header bytes.
        parser_->header_limit(static_cast<std::uint32_t>(kMaxTargetBytes + kMaxHeaderBytes + 512));
        parser_->body_limit(kMaxBodyBytes);
        stream_.expires_after(shared_.request_deadline);
        http::async_read_header(stream_, buffer_, *parser_,
                                beast::bind_front_handler(&Session::on_header, shared_from_this()));
    }

    void on_header(beast::error_code ec, std::size_t) {
        if (ec) return refuse_after_error(ec);
        const Request& req = parser_->get();
        if (req.target().size() > kMaxTargetBytes)
            return refuse(414, "the URL is longer than 8 KB (" + std::to_string(req.target().size()) + " bytes)");
        std::size_t field_bytes = 0;
        for (const auto& f : req) field_bytes += f.name_string().size() + f.value().size() + 4;
        if (field_bytes > kMaxHeaderBytes)
            return refuse(431, "the header fields are larger than 8 KB (" + std::to_string(field_bytes) + " bytes)");
        const http::verb method = req.method();
        if (method != http::verb::get && method != http::verb::head && method != http::verb::post)
            return refuse(405, "the API takes GET and HEAD, and POST for games");
        if (method == http::verb::post && beast::iequals(req[http::field::expect], "100-continue")) {
            continue_ = std::make_shared<http::response<http::empty_body>>(http::status::continue_, req.version());
            return http::async_write(stream_, *continue_,
                                     beast::bind_front_handler(&Session::on_continue, shared_from_this()));
        }
        read_body();
    }

    void on_continue(beast::error_code ec, std::size_t) {
        continue_.reset();
        if (ec) return close();
        read_body();
    }

    void read_body() {
        http::async_read(stream_, buffer_, *parser_, beast::bind_front_handler(&Session::on_body, shared_from_this()));
    }

    void on_body(beast::error_code ec, std::size_t) {
        if (ec) return refuse_after_error(ec);
        stream_.expires_never();
        Request req = parser_->release();
        parser_.reset();
        Target target = parse_target(view(req.target()));
        Asked asked{req.method() == http::verb::head, req.keep_alive() && ++requests_ < kMaxRequestsPerConnection,
                    accepts_gzip(view(req[http::field::accept_encoding])), req.version(), target.path};
        // A position's probe is answered here, at once. Games and the routes that search (the
        // adjudicate route, a solve: many positions expanded) go to the judging pool, so that they
        // never hold the thread of the connections that share it; at most kMaxQueuedJudgements
        // wait or run.
        const bool post = req.method() == http::verb::post;
        if (!post && !searching_route(target.path)) {
            send(shared_.explorer.get(target.path, target.params), asked);
            return;
        }
        if (shared_.queued_judgements.fetch_add(1) >= kMaxQueuedJudgements) {
            --shared_.queued_judgements;
            Response busy =
                error_response(503, "the server is judging " + std::to_string(kMaxQueuedJudgements) +
                                        " requests of games, adjudications or solves: try again in a few seconds");
            send(std::move(busy), asked, /*retry_after=*/true);
            return;
        }
        // The judgement ends early when the client goes (watch_client) or the server stops.
        auto cancel = std::make_shared<std::stop_source>();
        cancel_ = cancel;
        watch_client();
        net::post(shared_.judging, [self = shared_from_this(), asked = std::move(asked), target = std::move(target),
                                    body = std::move(req.body()), post, cancel]() mutable {
            Response r;
            {
                const std::stop_callback on_stop(self->shared_.stopping.get_token(), [&] { cancel->request_stop(); });
                r = post ? self->shared_.explorer.post(target.path, body, target.params)
                         : self->shared_.explorer.get(target.path, target.params, cancel->get_token());
            }
            const bool large = body.size() >= kTrimFrom || r.body.size() >= kTrimFrom;
            std::string().swap(body);
            --self->shared_.queued_judgements;
            net::post(self->stream_.get_executor(),
                      [self, r = std::move(r), asked = std::move(asked), large]() mutable {
                          self->judged(std::move(r), std::move(asked));
                          // What the judging built (the PDN, the JSON object) is freed by now: give
                          // it back to the system rather than leave it with the allocator.
                          if (large) ::malloc_trim(0);
                      });
        });
    }

    // While its request is judged, the connection is read for its end: a client that closes it
    // (or resets it) cancels the judgement, since no one will read the answer (a half-closed
    // connection looks the same: its solve ends early, and the answer is sent all the same).
    // What arrives meanwhile stays in the buffer for the next request.
    void watch_client() {
        watching_ = true;
        stream_.async_read_some(buffer_.prepare(4096),
                                beast::bind_front_handler(&Session::on_watched, shared_from_this()));
    }

    void on_watched(beast::error_code ec, std::size_t n) {
        watching_ = false;
        buffer_.commit(n);
        if (judged_) {  // the answer came first: the read was cancelled to send it
            Judged j = std::move(*judged_);
            judged_.reset();
            return send(std::move(j.response), j.asked);
        }
        if (ec) {
            if (ec != net::error::operation_aborted && cancel_) cancel_->request_stop();
            return;
        }
        if (buffer_.size() < kMaxWatchedBytes) watch_client();
    }

    struct Asked {
        bool head = false;
        bool keep_alive = false;
        bool gzip = false;
        unsigned version = 11;
        std::string path;
    };
    struct Judged {
        Response response;
        Asked asked;
    };

    // The judgement's answer, on the connection's thread: sent once no read is pending.
    void judged(Response r, Asked asked) {
        cancel_.reset();
        if (watching_) {
            judged_.emplace(Judged{std::move(r), std::move(asked)});
            stream_.cancel();
            return;
        }
        send(std::move(r), asked);
    }

    void send(Response r, const Asked& asked, bool retry_after = false) {
        auto answer = std::make_shared<Answer>(static_cast<http::status>(r.status), asked.version);
        answer->set(http::field::content_type, r.content_type);
        answer->set(http::field::cache_control, r.cacheable ? "public, max-age=86400" : "no-cache");
        answer->set("X-Content-Type-Options", "nosniff");
        if (r.cross_origin) answer->set(http::field::access_control_allow_origin, "*");
        if (r.status == 405) answer->set(http::field::allow, r.allow.empty() ? "GET, HEAD, POST" : r.allow);
        if (retry_after) answer->set(http::field::retry_after, "2");
        std::string body = std::move(r.body);
        if (compressible(r.content_type)) answer->set(http::field::vary, "Accept-Encoding");
        if (asked.gzip && body.size() >= kGzipFrom && compressible(r.content_type)) {
            // The page's files are compressed once; the API's answers each time.
            const bool static_file = r.status == 200 && find_static_file(asked.path) != nullptr;
            auto z = static_file ? shared_.gzipped_file(asked.path, body) : gzip(body, kGzipLevel);
            if (z) {
                body = std::move(*z);
                answer->set(http::field::content_encoding, "gzip");
            }
        }
        answer->keep_alive(asked.keep_alive);
        answer->content_length(body.size());
        if (!asked.head) answer->body() = std::move(body);
        write(std::move(answer), asked.keep_alive);
    }

    void write(std::shared_ptr<Answer> answer, bool keep_alive) {
        answer_ = std::move(answer);
        stream_.expires_after(shared_.write_deadline);
        // HEAD answers carry the body's length with no body: the serializer must not fix it.
        http::async_write(stream_, *answer_,
                          beast::bind_front_handler(&Session::on_written, shared_from_this(), keep_alive));
    }

    void on_written(bool keep_alive, beast::error_code ec, std::size_t) {
        answer_.reset();
        if (ec) return close();
        if (!keep_alive) return finish();
        read_request();
    }

    // The answer is out: stop sending, and read what the client still sends until it closes (a
    // bounded time and amount), so that closing with unread bytes does not reset the connection
    // and destroy the answer before the client has read it (a refused flood, an unread body).
    void finish() {
        beast::error_code ignored;
        stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
        stream_.expires_after(kDrainTime);
        drain();
    }
    void drain() {
        stream_.async_read_some(net::buffer(drain_buffer_),
                                [self = shared_from_this()](beast::error_code ec, std::size_t n) {
                                    self->drained_ += n;
                                    if (ec || self->drained_ > kMaxDrainBytes) return self->close();
                                    self->drain();
                                });
    }

    // An error answer that ends the connection (what follows the bad part cannot be read).
    void refuse(int status, const std::string& message) {
        Response r = error_response(status, message);
        Asked asked;
        asked.version = parser_ && parser_->is_header_done() ? parser_->get().version() : 11;
        asked.keep_alive = false;
        parser_.reset();
        send(std::move(r), asked);
    }

    void refuse_after_error(beast::error_code ec) {
        if (ec == http::error::header_limit || ec == http::error::buffer_overflow) {
            // The request line alone past its limit is a long URL; else the fields are too many.
            const auto bytes = static_cast<const char*>(buffer_.data().data());
            const std::string_view seen(bytes, buffer_.size());
            const std::size_t line_end = seen.find("\r\n");
            if (line_end == std::string_view::npos || line_end > kMaxTargetBytes + 32)
                return refuse(414, "the URL is longer than 8 KB");
            return refuse(431, "the header fields are larger than 8 KB");
        }
        if (ec == http::error::body_limit)
            return refuse(413, "the body is larger than 1 MB, the limit of a PDN body (split the PDN)");
        if (ec == http::error::end_of_stream || ec == net::error::eof || ec == beast::error::timeout ||
            ec == net::error::connection_reset || ec == net::error::operation_aborted || ec == net::error::broken_pipe)
            return close();
        return refuse(400, "malformed request: " + ec.message());
    }

    void close() {
        beast::error_code ignored;
        stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
        stream_.close();
    }

    beast::tcp_stream stream_;
    Shared& shared_;
    beast::flat_buffer buffer_;  // grows to the parser's header and body limits at most
    std::optional<http::request_parser<http::string_body>> parser_;
    std::shared_ptr<http::response<http::empty_body>> continue_;
    std::shared_ptr<Answer> answer_;
    std::shared_ptr<std::stop_source> cancel_;  // the judgement running for this connection
    bool watching_ = false;                     // watch_client's read is pending
    std::optional<Judged> judged_;              // an answer waiting for that read to end
    int requests_ = 0;
    std::array<char, 16384> drain_buffer_{};
    std::size_t drained_ = 0;
};

// Accepts connections while fewer than the limit are open; closes the others at once.
class Listener : public std::enable_shared_from_this<Listener> {
  public:
    Listener(Shared& shared, tcp::acceptor&& acceptor)
        : shared_(shared), acceptor_(std::move(acceptor)), retry_(shared.first()) {}

    void accept() {
        acceptor_.async_accept(shared_.next(), beast::bind_front_handler(&Listener::on_accept, shared_from_this()));
    }
    void close() {
        beast::error_code ignored;
        acceptor_.close(ignored);
        retry_.cancel();
    }

  private:
    void on_accept(beast::error_code ec, tcp::socket socket) {
        if (ec == net::error::operation_aborted || !acceptor_.is_open()) return;
        if (ec) {
            // Out of file descriptors or a transient error: try again shortly instead of spinning.
            retry_.expires_after(std::chrono::milliseconds(50));
            retry_.async_wait([self = shared_from_this()](beast::error_code e) {
                if (!e) self->accept();
            });
            return;
        }
        if (shared_.connections.load() >= shared_.max_connections) {
            beast::error_code ignored;
            socket.close(ignored);
        } else {
            socket.set_option(tcp::no_delay(true), ec);
            std::make_shared<Session>(std::move(socket), shared_)->start();
        }
        accept();
    }

    Shared& shared_;
    tcp::acceptor acceptor_;
    net::steady_timer retry_;
};

}  // namespace connection

namespace {

// The connections the process may hold: the limit, under the file limit raised to its hard cap.
int connection_limit() {
    rlimit limit{};
    if (::getrlimit(RLIMIT_NOFILE, &limit) != 0) return 256;
    if (limit.rlim_cur < limit.rlim_max) {
        limit.rlim_cur = limit.rlim_max;
        ::setrlimit(RLIMIT_NOFILE, &limit);
        ::getrlimit(RLIMIT_NOFILE, &limit);
    }
    const auto usable = static_cast<long long>(limit.rlim_cur) - 64;
    return static_cast<int>(std::clamp<long long>(usable, 16, kMaxConnections));
}

}  // namespace

struct HttpServer::Impl {
    Shared shared;
    std::shared_ptr<connection::Listener> listener;
    int port = 0;
    Impl(const Explorer& e, int threads, int judging_threads) : shared(e, threads, judging_threads) {}
    ~Impl() {
        for (auto& c : shared.contexts) c->stop();
        shared.judging.stop();
        shared.judging.join();
    }
};

Expected<std::unique_ptr<HttpServer>> HttpServer::bind(const Explorer& explorer, const HttpOptions& options) {
    const int cores = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
    auto impl = std::make_unique<Impl>(explorer, options.threads > 0 ? options.threads : kDefaultThreads,
                                       options.judging_threads > 0 ? options.judging_threads : cores);
    impl->shared.max_connections = connection_limit();
    impl->shared.request_deadline = options.request_deadline;
    impl->shared.write_deadline = options.write_deadline;
    const std::string where = options.host + ":" + std::to_string(options.port);
    beast::error_code ec;
    tcp::resolver resolver(impl->shared.first());
    const auto found = resolver.resolve(options.host, std::to_string(options.port),
                                        tcp::resolver::numeric_service | tcp::resolver::passive, ec);
    if (ec || found.empty())
        return Error{"cannot listen on " + where + ": not an address of this machine (" + ec.message() + ")",
                     ErrorKind::system};
    const tcp::endpoint endpoint = found.begin()->endpoint();
    tcp::acceptor acceptor(impl->shared.first());
    acceptor.open(endpoint.protocol(), ec);
    if (!ec) acceptor.set_option(net::socket_base::reuse_address(true), ec);
    if (!ec) acceptor.bind(endpoint, ec);
    if (!ec) acceptor.listen(net::socket_base::max_listen_connections, ec);
    if (ec)
        return Error{"cannot listen on " + where + " (in use, or not an address of this machine: " + ec.message() + ")",
                     ErrorKind::system};
    impl->port = acceptor.local_endpoint().port();
    impl->listener = std::make_shared<connection::Listener>(impl->shared, std::move(acceptor));
    impl->listener->accept();
    return std::unique_ptr<HttpServer>(new HttpServer(std::move(impl)));
}

HttpServer::HttpServer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
HttpServer::~HttpServer() {
    stop();
}
int HttpServer::port() const {
    return impl_->port;
}
void HttpServer::run() {
    auto& contexts = impl_->shared.contexts;
    std::vector<net::executor_work_guard<net::io_context::executor_type>> work;
    for (auto& c : contexts) work.push_back(net::make_work_guard(*c));
    std::vector<std::thread> others;
    for (std::size_t i = 1; i < contexts.size(); ++i) others.emplace_back([c = contexts[i].get()] { c->run(); });
    contexts.front()->run();
    for (std::thread& t : others) t.join();
}
void HttpServer::stop() {
    impl_->shared.stopping.request_stop();
    net::post(impl_->shared.first(), [listener = impl_->listener] { listener->close(); });
    for (auto& c : impl_->shared.contexts) c->stop();
}

}  // namespace dtb::server
