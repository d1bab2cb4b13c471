// The parts of a request target the explorer reads: the path and the query's parameters, both
// percent-decoded (a query also takes '+' for a space). A name given twice keeps its first value.
#pragma once
#include <string>
#include <string_view>

#include "dtb/server/explorer.hpp"

namespace dtb::server {

struct Target {
    std::string path;
    Explorer::Params params;
};

// "%41" -> "A"; a '%' not followed by two hex digits stays as it is.
std::string percent_decode(std::string_view text, bool plus_is_space);

// "/api/v1/international?fen=W%3AW28&rules=none" -> {"/api/v1/international", {fen, rules}}.
Target parse_target(std::string_view target);

}  // namespace dtb::server
