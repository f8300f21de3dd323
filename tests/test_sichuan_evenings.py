"""Random Sichuan evenings (血战到底: deals of several wins, kong money, draws that pay) against a reference written
apart from the engine.

The reference reads the evening as a list of items in order — wins, draws and kong payments — and works out, from
nothing but rulesets/sichuan.md, what each hand pays and whether the ledger must refuse it: a winner or a discarder
who won earlier in the deal; a draw told of a seat that is out, or of a seat both ready and a 花猪; kong money of or
to a seat that is out. Wins are entered by their tiles (two hands whose 番 are worked by hand), by an agreed total,
or by named patterns. An undo or an edit is the same list with one item taken out or changed: the reference reads
it again from the start, and says whether the ledger must refuse it (a later hand it makes illegal).

The money, from rulesets/sichuan.md (底分 1): a win of F 番 is worth H = 2^min(F, 3); the discarder pays H, or
on a self-draw each seat still in the deal pays H + 1. The deal ends at its third win or at a draw. Kong money is
fixed when recorded: 暗杠 2 from each seat still in, 下雨 1 each, 刮风 2 from the one discarder. A 杠上炮 win pays
back the discarder's last kong money recorded since the hand before it. At a draw, a 主动花猪 pays 8 to each other
seat still in; each seat still in and not ready pays each ready seat 2^min(its 番, 3); a seat still in and not
ready pays back the kong money it was paid in the deal and not yet paid back.
"""
from typing import Dict, List, Optional, Tuple

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from mjcalc import evening
from mjcalc.errors import MjcalcError
from mjcalc.evening import Ledger
from mjcalc.evening.check import problems
from mjcalc.situation import Situation

SEATS = "ESWN"
PLAYERS = {"E": "老王", "S": "小李", "W": "阿张", "N": "大刘"}
PLAIN = "123m 456m 789m 11p 22p +2p"  # 平和: 0 番
SEVEN_PAIRS = "44p 6p 88p 99p 77s 88s 99s +6p"  # 七对: 2 番
HAND_FAN = {PLAIN: 0, SEVEN_PAIRS: 2}
PATTERN_FAN = {"all_pungs": 1, "seven_pairs": 2, "full_flush": 2}
KONG_MONEY = {"concealed_kong": 2, "added_kong": 1, "direct_kong": 2}
PIG = 8
CAP = 3


class Refused(Exception):
    """The reference says the ledger must refuse this item."""


def worth(fan: int) -> int:
    return 1 << min(fan, CAP)


def move(deltas: Dict[str, int], payer: str, payee: str, amount: int) -> None:
    deltas[payer] -= amount
    deltas[payee] += amount


def kong_deltas(item, out) -> Dict[str, int]:
    """What kong money moves when recorded, with `out` the seats out of the deal then (or Refused)."""
    _, kind, konger, to = item
    if konger in out:
        raise Refused("the konger is out")
    deltas = dict.fromkeys(SEATS, 0)
    if kind == "direct_kong":
        if to == konger or to in out:
            raise Refused("the discarder is out or the konger")
        move(deltas, to, konger, KONG_MONEY[kind])
    else:
        for seat in SEATS:
            if seat != konger and seat not in out:
                move(deltas, seat, konger, KONG_MONEY[kind])
    return deltas


