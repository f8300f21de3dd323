"""The whole answer for one hand under one ruleset and situation: shape, waits, score and payouts.

Every front end (the CLI, the ledger, the page) goes through `setting()`, so the same hand and situation are
refused with the same message everywhere: the region's options are read once, what the ruleset does not read is
dropped with a notice, and situations this hand makes impossible are refused.
"""
from dataclasses import dataclass, field
from typing import Any, Iterable, List, Optional, Sequence, Tuple

from .errors import HandError, ImpossibleSituation, MjcalcError, NotationError, Notice, SituationError
from .hand import Hand
from .messages import did_you_mean
from .notation import parse_tiles
from .payouts import Payout
from .regions import all_options, find_region
from .regions.base import AtDraw, HandTiles, Region
from .ruleset import Ruleset
from .scoring import Score, Tiles, prepare, ready_waits, score_hand, score_hands, wild_draws_left
from .situation import Situation
from .tiles import FULL_WALL, NAMES, NUM_KINDS, SEATS, WILD, Composition, Wall


@dataclass
class WaitResult:
    """A wait of a 13-tile hand: copies left, and the hand won on it by self-draw and on a discard."""

    tile: int
    left: int
    self_draw: Score
    discard: Optional[Score]


@dataclass
class Setting:
    """A hand under a ruleset: its region, the situation as the ruleset reads it, the tiles under its wildcards."""

    ruleset: Ruleset
    region: Region
    situation: Situation
    tiles: Tiles
    warnings: List[Notice]

    @property
    def wild_kinds(self) -> Tuple[int, ...]:
        return self.tiles.wild_kinds


@dataclass
class Analysis:
    """Everything mjcalc says about one hand: the score and payout (14 tiles) or the waits (13 tiles)."""

    ruleset: Ruleset
    region: Region
    hand: Optional[Hand]  # None for a hand told by its total or patterns (`told.score_agreed`)
    situation: Situation
    tiles: HandTiles  # a told hand's are its facts
    score: Optional[Score] = None
    payout: Optional[Payout] = None
    waits: List[WaitResult] = field(default_factory=list)
    discards: List[Tuple[int, Tuple[int, ...]]] = field(default_factory=list)
    warnings: List[Notice] = field(default_factory=list)
    seen: Tuple[int, ...] = (0,) * NUM_KINDS  # copies visible elsewhere
    wall: Optional[Wall] = None  # what the player knows of the wall (`wall_of`): every count of tiles left
    # 13 tiles: every kind the hand can still draw wins it (the waits then list only the kinds with tiles left)
    every_tile: bool = False
    # the pattern of the region's win whatever the shape (`Region.automatic_pattern`) when it applies: 14 tiles,
    # the hand is that win; 13 tiles, some draw makes it
    automatic: Optional[str] = None
    # 13 tiles: whether a wait could be won on a discard here at all (else no front end shows that column)
    discard_wins: bool = True
    # 13 tiles, where a wildcard is no tile kind (广东's ghosts): how many are left when drawing one wins, else None
    wild_draw: Optional[int] = None

    @property
    def wild_kinds(self) -> Tuple[int, ...]:
        return self.tiles.wild_kinds

    @property
    def shanten(self) -> int:
        """Tiles away from ready 向听 (0 ready, -1 complete)."""
        from .shanten import shanten  # only for a hand that does not win (start-up time)
        t = self.tiles
        assert isinstance(t, Tiles), "a hand told by its patterns or total has no shanten"
        return shanten(t.naturals, t.wilds, t.melds, self.ruleset.shapes,
                       self.region.unkept(self.ruleset, self.situation))


def check_options(situation: Situation) -> None:
    """Region options nobody declares are refused (a typo must never pass silently)."""
    known = all_options()
    for name, _ in situation.extras:
        if name not in known:
            raise SituationError("analysis.unknown_option", field=name, label="", name=repr(name),
                                 hint=did_you_mean(name, known))


