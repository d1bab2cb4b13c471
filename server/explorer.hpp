// The explorer's API without HTTP: a request (method, path, parameters, body) in, a response
// (status, JSON or a static file) out. server/http_server.cpp puts it on a socket; tests and
// the fuzz target call it directly. docs/API.md is the contract.
#pragma once
#include <cstddef>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
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

struct ExplorerOptions {
    std::filesystem::path tables = "data/tb";  // one folder per variant: tables/international, ...
    std::size_t cache_mb = 64;                 // block cache of each variant's handle
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
    Response get(std::string_view path, const Params& params) const;
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
    // A failed probe's answer: 422 beyond the tables' piece count, 400 illegal, 503 a table
    // missing or corrupt; the message names tables relative to the tables folder.
    Response probe_failure(const Variant& v, const Position& p, const probe::Result& r) const;
    Response probe_position(const Variant& v, const Params& params) const;
    Response adjudicate_position(const Variant& v, const Params& params) const;
    Response judge_games(const Variant& v, std::string_view body, const Params& params) const;
    std::vector<std::unique_ptr<Variant>> variants_;
};

// {"error": message} with a status.
Response error_response(int status, const std::string& message);

}  // namespace dtb::server
