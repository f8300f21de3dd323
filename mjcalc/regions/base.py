"""What every region shares: the `Region` protocol, whose hooks return the neutral answer.

A region (Beijing, Zhuji, Shangrao, the next one) is one module with one job, what that region means: its
pattern detectors, its payout schemes, its situation options and their checks against the hand, its legality
rules and its seat roles. It subclasses `Region` and overrides only what differs, as a chess variant does. The
generic scorer, analysis and output ask the region; they never say a region's words.
"""
from dataclasses import dataclass
from typing import (TYPE_CHECKING, Any, Callable, Dict, FrozenSet, Hashable, List, Literal, Mapping, Optional, Sequence,
                    Tuple, Union)

from ..decompose import Block
from ..errors import HandError, ImpossibleSituation, Notice, SituationError
from ..hand import CHOW, KONG, Hand, Meld
from ..messages import Message, Words
from ..patterns import ANY_PATTERN_PARAMS, PARAMS
from ..payouts import Param, Scheme, transfer
from ..situation import Option, Situation
from ..tiles import NAMES, NUM_KINDS, SEATS, WILD, Wall, next_in_cycle

if TYPE_CHECKING:  # for annotations only: these modules import this one
    from ..ruleset import Penalty, Ruleset
    from ..scoring import Match, Reading, Tiles
    from ..session import State
    from ..told import ToldHand, ToldReading

# What the hooks read of a hand: its tiles under the wildcards (`scoring.Tiles`), or the facts of a hand told
# without its tiles (`told.ToldHand`), which answers the same questions of its melds and wildcards.
HandTiles = Union["Tiles", "ToldHand"]
AnyReading = Union["Reading", "ToldReading"]  # a reading of the tiles, or of a hand told by its patterns
Won = Tuple[Tuple[str, Optional[str]], ...]  # a deal's wins so far, in order: (winner, discarder or None)
MAX_DRAW_COUNT = 99  # the most a counted draw fact's number may be (`Region.draw_counted`: a ready hand's best 番)


@dataclass(frozen=True)
class DealPayment:
    """A payment made during the deal (kong money when the kong is made: a ruleset payment with `gets`): its id,
    the seat it was recorded against (`seat`, the one paid), the one seat named to pay it (`to`, None when each
    seat still in paid) and each seat's money moved by it (`deltas`, summing to zero)."""

    payment_id: str
    seat: str
    to: Optional[str]
    deltas: Mapping[str, int]

    @classmethod
    def of(cls, data: Mapping[str, Any]) -> "DealPayment":
        """The payment a ledger's penalty record keeps (its `penalty_id`, `player`, `to`, `deltas`)."""
        return cls(data["penalty_id"], data["player"], data.get("to"),
                   {seat: int(data["deltas"][seat]) for seat in SEATS})


def pay_back(deltas: Dict[str, int], paid: Sequence[DealPayment], seats: Sequence[str]) -> None:
    """退税: each payment made to one of `seats` during the deal paid back into `deltas`, to whoever paid it, as
    it was paid."""
    for payment in paid:
        if payment.seat in seats:
            for seat, moved in payment.deltas.items():
                if moved < 0:
                    transfer(deltas, payment.seat, seat, -moved)


def penalty_amount(region: "Region", ruleset: "Ruleset", penalty: "Penalty", base: int) -> int:
    """What the player at fault pays each player paid for `penalty`: its points, or a hand of its total paid by one
    payer (the ruleset's scheme's `unit_points`), times 底分."""
    if penalty.points is not None:
        return penalty.points * base
    assert penalty.total is not None  # a ruleset declares one of the two (`ruleset._validate`)
    return region.schemes[ruleset.payout].unit_points(penalty.total, ruleset) * base


@dataclass(frozen=True)
class AtDraw:
    """A hand ready when the wall runs out, as a region that pays ready hands counts it (`analysis.ready_at_draw`):
    the kinds that would win it (`waits`), those of them whose every copy the player holds already (`dead`: a
    region may count them), and the best win's total (capped) and uncapped, on `tile`."""

    waits: Tuple[int, ...]
    dead: Tuple[int, ...]
    total: int
    uncapped: int
    tile: int


@dataclass(frozen=True)
class RulesetKey:
    """A key a region's ruleset files may write in a section (`wins.rob_concealed_kong`): its type (`kind`), its
    default, its `choices` or range, a `check` of its value against the ruleset's pattern ids (a `Message` when
    it is refused), and the `Ruleset` field it sets (the key's own name when empty)."""

    kind: type
    default: Any = None
    choices: Optional[Tuple[Any, ...]] = None
    minimum: Optional[int] = None
    maximum: Optional[int] = None
    field: str = ""
    check: Optional[Callable[[Any, FrozenSet[str]], Optional[Message]]] = None