def setting(hand: Hand, ruleset: Ruleset, situation: Situation) -> Setting:
    """The hand under the ruleset and the situation as the ruleset reads it; SituationError if it cannot be."""
    check_options(situation)
    region = find_region(ruleset.region)
    notes: List[Notice] = [assumed_seat(situation)] if situation.assumed else []
    situation = first_turn_read(ruleset, region, situation, notes)
    situation = region.prepare(ruleset, situation, notes)
    wild_kinds = region.wild_kinds(ruleset, situation)
    why = region.why_no_wild(ruleset, situation) if WILD in hand.tiles else None
    if why:
        raise SituationError("analysis.wildcard_not_in_play", where=why)
    tiles = prepare(hand, wild_kinds)
    check_in_wall(ruleset.wall, situation, tiles)
    region.check_hand(ruleset, situation, tiles)
    return Setting(ruleset, region, situation, tiles, notes)


def assumed_seat(situation: Situation) -> Notice:
    """The one line that says which seat was taken when none was given: East, who deals unless told (so the
    dealer's 庄 counts). A fresh `Situation()` is East dealing; `--seat`/`--dealer` say otherwise."""
    field_name = "seat" if "seat" in situation.assumed else "dealer"
    if len(situation.assumed) == 2:
        notice = Notice("analysis.assumed_both", field=field_name)
    elif situation.assumed == ("seat",):
        notice = Notice("analysis.assumed_seat", field=field_name, dealer=situation.dealer)
    else:
        notice = Notice("analysis.assumed_dealer", field=field_name, seat=situation.seat)
    notice.assumed = True  # a front end may show it as part of the answer rather than as a warning
    return notice


def analyze(hand: Hand, ruleset: Ruleset, situation: Optional[Situation] = None,
            seen: Optional[Sequence[int]] = None) -> Analysis:
    """Score a 14-tile hand (every reading, the best kept, legality, payouts) or find a 13-tile hand's waits,
    each scored as a self-draw and as a discard win. `seen`: 34 counts of tiles visible elsewhere."""
    situation = situation if situation is not None else Situation()
    here = setting(hand, ruleset, situation)
    tiles, situation, region = here.tiles, here.situation, here.region
    wall = wall_of(here, seen)
    result = Analysis(ruleset, region, hand, situation, tiles, warnings=list(here.warnings), seen=wall.seen,
                      wall=wall)
    if hand.winning is not None:
        if seen is not None:  # what the table shows says how it was won (国标's 和绝张)
            situation = result.situation = region.seen_facts(ruleset, situation, hand, wall.seen)
        result.score = score_hand(tiles, situation, ruleset, region)
        if region.automatic_win(ruleset, situation, tiles) is not None:
            result.automatic = region.automatic_pattern(ruleset)
        result.warnings += result.score.notes
        if result.score.legal:
            result.payout = pay(result.score, ruleset, region)
        elif not result.score.complete:
            result.discards = ready_discards(tiles, ruleset)
        return result
    by_discard = situation.replace(discarder=default_discarder(situation), kong_draw=0)
    self_draw = situation.replace(discarder=None, rob_kong=False)
    draws = winning_draws(ruleset, situation, tiles)
    result.every_tile, result.automatic = draws.every, draws.automatic
    result.discard_wins = region.discard_wins(ruleset, by_discard)
    result.wild_draw = wild_draws_left(tiles, ruleset, region, situation)
    for tile in draws.kinds:
        left = wall.left(tile)
        if draws.every and not left:
            continue  # every tile wins: the ones that can still be drawn are listed
        won = prepare(hand.with_winning(tile), tiles.wild_kinds)
        ways = [self_draw, by_discard]
        if seen is not None:  # the wait won as the table shows it (国标's 和绝张 on the last copy)
            ways = [region.seen_facts(ruleset, way, won.hand, wall.seen) for way in ways]
        drawn, discarded = score_hands(won, ways, ruleset, region)
        result.waits.append(WaitResult(tile, left, drawn, discarded))
    return result


