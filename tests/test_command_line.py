"""The ``rop`` command line knows no game: each command that sets up a table takes the chosen
game's options, in the game's words, and refuses another game's by name; the games' own
commands describe their own game; and ``rop NAME`` imports what NAME needs and nothing more."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import build_parser, main
from companion.commands.demo import demo_options
from companion.commands.options import spelling
from companion.commands.play import table_options
from companion.contract import Game, registry
from companion.records.format import Replayer, open_record, read_record, record_lines

ROOT = Path(__file__).resolve().parent.parent
GAMES = list(registry.games())


def _help(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    with pytest.raises(SystemExit) as exited:
        main([*argv, "--help"])
    assert exited.value.code == 0
    return capsys.readouterr().out


def _flags(options: object) -> set[str]:
    return {spelling(o) for o in options}  # type: ignore[attr-defined]


def _every_flag(options_of: object) -> set[str]:
    return {flag for g in GAMES for flag in _flags(options_of(g))}  # type: ignore[operator]


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
@pytest.mark.parametrize("command", ["play", "track"])
def test_a_table_command_offers_the_chosen_games_options_alone(capsys: pytest.CaptureFixture[str], game: Game, command: str) -> None:
    words = ("--game", game.name) if game.name != registry.DEFAULT else ()
    text = _help(capsys, command, *words)
    options = table_options(game, manual=command == "play")
    mine = _flags(options)
    assert mine >= {o.flag for o in game.options}
    for flag in mine:
        assert flag in text
    for option in options:
        # In the game's own words (argparse wraps them: compare the words alone).
        assert " ".join(option.help.split()[:3]) in " ".join(text.split())
    for flag in _every_flag(lambda g: table_options(g, manual=True)) - mine:
        assert flag not in text
    assert f"game of {game.title}" in " ".join(text.split())


def test_play_for_circle_of_power_lists_no_fate_decks_and_no_companion_dealing(capsys: pytest.CaptureFixture[str]) -> None:
    text = _help(capsys, "play", "--game", "circle-of-power")
    assert "Fate" not in text and "--companion-deals" not in text and "--teams" not in text
    assert "--variant" in text and "C17" in text and "Keep a game of Circle of Power" in text
    default = _help(capsys, "play")
    assert "--fate-decks" in default and "--companion-deals" in default and "--variant" not in default
    assert "Keep a game of Rule of Power" in default
    # Whose options they are, and where another game's are told.
    words = " ".join(default.split())
    assert "the Rule of Power table, options of Rule of Power alone" in words and "another game's: rop play --game NAME --help" in words
    assert "the Circle of Power table, options of Circle of Power alone" in " ".join(text.split())


def test_track_takes_no_option_of_manual_play(capsys: pytest.CaptureFixture[str]) -> None:
    assert "--companion-deals" not in _help(capsys, "track")


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_demo_offers_the_chosen_games_demo_options(capsys: pytest.CaptureFixture[str], game: Game) -> None:
    text = _help(capsys, "demo", "--game", game.name)
    mine = _flags(demo_options(game))
    for flag in mine:
        assert flag in text
    for flag in _every_flag(demo_options) - mine:
        assert flag not in text
    assert f"{game.min_players} to {game.max_players}" in text
    assert f"game of {game.title}" in " ".join(text.split())


def test_the_demo_of_a_sample_takes_the_samples_game(capsys: pytest.CaptureFixture[str]) -> None:
    other = next(g for g in GAMES if g.name != registry.DEFAULT and registry.samples_of(g))
    sample = registry.samples_of(other)[0].name
    argv = ["demo", "--sample", sample]
    assert build_parser(argv).parse_args(argv).sample == sample
    assert f"game of {other.title}" in " ".join(_help(capsys, *argv).split())


@pytest.mark.parametrize(
    ("argv", "refusal"),
    [
        (["play", "--game", "circle-of-power", "--players", "ann,bob", "--teams", "2"], "Circle of Power has no --teams (an option of Rule of Power)"),
        (["play", "--game", "circle-of-power", "--players", "ann,bob", "--companion-deals"], "Circle of Power has no --companion-deals"),
        (["play", "--players", "ann,bob", "--variant", "lonely-tyrant"], "Rule of Power has no --variant (an option of Circle of Power)"),
        (["track", "--game", "circle-of-power", "--players", "ann,bob", "--fate-decks=x", "--observations", "x"], "Circle of Power has no --fate-decks"),
        (["demo", "--game", "circle-of-power", "--no-fate"], "Circle of Power has no --no-fate (an option of Rule of Power)"),
        (["demo", "--variant", "basic"], "Rule of Power has no --variant"),
    ],
)
def test_another_games_option_is_refused_by_name(capsys: pytest.CaptureFixture[str], argv: list[str], refusal: str) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err == f"rop {argv[0]}: {refusal}\n" if refusal.endswith(")") else refusal in err


def test_an_option_is_read_as_its_game_reads_it(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["play", "--game", "circle-of-power", "--variant", "tyrant"])
    assert "argument --variant: one of basic, lonely-tyrant, coloured-cities, not 'tyrant'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["play", "--target", "5"])
    assert "argument --target: 5 is out of range: a whole number from 11 to" in capsys.readouterr().err


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_each_games_own_commands_describe_that_game(capsys: pytest.CaptureFixture[str], game: Game) -> None:
    for command in game.commands():
        text = " ".join(_help(capsys, command.name, "--game", game.name).split())
        assert game.title in text
    simulate = " ".join(_help(capsys, "simulate", "--game", game.name).split())
    assert game.codec.format in simulate and f"{game.min_players} to {game.max_players}" in simulate
    for option in game.options:
        assert spelling(option) in simulate


def test_a_game_command_without_its_game_says_whose_it_is_and_how_to_see_another_games(capsys: pytest.CaptureFixture[str]) -> None:
    """``rop simulate --help`` describes the default game's simulate: it says so, and names the
    other games that have one, each with its own options under ``--game NAME``."""
    default = registry.game()
    for name in {c.name for g in GAMES for c in g.commands()}:
        text = " ".join(_help(capsys, name).split()).replace("- ", "-")  # names wrapped at hyphens
        owner = default if any(c.name == name for c in default.commands()) else next(g for g in GAMES if any(c.name == name for c in g.commands()))
        others = [g.name for g in GAMES if g is not owner and any(c.name == name for c in g.commands())]
        if others:
            assert f"This is {owner.title}'s {name}." in text, text
            assert f"rop {name} --game NAME --help, NAME one of {', '.join(others)}." in text, text


def test_rop_names_the_games_of_the_registry(capsys: pytest.CaptureFixture[str]) -> None:
    text = " ".join(_help(capsys).split())
    for game in GAMES:
        assert game.title in text and game.name in text


def test_the_command_line_names_no_game_and_no_games_option() -> None:
    sources = {p: p.read_text(encoding="utf-8") for p in [ROOT / "companion" / "cli.py", *sorted((ROOT / "companion" / "commands").glob("*.py"))]}
    words = set()
    for game in GAMES:
        words |= {game.title, game.name, game.codec.format, *(s.name for s in registry.samples_of(game))}
        words |= _flags(table_options(game, manual=True)) | _flags(demo_options(game))
    for path, text in sources.items():
        for word in sorted(words):
            assert word not in text, f"{path.relative_to(ROOT)} names {word!r}"


# ------------------------------------------------------------------ what each command imports

HEAVY = ("sqlalchemy", "alembic", "starlette", "uvicorn", "httpx", "textual", "rich", "cv2", "numpy")
"""What a quick answer has no use for: the club's database and server, the dashboard, the
camera's image processing."""


