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

import grimp
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


def test_the_rules_are_handed_their_game_and_never_look_it_up() -> None:
    # A set-up and a state are given their game by the game's make_setup (or its package, for
    # one made directly): no rules module asks the registry, which would load the whole plug-in.
    asking = []
    for g in registry.games():
        for path in _rules_files(g.rules_modules).values():
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
            for node in ast.walk(tree):
                if isinstance(node, ast.ImportFrom) and node.module:
                    names = {f"{node.module}.{alias.name}" for alias in node.names}
                elif isinstance(node, ast.Import):
                    names = {alias.name for alias in node.names}
                else:
                    continue
                if any(n == "companion.contract.registry" or n.startswith("companion.contract.registry.") for n in names):
                    asking.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert asking == []


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


#: The hosts whose modules import one another without a cycle, imports for annotations
#: included: each module can be read knowing only those below it.
ACYCLIC = ("companion.dashboard", "companion.club")


def _cycles(graph: grimp.ImportGraph, package: str) -> list[list[str]]:
    """The import cycles among ``package``'s modules: each strongly connected group of more
    than one module (Tarjan's algorithm), sorted."""
    modules = sorted(m for m in graph.modules if m == package or m.startswith(package + "."))
    inside = set(modules)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for imported in sorted(graph.find_modules_directly_imported_by(module) & inside):
            if imported not in index:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in stack:
                low[module] = min(low[module], index[imported])
        if low[module] == index[module]:
            group = []
            while True:
                top = stack.pop()
                group.append(top)
                if top == module:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for module in modules:
        if module not in index:
            visit(module)
    return sorted(found)


def test_the_dashboard_and_the_club_import_without_a_cycle() -> None:
    graph = grimp.build_graph("companion", exclude_type_checking_imports=False)
    cycles = {package: _cycles(graph, package) for package in ACYCLIC}
    assert cycles == {package: [] for package in ACYCLIC}


def test_the_cycle_check_finds_a_cycle() -> None:
    # The check above is only as good as its search: two modules importing each other (for
    # annotations only, the way a cycle creeps back in) are found.
    graph = grimp.ImportGraph()
    for module in ("shell", "shell.app", "shell.manual", "shell.kit"):
        graph.add_module(module)
    graph.add_import(importer="shell.app", imported="shell.manual", line_number=1, line_contents="from shell.manual import Keeper")
    graph.add_import(importer="shell.manual", imported="shell.app", line_number=9, line_contents="from shell.app import App")
    graph.add_import(importer="shell.app", imported="shell.kit", line_number=2, line_contents="from shell.kit import Kit")
    assert _cycles(graph, "shell") == [["shell.app", "shell.manual"]]
