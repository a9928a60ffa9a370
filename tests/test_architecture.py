"""The layout's one-way flow, checked on every run: sensors -> observations -> tracker ->
session -> dashboard and record (docs/architecture.md). A test, so that an import against the
flow fails the suite rather than a review."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

from importlinter.cli import lint_imports

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


#: Each game's rules: pure logic, importing only themselves, what every game shares and the
#: standard library.
GAMES = ROOT / "companion" / "games"
RULES = {
    "companion.games.rule_of_power.engine": sorted((GAMES / "rule_of_power" / "engine").glob("*.py")),
    "companion.games.circle_of_power": [
        GAMES / "circle_of_power" / f"{name}.py"
        for name in (
            "cards", "effects", "game", "moves", "rules", "scoring", "setup", "view", "query", "policies",
            # the state's parts (game.CircleState is made of them)
            "position", "reading", "seasons", "plays", "acts", "act_resolution", "reshuffle", "ending", "hidden",
        )
    ],
}
SHARED = ("companion.games", "companion.contract")


def test_the_rules_import_nothing_but_themselves_and_the_standard_library() -> None:
    outside = {}
    for package, paths in RULES.items():
        for path in paths:
            for name in _imports(path):
                top = name.split(".")[0]
                if name in SHARED or name.startswith(("companion.contract.", package)) or top == "__future__" or top in sys.stdlib_module_names:
                    continue
                outside.setdefault(f"{package}.{path.stem}", []).append(name)
    assert outside == {}


def test_the_rules_are_handed_their_game_and_never_look_it_up() -> None:
    # A set-up and a state are given their game by the game's make_setup (or its package, for
    # one made directly): no rules module asks the registry, which would load the whole plug-in.
    asking = []
    for paths in RULES.values():
        for path in paths:
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
            for node in ast.walk(tree):
                if isinstance(node, ast.ImportFrom) and node.module:
                    names = {f"{node.module}.{alias.name}" for alias in node.names}
                elif isinstance(node, ast.Import):
                    names = {alias.name for alias in node.names}
                else:
                    continue
                if "companion.contract.registry" in names or any(n.startswith("companion.contract.registry.") for n in names):
                    asking.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert asking == []
