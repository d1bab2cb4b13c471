// Text of PDN files as the draughts world writes them: line ends (LF, CRLF, CR), UTF-8 with or
// without a byte order mark, and tag text in the single-byte code pages of older programs
// (Windows-1252 / Latin-1 for Dutch and French names, Windows-1254 for Turkish ones), converted
// to UTF-8 so that every string the reader hands out is valid UTF-8.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace dtb::pdn_detail {

// Length of the valid UTF-8 sequence starting at s[i] (1 for ASCII), or 0 when it is not one
// (overlong forms, surrogates and code points past U+10FFFF are invalid).
inline size_t utf8_sequence(std::string_view s, size_t i) {
    const auto b0 = static_cast<unsigned char>(s[i]);
    if (b0 < 0x80) return 1;
    size_t n;
    std::uint32_t cp;
    if (b0 >= 0xC2 && b0 <= 0xDF) {
        n = 2, cp = b0 & 0x1F;
    } else if (b0 >= 0xE0 && b0 <= 0xEF) {
        n = 3, cp = b0 & 0x0F;
    } else if (b0 >= 0xF0 && b0 <= 0xF4) {
        n = 4, cp = b0 & 0x07;
    } else {
        return 0;
    }
    if (i + n > s.size()) return 0;
    for (size_t k = 1; k < n; ++k) {
        const auto b = static_cast<unsigned char>(s[i + k]);
        if ((b & 0xC0) != 0x80) return 0;
        cp = (cp << 6) | (b & 0x3F);
    }
    if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)) || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return n;
}

inline bool is_valid_utf8(std::string_view s) {
    for (size_t i = 0; i < s.size();) {
        const size_t n = utf8_sequence(s, i);
        if (n == 0) return false;
        i += n;
    }
    return true;
}

inline void append_utf8(std::string& out, std::uint32_t cp) {
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    }
}

enum class CodePage : std::uint8_t { windows1252, windows1254 };

// A byte of Windows-1252 (a superset of Latin-1's printable range) or Windows-1254 (Turkish:
// six letters differ) as a code point; the few unassigned bytes become U+FFFD.
inline std::uint32_t code_page_char(unsigned char b, CodePage page) {
    static constexpr std::uint16_t k80[32] = {0x20AC, 0xFFFD, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
                                              0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0xFFFD, 0x017D, 0xFFFD,
                                              0xFFFD, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
                                              0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0xFFFD, 0x017E, 0x0178};
    if (b < 0x80) return b;
    if (b < 0xA0) {
        if (page == CodePage::windows1254 && (b == 0x8E || b == 0x9E)) return 0xFFFD;
        return k80[b - 0x80];
    }
    if (page == CodePage::windows1254) {
        switch (b) {
            case 0xD0:
                return 0x011E;  // Ğ
            case 0xDD:
                return 0x0130;  // İ
            case 0xDE:
                return 0x015E;  // Ş
            case 0xF0:
                return 0x011F;  // ğ
            case 0xFD:
                return 0x0131;  // ı
            case 0xFE:
                return 0x015F;  // ş
            default:
                break;
        }
    }
    return b;
}

// `s` as UTF-8: kept when it already is, else read byte by byte in the code page.
inline std::string to_utf8(std::string_view s, CodePage page) {
    if (is_valid_utf8(s)) return std::string(s);
    std::string out;
    out.reserve(s.size() + s.size() / 2);
    for (char c : s) append_utf8(out, code_page_char(static_cast<unsigned char>(c), page));
    return out;
}

// A snippet of the input for a message: at most `limit` bytes, cut between characters; control
// characters and bytes that are not UTF-8 shown as \xNN, so that the message is valid UTF-8.
inline std::string printable(std::string_view s, size_t limit = 40) {
    std::string out;
    size_t i = 0;
    while (i < s.size() && i < limit) {
        const auto c = static_cast<unsigned char>(s[i]);
        const size_t n = utf8_sequence(s, i);
        if (n > 1) {
            if (i + n > limit) break;
            out.append(s.substr(i, n));
            i += n;
            continue;
        }
        if (n == 0 || c < 0x20 || c == 0x7f) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02X", c);
            out += buf;
        } else {
            out += static_cast<char>(c);
        }
        ++i;
    }
    if (i < s.size()) out += "...";
    return out;
}

// The text with lone CR line ends (old Mac files) turned into LF; CRLF stays (CR is a blank).
// Returns false, leaving `out` alone, when there is no lone CR: the text can be read as it is.
// A text that starts with a UTF-16 byte order mark (FF FE little-endian, FE FF big-endian), as
// Windows editors save "Unicode" files, decoded to UTF-8 into `out`; false for any other text. A
// lone surrogate becomes U+FFFD; an odd last byte is dropped.
inline bool decode_utf16(std::string_view text, std::string& out) {
    if (text.size() < 2) return false;
    const auto b0 = static_cast<unsigned char>(text[0]), b1 = static_cast<unsigned char>(text[1]);
    const bool little = b0 == 0xFF && b1 == 0xFE, big = b0 == 0xFE && b1 == 0xFF;
    if (!little && !big) return false;
    const auto unit = [&](std::size_t i) -> unsigned {
        const auto lo = static_cast<unsigned char>(text[little ? i : i + 1]);
        const auto hi = static_cast<unsigned char>(text[little ? i + 1 : i]);
        return hi << 8 | lo;
    };
    const auto put = [&](unsigned cp) {
        if (cp < 0x80) {
            out += static_cast<char>(cp);
        } else if (cp < 0x800) {
            out += static_cast<char>(0xC0 | cp >> 6);
            out += static_cast<char>(0x80 | (cp & 0x3F));
        } else if (cp < 0x10000) {
            out += static_cast<char>(0xE0 | cp >> 12);
            out += static_cast<char>(0x80 | (cp >> 6 & 0x3F));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        } else {
            out += static_cast<char>(0xF0 | cp >> 18);
            out += static_cast<char>(0x80 | (cp >> 12 & 0x3F));
            out += static_cast<char>(0x80 | (cp >> 6 & 0x3F));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        }
    };
    out.clear();
    out.reserve(text.size() / 2 * 3 / 2);
    for (std::size_t i = 2; i + 1 < text.size(); i += 2) {
        const unsigned u = unit(i);
        if (u >= 0xD800 && u < 0xDC00 && i + 3 < text.size()) {
            const unsigned v = unit(i + 2);
            if (v >= 0xDC00 && v < 0xE000) {
                put(0x10000 + ((u - 0xD800) << 10) + (v - 0xDC00));
                i += 2;
                continue;
            }
        }
        put(u >= 0xD800 && u < 0xE000 ? 0xFFFD : u);
    }
    return true;
}

inline bool normalize_line_ends(std::string_view text, std::string& out) {
    bool lone = false;
    for (size_t i = text.find('\r'); i != std::string_view::npos; i = text.find('\r', i + 1))
        if (i + 1 == text.size() || text[i + 1] != '\n') {
            lone = true;
            break;
        }
    if (!lone) return false;
    out.assign(text);
    for (size_t i = 0; i < out.size(); ++i)
        if (out[i] == '\r' && (i + 1 == out.size() || out[i + 1] != '\n')) out[i] = '\n';
    return true;
}

}  // namespace dtb::pdn_detail
