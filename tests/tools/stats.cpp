// `dtb stats` as a user runs it, on tables up to 3 pieces made by `dtb gen`: the JSON fields,
// counts checked against an enumeration that uses neither the index nor the tables, example
// positions checked by `dtb probe`, determinism across thread counts, and exit codes.
#include <catch2/catch.hpp>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <tuple>

#include "dtb/index/material.hpp"
#include "dtb/index/placement.hpp"
#include "dtb/rules/fen.hpp"
#include "dtb/rules/movegen.hpp"
#include "tests/support/tools_stats_support.hpp"

using namespace dtb;
using namespace dtb::test;
using nlohmann::json;

namespace {

// Tables up to 3 pieces of variant R, made once per process.
template <class R>
const fs::path& tables3() {
    static const TempDir dir(std::string(R::kName) + "_3");
    static const bool made = [] {
        const RunResult r = run_dtb(
            {"gen", "--variant", std::string(R::kName), "--pieces", "3", "--threads", "1", "--out", dir.path.string()});
        if (r.exit_code != 0) throw std::runtime_error("dtb gen failed: " + r.err);
        return true;
    }();
    (void)made;
    return dir.path;
}

template <class R>
json stats_of(const fs::path& dir, const std::vector<std::string>& extra = {}) {
    std::vector<std::string> args{"stats", "--variant", std::string(R::kName), "--db", dir.string(), "--json"};
    args.insert(args.end(), extra.begin(), extra.end());
    const RunResult r = run_dtb(args);
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    return json::parse(r.out);
}

// Positions of the slice with `stm` to move, and how many of them have a capture, by enumerating
// placements square by square (pieces of one kind on ascending squares).
template <class R>
std::pair<std::uint64_t, std::uint64_t> enumerate(const Material& m, Color stm) {
    using G = typename R::Geometry;
    std::uint64_t positions = 0, captures = 0;
    const int counts[4] = {m.wk, m.wm, m.bk, m.bm};
    Position p;
    p.side_to_move = stm;
    auto place = [&](auto&& self, int kind, int left, int from) -> void {
        if (left == 0) {
            if (kind == 3) {
                ++positions;
                captures += has_capture<R>(p);
                return;
            }
            self(self, kind + 1, counts[kind + 1], 0);
            return;
        }
        const Color c = kind < 2 ? Color::white : Color::black;
        const bool king = kind % 2 == 0;
        const Bitboard allowed = king ? G::kPlayable : men_squares<R>(c);
        for (int d = from; d < G::kNumSquares; ++d) {
            const int sq = G::bit_of_dense(d);
            if (!(allowed & bit(sq)) || (p.occupied() & bit(sq))) continue;
            p.pieces[idx(c)] |= bit(sq);
            if (king) p.kings |= bit(sq);
            self(self, kind, left - 1, d + 1);
            p.pieces[idx(c)] &= ~bit(sq);
            p.kings &= ~bit(sq);
        }
    };
    place(place, 0, counts[0], 0);
    return {positions, captures};
}

template <class R>
void check_stats(const json& stats) {
    using G = typename R::Geometry;
    const auto& slices = stats.at("slices");
    const auto materials = all_materials<R>(3);
    REQUIRE(slices.size() == 2 * materials.size());
    std::map<std::pair<std::string, std::string>, json> by_key;
    for (std::size_t i = 0; i < slices.size(); ++i) {
        const json& s = slices[i];
        const Material& m = materials[i / 2];
        INFO(s.dump());
        // Listed in generation order, White to move then Black; every field present.
        CHECK(s.size() == 22);
        CHECK(s.at("name") == m.name());
        CHECK(s.at("stm") == (i % 2 == 0 ? "white" : "black"));
        CHECK(s.at("wk") == m.wk);
        CHECK(s.at("wm") == m.wm);
        CHECK(s.at("bk") == m.bk);
        CHECK(s.at("bm") == m.bm);
        const std::uint64_t positions = s.at("positions");
        CHECK(s.at("win").get<std::uint64_t>() + s.at("draw").get<std::uint64_t>() +
                  s.at("loss").get<std::uint64_t>() ==
              positions);
        for (const char* v : {"win", "draw", "loss"})
            CHECK(s.at(std::string("quiet_") + v).get<std::uint64_t>() <= s.at(v).get<std::uint64_t>());
        const auto [count, captures] = enumerate<R>(m, i % 2 == 0 ? Color::white : Color::black);
        CHECK(positions == count);
        CHECK(s.at("quiet_win").get<std::uint64_t>() + s.at("quiet_draw").get<std::uint64_t>() +
                  s.at("quiet_loss").get<std::uint64_t>() ==
              count - captures);
        // A distance is null exactly when no position has that value; its FEN with it.
        CHECK(s.at("max_dtw").is_null() == (s.at("win") == 0));
        CHECK(s.at("max_dtc").is_null() == (s.at("win") == 0));
        CHECK(s.at("max_dtw_loss").is_null() == (s.at("loss") == 0));
        CHECK(s.at("max_dtc_loss").is_null() == (s.at("loss") == 0));
        for (const char* k : {"max_dtw", "max_dtc", "max_dtw_loss", "max_dtc_loss"}) {
            const json& fen = s.at(std::string(k) + "_fen");
            CHECK(fen.is_null() == s.at(k).is_null());
            if (fen.is_null()) continue;
            auto p = parse_fen<R>(fen.get<std::string>());
            REQUIRE(p);
            CHECK(to_fen<R>(*p) == fen.get<std::string>());
            CHECK(p->side_to_move == (i % 2 == 0 ? Color::white : Color::black));
            CHECK(Material::of(*p) == m);
        }
        CHECK(s.at("bytes").get<std::uint64_t>() > 0);
        by_key[{s.at("name"), s.at("stm")}] = s;
    }
    // (X, Black) is served by the table of mirror(X): the same numbers as (mirror(X), White), and
    // the example positions are their colour reversals.
    for (const Material& m : materials) {
        const json& b = by_key.at({m.name(), "black"});
        const json& w = by_key.at({m.mirrored().name(), "white"});
        INFO(m.name());
        for (const char* k : {"positions", "win", "draw", "loss", "quiet_win", "quiet_draw", "quiet_loss", "max_dtw",
                              "max_dtw_loss", "max_dtc", "max_dtc_loss", "bytes"})
            CHECK(b.at(k) == w.at(k));
        for (const char* k : {"max_dtw_fen", "max_dtw_loss_fen", "max_dtc_fen", "max_dtc_loss_fen"}) {
            if (b.at(k).is_null()) continue;
            CHECK(to_fen<R>(reversed<G>(*parse_fen<R>(b.at(k).get<std::string>()))) == w.at(k));
        }
    }
}

// Every example position, probed: its value is the one the statistics claim for it.
template <class R>
void check_examples_by_probe(const json& stats, const fs::path& db) {
    struct Claim {
        std::string fen, wdl, metric;
        int plies;
    };
    std::vector<Claim> claims;
    for (const json& s : stats.at("slices"))
        for (auto [k, wdl, metric] :
             {std::tuple{"max_dtw", "win", "dtw"}, std::tuple{"max_dtc", "win", "dtc"},
              std::tuple{"max_dtw_loss", "loss", "dtw"}, std::tuple{"max_dtc_loss", "loss", "dtc"}})
            if (!s.at(k).is_null())
                claims.push_back({s.at(std::string(k) + "_fen").template get<std::string>(), wdl, metric,
                                  s.at(k).template get<int>()});
    REQUIRE(!claims.empty());
    std::vector<std::string> args{"probe", "--variant", std::string(R::kName), "--db", db.string(), "--json"};
    for (const Claim& c : claims) args.push_back(c.fen);
    const RunResult r = run_dtb(args);
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    std::istringstream lines(r.out);
    std::string line;
    for (const Claim& c : claims) {
        REQUIRE(std::getline(lines, line));
        const json j = json::parse(line);
        INFO(c.fen << " " << c.metric << " " << c.plies << ": " << line);
        CHECK(j.at("wdl") == c.wdl);
        CHECK(j.at(c.metric) == c.plies);
    }
}

}  // namespace

