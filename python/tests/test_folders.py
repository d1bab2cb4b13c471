# One way to name tables (docs/CLI.md, "Tables"): a variant's folder says its variant; a tables
# root holds international/ and turkish/; None is $DTB_TABLES, else data/tb.
import os
import subprocess
import sys

import dtb


def test_a_folder_says_its_variant(tables):
    with dtb.Tablebase(tables["turkish"]) as tb:
        assert tb.probe("W:Wd4:Bd6").variant == "turkish"
    with dtb.Tablebase(tables["international"]) as tb:
        assert tb.probe("W:WK2,6:BK50").variant == "international"


def test_a_tables_root(tables):
    root = tables["international"].parent
    with dtb.Tablebase(root) as tb:
        assert tb.probe("W:WK2,6:BK50").variant == "international"
    with dtb.Tablebase(root, variant="turkish") as tb:
        assert tb.probe("W:Wd4:Bd6").variant == "turkish"


def test_the_environment_names_the_root(tables):
    root = tables["international"].parent
    code = "import dtb; tb = dtb.Tablebase(variant='turkish'); print(tb.probe('W:Wd4:Bd6').wdl)"
    env = dict(os.environ, DTB_TABLES=str(root), PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd="/")
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() in ("win", "draw", "loss")