class Region:
    """A region's rules as hooks; each default is what a region without that rule does."""

    id: str = ""
    zh: str = ""
    en: str = ""
    detectors: Dict[str, Callable[..., int]] = {}
    schemes: Dict[str, Scheme] = {}
    options: Tuple[Option, ...] = ()
    # The parameters the region's detectors (and payout) read from `patterns.<id>.params`: pattern id → name →
    # Param; "*" for what any pattern may carry. A ruleset file's params are checked against these.
    pattern_params: Dict[str, Dict[str, Param]] = {}
    # The keys the region's ruleset files may add to a section (`wins:`, `scoring:`) beyond every ruleset's (or
    # in place of one, to narrow it): section → key → RulesetKey. In a region's files, a key it does not declare
    # and no ruleset reads is refused as unknown.
    ruleset_keys: Dict[str, Dict[str, RulesetKey]] = {}
    # The region's own name for "a hand with an exposed meld must self-draw", shown before that refusal.
    exposed_rule_name: str = ""
    # False where no chow is claimed (碰 and 杠 only): a hand with a chow meld is refused (`check_melds`).
    chows_claimed: bool = True
    # False where the ruleset's own wildcard (`wildcard.tiles`: 红中, 白 as 财神) is never part of a meld.
    wild_in_melds: bool = True
    # True where the winner deals the next deal, whichever seat (`next_dealer`).
    winner_deals: bool = False
    # True where a deal that ends in a draw voids its kongs: the kong money paid during it is paid back (`draw_pays`).
    draw_voids_kongs: bool = False

    def option(self, name: str) -> Optional[Option]:
        return next((o for o in self.options if o.name == name), None)

    def params_of(self, pattern_id: str) -> Dict[str, Param]:
        """The parameters a ruleset may give pattern `pattern_id`, by name."""
        return {**ANY_PATTERN_PARAMS, **PARAMS.get(pattern_id, {}), **self.pattern_params.get("*", {}),
                **self.pattern_params.get(pattern_id, {})}

    # --- the situation -----------------------------------------------------------------------------------

    def prepare(self, ruleset: "Ruleset", situation: Situation, notes: List[Notice]) -> Situation:
        """The situation this ruleset reads: region options checked and parsed once, the ones the ruleset does
        not read dropped with a notice (so they can never change a score), contradictions refused."""
        kept: Dict[str, Any] = {}
        for name, value in situation.extras:
            option = self.option(name)
            if option is None or name not in ruleset.options:
                notes.append(Notice("region.option_unused", field=name, ruleset=ruleset.id))
                continue
            parsed = option.read(value, notes)
            if parsed != option.default:
                kept[name] = parsed
        situation = situation.replace(extras=kept) if kept != dict(situation.extras) else situation
        self.check_situation(ruleset, situation)
        return situation

    def check_situation(self, ruleset: "Ruleset", situation: Situation) -> None:
        """Contradictions in the situation itself, whatever the hand."""
        s = situation
        if s.discarder is not None and s.discarder == s.seat:
            raise ImpossibleSituation("region.own_discard", field="from", seat=s.discarder)
        if s.rob_kong and s.discarder is None:
            raise ImpossibleSituation("region.rob_needs_konger", field="rob_kong")
        if s.kong_draw and s.discarder is not None:
            raise ImpossibleSituation("region.kong_draw_on_discard", field="kong_draw")
        if s.first_turn:
            if s.is_dealer and s.discarder is not None:
                raise ImpossibleSituation("region.dealer_first_turn_discard", field="first_turn")
            for name, on in (("kong_draw", s.kong_draw), ("last_tile", s.last_tile), ("rob_kong", s.rob_kong)):
                if on:
                    raise ImpossibleSituation("region.first_turn_with", field="first_turn",
                                              flag="--" + name.replace("_", "-"))

    def wild_kinds(self, ruleset: "Ruleset", situation: Situation) -> Tuple[int, ...]:
        """The wildcard kinds in play: the ruleset's own (`wildcard.tiles`), else `wild` or the tile after
        `indicator`."""
        kinds = tuple(situation.wild)
        if ruleset.fixed_wild:
            fixed = ruleset.fixed_wild
            named = ",".join(NAMES[k] for k in fixed)
            if situation.indicator is not None:
                raise SituationError("region.fixed_wild_indicator", field="indicator", ruleset=ruleset.id,
                                     wild=named, wild_zh=ruleset.wild_zh)
            if any(k not in fixed for k in kinds):
                raise SituationError("region.fixed_wild_other", field="wild", ruleset=ruleset.id, wild=named,
                                     wild_zh=ruleset.wild_zh, given=",".join(NAMES[k] for k in kinds))
            return fixed
        if situation.indicator is not None:
            after = next_in_cycle(situation.indicator)
            if kinds and after not in kinds:
                raise SituationError("region.indicator_against_wild", field="indicator",
                                     indicator=NAMES[situation.indicator], after=NAMES[after],
                                     wild=",".join(NAMES[k] for k in kinds))
            kinds = kinds or (after,)
        if len(kinds) > ruleset.wild_kinds:
            if ruleset.wild_kinds == 0:
                code = "region.no_wild_kinds_many" if len(kinds) > 1 else "region.no_wild_kinds_one"
                raise SituationError(code, field="wild", ruleset=ruleset.id, count=len(kinds))
            raise SituationError("region.too_many_wild_kinds", field="wild", ruleset=ruleset.id,
                                 most=ruleset.wild_kinds, wild_zh=ruleset.wild_zh,
                                 plural="s" if ruleset.wild_kinds > 1 else "", count=len(kinds))
        return kinds

    def wild_in_play(self, ruleset: "Ruleset", situation: Situation) -> bool:
        """Whether wildcards are in play when the situation names no kind (a hand told without its tiles need not
        say which tile is wild, only that one is): where the ruleset names them itself (`wildcard.tiles`); not
        elsewhere — the situation names them (`wild`, `indicator`)."""
        return bool(ruleset.fixed_wild)

    def wild_faceless(self, ruleset: "Ruleset") -> bool:
        """Whether the ruleset's wildcards are no tile kind (广东's ghosts, the wall's flowers): a hand writes them
        `*`, and nothing names them."""
        plain = Situation()
        return bool(ruleset.wild_kinds) and self.wild_in_play(ruleset, plain) and not self.wild_kinds(ruleset, plain)

    def why_no_wild(self, ruleset: "Ruleset", situation: Situation) -> Optional[Words]:
        """None when wildcards are in play (so a `*` tile means something), else where they are not, in words."""
        return None if ruleset.wild_kinds > 0 else Message("region.in_ruleset", ruleset=ruleset.id)

    def check_hand(self, ruleset: "Ruleset", situation: Situation, tiles: "Tiles") -> None:
        """Situations that this hand makes impossible (a kong draw with no kong, a robbed kong the hand could
        not have been offered…); raise SituationError. `tiles` is the hand under its wildcards."""
        hand, s = tiles.hand, situation
        if hand.flowers and (not ruleset.wall.flowers or self.wild_faceless(ruleset)):
            # flowers set aside beside the hand are a wall's flower tiles; where they are its wildcards, `*`
            raise HandError("hand.flowers_wild" if ruleset.wall.flowers else "hand.no_flowers", field="hand",
                            ruleset=ruleset.id, wild_zh=ruleset.wild_zh)
        if len(hand.flowers) > ruleset.wall.flowers:
            raise HandError("hand.flowers_over", field="hand", count=len(hand.flowers), ruleset=ruleset.id,
                            most=ruleset.wall.flowers)
        faceless = sum(1 for t in hand.tiles if t == WILD) if not tiles.wild_kinds else 0
        if ruleset.wall.flowers and faceless > ruleset.wall.flowers:  # the wildcards are the wall's flowers (广东)
            raise SituationError("region.too_many_ghosts", field="hand", count=faceless, ruleset=ruleset.id,
                                 wild_zh=ruleset.wild_zh, most=ruleset.wall.flowers)
        if faceless > 4 * ruleset.wild_kinds:
            # A `*` with no kind declared is a tile of some wild kind the ruleset plays: four tiles each.
            raise SituationError("region.too_many_stars", field="wild", count=faceless, ruleset=ruleset.id,
                                 kinds=ruleset.wild_kinds, wild_zh=ruleset.wild_zh,
                                 plural="s" if ruleset.wild_kinds > 1 else "", most=4 * ruleset.wild_kinds)
        self.check_melds(ruleset, s, hand)
        if s.indicator is not None and tiles.held[s.indicator] >= 4:
            raise ImpossibleSituation("region.indicator_all_held", field="indicator", tile=NAMES[s.indicator])
        win = hand.winning
        if s.rob_kong and win is not None:
            kind = tiles.wild_kinds[0] if win == WILD and tiles.wild_kinds else win
            if kind != WILD and tiles.held[kind] > 1:
                raise ImpossibleSituation("region.robbed_kong_held", field="rob_kong", tile=NAMES[kind],
                                          more=tiles.held[kind] - 1)
        self.check_wilds(ruleset, s, tiles.wild_held, tiles.wild_kinds)

    def told_kongs(self, ruleset: "Ruleset", situation: Situation) -> Tuple[Tuple[Meld, ...], Situation]:
        """Kongs of the winner that a region option names, for a hand told without its tiles (上饶's 他家杠 naming
        the winner's own seat), and the situation without them: ((), the situation) here."""
        return (), situation

    def check_told(self, ruleset: "Ruleset", situation: Situation, told: "ToldHand") -> None:
        """`check_hand` for a hand told without its tiles (`told.ToldHand`): what its melds and its wildcards
        make impossible."""
        self.check_melds(ruleset, situation, told.hand)
        self.check_wilds(ruleset, situation, told.wild_held, told.wild_kinds)

    def check_melds(self, ruleset: "Ruleset", situation: Situation, hand: Union[Hand, "ToldHand"]) -> None:
        """What the hand's declared melds make impossible: more kong draws than kongs, a first-turn win with a
        meld called, a meld claimed from the winner's own seat. Reads only each meld's kind, whether it is
        concealed and whom it was claimed from (a hand told without its tiles has nothing more)."""
        s = situation
        kongs = sum(1 for m in hand.melds if m.kind == KONG)
        if s.kong_draw > kongs:
            plural = "s" if s.kong_draw > 1 else ""
            if not kongs:
                raise ImpossibleSituation("region.kong_draws_no_kong", field="kong_draw", draws=s.kong_draw,
                                          plural=plural)
            raise ImpossibleSituation("region.kong_draws_few_kongs", field="kong_draw", draws=s.kong_draw,
                                      plural=plural, kongs=kongs, kongs_plural="s" if kongs != 1 else "")
        if s.first_turn and any(m.exposed for m in hand.melds):
            raise ImpossibleSituation("region.first_turn_exposed", field="first_turn")
        if s.first_turn and s.is_dealer and hand.melds:
            raise ImpossibleSituation("region.dealer_first_turn_kong", field="first_turn")
        for meld in hand.melds:
            if meld.claimed_from and meld.claimed_from == s.seat:
                raise ImpossibleSituation("region.claimed_from_winner", field="seat", meld=str(meld),
                                          seat=meld.claimed_from)
            if meld.kind == CHOW and not self.chows_claimed:
                raise ImpossibleSituation("region.no_chows", field="hand", meld=str(meld))
            left = SEATS[(SEATS.index(s.seat) - 1) % 4]  # 上家: a chow is claimed only from the player before
            if meld.kind == CHOW and meld.claimed_from and meld.claimed_from != left:
                raise ImpossibleSituation("region.chow_not_from_left", field="hand", meld=str(meld),
                                          seat=meld.claimed_from, left=left)
            if not self.wild_in_melds and any(t in ruleset.fixed_wild for t in getattr(meld, "tiles", ())):
                raise ImpossibleSituation("region.wild_in_meld", field="hand", meld=str(meld), wild_zh=ruleset.wild_zh)

    def check_wilds(self, ruleset: "Ruleset", situation: Situation, held: int, kinds: Tuple[int, ...]) -> None:
        """What `held` tiles of the wild `kinds` among the 14 (melds included) make impossible; nothing here."""

    # --- winning ------------------------------------------------------------------------------------------

    def reading_keys(self, ruleset: "Ruleset", situation: Situation, tiles: "Tiles") -> Optional["ReadingKeys"]:
        """What this region's detectors can tell apart in a reading of this hand, so that the scorer reads only
        one of the readings they cannot tell apart; None (the default) reads every reading, which is always
        exact. See `ReadingKeys` for what a region promises when it answers."""
        return None

    def as_paid(self, ruleset: "Ruleset", situation: Situation) -> Situation:
        """The situation as the hand is scored and paid (a region may score a win of one kind as another)."""
        return situation

    def reading_refusal(self, ruleset: "Ruleset", reading: AnyReading, matches: Sequence["Match"]) -> Optional[Message]:
        """Why this one reading of the hand cannot be the win (another reading may be), as a message, or None."""
        return None

    def notices(self, ruleset: "Ruleset", situation: Situation, tiles: HandTiles,
                matches: Sequence["Match"]) -> List[Notice]:
        """Warnings about the scored hand: an option given that this hand cannot use, and so on."""
        return []

    def automatic_win(self, ruleset: "Ruleset", situation: Situation,
                      tiles: HandTiles) -> Optional[Union[Notice, Literal[""]]]:
        """A win whatever the shape (and paid as a self-draw), with the notice to give ("" for none); None for no
        such win."""
        return None

    def automatic_pattern(self, ruleset: "Ruleset") -> Optional[str]:
        """The pattern whose holding is an `automatic_win` (named in quick entry, the hand is paid as that win
        is), or None."""
        return None

    def automatic_held(self, ruleset: "Ruleset") -> Optional[int]:
        """The fewest copies of one wild kind a 13-tile hand holds when a draw can make its `automatic_win`
        (the batch reads the other hands by their shape alone); None when it is not a matter of copies held."""
        return None

    def tiles_gone(self, ruleset: "Ruleset", situation: Situation, wild_kinds: Tuple[int, ...]) -> Tuple[int, ...]:
        """Copies of each kind the rules put out of the wall besides the hand, which no wait can be won on (a
        `tiles.Wall`'s `gone`): here the tile turned up (`indicator`), which lies face up and is never drawn; a
        region adds its own (shangrao: the 宝 flown). `wild_kinds`: the wild kinds in play."""
        gone = [0] * NUM_KINDS
        if situation.indicator is not None:
            gone[situation.indicator] = 1
        return tuple(gone)

    def dead_wall(self, ruleset: "Ruleset") -> int:
        """The tiles kept at the end of the wall, never drawn (a `tiles.Wall`'s `dead`): the ruleset's `wall.dead`
        (杭州: the deal is drawn at 20 left)."""
        return ruleset.dead_wall

    def void_kinds(self, ruleset: "Ruleset", situation: Situation) -> Tuple[int, ...]:
        """The kinds the winner may not hold (a void suit 定缺; a `tiles.Wall`'s `void`): none here."""
        return ()

    def never_ready(self, ruleset: "Ruleset", situation: Situation, held: Sequence[int]) -> Optional[Message]:
        """Why a hand holding these tiles (34 counts, melds included) waits on nothing whatever its shape (a void
        suit held), for `waits` to say; None here."""
        return None

    def unkept(self, ruleset: "Ruleset", situation: Situation) -> Tuple[Tuple[int, ...], ...]:
        """The ways a hand may have to get rid of some kinds before it can win, for shanten and discard advice
        (`shanten.Dropped`): each a set of kinds a win may not hold. One way that drops nothing here."""
        return ((),)

    def wall(self, ruleset: "Ruleset", situation: Situation, held: Sequence[int], seen: Optional[Sequence[int]] = None,
             wild_kinds: Tuple[int, ...] = ()) -> Wall:
        """The wall as the player of a hand knows it (`tiles.Wall`): the ruleset's composition less the hand
        (`held`: 34 counts, `Tiles.held`), the copies `seen` (34 counts), those the rules take out (`tiles_gone`),
        the dead wall and the void kinds. Every count of tiles left is this one's."""
        zero = (0,) * NUM_KINDS
        return Wall(ruleset.wall, tuple(held), tuple(seen) if seen is not None else zero,
                    self.tiles_gone(ruleset, situation, wild_kinds), self.dead_wall(ruleset),
                    tuple(self.void_kinds(ruleset, situation)))

    def drawn_wall(self, ruleset: "Ruleset", situation: Situation, wall: Wall) -> Wall:
        """The `wall` as what may improve a hand (`analysis.wall_of(drawn=True)`): a region whose `wall` bars a
        wait by the suits the hand holds now bars there only the kinds a win may never hold. The wall itself
        here."""
        return wall

    def automatic_draws(self, ruleset: "Ruleset", situation: Situation, tiles: "Tiles") -> Optional[Tuple[int, ...]]:
        """For a 13-tile hand (`tiles`): the kinds whose draw makes it an `automatic_win`. None when no hand can
        win that way under this ruleset and situation, whatever its tiles (the value of discards plans on it)."""
        return None

    def discard_wins(self, ruleset: "Ruleset", situation: Situation) -> bool:
        """Whether any hand may win in `situation`, a discard (or, with `rob_kong`, a robbed kong), under the
        ruleset's win rules; False when every such win is refused whatever the tiles (then a table of waits has
        no discard column)."""
        rule = ruleset.rob_kong if situation.rob_kong else ruleset.discard
        first_from_dealer = (ruleset.earthly_discard_from_dealer and situation.first_turn
                             and not situation.is_dealer and situation.discarder == situation.dealer)
        return situation.self_drawn or rule != "never" or bool(first_from_dealer)

    def may_win_on_discard(self, ruleset: "Ruleset", situation: Situation, hand: Hand, wild: bool) -> bool:
        """Whether this player's hand, its melds as they stand, may ever win on another's discard here (`wild`:
        wildcards in play): not where the ruleset has no discard wins, nor with an exposed meld where a discard win
        needs a concealed hand (`refusal`). What a value model at the table counts on."""
        rule = ruleset.discard
        if rule == "never":
            return bool(ruleset.earthly_discard_from_dealer and situation.first_turn and not situation.is_dealer)
        return hand.is_concealed or not (rule == "concealed" or rule == "concealed_if_wild" and wild)

    def paid_flat(self, ruleset: "Ruleset", pattern_id: str) -> bool:
        """Whether the pattern, scored, makes the hand a fixed amount (its value × 底分, which no table of the
        payout scheme raises) rather than a count of the ruleset's unit, so that its total is labelled flat: a
        pattern with `params.flat`, where a region declares that parameter."""
        return bool(ruleset.pattern(pattern_id).param("flat"))

    def minimum(self, ruleset: "Ruleset", situation: Situation) -> Tuple[int, Words]:
        """The least total a legal win needs, and who needs it (words for the refusal, '' for everyone)."""
        return ruleset.minimum, ""

    def refusal(self, ruleset: "Ruleset", situation: Situation, tiles: HandTiles, matches: Sequence["Match"],
                total: int) -> Optional[Message]:
        """Why a complete hand is not a legal win here, as a message (its id and parameters: `Score.reason`,
        said by each front end in its language), or None."""
        hand = tiles.hand
        if not situation.self_drawn:
            rule = ruleset.rob_kong if situation.rob_kong else ruleset.discard
            first_from_dealer = (ruleset.earthly_discard_from_dealer and situation.first_turn
                                 and not situation.is_dealer and situation.discarder == situation.dealer)
            if rule == "never" and not first_from_dealer:
                return Message("region.no_robbing" if situation.rob_kong else "region.no_discard_wins",
                               ruleset=ruleset.id)
            wild = bool(tiles.wild_kinds or tiles.wild_tiles)  # wildcards in play (a told hand may not name the kind)
            if not hand.is_concealed and (rule == "concealed" or rule == "concealed_if_wild" and wild):
                name = Message("region.rule_named", rule=self.exposed_rule_name) if self.exposed_rule_name else ""
                return Message("region.exposed_no_rob" if situation.rob_kong else "region.exposed_no_discard",
                               rule=name)
            limit = ruleset.max_wilds_on_discard
            if limit is not None and tiles.wild_tiles > limit:
                return Message("region.wilds_on_discard", count=tiles.wild_tiles, wild_zh=ruleset.wild_zh,
                               limit=limit)
        if ruleset.zero_self_draw_only and total == 0 and not situation.self_drawn:
            return Message("region.zero_self_draw_only", unit=ruleset.unit_zh)
        minimum, who = self.minimum(ruleset, situation)
        below_ok = any(ruleset.pattern(m.pattern_id).below_minimum for m in matches)
        if total < minimum and not below_ok:
            if who:
                return Message("region.below_minimum_of", total=total, unit=ruleset.unit_zh, who=who, minimum=minimum)
            return Message("region.below_minimum", total=total, unit=ruleset.unit_zh, minimum=minimum)
        return None

    # --- the deal: what happens after a win, and what a draw pays ------------------------------------------
    # A deal holds zero or more wins, in order (`State.won`: winner and discarder). The defaults are a deal that
    # ends at its first win, whose winner moves the deal on (`evening.replay.advance`), and a draw that pays
    # nothing: Beijing, Zhuji and Shangrao as they are. A region whose deal goes on (血战到底) overrides them.

    # What a draw is told at the table, for `draw_pays` (e.g. ("ready",): the seats that were ready); () for none.
    draw_facts: Tuple[str, ...] = ()
    # The facts among them whose seats each carry a number (`S:2`: a ready hand's best 番), given to `draw_pays` as
    # {seat: number}; a seat written bare is 0.
    draw_counted: Tuple[str, ...] = ()

    # Whether a draw pays a ready hand its best win (查大叫; `analysis.ready_at_draw` reads a hand so), and whether a
    # wait on a tile all of whose copies the player holds (three in a pung and one in hand, four in a kong) makes a
    # hand ready then, scored as if the tile came.
    pays_ready_at_draw: bool = False
    dead_waits_ready: bool = False

    def at_draw_situation(self, ruleset: "Ruleset", situation: Situation) -> Situation:
        """The situation a ready hand's best win is scored in at a draw: on another's discard, no way of winning."""
        return Situation(seat="E", dealer="E", discarder="S")

    def deal_goes_on(self, ruleset: "Ruleset", won: Won) -> bool:
        """After these wins (in order), the deal goes on (False: it ends)."""
        return False

    def deal_mover(self, ruleset: "Ruleset", won: Won) -> Optional[str]:
        """The seat whose win moves the deal on (who deals next, 连庄) once a deal with these wins ends: its
        first winner."""
        return won[0][0]

    def next_dealer(self, ruleset: "Ruleset", won: Won) -> Optional[str]:
        """The seat that deals next once a deal with these wins (at least one) ends, where the region names it
        (血战到底: the first winner); None here: the session moves the deal (`evening.replay.advance`: the dealer
        stays when he won, else the next seat deals); the first winner where the winner deals (`winner_deals`)."""
        return won[0][0] if self.winner_deals else None

    def in_deal(self, ruleset: "Ruleset", situation: Situation, won: Won) -> Situation:
        """The situation of a win after these earlier wins in the same deal (a region that lets the deal go on
        says here who no longer pays)."""
        return situation

    def seen_facts(self, ruleset: "Ruleset", situation: Situation, hand: Hand, seen: Sequence[int]) -> Situation:
        """The situation of `hand` (its winning tile placed) with what the tiles seen elsewhere on the table say of
        how it was won (`seen`: 34 counts; 国标's 和绝张, the other three face up): as given here."""
        return situation

    def at_table(self, ruleset: "Ruleset", situation: Situation, state: "State") -> Situation:
        """The situation of a win recorded at a table, with what the region reads of where the evening stands
        (`state`: the dealer's 连庄, say) in the options the table fills itself (`Option.from_deal`): as given
        here."""
        return situation

    def check_draw(self, ruleset: "Ruleset", told: Dict[str, Any], penalties: Sequence[Tuple[str, str]]) -> None:
        """A draw told `told` (`draw_facts`, as `draw_pays` reads it), when it is entered, against the penalties
        recorded in its deal so far ((penalty id, seat), in order): a SituationError for a deduction it would take
        again. Nothing here."""

    def draw_pays(self, ruleset: "Ruleset", state: "State", told: Dict[str, Any], base: int,
                  paid: Sequence[DealPayment] = ()) -> Dict[str, int]:
        """What a deal that ends without another win pays (the wall is empty), as paid (上楼's `state.factor` is
        the region's to apply): seat → delta, summing to zero; `state.won` says who won earlier in it, `told`
        what the table said (`draw_facts`), `paid` the payments made during the deal, in order (a refund 退税
        pays some back). Nothing here, or, where a draw voids the deal's kongs (`draw_voids_kongs`), all of them
        paid back."""
        deltas = dict.fromkeys(SEATS, 0)
        if self.draw_voids_kongs:
            pay_back(deltas, paid, SEATS)
        return deltas

    def win_pays_back(self, ruleset: "Ruleset", situation: Situation, paid: Sequence[DealPayment]) -> Dict[str, int]:
        """What a win pays back of the payments made during its deal that it reads (`replay.payments_read`: on
        a 杠上炮, the discarder's kong money), besides the hand: seat → delta, summing to zero. Nothing here."""
        return dict.fromkeys(SEATS, 0)

    # --- output -----------------------------------------------------------------------------------------

    def seat_roles(self, situation: Situation, self_drawn: bool) -> Dict[str, List[str]]:
        """Each seat's roles in this hand, for the payout table: dealer, winner, discarder, and the region's own."""
        s = situation
        roles: Dict[str, List[str]] = {seat: [] for seat in SEATS}
        roles[s.dealer].append("dealer 庄")
        roles[s.seat].append("winner")
        if s.discarder is not None and (not self_drawn or s.rob_kong):  # a rob paid as a self-draw is still a rob
            roles[s.discarder].append("robbed kong" if s.rob_kong else "discarder")
        return roles

    def describe(self, ruleset: "Ruleset") -> List[str]:
        """Lines for `rulesets show` after the pattern table: the payout scheme and its parameters, in words."""
        scheme = self.schemes[ruleset.payout]
        lines = [f"payout: {ruleset.payout}" + (f" — {scheme.meaning}" if scheme.meaning else "")]
        for key, spec in scheme.params.items():
            lines.append(f"  {key} = {scheme.param(ruleset, key)}: {spec.meaning}")
        return lines


