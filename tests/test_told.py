"""A hand told without its tiles — by the patterns a table names, or the total it agrees — pays what its tiles pay
(issue 33): the cases the audit found, worked by hand from the rules pages, and the property over generated hands
(tests/told_paths.py) that every path to the same hand gives the same money."""
import json
from collections import Counter, defaultdict

import pytest
from click.testing import CliRunner

from mjcalc.cli import cli
from mjcalc.errors import MjcalcError
from mjcalc.evening import LedgerError, parse_named, score_agreed
from mjcalc.regions import find_region
from mjcalc.ruleset import load_ruleset
from mjcalc.situation import Situation
from mjcalc.told import Told, analyze_told, most_total, usual_total

from told_paths import RULESETS, run as told_paths

SEATS = ["--seat", "东=A", "--seat", "南=B", "--seat", "西=C", "--seat", "北=D"]


def told(rid, names=None, total=None, **situation):
    """The hand told under ruleset `rid`: names as a table writes them (`对对和,庄`), or the total."""
    rules = load_ruleset(rid)
    facts = {k: situation.pop(k) for k in ("open", "kongs", "wild_roles") if k in situation}
    counts = None
    if names is not None:
        counts, roles = parse_named(rules, names)
        if roles is not None:
            facts["wild_roles"] = roles
    return score_agreed(rules, Situation(**situation), total=total, patterns=counts, facts=facts)


def paid(result):
    assert result.score.legal, result.score.reason
    return result.payout.deltas


def refused(rid, names=None, total=None, **situation) -> str:
    with pytest.raises(MjcalcError) as info:
        result = told(rid, names, total, **situation)
        if not result.score.legal:
            raise MjcalcError("record.not_legal", reason=result.score.reason)
    return str(info.value)


# --- what the audit found, worked by hand ---------------------------------------------------------------------


def test_hunr_a_named_hand_has_its_plain_win_base():
    """beijing-hunr.md: "a plain win is worth 1点 and every item multiplies it"; 七对子 ×2, 门清 ×2, 自摸 ×2, 无混儿 ×2:
    1 × 16 = 16 from each of the three (it recorded 0 点: the 推倒胡 base was left out)."""
    result = told("beijing-hunr", "七对子,门清,自摸,无混儿", seat="S")
    assert result.score.total == 16 and paid(result) == {"E": -16, "S": 48, "W": -16, "N": -16}
    assert result.score.matches[0].pattern_id == "tuidaohe" and not result.warnings  # every win has it: no news


def test_hunr_a_straight_on_a_discard_is_a_concealed_hand():
    """beijing-hunr.md: "吃、碰、开明杠都只能自摸胡牌" — a discard win is concealed, so 门清 ×2 counts with 一条龙 ×2:
    V = 1 × 2 × 2 = 4; "Discard 点炮 ×2: the discarder pays 2V, the two others pay V each": D 8, A 4, B 4."""
    result = told("beijing-hunr", "一条龙", seat="W", discarder="N", wild="5m")
    assert result.score.total == 4 and paid(result) == {"E": -4, "S": -4, "W": 16, "N": -8}
    assert "门清 added" in " ".join(result.warnings)
    # said open, it cannot win on a discard, in the words the tiles path uses
    assert "吃碰堤" in refused("beijing-hunr", "一条龙", seat="W", discarder="N", open=1, wild="5m")
    # with no 混儿 declared there is none in play (beijing-hunr.md: "无混儿 ×2: no 混儿 tile among the 14"): ×2 more
    assert told("beijing-hunr", "一条龙", seat="W", discarder="N").score.total == 8


def test_hunr_a_flush_named_alone_self_drawn():
    """清一色 ×4, 自摸 ×2 on the 1点 base, 混儿 in play (5万): 8 from each (门清 not named: the hand is taken as open,
    and holds a 混儿, so no ×2 more)."""
    assert paid(told("beijing-hunr", "清一色,自摸", seat="S", wild="5m")) == {"E": -8, "S": 24, "W": -8, "N": -8}