@dataclass(frozen=True)
class Draws:
    """The kinds whose draw wins a 13-tile hand: by its shape (`ready_waits`) or by the region's win whatever the
    shape (`Region.automatic_draws`); never a kind the hand holds all four of, nor one the wall has none of."""

    kinds: Tuple[int, ...]
    every: bool  # every kind the hand can still draw wins it
    automatic: Optional[str]  # the automatic win's pattern, when some draw makes it


def winning_draws(ruleset: Ruleset, situation: Situation, tiles: Tiles,
                  natural: Optional[Tuple[int, ...]] = None) -> Draws:
    """The winning draws of the 13 `tiles` (`natural`: their waits by shape, when already found)."""
    region = find_region(ruleset.region)
    natural = ready_waits(tiles, ruleset) if natural is None else natural
    wall = region.wall(ruleset, situation, tiles.held)
    drawable = {k for k in range(NUM_KINDS) if wall.drawable(k)}
    auto = set(region.automatic_draws(ruleset, situation, tiles) or ()) & drawable
    kinds = tuple(sorted((set(natural) | auto) & drawable))
    return Draws(kinds, bool(drawable) and set(kinds) == drawable, region.automatic_pattern(ruleset) if auto else None)


def wins_on_any_tile(ruleset: Ruleset, situation: Situation, tiles: Tiles) -> bool:
    """Whether the region's win whatever the shape makes the 13 `tiles` win on every kind they can still draw
    (a hand the shapes make ready on every tile is ready by its shanten already)."""
    region = find_region(ruleset.region)
    auto = set(region.automatic_draws(ruleset, situation, tiles) or ())
    wall = region.wall(ruleset, situation, tiles.held)
    return bool(auto) and all(k in auto for k in range(NUM_KINDS) if wall.drawable(k))


def waits(hand: Hand, ruleset: Ruleset, situation: Optional[Situation] = None,
          seen: Optional[Sequence[int]] = None) -> List[Tuple[int, int]]:
    """The waits 听 of a 13-tile hand, unscored, as [(tile, copies left)]; tiles are ints 0-33 (`tiles.NAMES`).
    A hand that wins on every tile (`winning_draws`) lists the kinds with copies left."""
    if hand.size != 13:
        raise HandError("waits.need_13_tiles", size=hand.size)
    here = setting(hand, ruleset, situation if situation is not None else Situation())
    wall = wall_of(here, seen)
    draws = winning_draws(ruleset, here.situation, here.tiles)
    found = [(t, wall.left(t)) for t in draws.kinds]
    return [(t, left) for t, left in found if left] if draws.every else found


def ready_at_draw(hand: Hand, ruleset: Ruleset, situation: Optional[Situation] = None) -> Optional[AtDraw]:
    """What a 13-tile hand is paid when the wall runs out, where the region pays ready hands their best win
    (`Region.pays_ready_at_draw`); None where it does not, or when the hand is not ready. Ready: some tile makes
    it a legal win in the region's `at_draw_situation` — except a tile of which the concealed hand holds four; a
    tile all of whose copies the player holds counts where the region says so (`dead_waits_ready`), and is
    scored as if it came (the tiles read with that copy, unchecked). The best: the most (capped) over those
    tiles."""
    region = find_region(ruleset.region)
    if not region.pays_ready_at_draw:
        return None
    if hand.size != 13 or hand.winning is not None:
        raise HandError("waits.need_13_tiles", size=hand.size)
    plain = region.prepare(ruleset, region.at_draw_situation(ruleset, situation or Situation()), [])
    before = prepare(hand, region.wild_kinds(ruleset, plain))
    live: List[int] = []
    dead: List[int] = []
    best: Optional[Tuple[int, int, int]] = None  # total, uncapped, tile
    for k in range(NUM_KINDS):
        if ruleset.wall.copies[k] == 0 or hand.concealed.count(k) >= ruleset.wall.copies[k]:
            continue
        full = before.held[k] >= ruleset.wall.copies[k]
        if full and not region.dead_waits_ready:
            continue
        won = hand.with_winning(k)
        if full:  # one copy more than the wall holds, as the region counts such a wait
            naturals, held = list(before.naturals), list(before.held)
            naturals[k] += 1
            held[k] += 1
            tiles = Tiles(won, before.wild_kinds, tuple(naturals), before.wilds, before.faces, tuple(held))
        else:
            tiles = prepare(won, before.wild_kinds)
        score = score_hand(tiles, plain, ruleset, region)
        if not (score.complete and score.legal):
            continue
        (dead if full else live).append(k)
        if best is None or score.total > best[0]:
            best = (score.total, score.total if score.uncapped is None else score.uncapped, k)
    if best is None:
        return None
    return AtDraw(tuple(live), tuple(dead), *best)