class ReadingKeys:
    """A region's promise about its detectors (and its `reading_refusal`) on one hand, in the situation as paid
    (`as_paid`): a reading's score (and refusal) depends only on its shape, the
    multiset of `block(b)` over its blocks and, when `place` is given, `place(b, t)` for the block `b` where
    the winning tile sits as `t`.

    The scorer adds what it knows itself: a block's kind (pair, chow, pung); with `wild_roles` (or when a
    pattern of the ruleset has a `without_wild` value), how many of a block's wildcards stand for each wild
    kind, so `Reading.wild_roles` is kept; with `place`, where the winning tile may sit in a block, and the
    winning block's key and number of wildcards. Seven pairs are keyed kind by kind, so a kind read as two
    pairs is seen. `place=None` promises that no detector reads the winning block or what the winning tile
    stands for, and that the hand scores alike whichever of its tiles won it (by self-draw): the value of
    discards (`advise --by`) then scores its 14 tiles once for every winning tile. The region must key
    everything else its detectors on the ruleset's patterns can see: ranks, suits, particular tiles; what it
    is unsure of, it keys by the tiles themselves (`block=lambda b: b.tiles`).

    `counted(key)` false promises that the score depends only on whether some block has that key, not on how
    many do (all pungs, a flush, a straight ask "is there one"; counting dragon pungs asks "how many"); then a
    hand's readings collapse much further. None (the default) counts every key.

    `whole(b)` keys the one block of an irregular shape (十三幺, 十三浪, 九幺: `b.tiles` are its 14 tiles as read)
    the way `block` keys sets and pairs; None (the default) reads every irregular decomposition.

    `summary(keys)` coarsens further: `keys` are the (kind, `block` key) of a standard decomposition's blocks, a
    key that is not `counted` once; two decompositions whose summaries are equal must score alike. The scorer
    uses it only when nothing else tells readings apart (no `place` read, no wildcard roles counted). None (the
    default): readings are told apart by their keys.

    `signature`, when given, is a hashable value equal for two hands (of one ruleset) only when `block`, `place`
    and `counted` answer alike on every block for both: the scorer then keys blocks once for all such hands (the
    waits of a hand, the discards of advise). None: the keys are made afresh for each hand.
    """

    def __init__(self, block: Callable[[Block], Hashable], place: Optional[Callable[[Block, int], Hashable]] = None,
                 wild_roles: bool = False, counted: Optional[Callable[[Any], bool]] = None,
                 whole: Optional[Callable[[Block], Hashable]] = None,
                 summary: Optional[Callable[[Any], Hashable]] = None, signature: Optional[Hashable] = None) -> None:
        self.block = block
        self.whole = whole
        self.summary = summary
        self.place = place
        self.wild_roles = wild_roles
        self.counted = counted
        self.signature = signature


