// libFuzzer target: the move parser (rules/notation.hpp parse_move) on a fixed set of positions
// of both variants: plain moves, promotions, a capture choice, king captures with several
// landing squares and captures that only their full path tells apart. Beyond "never crash":
// an accepted move is one of the legal moves, and its printed forms (shortest and full path)
// parse back to the same move.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "dtb/rules/fen.hpp"
#include "dtb/rules/notation.hpp"

namespace {

[[noreturn]] void fail(const char* what, const std::string& detail) {
    std::fprintf(stderr, "fuzz_move: %s: %s\n", what, detail.c_str());
    std::abort();
}

template <class R>
std::vector<dtb::Position> positions(std::initializer_list<const char*> fens) {
    std::vector<dtb::Position> out;
    for (const char* f : fens) {
        auto p = dtb::parse_fen<R>(f);
        if (!p) fail("bad fixed FEN", f);
        out.push_back(*p);
    }
    return out;
}

template <class R>
void check(const std::vector<dtb::Position>& list, std::string_view text) {
    using namespace dtb;
    for (const Position& p : list) {
        const auto m = parse_move<R>(p, text);
        if (!m) {
            if (m.error().empty()) fail("error without a message", std::string(text));
            continue;
        }
        MoveList legal;
        generate_moves<R>(p, legal);
        bool found = false;
        for (const Move& l : legal) found = found || l.same_effect(*m);
        if (!found) fail("accepted an illegal move", to_fen<R>(p) + " " + std::string(text));
        for (const std::string& printed : {move_to_string<R>(*m, legal), move_full_path<R>(*m)}) {
            const auto again = parse_move<R>(p, printed);
            if (!again || !again->same_effect(*m))
                fail("a printed move does not parse back", to_fen<R>(p) + " " + printed);
        }
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const auto international = positions<dtb::International>({
        "W:W31-50:B1-20",               // the start
        "W:W6,K28:B12,K41",             // promotion by a plain move; a flying king
        "W:WK46:B41,32,23,14",          // a king's capture with a choice of landing squares
        "W:W27,28:B22,23,32,33,18,19",  // captures of different lengths (majority)
        "B:WK1,K5,K46,K50:BK23",        // Black to move, kings only
        "W:WK26:B21,12,13,23,32,31",    // captures that share origin and destination
    });
    static const auto turkish = positions<dtb::Turkish>({
        "W:Wa2-h2,a3-h3:Ba6-h6,a7-h7",  // the start
        "W:Wd4,Kh1:Bd5,e6",             // a man's capture, a king's move
        "W:WKa1:Ba3,a5,c5,c3",          // a king's multi-capture with turns
        "B:Wd3,e3:Bd4,Kh8",             // Black to move, sideways captures
        "W:Wb7:Bc7,e7",                 // a man reaching the last row mid-capture
    });
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    check<dtb::International>(international, text);
    check<dtb::Turkish>(turkish, text);
    return 0;
}
