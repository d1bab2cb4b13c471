// The explorer's API without HTTP: a request (method, path, parameters, body) in, a response
// (status, JSON or a static file) out. server/http_server.cpp puts it on a socket; tests and
// the fuzz target call it directly. docs/API.md is the contract.
#pragma once
#include <cstddef>
#include <filesystem>
#include <map>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

#include "dtb/probe/probe.hpp"

namespace dtb::server {

struct Response {
    int status = 200;
    std::string content_type = "application/json";
    std::string body;
    bool cacheable = false;     // the same request gives the same answer while the tables stay
    bool cross_origin = false;  // other sites may read it (GET answers of the API)
    std::string allow;          // a 405's methods the path takes (empty: GET, HEAD, POST)
};

// The solve route's bounds on one request (docs/API.md, "Limits"): the time it gets when it names
// none, the most it may name (more is cut to it), and its transposition table.
struct SolveLimits {
    double default_seconds = 5;
    double max_seconds = 30;
    std::size_t memory_mb = 64;
    // The time of a request that names none: the default, within the limit.
    double default_time() const { return default_seconds < max_seconds ? default_seconds : max_seconds; }
};
// The shortest time limit a solve request may name.
inline constexpr double kMinSolveSeconds = 0.001;

struct ExplorerOptions {
    std::filesystem::path tables = "data/tb";  // one folder per variant: tables/international, ...
    std::size_t cache_mb = 64;                 // block cache of each variant's handle
    SolveLimits solve;
};

// The largest body POST /api/v1/international/games takes, and the most it judges at once: the
// games, and the positions they follow (each move's, and each start).
inline constexpr std::size_t kMaxBodyBytes = std::size_t{1} << 20;
inline constexpr std::size_t kMaxGamesPerRequest = 1000;
inline constexpr std::size_t kMaxPositionsPerRequest = 20000;

class Explorer {
  public:
    // Never fails: a variant whose folder is missing or holds no tables is served with a clear
    // "no <variant> tables on this server" answer.
    explicit Explorer(const ExplorerOptions& options);

    using Params = std::map<std::string, std::string, std::less<>>;
    // `stop`: a solve ends when it is requested (the client gone, the server stopping), with
    // "stopped": "cancelled"; the other routes do not look at it.
    Response get(std::string_view path, const Params& params, std::stop_token stop = {}) const;
    Response post(std::string_view path, std::string_view body, const Params& params = {}) const;

    // GET /api/v1/status's object.
    std::string status_json() const;

  private:
    struct Variant {
        VariantId id;
        std::filesystem::path folder;
        std::optional<probe::Tablebase> tables;  // absent: no tables (why: `missing`)
        std::string missing;
        int slices = 0;
        int largest_pieces = 0;
    };
    const Variant* variant_named(std::string_view name) const;
    const Variant* variant_of(VariantId id) const;
    // A failed probe's answer: 422 beyond the tables' piece count, 400 illegal, 503 a table
    // missing or corrupt; the message names tables relative to the tables folder.
    Response probe_failure(const Variant& v, const Position& p, const probe::Result& r) const;
    // A failure within the tables' reach: 400 illegal, 503 a table missing or corrupt.
    Response table_failure(const Variant& v, const Position& p, const probe::Result& r) const;
    Response probe_position(const Variant& v, const Params& params) const;
    Response adjudicate_position(const Variant& v, const Params& params) const;
    Response solve_position(const Variant& v, const Params& params,
                            std::stop_token stop) const;  // server/solve_route.cpp
    Response judge_games(const Variant& v, std::string_view body, const Params& params) const;
    std::vector<std::unique_ptr<Variant>> variants_;
    SolveLimits solve_limits_;
};

// Whether a GET of `path` may search (the adjudicate and solve routes): the HTTP server answers
// those on its judging pool, as it does games, never on a connection's thread.
bool searching_route(std::string_view path);

// {"error": message} with a status.
Response error_response(int status, const std::string& message);
// An API answer: `j` as JSON, readable from any origin.
Response json_response(const nlohmann::json& j, bool cacheable);

}  // namespace dtb::server
