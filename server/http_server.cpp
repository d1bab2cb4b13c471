#include "dtb/server/http_server.hpp"

#include <httplib.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <thread>

namespace dtb::server {

struct HttpServer::Impl {
    const Explorer& explorer;
    httplib::Server http;
    int port = 0;
    explicit Impl(const Explorer& e) : explorer(e) {}
};

namespace {

void send(const Response& r, httplib::Response& res) {
    res.status = r.status;
    if (r.cross_origin) res.set_header("Access-Control-Allow-Origin", "*");
    res.set_header("Cache-Control", r.cacheable ? "public, max-age=86400" : "no-cache");
    res.set_header("X-Content-Type-Options", "nosniff");
    res.set_content(r.body, r.content_type.c_str());
}

// Parameters as the explorer takes them: the first value of each name.
Explorer::Params params_of(const httplib::Request& req) {
    Explorer::Params params;
    for (const auto& [name, value] : req.params) params.emplace(name, value);
    return params;
}

const char* reason_of(int status) {
    switch (status) {
        case 400:
            return "bad request";
        case 404:
            return "not found";
        case 405:
            return "method not allowed";
        case 413:
            return "the body is larger than 1 MB";
        case 414:
            return "the URL is longer than 8 KB";
        case 431:
            return "the headers are larger than 8 KB";
        default:
            return status >= 500 ? "server error" : "error";
    }
}

}  // namespace

Expected<std::unique_ptr<HttpServer>> HttpServer::bind(const Explorer& explorer, const HttpOptions& options) {
    auto impl = std::make_unique<Impl>(explorer);
    httplib::Server& http = impl->http;
    // cpp-httplib gives each connection a thread while it is kept alive: the pool bounds the
    // connections served at once, not the cores used.
    const int threads = options.threads > 0 ? options.threads : kDefaultThreads;
    http.new_task_queue = [threads] { return new httplib::ThreadPool(static_cast<std::size_t>(threads)); };
    http.set_payload_max_length(kMaxBodyBytes);
    http.set_read_timeout(5, 0);
    http.set_write_timeout(5, 0);
    http.set_keep_alive_timeout(5);
    http.set_keep_alive_max_count(1000);
    http.set_tcp_nodelay(true);  // headers and body go out in two writes: no Nagle delay between them
    const Explorer* e = &explorer;
    http.Get(R"(/.*)",
             [e](const httplib::Request& req, httplib::Response& res) { send(e->get(req.path, params_of(req)), res); });
    http.Post(R"(/.*)", [e](const httplib::Request& req, httplib::Response& res) {
        send(e->post(req.path, req.body, params_of(req)), res);
    });
    const httplib::Server::Handler other_method = [](const httplib::Request&, httplib::Response& res) {
        send(error_response(405, "the API takes GET, and POST for games"), res);
    };
    http.Put(R"(/.*)", other_method);
    http.Delete(R"(/.*)", other_method);
    http.Patch(R"(/.*)", other_method);
    // What the library answers itself (a URL or a body over its limit, a malformed request)
    // gets a JSON body too.
    http.set_error_handler([](const httplib::Request&, httplib::Response& res) {
        if (!res.body.empty()) return;
        send(error_response(res.status, reason_of(res.status)), res);
    });
    http.set_exception_handler([](const httplib::Request&, httplib::Response& res, std::exception_ptr) {
        send(error_response(500, "internal error"), res);
    });
    if (options.port == 0) {
        const int port = http.bind_to_any_port(options.host.c_str());
        if (port <= 0)
            return Error{"cannot listen on " + options.host + ": no free port or not an address of this machine",
                         ErrorKind::system};
        impl->port = port;
    } else {
        if (!http.bind_to_port(options.host.c_str(), options.port))
            return Error{"cannot listen on " + options.host + ":" + std::to_string(options.port) +
                             " (in use, or not an address of this machine)",
                         ErrorKind::system};
        impl->port = options.port;
    }
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
    impl_->http.listen_after_bind();
}
void HttpServer::stop() {
    impl_->http.stop();
}

}  // namespace dtb::server
