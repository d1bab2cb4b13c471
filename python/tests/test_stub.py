# The type stub python/dtb/_dtb.pyi names what the module has, and the module has nothing public
# the stub leaves out.
import ast
import pathlib

import dtb
from dtb import _dtb

STUB = pathlib.Path(__file__).resolve().parents[1] / "dtb" / "_dtb.pyi"


def public(names):
    return {n for n in names if not n.startswith("_") or n in ("__enter__", "__exit__", "__init__", "__version__")}


def test_stub_matches_module():
    tree = ast.parse(STUB.read_text())
    top = set()
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            top.add(node.name)
            members = {n.name for n in node.body if isinstance(n, (ast.FunctionDef, ast.AnnAssign)) and hasattr(n, "name")}
            members |= {n.target.id for n in node.body if isinstance(n, ast.AnnAssign)}
            members |= {t.id for n in node.body if isinstance(n, ast.Assign) for t in n.targets}
            cls = getattr(_dtb, node.name)
            for m in members - {"__eq__", "__hash__"}:
                assert hasattr(cls, m), f"{node.name}.{m}"
            if node.name not in ("Wdl", "TablebaseError", "TablesMissing", "TableCorrupt"):
                assert public(dir(cls)) - {"__init__"} <= members | {"__init__", "__enter__", "__exit__"}, node.name
        elif isinstance(node, ast.FunctionDef):
            top.add(node.name)
        elif isinstance(node, ast.AnnAssign) and node.target.id == "__version__":
            top.add("__version__")
    assert public(n for n in dir(_dtb) if n not in ("annotations",)) == top
    assert set(dtb.__all__) == top
