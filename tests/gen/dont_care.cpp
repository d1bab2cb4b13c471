// The don't-care fills of gen/dont_care.hpp: quiet entries are never changed, and capture entries
// get the value each fill promises.
#include "dtb/gen/dont_care.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <optional>
#include <random>
#include <span>
#include <vector>

using dtb::gen::fill_dont_care;

namespace {
constexpr std::uint16_t X = 9;  // a don't-care entry's stored value before the fill
constexpr std::uint16_t kDraw = 1;
}  // namespace

TEST_CASE("fill_dont_care without between: the last quiet value before, the first one for a leading run", "[gen]") {
    std::vector<std::uint16_t> v{X, X, 2, X, 0, X, X};
    const std::vector<std::uint8_t> cap{1, 1, 0, 1, 0, 1, 1};
    fill_dont_care(v, cap);
    CHECK(v == std::vector<std::uint16_t>{2, 2, 2, 2, 0, 0, 0});
    std::vector<std::uint16_t> all{X, X};
    fill_dont_care(all, std::vector<std::uint8_t>(2, 1));
    CHECK(all == std::vector<std::uint16_t>{X, X});
}

TEST_CASE("fill_dont_care with between: equal neighbours extend, different ones meet at draw", "[gen]") {
    std::vector<std::uint16_t> v{X, 2, X, X, 2, X, 0, X, X};
    const std::vector<std::uint8_t> cap{1, 0, 1, 1, 0, 1, 0, 1, 1};
    fill_dont_care(v, cap, kDraw);
    //          leading: first quiet | 2..2 agree | 2..0 differ | trailing: last quiet
    CHECK(v == std::vector<std::uint16_t>{2, 2, 2, 2, 2, kDraw, 0, 0, 0});
}

TEST_CASE("fill_dont_care with between: quiet entries are kept, an all-capture table is left alone", "[gen]") {
    std::vector<std::uint16_t> quiet{0, 2, 1, 0};
    fill_dont_care(quiet, std::vector<std::uint8_t>(4, 0), kDraw);
    CHECK(quiet == std::vector<std::uint16_t>{0, 2, 1, 0});
    std::vector<std::uint16_t> all{X, X, X};
    fill_dont_care(all, std::vector<std::uint8_t>(3, 1), kDraw);
    CHECK(all == std::vector<std::uint16_t>{X, X, X});
    std::vector<std::uint16_t> empty;
    fill_dont_care(empty, std::vector<std::uint8_t>{}, kDraw);
    CHECK(empty.empty());
}

namespace {
// The fill's definition, one entry at a time (what the parallel fill must equal).
std::vector<std::uint16_t> filled_serially(std::vector<std::uint16_t> v, const std::vector<std::uint8_t>& cap,
                                           std::optional<std::uint16_t> between) {
    std::optional<std::uint16_t> before;
    for (std::size_t i = 0; i < v.size();) {
        if (!cap[i]) {
            before = v[i++];
            continue;
        }
        std::size_t end = i;
        while (end < v.size() && cap[end]) ++end;
        std::optional<std::uint16_t> fill = before;
        if (end < v.size()) {
            if (!before)
                fill = v[end];
            else if (between && v[end] != *before)
                fill = between;
        }
        if (fill)
            for (std::size_t j = i; j < end; ++j) v[j] = *fill;
        i = end;
    }
    return v;
}
}  // namespace

TEST_CASE("fill_dont_care in parallel equals the one-entry-at-a-time fill, runs across chunk borders included",
          "[gen]") {
    std::mt19937_64 rng(7);
    for (int trial = 0; trial < 6; ++trial) {
        // Runs of every length from 1 to beyond a parallel chunk (2^14 entries), some at the
        // start and the end of the table.
        const std::size_t n = 200'000 + static_cast<std::size_t>(trial) * 7'919;
        std::vector<std::uint16_t> v(n);
        std::vector<std::uint8_t> cap(n);
        std::size_t i = 0;
        bool capture = trial % 2 == 0;
        while (i < n) {
            const std::size_t len = std::uniform_int_distribution<std::size_t>(1, trial < 3 ? 40 : 40'000)(rng);
            for (std::size_t j = i; j < std::min(n, i + len); ++j) {
                cap[j] = capture;
                v[j] = capture ? X : static_cast<std::uint16_t>(rng() % 3);
            }
            i += len;
            capture = !capture;
        }
        for (std::optional<std::uint16_t> between :
             {std::optional<std::uint16_t>{}, std::optional<std::uint16_t>{kDraw}}) {
            std::vector<std::uint16_t> parallel = v;
            fill_dont_care(parallel, cap, between);
            CHECK(parallel == filled_serially(v, cap, between));
        }
    }
}

TEST_CASE("fill_dont_care part by part, given the quiet values outside each part, equals the whole fill", "[gen]") {
    std::mt19937_64 rng(11);
    for (int trial = 0; trial < 4; ++trial) {
        const std::size_t n = 50'000;
        std::vector<std::uint16_t> v(n);
        std::vector<std::uint8_t> cap(n);
        // Long capture runs, so that some cross several parts; trial 3 has no quiet entry at all.
        bool capture = trial % 2 == 1;
        for (std::size_t i = 0; i < n;) {
            const std::size_t len = std::uniform_int_distribution<std::size_t>(1, 9'000)(rng);
            for (std::size_t j = i; j < std::min(n, i + len); ++j) {
                cap[j] = trial == 3 || capture;
                v[j] = cap[j] ? X : static_cast<std::uint16_t>(rng() % 3);
            }
            i += len;
            capture = !capture;
        }
        for (std::optional<std::uint16_t> between :
             {std::optional<std::uint16_t>{}, std::optional<std::uint16_t>{kDraw}}) {
            std::vector<std::uint16_t> whole = v;
            fill_dont_care(whole, cap, between);
            for (std::size_t part : {std::size_t{1'000}, std::size_t{4'096}, std::size_t{20'000}}) {
                std::vector<std::uint16_t> parts = v;
                for (std::size_t at = 0; at < n; at += part) {
                    const std::size_t end = std::min(n, at + part);
                    std::optional<std::uint16_t> before, after;
                    for (std::size_t j = at; j-- > 0;)
                        if (!cap[j]) {
                            before = v[j];
                            break;
                        }
                    for (std::size_t j = end; j < n; ++j)
                        if (!cap[j]) {
                            after = v[j];
                            break;
                        }
                    fill_dont_care(std::span<std::uint16_t>(parts.data() + at, end - at),
                                   std::span<const std::uint8_t>(cap.data() + at, end - at), between, 0, before, after);
                }
                CHECK(parts == whole);
            }
        }
    }
}
