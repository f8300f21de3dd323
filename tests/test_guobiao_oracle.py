"""The 国标 (MCR) oracle adapter and hand generator: hands worked out by hand from the rules, the notation round
trip, and the properties of 2,000 generated hands. mjcalc's engine is not involved."""
import collections
import random

import pytest

pytest.importorskip("MahjongGB")

from deal_guobiao import SHAPES, legal, random_win, shape_of, why_illegal  # noqa: E402
from oracle_guobiao import (  # noqa: E402
    FANS,
    FLOWER_FAN,
    McrHand,
    all_tiles,
    arguments,
    counts,
    meld,
    notation,
    oracle,
    parse,
)

SITUATION = ("self_drawn", "last_of_kind", "kong_related", "last_tile", "seat_wind", "prevalent_wind")


def situation(hand: McrHand) -> dict:
    """The hand's flags and winds, as `parse` takes them."""
    return {name: getattr(hand, name) for name in SITUATION}


WORKED = [
    pytest.param(
        "55m WWW NN [EEE] [SSSS] +N", {}, {"Big Four Winds": 1, "Half Flush": 1, "Melded Kong": 1}, 95,
        "大四喜 88: 由4副风刻(杠)组成的和牌, 不计圈风刻、门风刻、三风刻、碰碰和、幺九刻; 混一色 6: 由一种花色序数牌及字牌"
        "组成; 明杠 1. NNN is completed by the discard, so WWW is the one 暗刻 (no 双暗刻)",
        id="big_four_winds"),
    pytest.param(
        "19m 19p 19s E S W N CC F +P", {"last_of_kind": True}, {"Thirteen Orphans": 1, "Last Tile": 1}, 92,
        "十三幺 88: 3种序数牌的一、九牌, 7种字牌及其中一对作将, 不计五门齐、不求人、门前清、单钓将; 和绝张 4: "
        "和牌池、桌面已亮明的3张牌所剩的第4张牌 (no 白 is concealed)",
        id="thirteen_orphans_last_of_kind"),
    pytest.param(
        "1155m 2288p 3377s E +E f1 f2", {"self_drawn": True}, {"Seven Pairs": 1, "Self-Drawn": 1, FLOWER_FAN: 2}, 27,
        "七对 24: 由7个对子组成和牌, 不计不求人、门前清、单钓将 (自摸 stays); 花牌 1 each, 不计在起和分内",
        id="seven_pairs_flowers"),
    pytest.param(
        "14m 258p 36s E S W N C F +7m", {}, {"Lesser Honors and Knitted Tiles": 1}, 12,
        "全不靠 12: 由单张3种花色147、258、369不能错位的序数牌及东南西北中发白中的任何14张牌组成, "
        "不计五门齐、不求人、门前清、单钓将",
        id="lesser_knitted"),
    pytest.param(
        "147m 258p 369s E S W N +C", {}, {"Lesser Honors and Knitted Tiles": 1, "Knitted Straight": 1}, 24,
        "全不靠 12 holding all nine knitted tiles is also 组合龙 12 (3种花色的147、258、369不能错位的序数牌)",
        id="lesser_knitted_with_knitted_straight"),
    pytest.param(
        "14m 25p 36s E S W N C F P +8p", {"self_drawn": True}, {"Greater Honors and Knitted Tiles": 1,
                                                               "Self-Drawn": 1}, 25,
        "七星不靠 24: 必须有7个单张的东西南北中发白, 加上3种花色147、258、369中的7张, 不计五门齐、不求人、门前清、"
        "单钓将、全不靠; 自摸 1",
        id="greater_knitted"),
    pytest.param(
        "123m 23567p 55789s +4p", {"kong_related": True}, {"Robbing The Kong": 1, "Concealed Hand": 1,
                                                          "All Chows": 1, "Short Straight": 1}, 13,
        "抢杠和 8: 和他人自抓开明杠的牌, 不计和绝张; 门前清 2; 平和 2: 由4副顺子及序数牌作将组成, 不计无字; "
        "连六 1: 一种花色6张相连接的序数牌 (234p 567p); 23p waits on 1p or 4p, so no 边张",
        id="robbing_the_kong"),
    pytest.param(
        "123m 55p 11777s [456m] +5p", {}, {"Short Straight": 1, "No Honors": 1}, 2,
        "the pung of 5p is completed by a discard: a 明刻, so 777s alone is no 双暗刻; 连六 (123m 456m); 无字",
        id="pung_by_discard_is_exposed"),
    pytest.param(
        "123m 55p 11777s [456m] +5p", {"self_drawn": True},
        {"Two Concealed Pungs": 1, "Short Straight": 1, "No Honors": 1, "Self-Drawn": 1}, 5,
        "self-drawn, the pung of 5p is an 暗刻: 双暗刻 2 with 777s; 自摸 1",
        id="pung_by_self_draw_is_concealed"),
    pytest.param(
        "123m 5p [789s] [EEEE] {CCCC} +5p", {"self_drawn": True, "kong_related": True},
        {"Out with Replacement Tile": 1, "All Types": 1, "Dragon Pung": 1, "Prevalent Wind": 1, "Seat Wind": 1,
         "Single Wait": 1, "Concealed Kong and Melded Kong": 1}, 26,
        "杠上开花 8, 不计自摸; 五门齐 6; 箭刻 2; 圈风刻 2 and 门风刻 2 (East in the East round); 单钓将 1. "
        "PyMahjongGB 1.4.0 scores one exposed and one concealed kong as 明暗杠 5, not 明杠 1 + 暗杠 2",
        id="replacement_tile_and_mixed_kongs"),
    pytest.param(
        "55m WWW NN {EEEE} {SSSS} +N", {}, {"Big Four Winds": 1, "Three Concealed Pungs": 1, "Half Flush": 1,
                                            "Two Concealed Kongs": 1, "Concealed Hand": 1}, 118,
        "双暗杠 6 (不计暗杠), with WWW 三暗刻 16; concealed kongs keep the hand 门前清 2",
        id="two_concealed_kongs"),
    pytest.param(
        "46m 99s [345m] [345m] [345m] +5m", {"last_of_kind": True},
        {"Pure Triple Chow": 1, "Last Tile": 1, "All Chows": 1, "Tile Hog": 2, "One Voided Suit": 1,
         "Closed Wait": 1}, 36,
        "the melds show three 5m: the winning 5m is the fourth, 和绝张 4; 一色三同顺 24, 不计一般高; 平和 2; "
        "四归一 2 for 4m and again for 5m (four of each, no kong); 缺一门 1; 嵌张 1 (46m waits on 5m alone)",
        id="three_shown_is_last_of_kind"),
]


