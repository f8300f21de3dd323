"""The Shangrao 上饶 payout scheme (registered into payouts.SCHEMES).

The hand part: on a self-draw each other seat pays V; on 抢杠 the robbed konger alone pays `rob_kong`·V; on
地糊 (the dealer's first discard) the dealer alone pays V. A loser who has flown n 宝 pays his share × 2^n,
unless the hand is valued flat (天糊/地糊: a base pattern with `params.flat`). Bonuses (the winner's, and
every seat's kongs from --kong) are paid by each of the three others to the one who earned them.
Everything is times 底分.
"""
from .errors import SituationError
from .payouts import SCHEMES, SEATS, Payout, Scheme, _transfer


class Shangrao(Scheme):
    """上饶: V from each other on a self-draw, 6·V from a robbed konger, V from the dealer on 地糊; 飞宝; bonuses."""

    params = {"rob_kong": int}
    required = ("rob_kong",)
    uses = ("flown", "flown_by", "four_wild", "jiebao", "kongs")

    def adjust(self, ruleset, situation):
        s = situation
        seen = set()
        for seat, n in s.flown_by:
            if seat == s.seat:
                raise SituationError(f"--flown-by {seat} is the winner's own seat: use --flown for the winner's 飞宝")
            if seat in seen:
                raise SituationError(f"--flown-by names {seat} twice")
            seen.add(seat)
        flown = s.flown + sum(n for _, n in s.flown_by)
        if s.flown < 0 or any(n < 0 for _, n in s.flown_by):
            raise SituationError("飞宝 counts cannot be negative")
        if flown > 4:
            raise SituationError(f"{flown} 飞宝 in all (--flown and --flown-by): there are only four 宝")
        for seat, _ in s.kongs:
            if seat == s.seat:
                raise SituationError(
                    f"--kong {seat} is the winner's own seat: write the winner's kongs in the hand as [XXXX] or {{XXXX}}"
                )
        return situation

    def pay(self, score, situation, ruleset) -> Payout:
        s, b = situation, situation.base
        winner = s.seat
        others = [seat for seat in SEATS if seat != winner]
        flat = any(ruleset.pattern(m.pattern_id).param("flat") for m in score.matches)
        flown_by = dict(s.flown_by)

        def share(seat, amount):
            return amount if flat else amount * 2 ** flown_by.get(seat, 0)

        v = score.total * b
        hand = {}
        if score.self_drawn:
            for seat in others:
                _transfer(hand, seat, winner, share(seat, v))
        elif s.rob_kong:
            _transfer(hand, s.discarder, winner, share(s.discarder, ruleset.param("rob_kong") * v))
        else:  # 地糊 on the dealer's first discard; the only other legal discard win
            _transfer(hand, s.discarder, winner, share(s.discarder, v))
        payout = Payout()
        payout.add("和牌", "hand", hand)
        if score.bonus:
            bonus = {}
            for seat in others:
                _transfer(bonus, seat, winner, score.bonus * b)
            payout.add("奖分", "bonus", bonus)
        if s.kongs:
            values = {"exposed": _value(ruleset, "exposed_kong"), "concealed": _value(ruleset, "concealed_kong")}
            kongs = {}
            for owner, kind in s.kongs:
                for seat in SEATS:
                    if seat != owner:
                        _transfer(kongs, seat, owner, values[kind] * b)
            payout.add("杠分", "kongs", kongs)
        return payout


def _value(ruleset, pattern_id) -> int:
    return next((p.value for p in ruleset.patterns if p.id == pattern_id), 0)


SCHEMES["shangrao"] = Shangrao()
