// dtb serve: the explorer (docs/API.md) on HTTP until Ctrl-C or SIGTERM.
#include <pthread.h>
#include <signal.h>

#include <iostream>
#include <thread>

#include "dtb/server/http_server.hpp"
#include "dtb/tools/arguments.hpp"
#include "dtb/tools/commands.hpp"

namespace dtb::tools {

namespace {

int run_serve(const ServeOptions& o) {
    server::ExplorerOptions eo;
    eo.tables = probe::tables_root(o.tables);
    eo.cache_mb = o.cache_mb;
    eo.solve.max_seconds = o.solve_time_limit;
    eo.solve.memory_mb = o.solve_memory_mb;
    const server::Explorer explorer(eo);
    // SIGINT and SIGTERM are taken by a thread of their own (sigwait), so every thread the
    // server starts has them blocked and the stop happens outside any handler.
    sigset_t stop_signals;
    sigemptyset(&stop_signals);
    sigaddset(&stop_signals, SIGINT);
    sigaddset(&stop_signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
    server::HttpOptions ho;
    ho.host = o.host;
    ho.port = o.port;
    ho.threads = o.threads;
    auto http = server::HttpServer::bind(explorer, ho);
    if (!http) {
        print_error("serve", http.error());
        return exit_code_of(http.error_kind());
    }
    server::HttpServer& s = **http;
    std::thread waiter([&] {
        int sig = 0;
        sigwait(&stop_signals, &sig);
        s.stop();
    });
    const std::string url = "http://" + (o.host.find(':') != std::string::npos ? "[" + o.host + "]" : o.host) + ":" +
                            std::to_string(s.port()) + "/";
    std::cerr << "dtb serve: " << escape_text(explorer.status_json()) << "\n"
              << "dtb serve: listening on " << url << " (open it in a browser; Ctrl-C stops)" << std::endl;
    s.run();
    // Stopped by the waiter, or the server ended on its own: wake the waiter either way.
    pthread_kill(waiter.native_handle(), SIGTERM);
    waiter.join();
    std::cerr << "dtb serve: stopped" << std::endl;
    return kExitOk;
}

}  // namespace

void add_serve_command(CLI::App& app, ServeOptions& o, std::function<int()>& action) {
    auto* cmd = app.add_subcommand("serve", "The explorer: a web page and a JSON API over the tables (docs/API.md)");
    cmd->add_option("--tables", o.tables,
                    "Tables root holding international/ and turkish/ (default $DTB_TABLES, else data/tb)")
        ->check(not_empty());
    cmd->add_option("--host", o.host, "Address to listen on (default 127.0.0.1: this machine only)")
        ->check(not_empty());
    cmd->add_option("--port", o.port, "Port (default 8080; 0: any free port, printed)")->check(integer_in(0, 65535));
    cmd->add_option("--threads", o.threads,
                    "Threads answering requests (default 0: 8); a connection holds one only while its request is "
                    "answered, never while a slow client sends or reads")
        ->check(integer_in(0, gen::kMaxThreads));
    cmd->add_option("--cache-mb", o.cache_mb, "Block cache per variant in MB (default 64)")
        ->check(integer_in(0, 1 << 20));
    cmd->add_option("--solve-time-limit", o.solve_time_limit,
                    "Most seconds a solve request may search (default 30); a longer time asked is cut to it")
        ->check(decimal_in(server::kMinSolveSeconds, 86400));
    cmd->add_option("--solve-memory", o.solve_memory_mb, "Transposition table of one solve in MB (default 64)")
        ->check(integer_in(1, 1 << 16));
    cmd->footer(
        "API: GET /api/v1/status, GET /api/v1/{international|turkish}?fen=FEN\n"
        "(international: &rules=&reversible=&endgame=&small= add the counters after each move),\n"
        "GET /api/v1/international/adjudicate?fen=&rules=&reversible=&endgame=&small=,\n"
        "GET /api/v1/{international|turkish}/solve?fen=&time= (a proof search beyond the tables),\n"
        "POST /api/v1/international/games (PDN body). docs/API.md has the objects.\n"
        "Exit codes: 0 stopped by Ctrl-C or SIGTERM; 2 bad arguments; 5 cannot listen.");
    cmd->callback([&o, &action]() { action = [&o]() { return run_serve(o); }; });
}

}  // namespace dtb::tools
