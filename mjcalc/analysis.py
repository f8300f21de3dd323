"""The whole answer for one hand under one ruleset and situation: shape, waits, score and payouts."""
from dataclasses import dataclass, field, replace
from typing import List, Optional, Tuple

from .errors import HandError, NotationError, SituationError
from .hand import WILD, Hand, Situation
from .payouts import SCHEMES, Payout
from .ruleset import Ruleset
from .scoring import Score, Tiles, prepare, prepared, ready_waits, score_hand
from .tiles import NAMES, NUM_KINDS, SEATS

RULESET_OPTIONS = {
    "shaozhuang": "--shaozhuang", "mutual": "--mutual", "bid": "--bid", "bidder": "--bidder",
    "flown": "--flown", "flown_by": "--flown-by", "four_wild": "--four-wild", "jiebao": "--jiebao",
    "kongs": "--kong",
}


@dataclass
class WaitResult:
    tile: int
    left: int
    self_draw: Score
    discard: Optional[Score]


@dataclass
class Analysis:
    ruleset: Ruleset
    hand: Hand
    situation: Situation
    tiles: Tiles
    score: Optional[Score] = None
    payout: Optional[Payout] = None
    waits: List[WaitResult] = field(default_factory=list)
    discards: List[Tuple[int, Tuple[int, ...]]] = field(default_factory=list)
    warnings: List[str] = field(default_factory=list)
    seen: Tuple[int, ...] = (0,) * NUM_KINDS  # copies visible elsewhere (--seen)

    @property
    def wild_kinds(self) -> Tuple[int, ...]:
        return self.tiles.wild_kinds


def unused_options(ruleset: Ruleset, situation: Situation) -> List[str]:
    """Ruleset-specific options that are set but that this ruleset does not read."""
    default = Situation()
    return [
        flag for key, flag in RULESET_OPTIONS.items()
        if getattr(situation, key) != getattr(default, key) and key not in ruleset.options
        and not (key == "kongs" and "kong" in ruleset.options)
    ]


def check_situation(situation: Situation):
    """Contradictions in the situation itself, whatever the ruleset."""
    s = situation
    if s.discarder is not None and s.discarder == s.seat:
        raise SituationError(f"--from {s.discarder} is the winner's own seat: a player cannot win on his own discard")
    if s.rob_kong and s.discarder is None:
        raise SituationError("--rob-kong needs --from SEAT, the player whose kong was robbed")
    if s.kong_draw and s.discarder is not None:
        raise SituationError("--kong-draw is a win on one's own replacement draw: it cannot go with --from")
    if s.first_turn and s.is_dealer and s.discarder is not None:
        raise SituationError("--first-turn for the dealer is 天和, his dealt hand: it cannot go with --from")
    if s.seat in s.mutual:
        raise SituationError(f"--mutual {s.seat} is the winner's own seat")
    if s.base < 1:
        raise SituationError(f"--base must be at least 1, got {s.base}")


def default_discarder(situation: Situation) -> str:
    """For 'what would a discard win score': the given --from, else the player before the winner."""
    return situation.discarder or SEATS[(SEATS.index(situation.seat) - 1) % 4]


def analyze(hand: Hand, ruleset: Ruleset, situation: Situation, seen=None) -> Analysis:
    check_situation(situation)
    scheme = SCHEMES[ruleset.payout]
    adjusted = scheme.adjust(ruleset, situation)
    tiles = prepared(hand, ruleset, adjusted)
    result = Analysis(ruleset, hand, situation, tiles, warnings=[
        f"{flag} is not used by {ruleset.id}; ignored" for flag in unused_options(ruleset, situation)
    ], seen=check_seen(tiles.held, seen))
    if hand.winning is not None:
        result.score = score_hand(hand, situation, ruleset)
        if result.score.legal:
            paid = replace(situation, discarder=None, rob_kong=False) if result.score.self_drawn and situation.discarder else situation
            result.payout = scheme.pay(result.score, scheme.adjust(ruleset, paid), ruleset)
        elif not result.score.complete:
            result.discards = ready_discards(tiles, ruleset)
        return result
    by_discard = replace(situation, discarder=default_discarder(situation), kong_draw=0)
    self_draw = replace(situation, discarder=None, rob_kong=False)
    for tile in ready_waits(tiles, ruleset):
        won = hand.with_winning(tile)
        result.waits.append(WaitResult(
            tile, tiles_left(tiles.held, result.seen, tile),
            score_hand(won, self_draw, ruleset),
            score_hand(won, by_discard, ruleset),
        ))
    return result


def ready_discards(tiles: Tiles, ruleset: Ruleset) -> List[Tuple[int, Tuple[int, ...]]]:
    """Each discard from a 14-tile hand that leaves it ready, with the waits it leaves."""
    hand = tiles.hand
    found = []
    for tile in sorted(set(hand.tiles), key=lambda t: (t == WILD, t)):
        rest = list(hand.tiles)
        rest.remove(tile)
        left = prepare(Hand(tuple(sorted(rest)), hand.melds), tiles.wild_kinds)
        waits = ready_waits(left, ruleset)
        if waits:
            found.append((tile, waits))
    return found


def parse_seen(text: Optional[str]) -> Tuple[int, ...]:
    """Counts of the tiles written in `--seen` (discards and melds on the table, in hand notation)."""
    from .notation import parse_tiles

    counts = [0] * NUM_KINDS
    if not text or not text.strip():
        return tuple(counts)
    if len(text) > 400:
        raise NotationError(f"--seen: input too long: {len(text)} characters")
    try:
        loose, melds, winning = parse_tiles(text)
    except NotationError as exc:
        raise NotationError(f"--seen: {exc}") from None
    if winning is not None:
        raise NotationError("--seen: '+' marks a winning tile; seen tiles have none")
    tiles = loose + [t for meld in melds for t in meld.tiles]
    for t in tiles:
        if t == WILD:
            raise NotationError("--seen: write a seen wildcard as its face (e.g. 5m), not '*'")
        counts[t] += 1
    return tuple(counts)


def check_seen(held, seen) -> Tuple[int, ...]:
    """`seen` as 34 counts; a kind held and seen more than 4 times in all is an error."""
    if seen is None:
        return (0,) * NUM_KINDS
    for t in range(NUM_KINDS):
        if seen[t] and held[t] + seen[t] > 4:
            raise HandError(
                f"--seen: {held[t]} {NAMES[t]} in the hand and {seen[t]} seen make {held[t] + seen[t]}: there are only 4"
            )
    return tuple(seen)


def tiles_left(held, seen, tile: int) -> int:
    """Copies of `tile` neither in the hand nor seen; never negative."""
    return max(0, 4 - held[tile] - seen[tile])


def tile_label(tile: int) -> str:
    return "*" if tile == WILD else NAMES[tile]
