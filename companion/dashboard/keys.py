"""The table's keys: the app's bindings, in the game's words where they name its periods and
dealing (:attr:`DashboardKit.key_words <companion.dashboard.kit.DashboardKit.key_words>`), and
the same keys offered in the command palette and listed by the help screen."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import replace

from typing import Any

from textual.app import App, SystemCommand
from textual.binding import Binding, BindingsMap, BindingType
from textual.screen import Screen

from companion.dashboard.sources import MoveSource, ReplaySource

__all__ = ["CLOCK_ACTIONS", "EDIT_ACTIONS", "TABLE_KEYS", "commands", "offered", "reword", "reworded"]

TABLE_KEYS: list[BindingType] = [
    Binding("f1", "help", "Help", tooltip="Every key and, in manual play, how to type moves"),
    Binding("f7", "hint", "Hint", tooltip="The coach's hint: the moves of the player to move, ranked, with their reasons and risks"),
    Binding("f2", "toggle_teaching", "Teaching", tooltip="Teaching mode: the hand and legal moves of the player to move, with their points"),
    Binding("f3", "settlement", "Results", tooltip="The settlement of the last finished scoring period"),
    # The clock keys go first (priority) but only where the source has a clock: in manual
    # play they are disabled and the keys reach the entry bar.
    Binding("space", "pause", "Pause", key_display="Spc", tooltip="Pause or resume the demo or replay clock", priority=True),
    Binding("n,right", "step", "Step", key_display="n", tooltip="One move now (pauses the clock)", priority=True),
    Binding("plus,equals_sign", "faster", "Faster", show=False, tooltip="Faster: less time between moves", priority=True),
    Binding("minus", "slower", "Slower", show=False, tooltip="Slower: more time between moves", priority=True),
    Binding("r", "restart", "Restart", show=False, tooltip="Start the demo or replay from the beginning", priority=True),
    Binding("end", "to_end", "To end", show=False, tooltip="Replay: play every remaining move at once", priority=True),
    Binding("ctrl+z", "undo", "Undo", tooltip="Undo the last event (the saved record follows)"),
    Binding("ctrl+y", "redo", "Redo", show=False, tooltip="Re-apply the next undone event"),
    Binding("f5", "next_step", "Next", tooltip="What the table does next: a new scoring period, a deal"),
    Binding("f6", "focus_log", "Events", show=False, tooltip="Move to the event log (Enter on an event corrects it)"),
    Binding("escape", "focus_entry", "Entry", show=False, tooltip="Back to the entry bar"),
    # Ctrl+Q quits everywhere, so the footer shows it: with priority, since a dialog keeps the
    # app's other keys from reaching the app. Q only where no entry bar takes letters (in
    # manual play cards are typed, and "quit" typed there quits too).
    Binding("q", "quit", "Quit", show=False, tooltip="Quit (a kept game is already saved)"),
    Binding("ctrl+q", "quit", "Quit", tooltip="Quit (a kept game is already saved)", priority=True),
]
"""The app's bindings (``DashboardApp.BINDINGS``), in no game's words."""

CLOCK_ACTIONS = frozenset({"pause", "step", "faster", "slower"})
"""The keys of a source's clock (demo, replay)."""
EDIT_ACTIONS = frozenset({"undo", "redo", "next_step", "focus_entry", "focus_log"})
"""The keys of a game kept by hand."""


def offered(source: MoveSource, action: str, *, dialog: bool) -> bool:
    """Whether the table offers ``action`` with ``source`` (a dialog open or not): the keys the
    source has no use for are hidden from the footer, the palette and help."""
    if action in CLOCK_ACTIONS | {"restart", "to_end"} and dialog:
        return False  # the dialog's own keys (Space, N, Right in the settlement) come first
    if action in CLOCK_ACTIONS:
        return source.clocked
    if action == "restart":
        return source.can_restart
    if action == "to_end":
        return isinstance(source, ReplaySource)
    if action in EDIT_ACTIONS:
        return source.editable
    return True


def reworded(bindings: Iterable[BindingType], words: Mapping[str, tuple[str, str]]) -> list[Binding]:
    """``bindings`` with the description and tooltip ``words`` gives their action."""
    out = []
    for binding in bindings:
        assert isinstance(binding, Binding)
        if binding.action in words:
            description, tooltip = words[binding.action]
            binding = replace(binding, description=description, tooltip=tooltip)
        out.append(binding)
    return out


def reword(bindings: BindingsMap, words: Mapping[str, tuple[str, str]]) -> None:
    """Reword a node's bindings in place (what its footer shows)."""
    for key, found in bindings.key_to_bindings.items():
        bindings.key_to_bindings[key] = reworded(found, words)


def commands(node: App[Any] | Screen[Any], bindings: Iterable[BindingType], offered: Callable[[str], bool]) -> Iterator[SystemCommand]:
    """The command palette's entries for ``node``'s ``bindings`` that are ``offered``: each
    named with its key, described by its tooltip, running its action on ``node``."""
    for binding in bindings:
        if not isinstance(binding, Binding) or "(" in binding.action or not offered(binding.action):
            continue
        key = binding.key.split(",")[0]
        yield SystemCommand(
            f"{binding.description} ({key})",
            binding.tooltip or binding.description,
            lambda action=binding.action: node.call_later(node.run_action, action),
        )