TEST_CASE("dtb stats --json: fields, order and counts (international, up to 3 pieces)", "[tools][stats]") {
    const json stats = stats_of<International>(tables3<International>());
    check_stats<International>(stats);
    // Two kings: 50 * 49 placements; the long-diagonal opposition wins, White's king on 5 against
    // 46 loses in 2 plies.
    const json& kvk = stats.at("slices").at(0);
    CHECK(kvk.at("positions") == 2450);
    CHECK(kvk.at("max_dtw_loss") == 2);
}

TEST_CASE("dtb stats --json: fields, order and counts (turkish, up to 3 pieces)", "[tools][stats]") {
    const json stats = stats_of<Turkish>(tables3<Turkish>());
    check_stats<Turkish>(stats);
    CHECK(stats.at("slices").at(0).at("positions") == 64 * 63);
}

TEST_CASE("dtb stats: every example position has the value claimed for it", "[tools][stats]") {
    check_examples_by_probe<International>(stats_of<International>(tables3<International>()), tables3<International>());
    check_examples_by_probe<Turkish>(stats_of<Turkish>(tables3<Turkish>()), tables3<Turkish>());
}

TEST_CASE("dtb stats: the same output with 1 and 2 threads", "[tools][stats]") {
    const fs::path& db = tables3<International>();
    CHECK(stats_of<International>(db, {"--threads", "1"}) == stats_of<International>(db, {"--threads", "2"}));
}

