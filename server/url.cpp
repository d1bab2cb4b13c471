#include "dtb/server/url.hpp"

namespace dtb::server {

namespace {

int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

}  // namespace

std::string percent_decode(std::string_view text, bool plus_is_space) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '%' && i + 2 < text.size()) {
            const int hi = hex_digit(text[i + 1]), lo = hex_digit(text[i + 2]);
            if (hi >= 0 && lo >= 0) {
                out += static_cast<char>(hi * 16 + lo);
                i += 2;
                continue;
            }
        }
        out += plus_is_space && c == '+' ? ' ' : c;
    }
    return out;
}

Target parse_target(std::string_view target) {
    Target t;
    const std::size_t question = target.find('?');
    t.path = percent_decode(target.substr(0, question), false);
    if (question == std::string_view::npos) return t;
    std::string_view query = target.substr(question + 1);
    // A fragment is not sent by browsers; one sent anyway is not part of the query.
    query = query.substr(0, query.find('#'));
    while (!query.empty()) {
        const std::size_t amp = query.find('&');
        const std::string_view pair = query.substr(0, amp);
        query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
        if (pair.empty()) continue;
        const std::size_t eq = pair.find('=');
        std::string name = percent_decode(pair.substr(0, eq), true);
        std::string value = eq == std::string_view::npos ? std::string() : percent_decode(pair.substr(eq + 1), true);
        t.params.emplace(std::move(name), std::move(value));
    }
    return t;
}

}  // namespace dtb::server
