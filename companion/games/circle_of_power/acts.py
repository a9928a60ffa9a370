"""The winner's act: what the winner of the initiative may do and why (C10), attacking only a
city theirs may attack (C3), conquering (C12), retaking a city at the cost of the loser's
trophy (C13), regrouping and paying for a rebellion (C14); the one act a dummy has (C11); what
Lonely Tyrant (C18) and Coloured Cities (C19) change. Each refusal names its ruling.

What an act then does to the cities and the lines is :mod:`.act_resolution`'s."""

from __future__ import annotations

from typing import TYPE_CHECKING, NoReturn

from companion.games.circle_of_power.cards import BLACK, Card, attack_range, colour_in_attack
from companion.games.circle_of_power.moves import Act, Conquer, Move, Regroup, Retake
from companion.games.circle_of_power.position import _ACT, ACTIONS, CircleBase
from companion.games.circle_of_power.rules import (
    Choice,
    act_choices,
    attack_words,
    dummy_victim,
    threat_words,
    threats,
    victims,
    why_initiative,
)
from companion.contract.errors import IllegalMoveError, InvalidMoveError

__all__ = ["Acts"]


class Acts(CircleBase):
    """The state's part for the winner's choice of act and its checks (C3, C10-C14, C18, C19)."""

    if TYPE_CHECKING:

        def _plays_by_seat(self) -> list[tuple[int, Card]]: ...

    def threatened(self, name: str) -> bool:
        """Whether ``name``'s city is under threat: another emperor's city may attack it (C3)."""
        return bool(threats(self._seat(name), self._core.cities))

    def threat(self, name: str) -> str:
        """Whether ``name``'s city is under threat, in words, naming who threatens it (C3)."""
        c = self._core
        return threat_words(c.seats, c.cities, self._seat(name))

    def choices(self) -> list[Choice]:
        """The acts the winner may choose now, each with why (C10-C14, C18, C19; a dummy's one
        act, C11); empty unless the winner is to act."""
        c = self._core
        if c.phase is not _ACT:
            return []
        return act_choices(self._variant, c.seats, c.dummy, c.cities, c.trophies, c.turn, last=c.action >= ACTIONS)

    def _check_act(self, move: Act) -> None:
        """C9-C14, C18, C19: the winner, and only the winner, does one act open to them; a
        dummy the one act C11 leaves it."""
        c = self._core
        if c.phase is not _ACT or move.player != c.seats[c.turn]:
            self._refuse_act(move)
        w = c.turn
        if c.dummy[w]:
            expected = self._dummy_act(w)
            if move != expected:
                raise IllegalMoveError("C11", self._dummy_words(w, expected))
        elif type(move) is Regroup:
            self._check_regroup(w, move)
        else:
            self._check_attack(w, move)

    def _refuse_act(self, move: Act) -> NoReturn:
        """C9, C10: an act comes after the action's four plays, from the winner of the
        initiative only; raise the error of ``move``, which comes at another time or from
        another emperor."""
        c = self._core
        player = move.player
        if c.phase is not _ACT:
            verb = {Conquer: "conquer", Retake: "retake a city", Regroup: "regroup"}[type(move)]
            raise self._phase_problem(f"{player} cannot {verb}")
        w = self._emperor(player)
        plays = self._plays_by_seat()
        raise IllegalMoveError("C9", why_initiative(c.seats, c.cities, c.next_city, plays, c.trumps, against=w))

    def _check_regroup(self, w: int, move: Regroup) -> None:
        """C10, C14: the winner regroups only when their city may attack none of the others,
        and pays for a rebellion with a trophy."""
        c = self._core
        discard = move.discard
        if discard is not None and not isinstance(discard, Card):
            raise InvalidMoveError(f"not a card: {discard!r}")
        found = victims(w, c.cities)
        if found:
            may = "; ".join(attack_words(c.seats, c.cities, w, v) for v in found)
            raise IllegalMoveError("C10", f"{c.seats[w]} must attack: {may}")
        self._check_rebellion(w, discard)

    def _check_attack(self, w: int, move: Conquer | Retake) -> None:
        """C3, C10: the winner takes over a city their city may attack; C13: a retake costs the
        loser a trophy, and C18 has none; C19: only a black attacker may keep their city."""
        c = self._core
        name = c.seats[w]
        victim = move.victim
        if type(move) is Retake and self._lonely:
            raise IllegalMoveError("C18", "retaking is not available in Lonely Tyrant: a city taken over is destroyed, never conquered")
        if type(move) is Conquer:
            keep = move.keep
            if not isinstance(keep, bool):
                raise InvalidMoveError(f"keep must be true or false, not {keep!r}")
            if keep and not self._coloured:
                raise IllegalMoveError("C19", "only in Coloured Cities may an attacker keep their city")
        v = self._emperor(victim)
        if v == w:
            raise IllegalMoveError("C10", f"{name} cannot take over {name}'s own city")
        mine = c.cities[w]
        assert mine is not None
        found = victims(w, c.cities)
        if not found:
            raise IllegalMoveError(
                "C10",
                f"{name}'s {mine.id} may take none of the other cities ({attack_range(mine)}): {name} must regroup",
            )
        if v not in found:
            raise IllegalMoveError("C3", attack_words(c.seats, c.cities, w, v))
        if type(move) is Conquer and move.keep:
            theirs = c.cities[v]
            assert theirs is not None
            if colour_in_attack(mine, theirs) != BLACK:
                raise IllegalMoveError("C19", f"{name}'s {mine.id} is red in this attack: {name} must give it to {victim}")
        if type(move) is Retake:
            self._check_retake_discard(w, v, move.discard)

    def _check_rebellion(self, w: int, discard: Card | None) -> None:
        """C14: a city not under threat rebels and costs a trophy of the winner's choice."""
        c = self._core
        name = c.seats[w]
        line = c.trophies[w]
        if threats(w, c.cities):
            if discard is not None:
                raise IllegalMoveError("C14", f"{threat_words(c.seats, c.cities, w).replace(' is under', ' was under')}: no rebellion")
            return
        if not line:
            if discard is not None:
                if self._lonely:
                    raise IllegalMoveError("C18", "in Lonely Tyrant there are no trophies: a rebellion costs nothing")
                raise IllegalMoveError("C14", f"{name} has no trophy to lose: the rebellion costs nothing")
            return
        city = c.cities[w]
        assert city is not None
        if discard is None:
            raise IllegalMoveError(
                "C14",
                f"{name}'s city {city.id} was under threat from nobody: it rebels, and {name} must discard one of "
                f"{name}'s trophies ({', '.join(x.id for x in line)})",
            )
        if discard not in line:
            other = " (a destroyed city is never lost to rebellion, C19)" if discard in c.destroyed[w] else ""
            raise IllegalMoveError("C14", f"{discard.id} is not one of {name}'s trophies ({', '.join(x.id for x in line)}){other}")

    def _check_retake_discard(self, w: int, v: int, discard: object) -> None:
        """C13: the winner discards one of the loser's trophies, none when the line is empty."""
        c = self._core
        loser = c.seats[v]
        line = c.trophies[v]
        if discard is not None and not isinstance(discard, Card):
            raise InvalidMoveError(f"not a card: {discard!r}")
        if not line:
            if discard is not None:
                raise IllegalMoveError("C13", f"{loser} has no trophy: the retake costs {loser} nothing, so no discard")
            return
        if discard is None:
            raise IllegalMoveError(
                "C13", f"{c.seats[w]} discards one of {loser}'s trophies ({', '.join(x.id for x in line)})"
            )
        if discard not in line:
            raise IllegalMoveError("C13", f"{discard.id} is not one of {loser}'s trophies ({', '.join(x.id for x in line)})")

    def _dummy_act(self, w: int) -> Move:
        """The one act C11 leaves a dummy: conquer the first city counter-clockwise it may
        attack (keeping a black city in Coloured Cities), or regroup, giving up the trophy it
        won last when its city rebels."""
        c = self._core
        name = c.seats[w]
        v = dummy_victim(w, c.cities)
        if v is not None:
            keep = False
            if self._coloured:
                mine, theirs = c.cities[w], c.cities[v]
                assert mine is not None and theirs is not None
                keep = colour_in_attack(mine, theirs) == BLACK
            return Conquer(name, c.seats[v], keep)
        line = c.trophies[w]
        if line and not threats(w, c.cities):
            return Regroup(name, line[-1])
        return Regroup(name)

    def _dummy_words(self, w: int, act: Move) -> str:
        """C11: the one act a dummy has, in words."""
        c = self._core
        name = c.seats[w]
        if type(act) is Conquer:
            v = c.seat_of[act.victim]
            keep = " and keeps its city" if act.keep else ""
            return (
                f"{name} is a dummy: it conquers {act.victim}{keep}, the first emperor counter-clockwise whose city it "
                f"may take ({attack_words(c.seats, c.cities, w, v)})"
            )
        assert type(act) is Regroup
        lost = f", giving up {act.discard.id}, the trophy it won last" if act.discard is not None else ""
        return f"{name} is a dummy: it regroups{lost}"