def reference(items) -> Tuple[List[Dict[str, int]], List[Dict[str, int]]]:
    """Each hand's money and each kong payment's, in order, for the items (a kong item carries the money it was
    recorded with, when it has been recorded); Refused(index) at the first item the ledger must refuse."""
    hands: List[Dict[str, int]] = []
    payments: List[Dict[str, int]] = []
    won: List[str] = []  # the deal's winners so far
    deal: List[Tuple[int, str, Dict[str, int]]] = []  # the deal's kong payments: (index, konger, deltas)
    since: List[int] = []  # the indexes of the payments recorded since the last hand
    spent: set = set()  # the deal's payments a 杠上炮 paid back
    for index, item in enumerate(items):
        kind = item[0]
        try:
            if kind == "kong":
                deltas = item[4] if len(item) > 4 else kong_deltas(item[:4], set(won))
                payments.append(deltas)
                deal.append((len(payments) - 1, item[2], deltas))
                since.append(len(payments) - 1)
                continue
            deltas = dict.fromkeys(SEATS, 0)
            if kind == "draw":
                _, ready, pigs = item
                if any(s in won for s in list(ready) + list(pigs)):
                    raise Refused("a seat told at the draw is out")
                if set(ready) & set(pigs):
                    raise Refused("a seat both ready and a 花猪")
                still = [s for s in SEATS if s not in won]
                for pig in pigs:
                    for seat in still:
                        if seat != pig:
                            move(deltas, pig, seat, PIG)
                not_ready = [s for s in still if s not in ready]
                for payer in not_ready:
                    for payee, fan in ready.items():
                        move(deltas, payer, payee, worth(fan))
                for i, konger, paid in deal:
                    if konger in not_ready and i not in spent:
                        for seat, amount in paid.items():
                            if amount < 0:
                                move(deltas, konger, seat, -amount)
                won, deal, spent = [], [], set()
            else:
                _, entry, seat, discarder, fan, kong_discard = item
                if seat in won or discarder in won:
                    raise Refused("a winner or discarder is out")
                if discarder is not None:
                    move(deltas, discarder, seat, worth(fan))
                else:
                    for payer in SEATS:
                        if payer != seat and payer not in won:
                            move(deltas, payer, seat, worth(fan) + 1)
                if kong_discard:
                    last = [(i, paid) for i, konger, paid in deal if konger == discarder and i in since][-1:]
                    for i, paid in last:
                        spent.add(i)
                        for payer, amount in paid.items():
                            if amount < 0:
                                move(deltas, discarder, payer, -amount)
                won.append(seat)
                if len(won) == 3:
                    won, deal, spent = [], [], set()
            hands.append(deltas)
            since = []
        except Refused:
            raise Refused(index) from None
    return hands, payments


# --- the ledger's side ------------------------------------------------------------------------------------------


def given_of(item):
    """The item as the ledger is given it (`hand_input`)."""
    if item[0] == "draw":
        _, ready, pigs = item
        told = {}
        if ready:
            told["ready"] = [f"{s}:{f}" for s, f in ready.items()]
        if pigs:
            told["pig"] = list(pigs)
        return evening.hand_input(facts=told) if told else evening.hand_input()
    _, entry, seat, discarder, fan, kong_discard = item
    situation = Situation(seat=seat, discarder=discarder, **({"kong_discard": True} if kong_discard else {}))
    if entry in HAND_FAN:
        return evening.hand_input(entry, situation)
    if entry == "total":
        return evening.hand_input(None, situation, total=fan)
    return evening.hand_input(None, situation, patterns=dict(entry))


def recorded(ledger, t, item) -> bool:
    """Record the item; whether the ledger took it (a refusal is one line, and leaves the table as it was)."""
    before = ledger.hands(t), ledger.penalties(t)
    try:
        if item[0] == "kong":
            evening.record_penalty(ledger, ledger.table("t"), item[1], item[2], to=item[3])
        else:
            evening.record_given(ledger, ledger.table("t"), given_of(item), confirm_total=True)
        return True
    except MjcalcError as exc:
        assert "\n" not in str(exc), exc
        assert (ledger.hands(t), ledger.penalties(t)) == before
        return False


def money(ledger, t):
    return [dict(h.deltas) for h in ledger.hands(t)], [dict(p.deltas) for p in ledger.penalties(t)]


# --- the items, generated -----------------------------------------------------------------------------------

SEAT = st.sampled_from(SEATS)
FROM = st.sampled_from([None, None, *SEATS])


@st.composite
def win(draw):
    seat = draw(SEAT)
    discarder = draw(FROM.filter(lambda s: s != seat))
    how = draw(st.sampled_from(["tiles", "tiles", "total", "patterns"]))
    if how == "tiles":
        hand = draw(st.sampled_from(sorted(HAND_FAN)))
        kong_discard = discarder is not None and draw(st.booleans())
        return ("win", hand, seat, discarder, HAND_FAN[hand] + kong_discard, kong_discard)
    if how == "total":
        return ("win", "total", seat, discarder, draw(st.integers(0, 4)), False)
    named = draw(st.sampled_from([(("all_pungs", 1),), (("seven_pairs", 1),), (("seven_pairs", 1), ("full_flush", 1))]))
    return ("win", named, seat, discarder, sum(PATTERN_FAN[p] for p, _ in named), False)


@st.composite
def drawn(draw):
    ready = draw(st.dictionaries(SEAT, st.integers(0, 4), max_size=3))
    pigs = draw(st.lists(SEAT, max_size=2, unique=True))
    return ("draw", ready, tuple(pigs))


