# One source of the version: CMake's project() in CMakeLists.txt. The module reports it, and the
# Python package's metadata reads it from there (setup.py) instead of keeping a copy.
import pathlib
import re

import dtb

ROOT = pathlib.Path(__file__).resolve().parents[2]


def cmake_version():
    text = (ROOT / "CMakeLists.txt").read_text()
    return re.search(r"^project\(dtb VERSION ([0-9.]+)\b", text, re.MULTILINE).group(1)


def test_module_reports_cmake_version():
    assert dtb.__version__ == cmake_version()


def test_pyproject_keeps_no_copy():
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert re.search(r"^version\s*=", pyproject, re.MULTILINE) is None
    assert re.search(r'^dynamic\s*=\s*\[[^\]]*"version"', pyproject, re.MULTILINE)
    setup = (ROOT / "setup.py").read_text()
    assert "version=cmake_version()" in setup