@pytest.mark.parametrize("text, flags, fans, total, rule", WORKED)
def test_oracle_on_hands_worked_by_hand(text, flags, fans, total, rule):
    hand = parse(text, **flags)
    assert legal(hand), why_illegal(hand)
    result = oracle(hand)
    assert (result["fans"], result["total"]) == (fans, total), rule


def test_oracle_gives_chinese_names_and_values_from_its_table():
    result = oracle(parse("19m 19p 19s E S W N CC F +P f1", last_of_kind=True))
    assert result["chinese"] == {"Thirteen Orphans": "十三幺", "Last Tile": "和绝张", FLOWER_FAN: "花牌"}
    assert result["values"] == {"Thirteen Orphans": 88, "Last Tile": 4, FLOWER_FAN: 1}


def test_oracle_counts_a_wait_on_a_tile_the_hand_holds_four_of():
    """1113m waits on 2m and 3m; all four 2m are in the kong, yet PyMahjongGB still gives no 单钓将."""
    result = oracle(parse("1113m 456789p [2222m] +3m"))
    assert "Single Wait" not in result["fans"]


def test_arguments_follow_the_binding():
    melds = (meld("chow", ["7s", "8s", "9s"], offer=2), meld("kong", ["E"] * 4, offer=3),
             meld("kong", ["C"] * 4, concealed=True))
    hand = McrHand(("1m", "2m", "3m", "5p"), melds, "5p", flowers=3, self_drawn=True, kong_related=True,
                   seat_wind=2, prevalent_wind=1)
    assert arguments(hand) == {
        "pack": (("CHI", "T8", 2), ("GANG", "F1", 3), ("GANG", "J1", 0)),
        "hand": ("W1", "W2", "W3", "B5"), "winTile": "B5", "flowerCount": 3, "isSelfDrawn": True,
        "is4thTile": False, "isAboutKong": True, "isWallLast": False, "seatWind": 2, "prevalentWind": 1,
    }


