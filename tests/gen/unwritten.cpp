// Many of the generator's arrays are not written when they are allocated (gen/big_array.hpp:
// BigArray's sized construction, and a reused mapping holds what its last array left): a pass
// must write each element before any pass reads it. Filling every new array with a different
// byte (GenerateOptions::new_array_fill) must then leave every table unchanged; an element read
// before it is written would carry the fill into some value.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "dtb/gen/generate.hpp"
#include "tests/support/file_compare_support.hpp"
#include "tests/support/gen_probe_support.hpp"
#include "tests/support/temp_dir.hpp"

namespace fs = std::filesystem;
using namespace dtb;

namespace {

// Generates every slice up to `pieces` into a fresh folder with new arrays filled with `byte`.
fs::path generate_filled(VariantId variant, int pieces, int byte, bool spill) {
    const fs::path dir =
        test::fresh_dir("gen_unwritten_" + std::to_string(static_cast<int>(variant)) + "_" + std::to_string(pieces) +
                        "_" + std::to_string(byte) + "_" + std::to_string(spill));
    gen::GenerateOptions o;
    o.variant = variant;
    o.max_pieces = pieces;
    o.out_dir = dir;
    o.spill = spill;
    o.new_array_fill = byte;
#if defined(__SANITIZE_THREAD__)
    o.threads = 1;  // libgomp is not instrumented
#endif
    const auto r = gen::generate(o, {});
    INFO((r ? std::string() : r.error()));
    REQUIRE(r.ok());
    return dir;
}

}  // namespace

TEST_CASE("tables do not depend on what new arrays hold before they are written (up to 3 pieces)", "[gen]") {
    for (const VariantId variant : {VariantId::international, VariantId::turkish}) {
        INFO(static_cast<int>(variant));
        const fs::path zeros = generate_filled(variant, 3, 0x00, false);
        const fs::path ones = generate_filled(variant, 3, 0xFF, false);
        CHECK(test::check_same_files(zeros, ones) >= 3 * 9);
        fs::remove_all(ones);
        if (variant == VariantId::international) {  // solved by levels, arrays in files
            const fs::path spilled = generate_filled(variant, 3, 0xA5, true);
            CHECK(test::check_same_files(zeros, spilled) >= 3 * 9);
            fs::remove_all(spilled);
        }
        fs::remove_all(zeros);
    }
}

TEST_CASE("tables do not depend on what new arrays hold before they are written (international, 4 pieces)",
          "[gen][plain-build]") {
    const fs::path fixture = test::fixture_tables(VariantId::international);
    REQUIRE(!fixture.empty());
    for (const bool spill : {false, true}) {
        INFO(spill);
        const fs::path filled = generate_filled(VariantId::international, 4, spill ? 0x5A : 0xFF, spill);
        CHECK(test::check_same_files(fixture, filled) > 200);
        fs::remove_all(filled);
    }
}
