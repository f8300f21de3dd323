"""Every path to the same hand pays the same money: a won hand scored from its tiles, then told without them — by
the patterns the scorer reported (by id and by Chinese name) and by its total — in the same situation, with what a
player knows of the hand besides (its claimed melds, its kongs and whom they were claimed from, 无宝). Used by
tests/test_told.py (a fixed seed) and bench/told_paths.py (20,000 hands and more).

The hands are generated here, apart from the engine: four sets and a pair (or seven pairs, or 上饶's 十三浪 and 九幺),
some claimed or kongs, some tiles turned into wildcards, a winning tile; the situations at random over every field
the rulesets read. Only legal wins are compared.
"""
import random
from collections import Counter
from dataclasses import dataclass
from typing import List, Optional

from mjcalc.analysis import analyze
from mjcalc.errors import MjcalcError
from mjcalc.hand import CHOW, KONG, PUNG
from mjcalc.notation import parse_hand
from mjcalc.regions import find_region
from mjcalc.ruleset import load_ruleset
from mjcalc.situation import Situation
from mjcalc.told import Told, analyze_told, kong_text, told_facts

RULESETS = ("beijing", "beijing-money", "beijing-classic", "beijing-doubling", "beijing-hunr", "zhuji", "shangrao",
            "sichuan", "hongzhong", "hangzhou", "guangdong")
SEATS = "ESWN"
HONORS = "ESWNCFP"
NAMES = [f"{r}{s}" for s in "mps" for r in range(1, 10)] + list(HONORS)


def name(kind: int) -> str:
    return NAMES[kind]


# --- hands --------------------------------------------------------------------------------------------------


@dataclass
class Generated:
    text: str
    wild: tuple  # the wild kinds declared, as names
    kongs: int  # the hand's kongs


def _standard(rng: random.Random, counts: Counter, wilds_ok: bool, suits=(0, 1, 2), honors_ok: bool = True):
    """Four sets and a pair as (kind, tiles) blocks, within four copies of each kind, of `suits` (and honors where
    `honors_ok`)."""
    suit = rng.choice([None, None, *suits])  # sometimes one suit (flushes)
    honors = honors_ok and rng.random() < 0.5
    blocks = []
    if rng.random() < 0.08:  # 4m 5m 6m, the 5m to be won (捉五魁)
        blocks.append((CHOW, [3, 4, 5]))
        counts.update([3, 4, 5])
    elif suit is not None and rng.random() < 0.25:  # 一条龙: 123, 456, 789 of the suit
        for r in (0, 3, 6):
            blocks.append((CHOW, [9 * suit + r, 9 * suit + r + 1, 9 * suit + r + 2]))
            counts.update(blocks[-1][1])
    all_honors = honors_ok and rng.random() < 0.05
    for _ in range(50):
        if len(blocks) == 5:
            break
        want_pair = len(blocks) == 4
        if all_honors or honors and rng.random() < 0.3:
            t = 27 + rng.randrange(7)
            if want_pair:
                block = ("pair", [t, t])
            else:
                block = (rng.choice([PUNG, PUNG, KONG]), [t] * 3)
        else:
            s = suit if suit is not None else rng.choice(suits)
            r = rng.randrange(9)
            t = 9 * s + r
            if want_pair:
                block = ("pair", [t, t])
            elif rng.random() < 0.55 and r <= 6:
                block = (CHOW, [t, t + 1, t + 2])
            else:
                block = (rng.choice([PUNG, PUNG, PUNG, KONG]), [t] * 3)
        need = Counter(block[1] if block[0] != KONG else block[1] + block[1][:1])
        if all(counts[k] + n <= 4 for k, n in need.items()):
            counts.update(need)
            blocks.append(block)
    return blocks if len(blocks) == 5 else None


