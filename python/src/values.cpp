// Values as Python sees them: the Wdl enum, distances (None for draws), variant names.
#include <pybind11/eval.h>

#include <array>

#include "src/bindings.hpp"

namespace dtb::python {

namespace {

// An IntEnum, so that values compare and sort as numbers (numpy arrays of probe_many hold the
// same -1/0/1) and print as the CLI's words.
constexpr const char* kWdlSource = R"(
import enum

class Wdl(enum.IntEnum):
    """Game-theoretic value for the side to move: LOSS = -1, DRAW = 0, WIN = 1.

    str() gives 'loss', 'draw' or 'win', the words of `dtb probe --json`.
    """
    LOSS = -1
    DRAW = 0
    WIN = 1

    def __str__(self):
        return self.name.lower()

    def __format__(self, spec):
        return format(str(self), spec)
)";

// Wdl.LOSS, DRAW, WIN by dtb::Wdl; filled once when the module is imported, read-only after,
// and kept for the life of the process (a reference each, never released).
std::array<PyObject*, 3> wdl_members{};

}  // namespace

void bind_values(py::module_& m) {
    py::dict scope;
    scope["__builtins__"] = py::module_::import("builtins");
    scope["__name__"] = "dtb";
    py::exec(kWdlSource, scope);
    const py::object wdl = scope["Wdl"];
    m.attr("Wdl") = wdl;
    const char* names[] = {"LOSS", "DRAW", "WIN"};
    for (int i = 0; i < 3; ++i) wdl_members[i] = py::object(wdl.attr(names[i])).release().ptr();
}

py::object wdl_object(Wdl w) {
    return py::reinterpret_borrow<py::object>(wdl_members[static_cast<int>(w)]);
}

py::object distance_object(Wdl w, int plies) {
    return w == Wdl::draw || plies < 0 ? py::object(py::none()) : py::object(py::int_(plies));
}

VariantId variant_arg(std::string_view name) {
    if (name == "international") return VariantId::international;
    if (name == "turkish") return VariantId::turkish;
    throw py::value_error("variant must be 'international' or 'turkish', not '" + std::string(name) + "'");
}

}  // namespace dtb::python
