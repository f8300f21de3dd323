"""A Sichuan-shaped region, in the test suite only (issue 36, the exit): it proves the seams the next regions fill
before a real one does — a 108-tile wall, a deal that goes on after a win (血战: until three have won), a winner who
neither wins nor pays again in the deal, and a draw that pays (the seats not ready pay those ready). Its rules are
its own and small (not the SBR book: that is issue 38's ruleset):

- 平和 1 for any win, 对对和 2 (four pungs); the total times 底分 is what each payer pays;
- on a discard the discarder pays; on a self-draw each seat still in the deal pays (not the earlier winners);
- the deal ends at its third win, or when the wall runs out (`table draw`): then each seat still in and not ready
  pays each seat still in and ready 2 × 底分 (`draw_facts`: ready);
- 退税, a refund at the draw: a seat still in and not ready that was paid kong money during the deal (a payment
  with `gets` recorded since the deal began) pays back exactly what it was paid, to each seat that paid it
  (whether or not that seat is still in); a seat that won in the deal, or is ready, keeps its kong money, and
  kong money from an earlier deal is never refunded. The draw's other payments stand beside the refund;
- who deals next: the first winner; when the deal's first two wins were on one discard (一炮多响), the discarder;
- kong money when the kong is made: 暗杠, each seat still in pays the konger 2 × 底分; 直杠, the discarder pays 2;
- the wall: 108 tiles, the last 14 never drawn (a dead wall), and a player's void suit (`--void m|p|s`: 万, 筒,
  条; 定缺) is never a wait.

Its options `won_earlier` and `void` are the sichuan region's (two regions may share an option only as one).
"""
import textwrap

import mjcalc
from mjcalc.patterns import COMMON
from mjcalc.payouts import Payout, Scheme, transfer
from mjcalc.regions import unregister
from mjcalc.regions.base import pay_back
from mjcalc.regions.sichuan import REGION as SICHUAN
from mjcalc.regions.sichuan import void_kinds_of
from mjcalc.tiles import SEATS

READY_PAYS = 2  # what each not-ready seat pays each ready one, times 底分
DEAD_WALL = 14


def any_win(r, p):
    """平和: every complete hand."""
    return 1


class StillIn(Scheme):
    """The discarder pays the total × 底分; on a self-draw, each seat still in the deal pays it."""

    meaning = "the discarder pays total × base; on a self-draw each seat still in the deal pays it"
    params: dict = {}

    def pay(self, score, situation, ruleset):
        amount = score.total * situation.base
        out = set(situation.extra("won_earlier") or ())
        payers = [situation.discarder] if situation.discarder else \
            [s for s in SEATS if s != situation.seat and s not in out]
        deltas: dict = {}
        for seat in payers:
            transfer(deltas, seat, situation.seat, amount)
        payout = Payout()
        payout.add("和牌", "hand", deltas)
        return payout


class DealShaped(mjcalc.Region):
    id = "deal_shaped"
    zh = "血战样"
    en = "Deal-shaped"
    detectors = {"any_win": any_win, "all_pungs": COMMON["all_pungs"]}
    schemes = {"still_in": StillIn()}
    options = (SICHUAN.option("won_earlier"), SICHUAN.option("void"))
    draw_facts = ("ready",)

    def dead_wall(self, ruleset):
        return DEAD_WALL

    def void_kinds(self, ruleset, situation):
        return void_kinds_of(situation.extra("void"))

    def deal_goes_on(self, ruleset, won):
        return len(won) < 3

    def deal_mover(self, ruleset, won):
        if len(won) >= 2 and won[0][1] is not None and won[0][1] == won[1][1]:
            return won[0][1]  # 一炮多响: the discarder deals next
        return won[0][0]

    def in_deal(self, ruleset, situation, won):
        return situation.replace(won_earlier=[w for w, _ in won]) if won else situation

    def draw_pays(self, ruleset, state, told, base, paid=()):
        still_in = [s for s in SEATS if s not in state.out]
        ready = [s for s in still_in if s in told.get("ready", ())]
        deltas = dict.fromkeys(SEATS, 0)
        for payer in (s for s in still_in if s not in ready):
            for payee in ready:
                transfer(deltas, payer, payee, READY_PAYS * base * state.factor)
        pay_back(deltas, paid, [s for s in still_in if s not in ready])  # 退税: as it was paid (never 上楼)
        return deltas


YAML = """\
id: dealshaped
region: deal_shaped
name: {zh: 血战样, en: Deal-shaped}
unit: {zh: 番, en: fan}
wall: {suits: mps, honors: false}
shapes: [standard]
wins:
  discard: any
patterns:
  any_win: {value: 1, name: {zh: 平和, en: any win}}
  all_pungs: {value: 2, name: {zh: 对对和, en: all pungs}}
payout: {scheme: still_in}
session:
  dealer_stays_on_win: true
  dealer_stays_on_draw: true
options: [won_earlier, void]
penalties:
  kong:
    name: {zh: 暗杠, en: concealed kong}
    points: 2
    gets: true
  kong_from:
    name: {zh: 直杠, en: kong on a discard}
    points: 2
    pays: one
    gets: true
"""


def install(where):
    """Register the region and write its ruleset to `where`/dealshaped.yaml; the path. `uninstall()` after."""
    mjcalc.register_region(DealShaped())
    path = where / "dealshaped.yaml"
    path.write_text(textwrap.dedent(YAML), encoding="utf-8")
    return path


def uninstall():
    unregister("deal_shaped")
