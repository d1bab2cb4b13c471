#include "dtb/json/stats_json.hpp"

namespace dtb::json {

nlohmann::ordered_json stats_json(const std::vector<verify::SliceStats>& stats) {
    using J = nlohmann::ordered_json;
    auto plies = [](const verify::Longest& l) { return l.plies < 0 ? J() : J(l.plies); };
    auto fen = [](const verify::Longest& l) { return l.plies < 0 ? J() : J(l.fen); };
    J slices = J::array();
    for (const verify::SliceStats& s : stats) {
        J j;
        j["name"] = s.material.name();
        j["wk"] = s.material.wk;
        j["wm"] = s.material.wm;
        j["bk"] = s.material.bk;
        j["bm"] = s.material.bm;
        j["stm"] = s.side_to_move == Color::white ? "white" : "black";
        j["positions"] = s.positions;
        j["win"] = s.count[static_cast<int>(Wdl::win)];
        j["draw"] = s.count[static_cast<int>(Wdl::draw)];
        j["loss"] = s.count[static_cast<int>(Wdl::loss)];
        j["quiet_win"] = s.quiet[static_cast<int>(Wdl::win)];
        j["quiet_draw"] = s.quiet[static_cast<int>(Wdl::draw)];
        j["quiet_loss"] = s.quiet[static_cast<int>(Wdl::loss)];
        j["max_dtw"] = plies(s.dtw_win);
        j["max_dtw_fen"] = fen(s.dtw_win);
        j["max_dtw_loss"] = plies(s.dtw_loss);
        j["max_dtw_loss_fen"] = fen(s.dtw_loss);
        j["max_dtc"] = plies(s.dtc_win);
        j["max_dtc_fen"] = fen(s.dtc_win);
        j["max_dtc_loss"] = plies(s.dtc_loss);
        j["max_dtc_loss_fen"] = fen(s.dtc_loss);
        j["bytes"] = s.bytes;
        slices.push_back(std::move(j));
    }
    return J{{"slices", std::move(slices)}};
}

}  // namespace dtb::json
