"""The package's build set-up: a fresh clone's ``./run`` installs it, editable, without
setuptools printing warning blocks on the terminal."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from setuptools import find_packages
from setuptools.command.editable_wheel import _simple_layout

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_an_editable_install_is_a_plain_path_entry() -> None:
    # setuptools' own choice of editable strategy: a plain .pth entry when package-dir names
    # one directory holding every package; otherwise an import finder, which warns on every
    # install ("Editable installation. Please be careful with folders ...").
    tool = PYPROJECT["tool"]["setuptools"]
    package_dir = tool.get("package-dir", {})
    packages = find_packages(str(ROOT), include=tool["packages"]["find"]["include"])
    assert {"companion", "vision", "hardware"} <= set(packages)
    assert set(package_dir) == {""} and _simple_layout(packages, package_dir, str(ROOT))


def test_the_licence_is_an_spdx_expression_that_the_build_backend_reads() -> None:
    # A table (license = {text = ...}) or a licence classifier draws deprecation warnings
    # from setuptools 77 on, which reads the SPDX string.
    project = PYPROJECT["project"]
    assert isinstance(project["license"], str)
    assert not [c for c in project.get("classifiers", []) if c.startswith("License ::")]
    (floor,) = [int(m[1]) for r in PYPROJECT["build-system"]["requires"] if (m := re.fullmatch(r"setuptools>=(\d+)(?:\.\d+)*", r))]
    assert floor >= 77
