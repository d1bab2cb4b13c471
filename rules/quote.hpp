// Input quoted in an error message: at most a short prefix of it, with control characters,
// escape sequences and bytes that are not UTF-8 written as escapes, so that a message stays one
// short line that is safe to print on a terminal and to put in JSON.
#pragma once
#include <cstddef>
#include <cstdio>
#include <string>
#include <string_view>

namespace dtb {

namespace quote_detail {
// Length of the valid UTF-8 sequence starting at s[i] (1-4), or 0 when it is not one.
inline std::size_t utf8_sequence(std::string_view s, std::size_t i) {
    const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned char c = b(i);
    std::size_t n = 0;
    if (c >= 0xC2 && c <= 0xDF)
        n = 2;
    else if (c >= 0xE0 && c <= 0xEF)
        n = 3;
    else if (c >= 0xF0 && c <= 0xF4)
        n = 4;
    else
        return 0;
    if (i + n > s.size()) return 0;
    for (std::size_t k = 1; k < n; ++k)
        if ((b(i + k) & 0xC0) != 0x80) return 0;
    if (c == 0xE0 && b(i + 1) < 0xA0) return 0;   // overlong
    if (c == 0xED && b(i + 1) >= 0xA0) return 0;  // surrogates
    if (c == 0xF0 && b(i + 1) < 0x90) return 0;   // overlong
    if (c == 0xF4 && b(i + 1) >= 0x90) return 0;  // past U+10FFFF
    // C1 control characters (U+0080-U+009F) act as escapes on some terminals.
    if (c == 0xC2 && b(i + 1) < 0xA0) return 0;
    return n;
}
}  // namespace quote_detail

// `text` with every byte that is not printable ASCII or part of a valid, printable UTF-8
// sequence written as \n, \r, \t or \xNN. Applying it twice changes nothing more.
inline std::string escape_text(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        const unsigned char c = static_cast<unsigned char>(text[i]);
        if (c >= 0x20 && c < 0x7F) {
            out += static_cast<char>(c);
            ++i;
        } else if (std::size_t n = c >= 0x80 ? quote_detail::utf8_sequence(text, i) : 0; n > 0) {
            out.append(text.substr(i, n));
            i += n;
        } else {
            if (c == '\n')
                out += "\\n";
            else if (c == '\r')
                out += "\\r";
            else if (c == '\t')
                out += "\\t";
            else {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\x%02X", c);
                out += buf;
            }
            ++i;
        }
    }
    return out;
}

// 'text' for a message: escaped (escape_text), and past `max_bytes` of input cut with
// "... (N bytes)" so that a huge input gives a short message.
inline std::string quote_input(std::string_view text, std::size_t max_bytes = 64) {
    if (text.size() <= max_bytes) return "'" + escape_text(text) + "'";
    std::size_t cut = max_bytes;
    // Not inside a UTF-8 sequence.
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
    return "'" + escape_text(text.substr(0, cut)) + "...' (" + std::to_string(text.size()) + " bytes)";
}

}  // namespace dtb