KONG = st.tuples(st.just("kong"), st.sampled_from(sorted(KONG_MONEY)), SEAT, SEAT).map(
    lambda k: k if k[1] == "direct_kong" else (k[0], k[1], k[2], None))


@st.composite
def kong_then_discard(draw):
    """A kong, then a win on the tile the konger throws after it (杠上炮): the money paid back at the win."""
    kong = draw(KONG)
    seat = draw(SEAT.filter(lambda s: s != kong[2]))
    hand = draw(st.sampled_from(sorted(HAND_FAN)))
    return [kong, ("win", hand, seat, kong[2], HAND_FAN[hand] + 1, True)]


ITEMS = st.lists(st.one_of(win(), win(), win(), drawn(), KONG, KONG).map(lambda i: [i]) | kong_then_discard(),
                 min_size=10, max_size=20).map(lambda groups: [i for g in groups for i in g])


def with_money(items, payments):
    """The kong items with the money they were recorded with, in order."""
    out, paid = [], iter(payments)
    for item in items:
        out.append(item + (next(paid),) if item[0] == "kong" else item)
    return out


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(items=ITEMS, pick=st.integers(0, 10 ** 6), total=st.integers(0, 4),
       change=st.sampled_from(["undo", "edit", "draw"]))
def test_random_sichuan_evenings_pay_as_the_reference_says(tmp_path_factory, items, pick, total, change):
    """Each item is taken exactly when the reference takes it, and pays what it says; the table sums to 0; check
    derives every stored result again; an undo or an edit is refused exactly when the reference refuses the list
    it makes, else pays what the reference says, and a revert brings the table back; an export imports as the
    same money."""
    db = tmp_path_factory.mktemp("sbr") / "t.sqlite3"
    with Ledger(db) as ledger:
        t = evening.create_table(ledger, "t", "sichuan", PLAYERS, 1)
        kept: list = []
        for item in items:
            try:
                want: Optional[Tuple[list, list]] = reference(kept + [item])
            except Refused:
                want = None
            assert recorded(ledger, t, item) == (want is not None), (kept, item)
            if want is not None:
                assert money(ledger, t) == want, (kept, item)
                kept = with_money([i[:4] if i[0] == "kong" else i for i in kept + [item]], want[1])
                assert all(sum(d.values()) == 0 for d in want[0] + want[1])
                assert sum(s.score for s in ledger.standings(t)) == 0
        assert problems(ledger, derive=True) == []
        hands, payments = money(ledger, t)
        doc = evening.export_json(ledger, "t")
        copy = evening.import_table(ledger, doc, "copy")
        assert money(ledger, copy) == (hands, payments)
        played = [i for i in kept if i[0] != "kong"]
        event(f"{len(kept)} of {len(items)} items taken, {len(payments)} kong payments")
        event(f"{sum(1 for h in ledger.hands(t) if h.payments)} hands reading kong money")
        if not played:
            return
        at = pick % len(played)
        target = ledger.hands(t)[at]
        where = [n for n, i in enumerate(kept) if i[0] != "kong"][at]
        old = played[at]
        if change == "undo":
            changed: Optional[list] = kept[:where] + kept[where + 1:]
        elif change == "draw":
            changed = kept[:where] + [("draw", {}, ())] + kept[where + 1:]
        else:
            seat = old[2] if old[0] == "win" else "E"
            changed = kept[:where] + [("win", "total", seat, None, total, False)] + kept[where + 1:]
        try:
            want = reference(changed)
        except Refused:
            want = None
        before = ledger.standings(t)
        try:
            if change == "undo":
                done = evening.undo_hand(ledger, t, target)
            else:
                done = evening.edit_hand(ledger, t, target, given_of(changed[where]), confirm_total=True)
        except MjcalcError as exc:
            # an edit to the hand it already is records nothing: the reference's money is the same either way
            assert want is None or exc.code == "ledger.edit_unchanged" and want == (hands, payments), (changed, exc)
            event(f"{change} refused")
            assert money(ledger, t) == (hands, payments)
            return
        assert want is not None, changed
        event(f"{change} taken")
        assert money(ledger, t) == want
        assert sum(s.score for s in ledger.standings(t)) == 0
        assert problems(ledger, derive=True) == []
        evening.revert_event(ledger, t, done.table.revision)
        assert money(ledger, t) == (hands, payments) and ledger.standings(t) == before
