// Values as Python sees them: the Wdl enum, distances (None for draws), variant names.
#include <pybind11/eval.h>

#include <array>

#include "dtb/rules/parse_variant.hpp"
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
    if (const auto v = parse_variant(name)) return *v;
    throw py::value_error("variant must be 'international' or 'turkish', not '" + std::string(name) + "'");
}

std::string text_arg(py::handle text, const char* what) {
    if (!py::isinstance<py::str>(text)) throw py::type_error(std::string(what) + " must be a str");
    Py_ssize_t size = 0;
    const char* utf8 = PyUnicode_AsUTF8AndSize(text.ptr(), &size);
    if (!utf8) {
        PyErr_Clear();
        throw py::value_error(std::string(what) +
                              " is not valid text (it holds a lone surrogate, which has no UTF-8 form)");
    }
    return std::string(utf8, static_cast<std::size_t>(size));
}

std::string path_arg(py::handle path, const char* what) {
    const py::module_ os = py::module_::import("os");
    if (!py::isinstance<py::str>(path) && !py::isinstance<py::bytes>(path) && !py::hasattr(path, "__fspath__"))
        throw py::type_error(std::string(what) + " must be a path (str, bytes or os.PathLike)");
    // os.fsencode: the bytes the file system sees, with undecodable names kept (surrogateescape).
    py::object encoded;
    try {
        encoded = os.attr("fsencode")(path);
    } catch (py::error_already_set& e) {
        if (!e.matches(PyExc_UnicodeError)) throw;
        throw py::value_error(std::string(what) + " is not a valid path (it holds text with no encoding here)");
    }
    std::string bytes = encoded.cast<std::string>();
    if (bytes.find('\0') != std::string::npos) throw py::value_error(std::string(what) + " holds a NUL character");
    if (bytes.empty()) throw py::value_error(std::string(what) + " is empty");
    return bytes;
}

}  // namespace dtb::python
