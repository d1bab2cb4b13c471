// A decimal number as people type it in an argument or a query parameter: digits with an optional
// fraction ("5", "0.5"); no sign, exponent, "inf", "nan", blanks or empty text, all of which
// std::from_chars or CLI11 would take.
#pragma once
#include <charconv>
#include <cmath>
#include <optional>
#include <string_view>

namespace dtb {

// Whether `text` is written as such a number, whatever its size.
inline bool is_decimal_text(std::string_view text) {
    const auto digits = [](std::string_view s) {
        return !s.empty() && s.find_first_not_of("0123456789") == std::string_view::npos;
    };
    const std::size_t dot = text.find('.');
    return digits(text.substr(0, dot)) && (dot == std::string_view::npos || digits(text.substr(dot + 1)));
}

// The value of `text` when it is such a number within [lo, hi]; nullopt otherwise.
inline std::optional<double> parse_decimal(std::string_view text, double lo, double hi) {
    if (!is_decimal_text(text)) return std::nullopt;
    double value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, std::chars_format::fixed);
    if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value) || value < lo || value > hi)
        return std::nullopt;
    return value;
}

}  // namespace dtb