def _imported(*argv: str) -> tuple[int, list[str]]:
    """The exit status of ``rop argv`` run in a fresh interpreter, and the heavy packages it
    imported."""
    code = (
        "import sys\n"
        "from companion.cli import main\n"
        "try:\n"
        f"    status = main({list(argv)!r})\n"
        "except SystemExit as exc:\n"
        "    status = exc.code\n"
        f"heavy = sorted({{m.partition('.')[0] for m in sys.modules}} & {set(HEAVY)!r})\n"
        "print('IMPORTED', status, ' '.join(heavy), file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    line = next(x for x in done.stderr.splitlines() if x.startswith("IMPORTED"))
    _, status, *heavy = line.split()
    return int(status), heavy


def _deciding_line(path: Path, player: str) -> int:
    """A line of the record after which ``player`` is to decide."""

    class Find(Replayer):
        found = 0

        def visit_move(self, move: object, line: int) -> None:
            super().visit_move(move, line)
            assert self.game is not None
            if not self.found and player in self.game.deciding:
                self.found = line

    finder = Find()
    with open_record(path) as fp:
        read_record(record_lines(fp, str(path)), finder, path=str(path))
    assert finder.found
    return finder.found


@pytest.mark.parametrize("game", [g for g in GAMES if g.coach() is not None and registry.samples_of(g)], ids=lambda g: g.name)
def test_hint_and_review_import_no_database_no_dashboard_and_no_camera(game: Game) -> None:
    sample = registry.samples_of(game)[0].path
    player = json.loads(sample.read_text(encoding="utf-8").splitlines()[0])["players"][0]
    line = _deciding_line(sample, player)
    assert _imported("hint", str(sample), "--player", player, "--line", str(line), "--samples", "2") == (0, [])
    assert _imported("review", str(sample), "--player", player, "--samples", "1") == (0, [])


def test_the_whole_command_line_is_built_without_the_heavy_parts() -> None:
    assert _imported("--help") == (0, [])
    assert _imported("replay", "--samples") == (0, [])
