// The quick check of a folder (folder_check.hpp), compiled once for each variant.
#include "dtb/verify/folder_check.hpp"

#include <map>

#include "dtb/gen/dependencies.hpp"
#include "dtb/gen/finished_rule_tables.hpp"
#include "dtb/index/slice_index.hpp"
#include "dtb/probe/derived_wdl.hpp"
#include "dtb/probe/open_table.hpp"

namespace dtb::verify {

// What a slice depends on, as the generator decides it.
using gen::exit_materials;
using gen::inputs_of_pair;
using gen::rule_metrics_of;

template <class R>
FolderCheck check_folder(const std::filesystem::path& dir, int max_pieces) {
    FolderCheck out;
    std::set<Material> valid;  // every file present and sound
    for (const Material& m : all_materials<R>(max_pieces)) {
        bool any = false;
        for (auto metric : gen::slice_metrics_of<R>(m)) {
            std::error_code ec;
            // symlink_status: a dangling link or a FIFO named like a table counts as present.
            any = any || std::filesystem::symlink_status(dir / format::file_name(m.name(), metric), ec).type() !=
                             std::filesystem::file_type::not_found;
        }
        if (!any) continue;
        out.slices.push_back(m);
        const std::uint64_t entries = SliceIndex<R>(m).size();
        bool sound = true;
        for (auto metric : gen::slice_metrics_of<R>(m)) {
            const auto path = dir / format::file_name(m.name(), metric);
            ++out.files;
            auto reader = format::TableReader::open(path, R::kId, rules_fingerprint<R>());
            std::string problem;
            if (!reader)
                problem = reader.error();
            else if (problem = format::header_problem<R>(reader->info(), m, metric, entries); !problem.empty())
                ;
            else if (auto st = reader->verify_checksums(); !st.ok())
                problem = st.error();
            else if (reader->info().derived())
                problem = derived_wdl_problem(dir, m);
            if (!problem.empty()) {
                // The file is named once, in `file`.
                if (const std::string prefix = path.string() + ": "; problem.rfind(prefix, 0) == 0)
                    problem.erase(0, prefix.size());
                out.problems.push_back({m.name(), path.string(), problem});
                sound = false;
            }
        }
        if (sound) valid.insert(m);
    }
    // Slices missing whole that a present slice needs, each reported once with who needs it.
    const std::set<Material> present(out.slices.begin(), out.slices.end());
    std::map<Material, std::vector<Material>> needed_by;
    for (const Material& m : out.slices) {
        if (!present.count(m.mirrored())) needed_by[m.mirrored()].push_back(m);
        for (const Material& x : exit_materials(m))
            if (!present.count(x)) needed_by[x].push_back(m);
    }
    for (const auto& [x, by] : needed_by) {
        std::string who;
        for (std::size_t k = 0; k < by.size() && k < 3; ++k) who += (k ? ", " : "") + by[k].name();
        if (by.size() > 3) who += " and " + std::to_string(by.size() - 3) + " more";
        out.problems.push_back({x.name(), "", "missing (no table files), needed by " + who});
    }
    // Complete: valid, with its mirror valid and every slice it leads to complete. Those come
    // earlier in generation order, so one pass in that order settles every slice.
    for (const Material& m : out.slices) {
        bool complete = valid.count(m) && valid.count(m.mirrored());
        for (const Material& x : inputs_of_pair(m)) complete = complete && out.complete.count(x);
        if (complete) out.complete.insert(m);
    }
    return out;
}

template FolderCheck check_folder<International>(const std::filesystem::path&, int);
template FolderCheck check_folder<Turkish>(const std::filesystem::path&, int);

}  // namespace dtb::verify