def test_shangrao_flown_multiplies_the_base_it_is_named_with():
    """shangrao.md: "飞宝 (--flown N): × 2^N"; 碰碰糊 ("all pungs, with a 宝 standing in", the 宝 5筒) 4 × 2 = 8 from
    each (it paid 4); 飞宝 alone names no base: refused (it recorded 0 分)."""
    assert paid(told("shangrao", "碰碰糊", seat="S", flown=1, wild="5p")) == {"E": -8, "S": 24, "W": -8, "N": -8}
    assert paid(told("shangrao", "碰碰糊,飞宝", seat="S", wild="5p")) == {"E": -8, "S": 24, "W": -8, "N": -8}
    assert "pays a hand by its base pattern: name one (天糊" in refused("shangrao", "飞宝", seat="S", wild="5p")
    # 碰碰糊 has a 宝 standing in: naming it says 宝 are in play, whichever tile they are
    assert told("shangrao", "碰碰糊", seat="S").score.total == 4


def test_beijing_kong_bloom_is_what_the_situation_says():
    """beijing.md: 杠上开花 ★ 5 "self-drawn on a kong replacement tile", 对对和 ★ 2, 庄 1 for the dealer: 8 from
    each (it paid 3: the situation's 杠上开花 was not counted)."""
    result = told("beijing", "对对和", seat="E", kong_draw=1)
    assert result.score.total == 8 and paid(result) == {"E": 24, "S": -8, "W": -8, "N": -8}


def test_beijing_the_plain_win_is_there_unless_replaced():
    """beijing.md: 推倒和 1 "(it does combine with 庄 and 门清无惠)": 门清无惠 alone is 1 + 1 = 2 (it paid 1)."""
    assert told("beijing", "门清无惠", seat="S").score.total == 2
    assert [m.pattern_id for m in told("beijing", "对对和", seat="S").score.matches] == ["all_pungs"]


def test_beijing_last_tile_ticked_is_counted():
    """beijing.md: 海底捞月 ★ "self-drawn on the last tile: 2": ticked (last_tile) beside named 对对和 it counts, and
    replaces 推倒和: 2 + 2 = 4 (the page's pattern form ticked 海底 and added nothing)."""
    result = told("beijing", "对对和", seat="S", last_tile=True)
    assert sorted(m.pattern_id for m in result.score.matches) == ["all_pungs", "sea_bottom"]
    assert result.score.total == 4


def test_zhuji_east_for_the_dealer_is_two_tai():
    """zhuji.md: 东风 "dealer 2, others 1" (东风庄家二台，闲家一台): the dealer's 东风 is 2 台, 2^2 = 4 from each (it
    paid 1 台); another's is 1 台."""
    east = told("zhuji", "东风,无财", seat="E")
    assert [(m.pattern_id, m.value) for m in east.score.matches] == [("east_pung", 2), ("no_wild", 1)]
    assert paid(east) == {"E": 24, "S": -8, "W": -8, "N": -8}  # 3 台: 2^3 = 8 from each
    assert told("zhuji", "东风,无财", seat="S").score.total == 2


def test_zhuji_names_no_hand_can_have_are_refused():
    """zhuji.md: 平胡 is "four chows", 对对胡 four pungs; 门风 is "South's pung of South, West's of West and North's of
    North (the dealer's other winds score nothing)"."""
    assert "平胡 and 对对胡 cannot be one hand" in refused("zhuji", "平胡,对对胡", seat="S")
    assert "门风 (seat_wind_pung) does not fit this hand: it counts when the winner is not the dealer" in \
        refused("zhuji", "门风", seat="E")
    assert "中发白 and 平胡 cannot be one hand" in refused("zhuji", "中发白,平胡", seat="S")