def generate(rng: random.Random, rules) -> Optional[Generated]:
    """A won hand for `rules`: its notation and the wild kinds it declares (or None when this try failed)."""
    counts: Counter = Counter()
    wild_kinds = rules.fixed_wild  # a ruleset's own wildcard (红中) is always wild; others are named at random
    region = find_region(rules.region)
    faceless = region.wild_in_play(rules, Situation()) and not region.wild_kinds(rules, Situation())  # 广东's ghosts
    if rules.wild_kinds and not rules.fixed_wild and not faceless and rng.random() < 0.7:
        first = rng.randrange(34)
        wild_kinds = (first,) if rules.wild_kinds == 1 else (first, _after(first))
    shapes = set(rules.shapes)
    roll = rng.random()
    # a wall without honors (Sichuan's 108) deals hands of two suits at most: a win there holds no more
    honors_ok = bool(set(rules.wall.honors) - {name(k) for k in rules.fixed_wild})  # 红中's wall: only the wildcard
    suits = (0, 1, 2) if honors_ok or rules.fixed_wild else tuple(rng.sample(range(3), 2))
    kinds_ok = [k for k in range(34) if k >= 27 and honors_ok or k < 27 and k // 9 in suits]
    concealed: List[int] = []
    melds: List[str] = []
    kongs = 0
    patterns = {p.id for p in rules.patterns}
    nine_extra = None
    if "thirteen_orphans" in shapes and roll < 0.06:  # the 13 orphans and one of them again
        orphans = [0, 8, 9, 17, 18, 26] + list(range(27, 34))
        concealed = orphans + [rng.choice(orphans)]
    elif "nine_gates" in patterns and roll < 0.1:  # 1112345678999 of a suit, and one more of it
        suit = 9 * rng.randrange(3)
        concealed = [suit + r for r, n in enumerate((3, 1, 1, 1, 1, 1, 1, 1, 3)) for _ in range(n)]
        concealed.append(suit + rng.randrange(9))
        nine_extra = concealed[-1]
        if max(Counter(concealed).values()) > 4:
            return None
    elif "big_winds" in patterns and roll < 0.16:  # 四喜: three or four wind pungs, and a pair
        winds = rng.sample(range(27, 31), 4)
        t = rng.randrange(27)
        if rng.random() < 0.5:
            concealed = [w for w in winds for _ in range(3)] + [t, t]
        else:
            concealed = [w for w in winds[:3] for _ in range(3)] + [winds[3]] * 2 + [t] * 3
    elif "thirteen_lonely" in shapes and roll < 0.06:
        concealed = _lonely(rng)
    elif "nine_terminals" in shapes and roll < 0.12:
        concealed = [rng.choice([0, 8, 9, 17, 18, 26] + list(range(27, 34))) for _ in range(14)]
        if max(Counter(concealed).values()) > 4:
            return None
    elif "seven_pairs" in shapes and roll < 0.25:
        kinds = [rng.choice(kinds_ok) for _ in range(7)]
        if rng.random() < 0.3:
            kinds[1] = kinds[0]  # four alike: 豪华
        if max(Counter(kinds).values()) > 2:
            return None
        concealed = [k for k in kinds for _ in range(2)]
    else:
        blocks = _standard(rng, counts, bool(wild_kinds), suits, honors_ok)
        if blocks is None:
            return None
        exposed_p = rng.choice([0.0, 0.0, 0.2, 0.5])
        for kind, tiles in blocks:
            if kind == KONG:
                how = rng.random()
                kongs += 1
                if how < 0.4:
                    melds.append("{" + _joined(tiles + tiles[:1]) + "}")
                else:
                    source = rng.choice(["", rng.choice(SEATS)])
                    melds.append("[" + _joined(tiles + tiles[:1]) + "]" + source)
            elif kind in (CHOW, PUNG) and rng.random() < exposed_p:
                melds.append("[" + _joined(tiles) + "]")
            else:
                concealed += tiles
    if not concealed:
        return None
    if rules.wild_kinds and not rules.fixed_wild and not faceless and rng.random() < 0.3:  # some stand as themselves
        first = rng.choice(concealed)
        wild_kinds = (first,) if rules.wild_kinds == 1 else (first, _after(first))
    rng.shuffle(concealed)
    # some concealed tiles become wildcards (written `*`): what they stand for is the engine's to find; 广东's four
    # ghosts sometimes (四鬼和)
    if (wild_kinds or faceless) and rng.random() < 0.6:
        for i in range(rng.choice([1, 1, 2, 3] + ([4] if "four_ghosts" in patterns else []))):
            if i < len(concealed):
                concealed[i] = -1
    at = rng.randrange(len(concealed))
    if nine_extra in concealed and rng.random() < 0.7:  # won on the extra tile: 九莲宝灯
        at = concealed.index(nine_extra)
    fours = [k for k, n in Counter(concealed).items() if n == 4 and k >= 0]  # to be won on the fourth of them
    if fours and any(p.id == "dragon_seven_pairs" for p in rules.patterns) and rng.random() < 0.5:  # 龙七对
        at = concealed.index(fours[0])
    if 4 in concealed and rng.random() < 0.7:  # a 5m won (捉五魁 where it sits between 4m and 6m)
        at = concealed.index(4)
    win = concealed.pop(at)
    words = [("*" if t < 0 else name(t)) for t in concealed] + melds + ["+" + ("*" if win < 0 else name(win))]
    return Generated(" ".join(words), tuple(name(k) for k in wild_kinds), kongs)


def _joined(tiles) -> str:
    return " ".join(name(t) for t in tiles).replace(" ", "") if all(t >= 27 for t in tiles) else \
        "".join(str(t % 9 + 1) for t in tiles) + "mps"[tiles[0] // 9]


def _after(kind: int) -> int:
    if kind < 27:
        return 9 * (kind // 9) + (kind % 9 + 1) % 9
    if kind < 31:
        return 27 + (kind - 27 + 1) % 4
    return 31 + (kind - 31 + 1) % 3


def _lonely(rng: random.Random) -> List[int]:
    """十三浪: fourteen lonely tiles (each suit's tiles three or more apart, no honor twice)."""
    honors = rng.sample(range(27, 34), rng.choice([5, 6, 7]))
    suits = []
    for s in range(3):
        ranks = rng.choice([[0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [0, 3, 7], [1, 5, 8], [0, 5, 8]])
        suits += [9 * s + r for r in ranks]
    tiles = honors + suits
    rng.shuffle(tiles)
    return tiles[:14] if len(tiles) >= 14 else []


# --- situations ---------------------------------------------------------------------------------------------


def situation(rng: random.Random, rules, kongs: int, wild: tuple, held_wild: int = 0) -> Situation:
    """A random situation for `rules`, over the fields it reads (a kong draw only for a hand with kongs)."""
    seat = rng.choice(SEATS)
    dealer = rng.choice(SEATS)
    discarder = rng.choice([None, None] + [s for s in SEATS if s != seat])
    first_turn = rng.random() < 0.1
    if first_turn and rng.random() < 0.5:  # 天和 / 天糊: the dealer's own first draw
        dealer, discarder = seat, None
    elif first_turn and dealer != seat:  # 地胡 / 地糊: on the dealer's first discard (广东's 地和: his first draw)
        discarder = None if "earthly_draw" in {p.id for p in rules.patterns} else dealer
    options = {}
    rob = discarder is not None and rng.random() < 0.1
    if "shaozhuang" in rules.options and rng.random() < 0.3:
        options["shaozhuang"] = rng.choice([1, 2])
    if "mutual" in rules.options and rng.random() < 0.1:
        options["mutual"] = [rng.choice([s for s in SEATS if s != seat])]
    if "hui_on_wall" in rules.options and rng.random() < 0.2:
        options["hui_on_wall"] = True
    if "hunr_you" in rules.options and rng.random() < 0.2:
        options["hunr_you"] = True
    if "rob_concealed" in rules.options and rob and rng.random() < 0.5:
        options["rob_concealed"] = True
    if "bid" in rules.options and rng.random() < 0.4:
        options["bid"] = rng.choice(["2", "3"] if len(wild) == 2 else ["du2", "wucai2"] if len(wild) < 2 else ["2"])
        options["bidder"] = rng.choice(SEATS)
    if "flown" in rules.options and rng.random() < 0.3:
        options["flown"] = rng.choice([1, 1, 2])
    if "flown_by" in rules.options and rng.random() < 0.2:
        options["flown_by"] = [f"{rng.choice([s for s in SEATS if s != seat])}=1"]
    if "jiebao" in rules.options and rng.random() < 0.1:
        options["jiebao"] = True
    if "four_wild" in rules.options and wild and rng.random() < 0.3:  # 四个宝: all four 宝 held or flown
        held = held_wild
        if held <= 4:
            options["four_wild"] = True
            options["flown"] = 4 - held
            options.pop("flown_by", None)
    if "kong" in rules.options and rng.random() < 0.2:
        options["kong"] = [f"{rng.choice([s for s in SEATS if s != seat])}:{rng.choice(['exposed', 'concealed'])}"]
    if "kong_discard" in rules.options and discarder is not None and not rob and rng.random() < 0.2:
        options["kong_discard"] = True
    if "won_earlier" in rules.options and rng.random() < 0.3:
        others = [s for s in SEATS if s not in (seat, discarder)]
        options["won_earlier"] = rng.sample(others, rng.choice([1, 1, 2]))
    if "laozhuang" in rules.options and rng.random() < 0.5:
        options["laozhuang"] = rng.choice([2, 3])
    if "piao" in rules.options and rng.random() < 0.3:  # refused unless the hand was 可爆头: then not compared
        options["piao"] = rng.choice([1, 1, 2])
    if "ten_winds" in rules.options and discarder is None and rng.random() < 0.15:  # 十风 (refused with a meld)
        options[rng.choice(["ten_winds", "ten_winds_white"])] = True
        options.pop("piao", None)
    for bound in ("chengbao", "fan_chengbao"):
        if bound in rules.options and rng.random() < 0.15:
            options[bound] = True
    if "ghosts_out" in rules.options and rng.random() < 0.3:
        options["ghosts_out"] = rng.choice([1, 1, 2])
    if "horses" in rules.options and rng.random() < 0.4:
        options["horses"] = rng.choice([1, 2])
    if "kong_from" in rules.options and discarder is None and kongs and rng.random() < 0.3:
        options["kong_from"] = rng.choice([s for s in SEATS if s != seat])
    if "birds" in rules.options and rng.random() < 0.4:
        options["birds"] = rng.choice([1, 2])
    if "void" in rules.options and rng.random() < 0.3:
        options["void"] = rng.choice("mps")
    if "bid" in options and options["bid"].startswith("wucai"):
        wild = ()
    return Situation(seat=seat, dealer=dealer, discarder=discarder,
                     kong_draw=rng.choice([0, 0, 1]) if discarder is None and kongs else 0,
                     last_tile=rng.random() < 0.15, rob_kong=rob, first_turn=first_turn,
                     wild=wild, **options)


# --- the comparison ---------------------------------------------------------------------------------------------


@dataclass
class Compared:
    """One hand told three ways: how each was answered (the money, or the refusal's id)."""

    ruleset: str
    hand: str
    situation: Situation
    tiles: tuple
    by_id: object
    by_name: object
    by_total: object


def money(result):
    score = result.score
    if not score.legal:
        return ("refused", score.reason.code)
    return (score.total, score.bonus, tuple(sorted(result.payout.deltas.items())))


def facts_of(result) -> dict:
    """What a player knows of the won hand besides its patterns: its claimed 吃/碰, its kongs and whom each was
    claimed from (as written), and 无宝 where a pattern's value says no wildcard stood in."""
    hand = result.hand
    claims = sum(1 for m in hand.melds if m.exposed and m.kind != KONG)
    kongs = [kong_text(m) for m in hand.melds if m.kind == KONG]
    facts = {}
    if claims:
        facts["open"] = claims
    if kongs:
        facts["kongs"] = kongs
    rules = result.ruleset
    reading = result.score.reading
    if reading is not None and reading.wild_roles == 0 and any(
            rules.pattern(m.pattern_id).param("without_wild") is not None for m in result.score.matches):
        facts["wild_roles"] = 0
    return facts


def told_three_ways(rules, text: str, sit: Situation) -> Optional[Compared]:
    """The hand `text` in `sit` scored from its tiles and told by id, by name and by total; None when the tiles
    are no legal win (nothing to compare)."""
    try:
        tiles = analyze(parse_hand(text), rules, sit)
    except MjcalcError:
        return None
    if tiles.score is None or not tiles.score.legal:
        return None
    facts = told_facts(facts_of(tiles))
    if "no_ghost" in rules.options and not tiles.tiles.wild_tiles:  # 广东's 无鬼: a player knows he held no ghost
        sit = sit.replace(no_ghost=True)
    named = tuple((m.pattern_id, m.count) for m in tiles.score.matches)
    # a total is told as the hand was paid: 四惠牌/混杠 won on a discard are paid as self-drawn, which only the tiles
    # (or the pattern's name) say
    paid = sit.replace(discarder=None, rob_kong=False, rob_concealed=None) if tiles.automatic else sit

    def told(where, **what):
        try:
            return money(analyze_told(Told(**what, **facts), rules, where))
        except MjcalcError as exc:
            return ("error", exc.code)

    return Compared(rules.id, text, sit, money(tiles), told(sit, patterns=named), _by_name(rules, named, facts, sit),
                    told(paid, total=tiles.score.total))


def _by_name(rules, named, facts, sit):
    """The patterns said as a player writes them (`table hand --patterns 对对和,中发白×2`), read as the CLI reads
    them."""
    from mjcalc.evening import parse_named

    # a hand of no pattern (beijing-money's 0 番) is the plain win, 推倒和
    words = [rules.pattern(pid).zh + (f"×{count}" if count > 1 else "") for pid, count in named] or ["推倒和"]
    try:
        counts, roles = parse_named(rules, ",".join(words))
        told = Told(patterns=tuple(counts.items()), **facts)
        return money(analyze_told(told, rules, sit))
    except MjcalcError as exc:
        return ("error", exc.code)


def run(seed: int, per_ruleset: int, rulesets=RULESETS):
    """`per_ruleset` legal wins of each ruleset compared, from `seed`: every `Compared`."""
    rng = random.Random(seed)
    out = []
    for rid in rulesets:
        rules = load_ruleset(rid)
        found = 0
        tries = 0
        while found < per_ruleset and tries < per_ruleset * 200:
            tries += 1
            generated = generate(rng, rules)
            if generated is None:
                continue
            try:
                held = generated.text.count("*") + sum(1 for w in parse_hand(generated.text).tiles
                                                       + parse_hand(generated.text).meld_tiles
                                                       if generated.wild and NAMES[w % 34] == generated.wild[0]
                                                       and w < 34)
                sit = situation(rng, rules, generated.kongs, generated.wild, held)
            except MjcalcError:
                continue
            compared = told_three_ways(rules, generated.text, sit)
            if compared is not None:
                out.append(compared)
                found += 1
    return out
