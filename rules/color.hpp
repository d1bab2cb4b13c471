#pragma once
#include <cstdint>

namespace dtb {

enum class Color : std::uint8_t { white = 0, black = 1 };
constexpr Color operator~(Color c) {
    return c == Color::white ? Color::black : Color::white;
}
constexpr int idx(Color c) {
    return static_cast<int>(c);
}

}  // namespace dtb