def test_zhuji_a_no_wild_bid_makes_every_hand_no_wild():
    """zhuji.md: 无财 1 "(every win in a 无财 bid)": a non-包家 winning 对对胡 in 无财2台 has 对对胡 1 + 无财 1 = 2 台
    (it paid 1 台 without a word)."""
    result = told("zhuji", "对对胡", seat="S", bid="wucai2", bidder="N")
    assert result.score.total == 2 and "无财 added" in " ".join(result.warnings)


def test_zhuji_two_dragon_pungs_are_counted_twice():
    """zhuji.md: 中发白 "1 each": named twice, or with its count, two dragon pungs are 2 台."""
    assert told("zhuji", "中发白,中发白,无财", seat="S").score.total == 3
    assert told("zhuji", "中发白×2,无财", seat="S").score.total == 3
    assert "counts once in a hand" in refused("zhuji", "东风×2", seat="S")
    assert "is named twice" in str(pytest.raises(LedgerError, parse_named, load_ruleset("zhuji"), "对对胡,对对胡").value)


def test_shangrao_no_bao_thirteen_lonely_has_its_own_name():
    """shangrao.md: "十三浪 / 九幺: with 宝 2, without 4"; "无宝十三浪 self-drawn: +12, −4 each" (the texts' name)."""
    assert paid(told("shangrao", "无宝十三浪", seat="S", wild="5p")) == {"E": -4, "S": 12, "W": -4, "N": -4}
    assert paid(told("shangrao", "十三浪", seat="S", wild="5p")) == {"E": -2, "S": 6, "W": -2, "N": -2}
    assert told("shangrao", "十三浪", seat="S").score.total == 4  # no 宝 declared: none stands in
    assert told("shangrao", "thirteen lonely without bao", seat="S").score.total == 4
    assert told("shangrao", "无宝七星九幺", seat="S").score.total == 8


def test_classic_an_open_hand_is_paid_half():
    """beijing-classic.md: "a plain hand with a chow won on W's discard: 推倒和 1 → 1000, broken 门清 → W pays
    500" ("破了门清后的点数就为原基准点数的1/2"); by total and by name alike."""
    assert paid(told("beijing-classic", "推倒和", seat="S", discarder="W", open=1))["W"] == -500
    assert paid(told("beijing-classic", total=1, seat="S", discarder="W", open=1))["W"] == -500
    assert paid(told("beijing-classic", total=1, seat="S", discarder="W"))["W"] == -1000


def test_money_table_kong_money_for_the_winners_kongs():
    """beijing-money.md: "{1111m} [5555p]W 789s 234s E +E, S self-draws: 推倒和 0 番 → 平摸 E 20, W 10, N 10; 暗杠 20
    from each of E, W, N; 明杠 10 from W: S +110, E −40, W −40, N −30" — told by its total and its kongs."""
    result = told("beijing-money", total=0, seat="S", kongs=["concealed", "exposed:W"], open=0)
    assert paid(result) == {"E": -40, "S": 110, "W": -40, "N": -30}
    # a 明杠 not said from whom earns nothing, and the output says so, as for tiles
    result = told("beijing-money", total=0, seat="S", kongs=["exposed"])
    assert paid(result) == {"E": -20, "S": 40, "W": -10, "N": -10} and "say from whom" in " ".join(result.warnings)


def test_shangrao_the_winners_kongs_earn_their_bonuses():
    """shangrao.md: 碰杠 1 and 自摸杠 2 are "paid on every win by each of the three others"; the winner's kongs
    said with --kong WINNER:KIND (or kongs): 平糊自摸 2 + 自摸杠 2 → each pays 2 + 2."""
    assert paid(told("shangrao", "平糊自摸", seat="S", kong=["S:concealed"])) == {"E": -4, "S": 12, "W": -4, "N": -4}
    assert paid(told("shangrao", "平糊自摸", seat="S", kongs=["concealed"])) == {"E": -4, "S": 12, "W": -4, "N": -4}
    # a kong draw needs a kong; which kind it is changes the bonus: asked for
    assert "which kongs the winner has" in refused("shangrao", "平糊自摸", seat="S", kong_draw=1)


