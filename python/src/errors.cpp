// The module's exceptions: table problems get their own classes (naming the slice and file);
// positions that cannot be probed are ValueError, as are bad FEN, moves and arguments.
#include "dtb/format/format.hpp"
#include "src/bindings.hpp"

namespace dtb::python {

namespace {

py::object new_exception(py::module_& m, const char* name, const char* doc, PyObject* base) {
    const std::string qualified = std::string("dtb.") + name;
    auto cls = py::reinterpret_steal<py::object>(PyErr_NewExceptionWithDoc(qualified.c_str(), doc, base, nullptr));
    if (!cls) throw py::error_already_set();
    cls.attr("slice") = py::none();
    cls.attr("file") = py::none();
    m.attr(name) = cls;
    return cls;
}

}  // namespace

void bind_errors(py::module_& m) {
    py::object base = new_exception(m, "TablebaseError",
                                    "A table needed is missing or corrupt. Attributes: slice (e.g. 'KKvK', or None) "
                                    "and file (e.g. 'KKvK.wdl', or None).",
                                    PyExc_RuntimeError);
    new_exception(m, "TablesMissing",
                  "No table answers: a folder without tables, a table file not there, or a position with more "
                  "pieces than the tables hold.",
                  base.ptr());
    new_exception(m, "TableCorrupt",
                  "A table failed a check (checksum, size, header, another variant's rules); no value is given "
                  "from it.",
                  base.ptr());
}

void raise_tables(probe::Status status, const std::string& message, py::object slice, py::object file) {
    const py::module_ m = py::module_::import("dtb._dtb");
    const py::object cls = m.attr(status == probe::Status::corrupt ? "TableCorrupt" : "TablesMissing");
    py::object e = cls(message);
    e.attr("slice") = std::move(slice);
    e.attr("file") = std::move(file);
    PyErr_SetObject(cls.ptr(), e.ptr());
    throw py::error_already_set();
}

void raise_result(const probe::Tablebase& tb, const probe::Result& r, const std::string& fen) {
    const std::string message = fen + ": " + tb.explain(r);
    if (r.status == probe::Status::illegal) throw py::value_error(message);
    const std::string slice = r.slice.name();
    raise_tables(r.status, message, py::str(slice), py::str(format::file_name(slice, r.metric)));
}

}  // namespace dtb::python
