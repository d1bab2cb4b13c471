// A whole number as people type it in an argument or a query parameter: plain decimal digits,
// with '-' only where negative numbers are allowed (no '+', "0x", blanks, exponent or empty text).
#pragma once
#include <charconv>
#include <optional>
#include <string_view>

namespace dtb {

// Whether `text` is written as such a number, whatever its size.
inline bool is_whole_number_text(std::string_view text) {
    const std::string_view digits = text.substr(!text.empty() && text[0] == '-' ? 1 : 0);
    return !digits.empty() && digits.find_first_not_of("0123456789") == std::string_view::npos;
}

// The value of `text` when it is such a number within [lo, hi]; nullopt otherwise.
inline std::optional<long long> parse_whole_number(std::string_view text, long long lo, long long hi) {
    if (!is_whole_number_text(text)) return std::nullopt;
    long long value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || value < lo || value > hi) return std::nullopt;
    return value;
}

}  // namespace dtb