def test_a_total_beyond_any_hand_is_refused():
    """The upper bound: more than every pattern of the ruleset at once (`most_total`)."""
    assert most_total(load_ruleset("beijing")) == 74 and most_total(load_ruleset("zhuji")) == 19
    assert "10000 番 is more than any hand scores under beijing (at most 74)" in refused("beijing", total=10000, seat="S")
    assert "40 台 is more than any hand scores under zhuji (at most 19)" in refused("zhuji", total=40, seat="S")


def test_a_flat_amount_by_total_asks_for_its_name():
    """beijing-hunr.md: 混杠/天和/地和 "each other player pays 40" whatever the hand; a total of 40 could only be one of
    them (推倒胡's factors make powers of two) and is paid otherwise on a discard: name the pattern."""
    assert "40 点 is what 混杠 pays flat, which only its name says: name it (混杠)" in \
        refused("beijing-hunr", total=40, seat="S", discarder="W", wild="5m")
    # 天和 by the situation: the total is its flat 40, and is paid flat (each 40, the dealer's 庄胡 not applied)
    assert paid(told("beijing-hunr", total=40, seat="E", first_turn=True)) == {"E": 120, "S": -40, "W": -40, "N": -40}
    assert "a flat 40" in refused("beijing-hunr", total=8, seat="E", first_turn=True)


def test_usual_totals():
    """What a hand usually reaches: the cap where there is one, else one pattern with all the situation adds."""
    assert usual_total(load_ruleset("beijing-money")) == (6, "cap")
    total, how = usual_total(load_ruleset("beijing"))
    assert total == 19 and "豪华七对子" in how and "天和" in how


# --- what a second audit found (a fresh pair of eyes at the prompt) --------------------------------------------


@pytest.mark.parametrize("rid, names, pair", [
    # beijing.md: 一条龙 "123, 456, 789 of one suit as three chows"; 七对子 seven pairs (no sets at all)
    ("beijing", "一条龙,七对子", "一条龙 and 七对子"),
    # 捉五魁 "won on a tile played as 5m in the middle of 4m-5m-6m": a chow, won in it
    ("beijing", "捉五魁,对对和", "捉五魁 and 对对和"), ("beijing", "捉五魁,七对子", "捉五魁 and 七对子"),
    ("beijing", "大钓,捉五魁", "大钓 and 捉五魁"),  # 大钓 is won on the pair
    ("beijing-doubling", "清龙,七对", "清龙 and 七对"), ("beijing-hunr", "一条龙,七对子", "一条龙 and 七对子"),
    ("beijing-hunr", "捉五魁,字一色", "捉五魁 and 字一色"),  # a 5万 is no honor
    ("zhuji", "中发白×3,东风,门风", "中发白×3, 东风, 门风"),  # five pungs: a hand has four sets
])
def test_names_no_hand_can_have_are_refused(rid, names, pair):
    assert f"{pair} cannot be one hand" in refused(rid, names, seat="S")


def test_what_the_facts_make_is_counted():
    """Four kongs are four pungs: 对对和 counts (beijing.md: "four pungs or kongs and a pair"); four exposed melds
    leave one tile, won as the pair: 大钓; a chow is needed beside four kongs: refused."""
    four = ["concealed"] * 4
    result = told("beijing", "门清无惠", seat="S", kongs=four)
    assert result.score.total == 3 and "对对和 added" in " ".join(result.warnings)  # 对对和 2 + 门清无惠 1
    assert told("beijing-money", "门清", seat="S", kongs=four).payout.deltas["S"] == 400  # 2 番 64×2… + 暗杠 20×4…
    assert told("beijing", "推倒和", seat="S", open=4).score.total == 2  # 大钓 2 replaces 推倒和
    assert told("zhuji", "无财", seat="S", kongs=four).score.total == 2  # 无财 1 + 对对胡 1
    assert "no hand has these patterns" in refused("shangrao", "平糊自摸", seat="S", kongs=four, wild="5p")


