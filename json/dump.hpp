// The one writer of JSON text for every front end (the dtb command, the server, Python): compact,
// and never throwing. nlohmann's plain dump() throws on a string that is not UTF-8, and text
// from outside (a PDN tag in a legacy encoding, a file name, a FEN) may be any bytes: those are
// written as U+FFFD instead, so that an answer is always given.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

namespace dtb::json {

// Json: nlohmann::json, or nlohmann::ordered_json for the objects that keep their keys' order
// (a conversion to nlohmann::json would sort them).
template <class Json>
std::string dump(const Json& j) {
    return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

}  // namespace dtb::json