def pay(score: Score, ruleset: Ruleset, region: Region) -> Payout:
    """The payout of a legal win, by the ruleset's scheme, as the hand is paid (`score.situation`)."""
    assert score.situation is not None  # a scored hand's
    return region.schemes[ruleset.payout].pay(score, score.situation, ruleset)


def compare(hand: Hand, rulesets: Iterable[Ruleset], situation: Optional[Situation] = None,
            seen: Optional[Sequence[int]] = None) -> List[Tuple[Ruleset, Optional[Analysis], Optional[MjcalcError]]]:
    """The same hand and situation under each ruleset: a list of (ruleset, Analysis or None, error or None).

    A hand or situation one ruleset cannot take is that ruleset's answer (a chow claimed where none is, a tile its
    wall lacks), not the whole comparison's. Where no ruleset takes it, the comparison is refused in one line: the
    first refusal of the situation as no table could deal it (a kong draw without a kong), else the first."""
    results: List[Tuple[Ruleset, Optional[Analysis], Optional[MjcalcError]]] = []
    for rules in rulesets:
        try:
            results.append((rules, analyze(hand, rules, situation, seen), None))
        except (SituationError, HandError) as exc:
            if exc.field == "seen" and exc.code != "wall.not_in_wall":
                raise  # the seen tiles themselves are wrong, whatever the rules
            results.append((rules, None, exc))
    errors = [e for _, _, e in results if e is not None]
    if errors and len(errors) == len(results):
        raise next((e for e in errors if isinstance(e, ImpossibleSituation)), errors[0])
    return results


def short_waits(hand: Hand, ruleset: Ruleset, situation: Situation) -> Tuple[Tuple[int, ...], Tuple[int, ...]]:
    """The waits of a 13-tile hand that complete its shape but not the ruleset's minimum: those that reach it only
    self-drawn, and those that reach it neither way (国标's 8 番). Empty where the hand cannot be scored."""
    try:
        waits = analyze(hand, ruleset, situation).waits or []
    except MjcalcError:
        return (), ()
    def short(score: Optional[Score]) -> bool:
        return score is not None and score.reason is not None and score.reason.code.startswith("region.below_minimum")
    never = tuple(w.tile for w in waits if short(w.self_draw) and (w.discard is None or short(w.discard)))
    drawn = tuple(w.tile for w in waits if not short(w.self_draw) and short(w.discard))
    return drawn, never


def first_turn_read(ruleset: Ruleset, region: Region, situation: Situation, notes: List[Notice]) -> Situation:
    """The situation without a first-turn win where the ruleset scores none (国标): said, and dropped, so that it
    neither refuses a hand with a meld nor makes a hand told by its patterns concealed, nor shows in a table's
    notes."""
    if not situation.first_turn or reads_first_turn(ruleset, region):
        return situation
    notes.append(Notice("analysis.first_turn_unread", field="first_turn"))
    return situation.replace(first_turn=False)