def test_with_no_wildcard_declared_none_is_in_play():
    """zhuji.md: "With no bid and no --wild there are no 财神 at all, so every win is 无财"; beijing-doubling.md: "The
    dealer's 天和 with no 绘: 4 + 1 + 1 + 1 = 7 → 128: each pays 256" — as for tiles, the wildcards are the
    situation's to say."""
    assert paid(told("zhuji", "平胡", seat="S", discarder="W"))["W"] == -4  # 平胡 1 + 无财 1 = 2 台
    assert paid(told("beijing-doubling", "天和", seat="E")) == {"E": 768, "S": -256, "W": -256, "N": -256}
    assert told("beijing", "对对和", seat="S", discarder="W").score.total == 3  # + 门清无惠: a discard win is concealed


def test_shangrao_a_combined_base_named_by_its_parts():
    """shangrao.md: 碰碰糊宝吊头 8 is 碰碰糊 won as 宝吊头; a hand of only 1s, 9s and honors in sets is all pungs (碰碰糊
    4, 九幺加倍 ×2 = 8)."""
    assert told("shangrao", "宝吊头,碰碰糊", seat="S", wild="5p").score.total == 8
    assert told("shangrao", "平糊,九幺加倍", seat="S", wild="5p").score.total == 8


def test_the_plain_win_of_no_pattern_can_be_named():
    """beijing-money.md: "推倒和 (a hand with no pattern, 0 番)"; named, it is no pattern: 平摸 E 20, W 10, N 10."""
    assert paid(told("beijing-money", "推倒和", seat="S", open=1)) == {"E": -20, "S": 40, "W": -10, "N": -10}


def test_totals_no_hand_scores_are_refused():
    """beijing-hunr.md: "every item multiplies" a 1点 base by ×2, ×4, ×8 (or a flat 40): 3 and 12 are no hand;
    a total is the table's word, so a 绘 it did not declare may be held (the bound refuses only what no hand is)."""
    assert "no hand scores 3 点 under beijing-hunr" in refused("beijing-hunr", total=3, seat="S")
    assert "no hand scores 12 点" in refused("beijing-hunr", total=12, seat="S")
    # beijing.md: 庄 "+1 when the dealer wins or deals in", with 推倒和 1: a dealer's 1 番 is no hand
    assert "this situation alone makes 2 番 (推倒和+庄)" in refused("beijing", total=1, seat="E")
    assert told("beijing-doubling", total=1, seat="S").score.legal  # 自摸 alone: an open hand holding a 绘


def test_what_a_total_cannot_say_is_said():
    """beijing.md: 四惠牌 is "paid as a self-draw whatever --from says"; beijing-classic.md: "a hand that broke 门清 is
    paid half"; shangrao.md: 地糊 is "a non-dealer's win on the dealer's first discard"."""
    result = told("beijing", total=8, seat="S", discarder="W", wild="5m")
    assert "if the hand is 四惠牌, it is paid as a self-draw" in " ".join(result.warnings)
    assert "taken as concealed" in " ".join(told("beijing-classic", total=1, seat="S", discarder="W").warnings)
    assert "taken as concealed" not in " ".join(told("beijing-classic", total=1, seat="S", open=1).warnings)
    assert "it counts when a non-dealer wins on the dealer's first discard" in \
        refused("shangrao", "地糊", seat="S", discarder="W")


# --- the command line: the ask, the facts, the same words ------------------------------------------------------


def cli_run(*args, db, input=None):
    return CliRunner().invoke(cli, ["table", *args, "--db", str(db)], input=input)


