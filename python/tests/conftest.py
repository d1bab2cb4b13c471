# Fixtures of the Python tests: the tables (the ctest fixture's, DTB_TEST_TABLES, else 3-piece
# folders made here once per run with the dtb binary) and a runner of the CLI to compare with.
import json
import os
import pathlib
import subprocess

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]


def dtb_exe():
    return os.environ.get("DTB_EXE") or str(REPO / "build" / "tools" / "dtb")


@pytest.fixture(scope="session")
def tables(tmp_path_factory):
    """{variant: folder}: 4-piece folders of the ctest fixture, or 3-piece ones made here."""
    fixture = pathlib.Path(os.environ.get("DTB_TEST_TABLES", REPO / "build" / "test-tables"))
    if (fixture / "international" / "KKvKK.wdl").exists() and (fixture / "turkish").is_dir():
        return {v: fixture / v for v in ("international", "turkish")}
    out = tmp_path_factory.mktemp("tables")
    for v in ("international", "turkish"):
        subprocess.run([dtb_exe(), "gen", "--variant", v, "--pieces", "3", "--out", str(out / v)],
                       check=True, capture_output=True)
    return {v: out / v for v in ("international", "turkish")}


@pytest.fixture(scope="session")
def cli():
    """cli(args, expected_exit=0) -> stdout lines parsed as JSON."""
    def run(args, expected_exit=0):
        r = subprocess.run([dtb_exe(), *map(str, args)], capture_output=True, text=True)
        assert r.returncode == expected_exit, r.stderr
        return [json.loads(line) for line in r.stdout.splitlines() if line.strip()]
    return run
