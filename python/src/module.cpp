// dtb._dtb: the extension behind `import dtb` (python/dtb/__init__.py).
#include <pybind11/numpy.h>

#include <cstdint>

#include "src/bindings.hpp"

#ifndef DTB_VERSION
#define DTB_VERSION "unknown"
#endif

PYBIND11_MODULE(_dtb, m) {
    using namespace dtb::python;
    m.doc() = "Draughts endgame tablebases (international 10x10, Turkish 8x8): probe, adjudicate, move generation.";
    m.attr("__version__") = DTB_VERSION;
    // numpy is imported here, with the GIL held, and pybind11's numpy API looked up once: done
    // lazily by the first probe_many, two threads starting at once deadlocked on that lookup.
    py::module_::import("numpy");
    (void)py::array_t<std::int8_t>(0);
    bind_errors(m);
    bind_values(m);
    bind_position(m);
    TablebaseClass tablebase = bind_tablebase(m);
    bind_batch(tablebase);
    bind_adjudication(m, tablebase);
    bind_solve(tablebase);
}
