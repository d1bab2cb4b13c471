# The extension dtb._dtb is built by CMake (python/CMakeLists.txt), for the interpreter running
# pip; the package's Python files come from python/dtb (pyproject.toml), its version from CMake's
# project() (cmake_version: the one source of the version). Extra CMake arguments:
# DTB_CMAKE_ARGS, e.g. "-DDTB_NATIVE=OFF" for a module that runs on other x86-64 machines.
import glob
import os
import pathlib
import re
import shlex
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = pathlib.Path(__file__).resolve().parent


def cmake_version():
    """The project's version, as CMakeLists.txt's project() gives it: its one source."""
    text = (ROOT / "CMakeLists.txt").read_text()
    found = re.search(r"^project\(dtb VERSION ([0-9]+\.[0-9]+\.[0-9]+)\b", text, re.MULTILINE)
    if not found:
        raise RuntimeError("CMakeLists.txt: no project(dtb VERSION x.y.z)")
    return found.group(1)


class CMakeExtension(Extension):
    def __init__(self, name):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        build = pathlib.Path(self.build_temp).resolve() / "cmake"
        args = [
            f"-DPython3_EXECUTABLE={sys.executable}",
            "-DCMAKE_BUILD_TYPE=Release",
            "-DDTB_BUILD_TESTS=OFF",
            "-DDTB_BUILD_BENCH=OFF",
            "-DDTB_BUILD_PYTHON=ON",
            *shlex.split(os.environ.get("DTB_CMAKE_ARGS", "")),
        ]
        # pip shows this only with -v; python/README.md says so.
        print(f"dtb: building the C++ module with CMake in {build} (minutes)", file=sys.stderr, flush=True)
        subprocess.run(["cmake", "-S", str(ROOT), "-B", str(build), *args], check=True)
        jobs = str(self.parallel or os.cpu_count() or 1)
        subprocess.run(["cmake", "--build", str(build), "--target", "_dtb", "-j", jobs], check=True)
        built = glob.glob(str(build / "python" / "dtb" / "_dtb*.so"))
        if len(built) != 1:
            raise RuntimeError(f"expected one built module in {build / 'python' / 'dtb'}, found {built}")
        target = pathlib.Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built[0], target)


setup(
    version=cmake_version(),
    ext_modules=[CMakeExtension("dtb._dtb")],
    cmdclass={"build_ext": CMakeBuild},
    options={"build": {"build_base": "build/pip"}},
)
