// The `dtb plan --json` object of a planned generation (gen/generation_plan.hpp); keys in
// docs/CLI.md, "dtb plan".
#pragma once
#include <nlohmann/json.hpp>

#include "dtb/gen/generation_plan.hpp"

namespace dtb::json {

nlohmann::ordered_json plan_json(const gen::Plan& plan);

}  // namespace dtb::json