def reads_hand_before_win(block: Block, stand: int) -> None:
    """A `ReadingKeys.place` for a region whose detectors read the hand before its winning tile (爆头, 九莲宝灯) but
    nothing of the winning block: the hand then does not score alike whichever of its tiles won it."""
    return None


# (id(region), id(ruleset), id(known)) -> (the three, the answer): asked for every hand scored
_OWN: Dict[Tuple[int, int, int], Tuple[Region, "Ruleset", Dict[str, Callable[..., int]], Dict[str, Callable[..., int]],
                                       bool]] = {}


def own_detectors(region: Region, ruleset: "Ruleset", known: Dict[str, Callable[..., int]]) -> bool:
    """Whether every pattern of the ruleset is detected by the function `known` lists for it: a region's keys
    speak for its own detectors only, not for ones a subclass put in their place."""
    key = (id(region), id(ruleset), id(known))
    hit = _OWN.get(key)
    if hit is not None and hit[0] is region and hit[1] is ruleset and hit[2] is known and hit[3] == region.detectors:
        return hit[4]
    answer = all(known.get(p.id) is not None and region.detectors.get(p.id) is known[p.id] for p in ruleset.patterns)
    if len(_OWN) >= 64:
        _OWN.clear()
    _OWN[key] = (region, ruleset, known, dict(region.detectors), answer)  # kept alive, so the ids stay theirs
    return answer


def detectors(*groups: Dict[str, Callable[..., int]], **more: Callable[..., int]) -> Dict[str, Callable[..., int]]:
    """One region's detectors: the shared groups it uses and its own, by pattern id."""
    out: Dict[str, Callable[..., int]] = {}

    for group in groups:
        out.update(group)
    out.update(more)
    return out