@pytest.mark.parametrize("text", [
    "19m 19p 19s E S W N CC F +P",
    "123m 5p [789s] [EEEE] {CCCC} +5p f1 f2 f3",
    "1155m 2288p 3377s E +E f1 f2",
    "46m 99s [345m] [345m] [345m] +5m f1 f2 f3 f4 f5 f6 f7 f8",
    "1112345678999m +9m",
])
def test_notation_round_trips(text):
    assert notation(parse(text)) == text


def test_parse_reads_back_a_hand():
    hand = McrHand(("9s", "1m", "1m", "C"), (meld("pung", ["P"] * 3), meld("chow", ["4p", "3p", "5p"]),
                                            meld("kong", ["2s"] * 4, concealed=True)), "C", flowers=1, self_drawn=True)
    assert notation(hand) == "11m 9s C [PPP] [345p] {2222s} +C f1"
    assert parse(notation(hand), self_drawn=True) == hand


@pytest.mark.parametrize("text, flags, reason", [
    ("123m 55p 11777s [456m] +5p", {"last_of_kind": True}, "和绝张 while a copy of the winning tile is concealed"),
    ("46m 99s [345m] [345m] [345m] +5m", {}, "the melds show three copies of the winning tile: it is 和绝张"),
    ("123m 55p 11777s [456m] +5p", {"self_drawn": True, "kong_related": True}, "杠上开花 without a kong"),
    ("123m 55p 11777s [456m] +5p", {"kong_related": True}, "抢杠和 on a tile the hand holds"),
    ("123m 23567p 55789s +4p", {"kong_related": True, "last_of_kind": True}, "抢杠和 with 和绝张"),
    ("123m 23567p 55789s +4p", {"kong_related": True, "last_tile": True},
     "the last tile of the wall with 杠上开花 or 抢杠和"),
    ("1111m 23567p 55789s +1m", {}, "5 × 1m"),
    ("124m 23567p 55789s +4p", {}, "not a winning shape"),
    ("123m 2356p 55789s +4p", {}, "12 concealed tiles with 0 melds"),
])
def test_illegal_hands_say_why(text, flags, reason):
    assert reason in why_illegal(parse(text, **flags))


def test_two_thousand_generated_hands():
    rng = random.Random(20240601)
    shapes: collections.Counter = collections.Counter()
    values = {en: value for en, _, value in FANS}
    for _ in range(2000):
        hand = random_win(rng)
        assert legal(hand), (str(hand), why_illegal(hand))
        assert len(all_tiles(hand)) - sum(m.kind == "kong" for m in hand.melds) == 14, str(hand)
        assert max(counts(hand)) <= 4, str(hand)
        assert len(hand.concealed) == 13 - 3 * len(hand.melds), str(hand)
        result = oracle(hand)
        assert all(values.get(en) == v for en, v in result["values"].items()), (str(hand), result)
        fans = result["fans"]
        applied = {
            "Last Tile": hand.last_of_kind,
            "Last Tile Draw": hand.self_drawn and hand.last_tile,
            "Last Tile Claim": not hand.self_drawn and hand.last_tile,
            "Out with Replacement Tile": hand.self_drawn and hand.kong_related,
            "Robbing The Kong": not hand.self_drawn and hand.kong_related,
        }
        assert {name: name in fans for name in applied} == applied, (str(hand), fans)
        assert fans.get(FLOWER_FAN, 0) == hand.flowers
        assert parse(notation(hand), **situation(hand)).melds == tuple(
            meld(m.kind, m.tiles, m.concealed) for m in hand.melds)
        assert notation(parse(notation(hand))) == notation(hand)
        shapes[shape_of(hand)] += 1
    assert set(shapes) == set(SHAPES), shapes
    assert min(shapes.values()) >= 50, shapes


def test_every_shape_on_request():
    rng = random.Random(5)
    for shape in SHAPES:
        for _ in range(50):
            found = shape_of(random_win(rng, shape))
            assert found == shape or (shape, found) == ("standard", "seven_pairs")
