"""The camera alone following whole games played at a natural pace.

Each game is played by the virtual table (World cards) and filmed as players handle cards
(``vision.scenes.natural_play``): for every action a hand comes in from the nearest edge,
lays or takes the cards under it and leaves, about a second per action, and the next
player's hand follows 0.3 s later. Frames go through marker detection, the stabiliser (its
defaults, as ``rop play`` uses them) and the tracker, on the video's clock (frame n at
n / fps); nothing else tells the tracker anything, and no question is answered.

Per set-up (camera density over a mat, players) it reports:

- spurious: reports of a card seen or gone that match no card laid or taken (a flicker);
- rounds exact: the tracker ends the round with every move played, the same score, and no
  question asked (each game's first round; the whole game when one round reaches the target);
- events right: cards laid that were reported seen, and cards taken that were reported gone,
  each within 2 s and with no spurious report, out of all cards laid and taken;
- lifted -> gone: from the hand leaving (the last frame it is in the picture) to the
  ``CardGone`` of a card it took (median and worst); laid -> seen: from the frame the card
  lies on the table (under the hand) to its ``CardSeen``;
- ms/frame: detection and stabiliser per frame, on one core.

``python -m bench table [-- --games N] [--seed S] [--setups webcam-2,1080p-2,...] [--fps F]``
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

#: name: (players, teams, mat, pixels per module, what it stands for)
SETUPS = {
    "webcam-2": (2, 0, "demo", 3.8, "webcam over the small 2-player mat, stickers 40 px wide (3.8 px/module)"),
    "1080p-2": (2, 0, 2, 2.7, "1080p over the standard 2-player mat (2.7 px/module)"),
    "webcam-4": (4, 2, 4, 3.8, "3.8 px/module over the 4-player mat (a 2.5K camera)"),
    "1080p-4": (4, 2, 4, 2.7, "2.7 px/module over the 4-player mat (1762 x 1426)"),
    "1080p-3": (3, 0, 3, 2.3, "1080p over the 3-player mat (2.3 px/module)"),
    "1440p-3": (3, 0, 3, 3.1, "1440p over the 3-player mat (3.1 px/module)"),
}


def play(players: int, teams: int, mat: object, module_px: float, seed: int, fps: float):
    from companion.engine.game import GameState
    from companion.engine.moves import DrawFate, NewRound
    from companion.observations import CardGone, CardSeen
    from companion.simulation.staging import stage
    from companion.simulation.virtual_table import make_setup, simulate_game
    from companion.tracker import MoveApplied, OutOfSync, Question, RuleHint, Tracker, TrackerConfig
    from vision.layout import demo_layout, load_layout
    from vision.markers import MODULE_MM
    from vision.owners import OwnerRegistry
    from vision.reader import TableReader
    from vision.render import VirtualCamera
    from vision.scenes import natural_play
    from vision.tracking import Stabiliser

    setup = make_setup(players, teams)
    truth, moves = simulate_game(setup, seed=seed)
    first = next(m for m in moves if isinstance(m, NewRound))
    # The first round (the whole game when one round reaches the target).
    end = next((i for i, m in enumerate(moves) if isinstance(m, NewRound) and i > 0), len(moves))
    tracker = Tracker(GameState(setup), TrackerConfig(first_dealer=first.dealer, fate_decks={p: first.deck_of(p) for p in setup.players},
                                                      draws_visible=True, settle=3.0))
    names = list(setup.players)
    layout = demo_layout() if mat == "demo" else load_layout(int(mat))  # type: ignore[call-overload]
    ppm = module_px / MODULE_MM
    w, h = layout.mat_mm
    camera = VirtualCamera.looking_at((w / 2, h / 2), ppm, size=(int((w + 50) * ppm) // 2 * 2, int((h + 50) * ppm) // 2 * 2))
    reader = TableReader(layout=layout, owners=OwnerRegistry(names + [None] * (8 - len(names))), players=names)
    stab = Stabiliser(layout=layout.seated(names))
    applied, problems, questions = [], [], 0
    reports: list = []
    actions: list = []
    seconds = 0.0
    frames = 0
    last = None
    t = 0.0

    def handle(events) -> None:
        nonlocal questions
        for e in events:
            if isinstance(e, MoveApplied):
                applied.append(e.move)
            elif isinstance(e, Question):
                questions += 1  # nobody answers: a camera-only table must not need to
            elif isinstance(e, (OutOfSync, RuleHint)):
                problems.append(e)

    for frame in natural_play(list(stage(setup, moves[:end])), layout.seated(names), names, camera=camera, fps=fps, seed=seed):
        if frame.scene is not last and isinstance(frame.scene.move, DrawFate):
            handle(tracker.draw_fate(frame.scene.move.player))
        last = frame.scene
        if frame.action is not None and (not actions or actions[-1] is not frame.action):
            actions.append(frame.action)
        t = frame.at
        handle(tracker.tick(t))
        began = time.perf_counter()
        observed = stab.update(reader.read(frame.image), frame.image, t)
        seconds += time.perf_counter() - began
        frames += 1
        for obs in observed:
            if isinstance(obs, (CardSeen, CardGone)):
                reports.append(obs)
            handle(tracker.observe(obs))
    handle(tracker.tick(t + 5.0))
    exact = (not problems and not questions and len(applied) >= end and bool(tracker.game.results)
             and tracker.game.results[0].score.to_json() == truth.results[0].score.to_json())
    # Match every true event with the first fitting report after it.
    used = set()
    right = total = 0
    gone_delays, seen_delays = [], []
    for a in actions:
        for kind, keys, since in ((CardGone, a.taken, a.hand_gone), (CardSeen, a.laid, a.change)):
            for key in keys:
                total += 1
                for i, r in enumerate(reports):
                    if i in used or not isinstance(r, kind) or (r.card.id, r.owner) != key or r.at < a.start:
                        continue
                    if r.at - since <= 2.0:
                        used.add(i)
                        right += 1
                        (gone_delays if kind is CardGone else seen_delays).append(r.at - since)
                    break
    spurious = [f"{'gone' if isinstance(r, CardGone) else 'seen'} {r.card.id} at {r.at:.1f} s" for i, r in enumerate(reports) if i not in used]
    return exact, right, total, spurious, gone_delays, seen_delays, questions, 1000 * seconds / max(1, frames)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bench table", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2, help="games per set-up (their first round)")
    parser.add_argument("--seed", type=int, default=0, help="the first game's deal")
    parser.add_argument("--setups", default="webcam-2,1080p-2,1080p-4", help=f"comma separated, of {', '.join(SETUPS)}")
    parser.add_argument("--fps", type=float, default=10.0)
    parser.add_argument("--quick", action="store_true", help="one game per set-up")
    args = parser.parse_args(argv)
    import cv2

    cv2.setNumThreads(1)
    games = 1 if args.quick else args.games
    print(f"natural play, a hand over every action (about 1 s each), {args.fps:g} frames/s, camera only, World cards")
    print(f"{'set-up':10} {'rounds exact':>12} {'events right':>13} {'spurious':>8} {'lifted->gone median/worst':>26} "
          f"{'laid->seen median/worst':>24} {'questions':>9} {'ms/frame':>8}")
    for name in args.setups.split(","):
        players, teams, mat, module_px, what = SETUPS[name]
        seeds = list(range(args.seed, args.seed + games))
        exact = right = total = questions = 0
        spurious: list[str] = []
        gone: list[float] = []
        seen: list[float] = []
        ms = []
        for seed in seeds:
            e, r, n, s, g, sd, q, m = play(players, teams, mat, module_px, seed, args.fps)
            exact, right, total, questions = exact + e, right + r, total + n, questions + q
            spurious += [f"game {seed}: {x}" for x in s]
            gone += g
            seen += sd
            ms.append(m)
        fmt = lambda xs: f"{statistics.median(xs):5.2f} / {max(xs):5.2f} s" if xs else "-"  # noqa: E731
        print(f"{name:10} {exact:>6}/{len(seeds):<5} {100 * right / max(1, total):12.1f}% {len(spurious):8} {fmt(gone):>26} {fmt(seen):>24} "
              f"{questions:9} {statistics.mean(ms):8.0f}   {what}")
        if spurious:
            print(f"{'':10} spurious: {', '.join(spurious[:4])}{' ...' if len(spurious) > 4 else ''}")
    print("(negative lifted->gone: reported while the hand that took it was still leaving the picture)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