def reads_first_turn(ruleset: Ruleset, region: Region) -> bool:
    """Whether a first-turn win changes anything under `ruleset`: a 天和 or 地和 of its own, or 上饶's discard rule."""
    return ruleset.earthly_discard_from_dealer or any(
        (getattr(region.detectors.get(p.id), "implies", None) or ("",))[0] == "first_turn" for p in ruleset.patterns)


def unused_options(ruleset: Ruleset, situation: Situation) -> List[str]:
    """The options set in `situation` that `ruleset` does not read: region options it does not declare, and a
    first-turn win where it scores none."""
    unread = ["first_turn"] if situation.first_turn and not reads_first_turn(ruleset, find_region(ruleset.region)) else []
    return unread + [name for name, _ in situation.extras if name not in ruleset.options]


def default_discarder(situation: Situation) -> str:
    """For 'what would a discard win score': the given discarder, else the player before the winner."""
    return situation.discarder or SEATS[(SEATS.index(situation.seat) - 1) % 4]


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


def _seen_error(code: str, **params: Any) -> NotationError:
    return NotationError(code, field="seen", **params)


def parse_seen(text: Optional[str]) -> Tuple[int, ...]:
    """Counts of the tiles written as seen (discards and melds on the table, in hand notation)."""
    counts = [0] * NUM_KINDS
    if not text or not text.strip():
        return tuple(counts)
    if len(text) > 400:
        raise _seen_error("analysis.seen_too_long", length=len(text))
    try:
        loose, melds, winning = parse_tiles(text)
    except NotationError as exc:
        raise _seen_error("analysis.seen_reason", reason=exc.message) from None
    if winning is not None:
        raise _seen_error("analysis.seen_winning_tile")
    for t in loose + [t for meld in melds for t in meld.tiles]:
        if t == WILD:
            raise _seen_error("analysis.seen_wildcard")
        counts[t] += 1
    return tuple(counts)


def check_seen(held: Sequence[int], seen: Optional[Sequence[int]],
               composition: Composition = FULL_WALL) -> Tuple[int, ...]:
    """`seen` as 34 counts; a kind the wall has none of, or held and seen more than 4 times in all, is an error."""
    if seen is None:
        return (0,) * NUM_KINDS
    for t in range(NUM_KINDS):
        if seen[t] and not composition.has(t):
            raise HandError("wall.not_in_wall", field="seen", tile=NAMES[t], size=composition.size)
        if seen[t] and held[t] + seen[t] > 4:
            raise HandError("analysis.seen_too_many", field="seen", held=held[t], tile=NAMES[t], seen=seen[t],
                            total=held[t] + seen[t])
    return tuple(seen)


def check_in_wall(composition: Composition, situation: Situation, tiles: Tiles) -> None:
    """A tile the ruleset's wall has none of — turned up, named wild, or in the hand — is an error."""
    named: List[Tuple[Optional[str], int]] = [("indicator", situation.indicator)] if situation.indicator is not None else []
    named += [("wild", k) for k in tiles.wild_kinds] + [(None, k) for k in range(NUM_KINDS) if tiles.held[k]]
    for field_name, kind in named:
        if not composition.has(kind):
            raise HandError("wall.not_in_wall", field=field_name, tile=NAMES[kind], size=composition.size)


def wall_of(here: Setting, seen: Optional[Sequence[int]] = None, drawn: bool = False) -> Wall:
    """The wall as the hand's player knows it: the ruleset's composition less the hand, the tiles `seen` (34
    counts, checked against the hand) and those the region's rules put out of it (`Region.tiles_gone`). Its
    `drawable` kinds are the waits of the hand as it is; `drawn`, what may improve the hand (`Region.drawn_wall`:
    a region that bars a wait by the suits the hand holds now bars there only what a win may never hold)."""
    region, ruleset, situation = here.region, here.ruleset, here.situation
    wall = region.wall(ruleset, situation, here.tiles.held, check_seen(here.tiles.held, seen, ruleset.wall),
                       here.tiles.wild_kinds)
    return region.drawn_wall(ruleset, situation, wall) if drawn else wall