def test_the_command_line_asks_above_a_usual_total_and_takes_the_facts(tmp_path):
    db = tmp_path / "t.sqlite3"
    assert cli_run("new", "t", *SEATS, db=db).exit_code == 0
    # 25 番: above beijing's usual 19, below its bound: refused without a terminal, recorded with --yes
    result = cli_run("hand", "--fan", "25", "--winner", "B", db=db)
    assert result.exit_code == 2 and "25 番 is above the usual 19 under beijing; only --yes" in result.stderr
    assert cli_run("hand", "--fan", "25", "--winner", "B", "--yes", db=db).exit_code == 0
    # the facts of a hand without tiles, and a word on them given with tiles
    result = cli_run("hand", "--patterns", "对对和", "--winner", "C", "--from", "D", "--open", "--json", db=db)
    assert result.exit_code == 2 and "吃碰堤" in result.stderr
    result = cli_run("hand", "123m456p789s234s5m", "+5m", "--winner", "C", "--open", db=db)
    assert result.exit_code == 2 and "for a hand entered without its tiles" in result.stderr
    result = cli_run("hand", "--patterns", "对对和", "--winner", "C", "--kongs", "concealed", "--kong-draw", "--json",
                     db=db)
    assert result.exit_code == 0, result.output
    hand = json.loads(result.stdout)["hand"]
    assert hand["total"] == 7 and sorted(p["id"] for p in hand["patterns"]) == ["all_pungs", "kong_bloom"]
    log = cli_run("log", "--json", db=db).output
    assert '"told": {"kongs": ["concealed"]}' in log


# --- the property: every path to the same hand pays the same money ----------------------------------------------


FLAT_BY_TOTAL = ("told.total_like_flat",)  # a flat amount only its name says (混杠, 绘杠): a total is refused


def test_every_path_to_the_same_hand_pays_the_same_money():
    """For generated won hands of every built-in ruleset (tests/told_paths.py, seed 7): their patterns as the scorer
    reported them, by id and by Chinese name, and their total, told with what a player knows of the hand, pay what
    the tiles pay — or, for a total that only a flat pattern's name can say, are refused. Every pattern of every
    ruleset is among the hands."""
    compared = told_paths(7, 300)
    seen = defaultdict(Counter)
    for c in compared:
        rules = load_ruleset(c.ruleset)
        result = analyze_hand(rules, c)
        assert c.by_id == c.tiles, (c.ruleset, c.hand, c.situation, c.by_id, c.tiles)
        assert c.by_name == c.tiles, (c.ruleset, c.hand, c.situation, c.by_name, c.tiles)
        if c.by_total != c.tiles:
            assert c.by_total[0] == "error" and c.by_total[1] in FLAT_BY_TOTAL, (c.ruleset, c.hand, c.by_total)
        flat = [m.pattern_id for m in result.score.matches if find_region(rules.region).paid_flat(rules, m.pattern_id)]
        if c.by_total != c.tiles:
            assert flat, (c.hand, c.by_total)
        seen[c.ruleset].update(m.pattern_id for m in result.score.matches)
    assert len(compared) == 300 * len(RULESETS)
    for rid in RULESETS:
        missing = [p.id for p in load_ruleset(rid).patterns if not seen[rid][p.id]]
        assert missing == [], (rid, missing)


def analyze_hand(rules, c):
    from mjcalc.analysis import analyze
    from mjcalc.notation import parse_hand
    return analyze(parse_hand(c.hand), rules, c.situation)


def test_a_told_hand_is_a_reading_the_region_scores():
    """No stand-in: the reading has the hand's facts as a real type, and the region's hooks read it."""
    result = analyze_told(Told(patterns=(("all_pungs", 1),), open=1), load_ruleset("beijing-money"), Situation(seat="S"))
    reading = result.score.reading
    assert reading.told and not reading.hand.is_concealed and reading.named("all_pungs") == 1
    assert type(result.tiles).__name__ == "ToldHand"
