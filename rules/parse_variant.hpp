// The one parser of a variant's name (the command's --variant, Python's variant=, the server's
// routes): the inverse of variant_name (rules/variant.hpp).
#pragma once
#include <optional>
#include <string_view>

#include "dtb/rules/variant.hpp"

namespace dtb {

// nullopt for any spelling other than variant_name's ("international", "turkish").
constexpr std::optional<VariantId> parse_variant(std::string_view name) {
    for (VariantId v : {VariantId::international, VariantId::turkish})
        if (name == variant_name(v)) return v;
    return std::nullopt;
}
static_assert(parse_variant("turkish") == VariantId::turkish && !parse_variant("Turkish"));

}  // namespace dtb
