// The GameType tag of a PDN game (pdn.fmjd.org/gametype.html): which draughts variant the game
// is, "20" or "20,W,10,10,N2,0" (the attributes are not checked), or a variant name. dtb plays 20
// (international) and 30 (Turkish); the other known numbers are named, so that a game of another
// variant is reported as such, not as a syntax error.
#pragma once
#include <optional>
#include <string>
#include <string_view>

#include "expected.hpp"
#include "pdn_reader.hpp"
#include "variant.hpp"

namespace dtb {

inline constexpr int kPdnGameTypeInternational = 20;
inline constexpr int kPdnGameTypeTurkish = 30;

struct PdnGameType {
    bool given = false;                // the game has a GameType tag
    std::string text;                  // the tag's value
    int number = -1;                   // its game type number, -1 when it has none
    std::optional<VariantId> variant;  // a variant dtb plays
    std::string name;                  // "English draughts"; empty for an unknown number
};

// The name of a PDN game type number, or "" when it is not one of draughts'.
inline std::string_view pdn_game_type_name(int number) {
    switch (number) {
        case 20:
            return "international draughts";
        case 21:
            return "English draughts (checkers)";
        case 22:
            return "Italian draughts";
        case 23:
            return "American pool checkers";
        case 24:
            return "Spanish draughts";
        case 25:
            return "Russian draughts";
        case 26:
            return "Brazilian draughts";
        case 27:
            return "Canadian draughts";
        case 28:
            return "Portuguese draughts";
        case 29:
            return "Czech draughts";
        case 30:
            return "Turkish draughts";
        case 31:
            return "Thai draughts";
        case 40:
            return "Frisian draughts";
        case 41:
            return "Spantsiretti";
        default:
            return "";
    }
}

inline PdnGameType pdn_game_type(const PdnGame& g) {
    PdnGameType t;
    const std::string* tag = g.tag("GameType");
    if (!tag) return t;
    t.given = true;
    t.text = *tag;
    std::string_view v = *tag;
    while (!v.empty() && pdn_detail::is_space(v.front())) v.remove_prefix(1);
    v = v.substr(0, v.find(','));
    while (!v.empty() && pdn_detail::is_space(v.back())) v.remove_suffix(1);
    std::string name(v);
    for (char& c : name)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (name == International::kName) t.number = kPdnGameTypeInternational;
    if (name == Turkish::kName) t.number = kPdnGameTypeTurkish;
    if (!name.empty() && name.size() <= 4 && name.find_first_not_of("0123456789") == std::string::npos)
        t.number = std::stoi(name);
    if (t.number == kPdnGameTypeInternational) t.variant = VariantId::international;
    if (t.number == kPdnGameTypeTurkish) t.variant = VariantId::turkish;
    t.name = std::string(pdn_game_type_name(t.number));
    return t;
}

// Whether a game is of a variant dtb does not play (a GameType with a number other than 20, 30).
inline bool pdn_other_variant(const PdnGameType& t) {
    return t.given && !t.variant && t.number >= 0;
}

// Why a game type is not played: "GameType \"21\" is English draughts (checkers), another
// variant: dtb plays 20 (international) and 30 (turkish)".
inline std::string pdn_game_type_error(const PdnGameType& t) {
    const std::string quoted = "GameType \"" + pdn_detail::printable(t.text) + "\"";
    const std::string plays = "dtb plays 20 (international) and 30 (turkish)";
    if (t.number < 0) return quoted + " names no game type: " + plays;
    return quoted + " is " + (t.name.empty() ? "game type " + std::to_string(t.number) : t.name) +
           ", another variant: " + plays;
}

// The variant of a game: its GameType tag, else `default_variant`. Other game types are errors.
inline Expected<VariantId> pdn_game_variant(const PdnGame& g, VariantId default_variant) {
    const PdnGameType t = pdn_game_type(g);
    if (!t.given) return default_variant;
    if (t.variant) return *t.variant;
    return Error{pdn_game_type_error(t)};
}

}  // namespace dtb
