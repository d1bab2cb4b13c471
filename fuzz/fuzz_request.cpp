// libFuzzer target: the explorer's requests (server/explorer.hpp), without HTTP. The input is
// split at NUL bytes into a method ('G' or 'P'), a path, parameter names and values in turn, and
// (for POST) a body. Properties besides "no crash": the status is one of those docs/API.md
// lists (never 500), and every JSON answer parses, an error being {"error": "..."}. The tables
// are those of $DTB_FUZZ_TABLES (a folder as dtb serve --tables takes), else none: input is
// checked before tables, so most paths run either way.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "dtb/server/explorer.hpp"

namespace {

[[noreturn]] void fail(const char* what, const std::string& detail) {
    std::fprintf(stderr, "fuzz_request: %s: %s\n", what, detail.c_str());
    std::abort();
}

const dtb::server::Explorer& explorer() {
    static const dtb::server::Explorer e([] {
        dtb::server::ExplorerOptions o;
        const char* tables = std::getenv("DTB_FUZZ_TABLES");
        o.tables = tables ? tables : "/nonexistent-dtb-fuzz-tables";
        o.cache_mb = 4;
        // A solve searches briefly, in a small table: inputs stay quick to run.
        o.solve = {.default_seconds = 0.01, .max_seconds = 0.01, .memory_mb = 1};
        return o;
    }());
    return e;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::vector<std::string> parts(1);
    for (std::size_t i = 0; i < size && parts.size() < 16; ++i) {
        if (data[i] == 0)
            parts.emplace_back();
        else
            parts.back() += static_cast<char>(data[i]);
    }
    const bool post = !parts[0].empty() && parts[0][0] == 'P';
    const std::string path = parts.size() > 1 ? parts[1] : "/";
    dtb::server::Response r;
    if (post) {
        r = explorer().post(path, parts.size() > 2 ? parts[2] : std::string());
    } else {
        dtb::server::Explorer::Params params;
        for (std::size_t k = 2; k + 1 < parts.size(); k += 2) params.emplace(parts[k], parts[k + 1]);
        r = explorer().get(path, params);
    }
    static const int allowed[] = {200, 400, 404, 405, 413, 503};
    bool known = false;
    for (int s : allowed) known = known || r.status == s;
    if (!known) fail("unexpected status", std::to_string(r.status) + " for " + path);
    if (r.content_type.rfind("application/json", 0) == 0) {
        const auto j = nlohmann::json::parse(r.body, nullptr, false);
        if (j.is_discarded()) fail("answer is not JSON", r.body.substr(0, 200));
        if (r.status != 200 && !(j.is_object() && j.contains("error") && j["error"].is_string()))
            fail("error without an error message", r.body.substr(0, 200));
    }
    return 0;
}
