"""The layout's one-way flow, checked on every run: sensors -> observations -> tracker ->
session -> dashboard and record (docs/architecture.md). A test, so that an import against the
flow fails the suite rather than a review."""

from __future__ import annotations

import ast
import importlib
import importlib.util
import pkgutil
import sys
from pathlib import Path

from importlinter.cli import lint_imports

from companion.contract import registry

ROOT = Path(__file__).resolve().parent.parent


def test_the_import_contracts_of_pyproject_hold() -> None:
    # The contracts live in pyproject.toml ([tool.importlinter]); 0 means every one is kept.
    assert lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True) == 0


def _imports(path: Path) -> set[str]:
    """The modules ``path`` imports when it runs (imports for annotations only, under
    ``if TYPE_CHECKING:``, are left out)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            node.body = []
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module)
    return found


HOSTS = (
    "companion.cli",
    "companion.commands",
    "companion.dashboard",
    "companion.sensors",
    "companion.tracker",
    "companion.session",
    "companion.records",
    "companion.observations",
    "companion.coach",
    "companion.club",
    "vision",
    "hardware",
)
THIRD_PARTY = ("textual", "rich", "numpy", "cv2", "serial", "nfc")


def _rules_files(modules: tuple[str, ...]) -> dict[str, Path]:
    """Every source file of ``modules`` (a package stands for all of its modules), by module."""
    found = {}
    for name in modules:
        spec = importlib.util.find_spec(name)
        assert spec is not None and spec.origin is not None, f"{name} is no module"
        origin = Path(spec.origin)
        if origin.name == "__init__.py":
            for path in sorted(origin.parent.rglob("*.py")):
                found[".".join((name, *path.relative_to(origin.parent).with_suffix("").parts)).removesuffix(".__init__")] = path
        else:
            found[name] = origin
    return found


def test_every_game_declares_its_rules() -> None:
    for g in registry.games():
        assert g.rules_modules, f"{g.name} declares no rules modules"
        assert _rules_files(g.rules_modules)


def test_the_rules_import_nothing_but_themselves_and_the_standard_library() -> None:
    # Each game's rules: pure logic, importing only themselves, the contract and the standard
    # library (imports for annotations only are left out).
    outside = {}
    for g in registry.games():
        own = g.rules_modules
        for module, path in _rules_files(own).items():
            for name in _imports(path):
                top = name.split(".")[0]
                if name == "companion.contract" or name.startswith(("companion.contract.", *own)) or top == "__future__" or top in sys.stdlib_module_names:
                    continue
                if name == g.__module__ or name in own:
                    continue
                outside.setdefault(module, []).append(name)
    assert outside == {}


def test_the_rules_of_every_game_are_pure_by_their_import_contract(tmp_path: Path) -> None:
    # The same, indirect imports included, as import contracts made from the registry: a new
    # game is held to them without anyone editing pyproject.toml.
    lines = ["[tool.importlinter]", 'root_packages = ["companion", "vision", "hardware"]', "include_external_packages = true", "exclude_type_checking_imports = true", ""]
    for g in registry.games():
        package = g.__module__
        others = sorted(
            m.name
            for m in pkgutil.iter_modules(importlib.import_module(package).__path__, package + ".")
            if m.name not in g.rules_modules and not any(r.startswith(m.name + ".") or r == m.name for r in g.rules_modules)
        )
        lines += [
            "[[tool.importlinter.contracts]]",
            f'name = "The rules of {g.title} are pure: no host, sensor, user interface or third-party code"',
            'type = "forbidden"',
            f"source_modules = {list(g.rules_modules)!r}".replace("'", '"'),
            f"forbidden_modules = {[*HOSTS, *others, *THIRD_PARTY]!r}".replace("'", '"'),
            "",
        ]
    config = tmp_path / "rules.toml"
    config.write_text("\n".join(lines), encoding="utf-8")
    assert lint_imports(config_filename=str(config), no_cache=True) == 0
