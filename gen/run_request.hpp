// A run's request (GenerateOptions) checked before anything is created.
#pragma once
#include <set>
#include <string>

#include "dtb/gen/generate.hpp"
#include "dtb/index/material.hpp"
#include "dtb/index/parse_slice.hpp"
#include "dtb/rules/expected.hpp"

namespace dtb::gen {

// Checks a run's request before anything is created; returns the slices --only asks for (each
// with its mirror; empty: all).
template <class R>
Expected<std::set<Material>> check_request(const GenerateOptions& o) {
    if (o.max_pieces < 2 || o.max_pieces > kMaxPieces)
        return Error{"pieces must be 2 to " + std::to_string(kMaxPieces) + ", not " + std::to_string(o.max_pieces),
                     ErrorKind::bad_input};
    if (o.threads < 0 || o.threads > kMaxThreads)
        return Error{
            "threads must be 0 (all cores) to " + std::to_string(kMaxThreads) + ", not " + std::to_string(o.threads),
            ErrorKind::bad_input};
    std::set<Material> wanted;
    for (const std::string& name : o.only) {
        const auto m = parse_slice<R>(name);
        if (!m) return Error{"--only: " + m.error(), m.error_kind()};
        if (m->pieces() > o.max_pieces)
            return Error{"--only: " + m->name() + " has " + std::to_string(m->pieces()) +
                             " pieces, more than --pieces " + std::to_string(o.max_pieces),
                         ErrorKind::bad_input};
        wanted.insert(*m);
        wanted.insert(m->mirrored());
    }
    return wanted;
}

}  // namespace dtb::gen
