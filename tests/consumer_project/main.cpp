// Probes one known position through the installed C++ API: W:WK2,6:BK50 is a win in 9 plies.
#include <dtb/probe/probe.hpp>
#include <iostream>

int main(int argc, char** argv) {
    if (argc != 2) {
        std::cerr << "usage: consumer TABLE_DIR\n";
        return 2;
    }
    dtb::probe::Options options;
    options.directories = {argv[1]};
    options.cache_mb = 4;
    auto tb = dtb::probe::Tablebase::open(options);
    if (!tb) {
        std::cerr << tb.error() << "\n";
        return 1;
    }
    const auto position = tb->parse_fen("W:WK2,6:BK50");
    if (!position) return 1;
    const dtb::probe::Result r = tb->probe_dtw(*position);
    if (!r.ok()) {
        std::cerr << tb->explain(r) << "\n";
        return 1;
    }
    std::cout << "W:WK2,6:BK50 " << dtb::to_string(r.wdl) << " dtw " << r.dtw << "\n";
    return r.wdl == dtb::Wdl::win && r.dtw == 9 ? 0 : 1;
}
