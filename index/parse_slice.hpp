// The one reader of a slice named by the user (dtb gen --only, dtb verify --only): the spelling of
// Material::name, and a slice of the variant.
#pragma once
#include <string>
#include <string_view>

#include "dtb/index/material.hpp"
#include "dtb/rules/expected.hpp"

namespace dtb {

// The slice `name` spells when it is one of variant R's (material_fits); an error of kind
// bad_input otherwise ("'XvY' is not a slice name (like KKMvK)", "... is not a slice of R").
template <class R>
Expected<Material> parse_slice(std::string_view name) {
    const auto m = Material::parse(name);
    if (!m) return Error{"'" + std::string(name) + "' is not a slice name (like KKMvK)", ErrorKind::bad_input};
    if (!material_fits<R>(*m))
        return Error{m->name() + " is not a slice of " + std::string(R::kName) + " draughts", ErrorKind::bad_input};
    return *m;
}

}  // namespace dtb
