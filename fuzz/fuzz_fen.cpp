// libFuzzer target: the FEN parser of both variants (rules/fen.hpp). Every input goes to both.
// Beyond "never crash": a FEN that parses prints (to_fen) to a canonical FEN that parses back to
// the same position and prints the same again; the move generator runs on every accepted
// position, finds a capture exactly when has_capture says so, and every move it makes keeps the
// pieces on playable squares.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "dtb/rules/fen.hpp"
#include "dtb/rules/movegen.hpp"

namespace {

[[noreturn]] void fail(const char* what, const std::string& detail) {
    std::fprintf(stderr, "fuzz_fen: %s: %s\n", what, detail.c_str());
    std::abort();
}

template <class R>
void check(std::string_view text) {
    using namespace dtb;
    using G = typename R::Geometry;
    const auto p = parse_fen<R>(text);
    if (!p) {
        if (p.error().empty()) fail("error without a message", std::string(text));
        return;
    }
    const std::string canonical = to_fen<R>(*p);
    const auto q = parse_fen<R>(canonical);
    if (!q) fail("canonical FEN refused", canonical + ": " + q.error());
    if (!(*q == *p)) fail("canonical FEN names another position", canonical);
    if (to_fen<R>(*q) != canonical) fail("to_fen not stable", canonical);

    thread_local MoveList moves;
    generate_moves<R>(*p, moves);
    bool any_capture = false;
    for (const Move& m : moves) {
        any_capture = any_capture || m.is_capture();
        const Position next = make_move(*p, m);
        if ((next.occupied() & ~G::kPlayable) != 0 || (next.pieces[0] & next.pieces[1]) != 0)
            fail("make_move left an impossible position", canonical);
    }
    if (any_capture != has_capture<R>(*p)) fail("has_capture disagrees with the move generator", canonical);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    check<dtb::International>(text);
    check<dtb::Turkish>(text);
    return 0;
}
