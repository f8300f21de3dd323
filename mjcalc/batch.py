"""`waits` for one hand or a stream of hands, one answer a line and none lost.

The batch reads plain lines (digits with m/p/s, E S W N C F P, `*`) with `fastwaits.FastWaits` when the
ruleset's shapes allow it; any other line, and every bad line, goes through the full parser, so answers and
error messages are the same either way. Imports are deferred so the batch path loads only what it uses.
"""
from typing import TYPE_CHECKING, Iterable, List, Optional, Sequence, TextIO, Tuple

from .errors import MjcalcError, json_text, printable
from .tiles import NAMES, NUM_KINDS

if TYPE_CHECKING:  # for annotations only: the batch path imports what it uses when used (start-up time)
    from .fastwaits import FastWaits
    from .hand import Hand
    from .ruleset import Ruleset
    from .scoring import Tiles
    from .situation import Situation
    from .tiles import Wall

Waits = List[Tuple[int, int]]  # (tile, copies left)

NO_WAITS = "-"  # the line for a hand that is not ready (README: "waits --batch")


class BatchWaits:
    """Waits of hands under one ruleset and one situation's wildcards."""

    def __init__(self, ruleset: "Ruleset", situation: "Situation") -> None:
        from .regions import find_region  # imported when used (start-up time)
        from .shapes import WaitFinder

        region = find_region(ruleset.region)
        self.ruleset, self.situation, self.region = ruleset, situation, region
        self.wild_kinds = region.wild_kinds(ruleset, situation)
        # what the region's rules take out of the wall in this situation (the turned-up tile), whatever the hand
        self.empty = region.wall(ruleset, situation, (0,) * NUM_KINDS, None, self.wild_kinds)  # each hand's: `_read`
        self.finder = WaitFinder(ruleset.shapes, self.wild_kinds)
        # a win whatever the shape (四惠牌 …) makes tiles the shapes do not wait on win: hands holding enough of a
        # wild kind for it are read in full
        self.automatic = bool(self.wild_kinds) and region.automatic_pattern(ruleset) is not None
        self.automatic_at = region.automatic_held(ruleset) if self.automatic else None

    def answer(self, text: str, seen: Optional[Sequence[int]] = None) -> Tuple["Hand", Waits, Optional[str]]:
        """One hand's waits as `waits` shows them: (hand, [(tile, left)], every) with `seen` copies taken off;
        `every` the name of the win on every tile the hand can draw ('' by its shape), else None (the kinds
        listed are then those with copies left)."""
        from .analysis import winning_draws  # imported when used (start-up time)

        hand, tiles, wall = self._read(text, seen)
        natural = self._shape_waits(tiles)
        draws = winning_draws(self.ruleset, self.situation, tiles, natural)
        found = [(t, wall.left(t)) for t in draws.kinds]
        if not draws.every:
            return hand, found, None
        name = self.ruleset.pattern(draws.automatic).zh if draws.automatic else ""
        return hand, [(t, left) for t, left in found if left], name

    def wild_draw(self, hand: "Hand") -> Optional[int]:
        """Where a wildcard is no tile kind (广东's ghosts, `*`): how many are left to draw when drawing one wins the
        13-tile `hand` (a draw the kinds listed do not show), else None."""
        if self.wild_kinds:
            return None
        from .scoring import prepare, wild_draws_left  # imported when used (start-up time)

        return wild_draws_left(prepare(hand, ()), self.ruleset, self.region, self.situation)

    def _shape_waits(self, tiles: "Tiles") -> Tuple[int, ...]:
        """The kinds whose draw completes the 13 `tiles` by their shape (`scoring.ready_waits`)."""
        if not self.ruleset.wild_fifth_copy:
            from .scoring import ready_waits  # imported when used (start-up time)

            return ready_waits(tiles, self.ruleset)
        return self.finder.waits(tiles.naturals, tiles.wilds, tiles.melds, tiles.held)

    def _read(self, text: str, seen: Optional[Sequence[int]] = None) -> Tuple["Hand", "Tiles", "Wall"]:
        """The 13-tile hand a line writes, under the wildcards, and its wall (`tiles.Wall`), checked as `waits`
        checks them."""
        from .analysis import check_in_wall, check_seen  # imported when used (start-up time)
        from .notation import parse_hand
        from .scoring import prepare

        hand = parse_hand(text)
        if hand.size != 13:
            raise MjcalcError("waits.need_13_tiles", size=hand.size)
        tiles = prepare(hand, self.wild_kinds)
        check_in_wall(self.ruleset.wall, self.situation, tiles)
        self.region.check_hand(self.ruleset, self.situation, tiles)
        seen = check_seen(tiles.held, seen, self.ruleset.wall)
        return hand, tiles, self.region.wall(self.ruleset, self.situation, tiles.held, seen, self.wild_kinds)

    def waits_of(self, text: str) -> Tuple["Hand", Waits]:
        if self.automatic:
            hand, found, _ = self.answer(text)
            return hand, found
        hand, tiles, wall = self._read(text)
        kinds = self._shape_waits(tiles)
        return hand, [(t, wall.left(t)) for t in kinds if wall.drawable(t)]

    def _fast(self) -> Optional["FastWaits"]:
        """The plain-line reader, when the shapes are the standard shape and at most 七对 (all `FastWaits` knows) and
        the wall is the whole 136 with nothing taken out (its tiles left are then 4 less those held)."""
        from .tiles import FULL_WALL  # imported when used (start-up time)

        if self.ruleset.wall != FULL_WALL or any(self.empty.gone) or self.empty.void or not self.ruleset.wild_fifth_copy:
            return None
        if not self.finder.fast or self.finder.irregular or (self.automatic and self.automatic_at is None):
            return None
        from .fastwaits import FastWaits  # imported when used (start-up time)
        from .shapes import SEVEN_PAIRS

        return FastWaits(SEVEN_PAIRS in self.finder.shapes, self.wild_kinds, self.automatic_at or 5)

    def run_batch(self, lines: Iterable[str], out: TextIO, as_json: bool) -> int:
        """Write one line per input line; return how many lines were bad."""
        fast = self._fast()
        write = out.write
        bad = 0
        for number, line in enumerate(lines, 1):
            line = line.rstrip("\r\n")
            if fast is not None:
                mask = fast.mask(line)
                if mask is not None:
                    write(_fast_json(fast, mask, line) if as_json else fast.text(mask))
                    continue
            try:
                hand, found = self.waits_of(line)
            except MjcalcError as exc:
                bad += 1
                if as_json:
                    write(json_text({"line": number, "error": printable(str(exc))}) + "\n")
                else:
                    write(f"error: {printable(str(exc))}\n")
                continue
            if as_json:
                write(_json_line(str(hand), found))
            else:
                write((" ".join(NAMES[t] for t, _ in found) or NO_WAITS) + "\n")
        return bad


def _json_line(hand_text: str, found: Waits) -> str:
    return json_text({"hand": hand_text, "waits": [{"tile": NAMES[t], "left": n} for t, n in found]}) + "\n"


def _fast_json(fast: "FastWaits", mask: int, line: str) -> str:
    """The JSON line of a plain line read by `FastWaits`: the hand as `Hand` prints it, and tiles left."""
    from .hand import Hand  # imported when used (start-up time)
    from .tiles import WILD, Wall

    read = fast.read(line)
    assert read is not None  # the mask was read from it
    m, p, s, honor_counts, stars, _ = read
    held = fast.held((m, p, s), honor_counts, stars)
    tiles = [9 * x + ord(ch) - 49 for x, digits in enumerate((m, p, s)) for ch in digits]
    tiles += [27 + h for h, n in enumerate(honor_counts) for _ in range(n)]
    tiles += [WILD] * stars
    hand = Hand(tuple(sorted(tiles)))
    if not mask:
        return _json_line(str(hand), [])
    wall = Wall.of(held)  # the fast reader reads only under the whole wall with nothing taken out (`_fast`)
    return _json_line(str(hand), [(t, wall.left(t)) for t in range(34) if mask >> t & 1])