TEST_CASE("dtb stats: the text table lists every slice for both sides to move", "[tools][stats]") {
    const RunResult r = run_dtb({"stats", "--db", tables3<International>().string()});
    REQUIRE(r.exit_code == 0);
    CHECK(r.out.find("bits/pos") != std::string::npos);
    for (const Material& m : all_materials<International>(3)) {
        INFO(m.name());
        CHECK(r.out.find("\n" + m.name() + std::string(10 - m.name().size() + 1, ' ') + "white") != std::string::npos);
        CHECK(r.out.find("\n" + m.name() + std::string(10 - m.name().size() + 1, ' ') + "black") != std::string::npos);
    }
}

TEST_CASE("dtb stats: missing or damaged tables exit 3 naming the problem", "[tools][stats]") {
    const fs::path& clean = tables3<International>();
    CHECK(run_dtb({"stats", "--db", (clean / "no-such-folder").string()}).exit_code == 3);
    const fs::path empty = fresh_dir("empty");
    CHECK(run_dtb({"stats", "--db", empty.string()}).exit_code == 3);
    // Only the slice's own tables, not its mirror's: Black to move cannot be served.
    const fs::path half = fresh_dir("half");
    for (const char* f : {"KKvK.wdl", "KKvK.dtw", "KKvK.dtc"}) fs::copy_file(clean / f, half / f);
    RunResult r = run_dtb({"stats", "--db", half.string()});
    CHECK(r.exit_code == 3);
    CHECK(r.err.find("KvKK") != std::string::npos);
    // A truncated file.
    const fs::path cut = fresh_dir("cut");
    fs::copy(clean, cut, fs::copy_options::recursive | fs::copy_options::overwrite_existing);
    fs::resize_file(cut / "MvK.dtc", fs::file_size(cut / "MvK.dtc") / 2);
    r = run_dtb({"stats", "--db", cut.string()});
    CHECK(r.exit_code == 3);
    CHECK(r.err.find("MvK.dtc") != std::string::npos);
    // A valid table under another slice's name (same size, valid checksums).
    const fs::path renamed = fresh_dir("renamed");
    fs::copy(clean, renamed, fs::copy_options::recursive | fs::copy_options::overwrite_existing);
    fs::copy_file(clean / "KMvK.dtw", renamed / "KvKM.dtw", fs::copy_options::overwrite_existing);
    r = run_dtb({"stats", "--db", renamed.string()});
    CHECK(r.exit_code == 3);
    CHECK(r.err.find("KvKM.dtw") != std::string::npos);
    CHECK(run_dtb({"stats", "--variant", "chess"}).exit_code == 2);
    for (const fs::path& d : {empty, half, cut, renamed}) fs::remove_all(d);
}
