// The pieces of the Python module dtb._dtb (python/dtb/__init__.py re-exports them as `dtb`):
// each file binds one concept and says here what the others may use.
#pragma once
#include <pybind11/pybind11.h>
// Every file sees the same type casters (std::optional, std::vector, std::string): a caster
// missing from one file would make its functions refuse those arguments.
#include <pybind11/stl.h>

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "dtb/probe/probe.hpp"
#include "dtb/rules/position.hpp"
#include "dtb/rules/variant.hpp"

namespace dtb::python {

namespace py = pybind11;

// errors.cpp: TablebaseError, TablesMissing, TableCorrupt. The raise_* functions need the GIL.
void bind_errors(py::module_& m);
[[noreturn]] void raise_tables(probe::Status status, const std::string& message, py::object slice = py::none(),
                               py::object file = py::none());
// A failed Result: ValueError for a position that cannot be probed, else a table exception.
[[noreturn]] void raise_result(const probe::Tablebase& tb, const probe::Result& r, const std::string& fen);

// values.cpp: the Wdl enum (an IntEnum: LOSS -1, DRAW 0, WIN 1; str() "loss", "draw", "win").
void bind_values(py::module_& m);
py::object wdl_object(Wdl w);
inline int wdl_int(Wdl w) {
    return static_cast<int>(w) - 1;
}
// A distance as the CLI's JSON gives it: None for a draw or a value not asked for.
py::object distance_object(Wdl w, int plies);
VariantId variant_arg(std::string_view name);  // ValueError unless "international" / "turkish"
// Names: dtb::variant_name (rules/variant.hpp).

// values.cpp: a str as UTF-8 (ValueError naming `what` for text that has no UTF-8 form, such as a
// lone surrogate); a path (str, bytes or os.PathLike) as the file system's bytes (ValueError for
// a NUL, which no path holds).
std::string text_arg(py::handle text, const char* what);
std::string path_arg(py::handle path, const char* what);

// position.cpp: Position, Move, perft.
struct PyPosition {
    VariantId variant = VariantId::international;
    Position position;
};
void bind_position(py::module_& m);
// A FEN (str) or a Position of `variant`, as a Position; ValueError otherwise.
Position position_arg(py::handle fen_or_position, VariantId variant);
std::string fen_of(const Position& p, VariantId variant);

// tablebase.cpp: the handle. Every call takes its own reference to the tables while it holds the
// GIL, so close() in one thread never pulls them from under a probe running in another.
class PyTablebase {
  public:
    // path: a variant's folder, a list of them, or a tables root (None: $DTB_TABLES, else data/tb);
    // variant: None for the tables' own (a root's international/ unless said).
    PyTablebase(const py::object& path, const std::optional<std::string>& variant, std::size_t cache_mb);
    std::shared_ptr<const probe::Tablebase> tables() const;  // ValueError once closed
    void close() { tb_.reset(); }
    bool closed() const { return !tb_; }
    VariantId variant() const { return variant_; }
    const std::vector<std::string>& directories() const { return directories_; }

  private:
    std::shared_ptr<const probe::Tablebase> tb_;
    VariantId variant_;
    std::vector<std::string> directories_;
};
using TablebaseClass = py::class_<PyTablebase>;
TablebaseClass bind_tablebase(py::module_& m);
// batch.cpp: probe_many.
void bind_batch(TablebaseClass& c);
// adjudication.cpp: adjudicate, adjudicate_pdn.
void bind_adjudication(py::module_& m, TablebaseClass& c);
// solve.cpp: Tablebase.solve (`dtb solve`).
void bind_solve(TablebaseClass& c);

}  // namespace dtb::python
