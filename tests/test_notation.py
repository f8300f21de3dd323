"""The hand notation (README, glossary entry `notation`): every spelling, melds, `+`, round trips and every error's message."""
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import notation_hands
from mjcalc.errors import HandError, MjcalcError, NotationError
from mjcalc.hand import CHOW, KONG, PUNG, Meld
from mjcalc.tiles import WILD
from mjcalc.notation import MAX_INPUT, format_hand, parse_hand

# tile ints: 0-8 = 1-9m, 9-17 = 1-9p, 18-26 = 1-9s, 27-33 = E S W N C F P
M = {r: r - 1 for r in range(1, 10)}
P = {r: 8 + r for r in range(1, 10)}
S = {r: 17 + r for r in range(1, 10)}
E, SOUTH, W, N, C, F, WHITE = range(27, 34)
PAD = [S[r] for r in range(1, 10)] + [S[r] for r in range(2, 6)]  # 1-9s 2-5s, to pad a spelling up to 13


def tiles_of(text, count):
    """The `count` tiles spelt by `text`, read as part of a 13-tile hand padded with bamboo."""
    pad = PAD[: 13 - count]
    tiles = list(parse_hand(text + " " + " ".join(f"{t - 17}s" for t in pad)).tiles)
    for t in pad:
        tiles.remove(t)
    return tiles


# --- tiles -----------------------------------------------------------------------------------------------------

SPELLINGS = [
    pytest.param("1m 9m", [M[1], M[9]], id="characters"),
    pytest.param("1p9p", [P[1], P[9]], id="dots"),
    pytest.param("19s", [S[1], S[9]], id="bamboo_shared_suffix"),
    pytest.param("E S", [E, SOUTH], id="east_south"),
    pytest.param("WN", [W, N], id="west_north"),
    pytest.param("C", [C], id="C_is_red"),
    pytest.param("F", [F], id="F_is_green"),
    pytest.param("P", [WHITE], id="P_is_white"),
    pytest.param("12z", [E, SOUTH], id="1z_2z_east_south"),
    pytest.param("34z", [W, N], id="3z_4z_west_north"),
    pytest.param("5z", [C], id="5z_is_zhong"),
    pytest.param("6z", [F], id="6z_is_fa"),
    pytest.param("7z", [WHITE], id="7z_is_bai"),
    pytest.param("一万九万", [M[1], M[9]], id="chinese_wan"),
    pytest.param("1万", [M[1]], id="digit_wan"),
    pytest.param("九萬", [M[9]], id="traditional_wan"),
    pytest.param("五筒", [P[5]], id="wu_tong"),
    pytest.param("五饼", [P[5]], id="wu_bing"),
    pytest.param("五餅", [P[5]], id="traditional_bing"),
    pytest.param("三条", [S[3]], id="san_tiao"),
    pytest.param("三索", [S[3]], id="san_suo"),
    pytest.param("三條", [S[3]], id="traditional_tiao"),
    pytest.param("东南", [E, SOUTH], id="dong_nan"),
    pytest.param("西北", [W, N], id="xi_bei"),
    pytest.param("中发白", [C, F, WHITE], id="zhong_fa_bai"),
    pytest.param("東", [E], id="traditional_dong"),
    pytest.param("發", [F], id="traditional_fa"),
    pytest.param("\U0001F000\U0001F001\U0001F002\U0001F003", [E, SOUTH, W, N], id="glyph_winds"),
    pytest.param("\U0001F004\U0001F005\U0001F006", [C, F, WHITE], id="glyph_dragons"),
    pytest.param("\U0001F007\U0001F00F", [M[1], M[9]], id="glyph_characters"),
    pytest.param("\U0001F010\U0001F018", [S[1], S[9]], id="glyph_bamboo"),
    pytest.param("\U0001F019\U0001F021", [P[1], P[9]], id="glyph_circles"),
    pytest.param("*", [WILD], id="star_wildcard"),
    pytest.param("\U0001F02A", [WILD], id="glyph_wildcard"),
]


@pytest.mark.parametrize("text, tiles", SPELLINGS)
def test_tile_spellings(text, tiles):
    assert sorted(tiles_of(text, len(tiles))) == sorted(tiles)


def test_whitespace_between_groups_is_ignored():
    assert parse_hand("123m456p789s EE 45m") == parse_hand("123m 456p 789s E E 4m 5m")
    assert parse_hand("123m456p789s EE 45m") == parse_hand(" 1m2m3m\t4p5p6p 7s8s9s\u3000E E 45m ")


def test_every_glyph_is_its_tile():
    glyph_order = ["E", "S", "W", "N", "C", "F", "P"] + [f"{r}m" for r in range(1, 10)] \
        + [f"{r}s" for r in range(1, 10)] + [f"{r}p" for r in range(1, 10)]
    for offset, name in enumerate(glyph_order):
        glyph = chr(0x1F000 + offset)
        assert parse_hand(f"{glyph} 123m 456p 789s 11p 1s") == parse_hand(f"{name} 123m 456p 789s 11p 1s"), name


# --- melds -----------------------------------------------------------------------------------------------------

MELDS = [
    pytest.param("[123m]", Meld(CHOW, (M[1], M[2], M[3])), id="chow"),
    pytest.param("[312m]", Meld(CHOW, (M[1], M[2], M[3])), id="chow_any_order"),
    pytest.param("[555p]", Meld(PUNG, (P[5],) * 3), id="pung"),
    pytest.param("[EEEE]", Meld(KONG, (E,) * 4), id="exposed_kong"),
    pytest.param("{CCCC}", Meld(KONG, (C,) * 4, concealed=True), id="concealed_kong"),
    pytest.param("[5555z]", Meld(KONG, (C,) * 4), id="kong_by_number"),
    pytest.param("[七八九条]", Meld(CHOW, (S[7], S[8], S[9])), id="chinese_chow"),
]


@pytest.mark.parametrize("text, meld", MELDS)
def test_melds(text, meld):
    hand = parse_hand(f"{text} 123m 456p 789s P")
    assert hand.melds == (meld,)
    assert hand.concealed == (M[1], M[2], M[3], P[4], P[5], P[6], S[7], S[8], S[9], WHITE)
    assert hand.size == 13


def test_melds_anywhere_and_counted_three():
    hand = parse_hand("1m [123p] 2m {EEEE} 3m [555s] 9m")
    assert hand.size == 13 and len(hand.concealed) == 4
    assert hand.melds == tuple(sorted([Meld(CHOW, (P[1], P[2], P[3])), Meld(KONG, (E,) * 4, concealed=True),
                                       Meld(PUNG, (S[5],) * 3)]))
    assert not hand.is_concealed
    assert parse_hand("{EEEE} 123m 456p 789s C").is_concealed


# --- the winning tile ------------------------------------------------------------------------------------------

def test_plus_marks_the_winning_tile():
    hand = parse_hand("123m456p789s EE 45m +6m")
    assert hand.winning == M[6] and not hand.winning_implied
    assert hand.concealed == (M[1], M[2], M[3], M[4], M[5], P[4], P[5], P[6], S[7], S[8], S[9], E, E)
    assert hand.tiles[-1] == M[6] and hand.size == 14


def test_plus_may_come_first():
    assert parse_hand("+6m 123m456p789s EE 45m") == parse_hand("123m456p789s EE 45m +6m")


def test_last_written_tile_is_the_winning_tile_by_default():
    hand = parse_hand("123m456p789s EE 6m 45m")
    assert hand.winning == M[5] and hand.winning_implied
    assert hand == parse_hand("123m456p789s EE 46m +5m")
    assert parse_hand("E 12m456p789s E 6m [111s]").winning == M[6]  # not the meld: the last concealed tile


def test_thirteen_tiles_have_no_winning_tile():
    hand = parse_hand("123m456p789s EE 45m")
    assert hand.winning is None and not hand.winning_implied and hand.size == 13


def test_wildcard_winning_tile():
    hand = parse_hand("123m456p789s EE 45m +*")
    assert hand.winning == WILD and format_hand(hand) == "12345m 456p 789s EE +*"


# --- canonical format ------------------------------------------------------------------------------------------

CANONICAL = [
    pytest.param("123m456p789s EE 45m +6m", "12345m 456p 789s EE +6m", id="digits_grouped"),
    pytest.param("E S 9s1s 5z 6z 7z 1p 2m 3m 4m 5m 6m", "23456m 1p 19s E S C F P", id="canonical_order"),
    pytest.param("东南西北中发白 一万 五饼 三索 九萬 9p 東", "19m 59p 3s EE S W N C F P", id="chinese_to_canonical"),
    pytest.param("[EEEE] * 1m {CCCC} 2m [321p] 3m +4m", "123m * [123p] [EEEE] {CCCC} +4m", id="melds_and_wild"),
    pytest.param("123m456p789s EE 6m 45m", "12346m 456p 789s EE +5m", id="implied_winning_made_explicit"),
    pytest.param("\U0001F02A\U0001F02A 11m 234p 567s 999s 1m", "11m 234p 567999s * * +1m", id="glyph_wilds"),
]


@pytest.mark.parametrize("text, canonical", CANONICAL)
def test_canonical_format(text, canonical):
    hand = parse_hand(text)
    assert format_hand(hand) == canonical
    assert parse_hand(canonical) == hand
    assert format_hand(parse_hand(canonical)) == canonical
    assert repr(hand) == f"parse_hand({canonical!r})"


# --- errors: one precise line each -----------------------------------------------------------------------------

ERRORS = [
    pytest.param("123m Ex", NotationError, "unknown character 'x' at column 7 in \"123m Ex\"", id="unknown_character"),
    pytest.param("123m e", NotationError,
                 "unknown character 'e' (winds and dragons are upper case: E S W N C F P) at column 6 in \"123m e\"",
                 id="lower_case_wind"),
    pytest.param("123m 456p 789s EE 45m +6m f9", NotationError,
                 "f9: the flowers are f1 to f8 at column 27 in \"123m 456p 789s EE 45m +6m f9\"", id="flower_number"),
    pytest.param("123m 456p 789s EE 45m +6m f1 \U0001F022", NotationError,
                 "\U0001F022 is written twice: there is one of each flower at column 30 in "
                 "\"123m 456p 789s EE 45m +6m f1 \U0001F022\"", id="flower_twice"),
    pytest.param("456p 123", NotationError,
                 "digits '123' without a suit letter (m, p, s or z) at column 6 in \"456p 123\"", id="digits_then_end"),
    pytest.param("12 3m", NotationError,
                 "digits '12' without a suit letter (m, p, s or z) at column 1 in \"12 3m\"", id="digits_then_space"),
    pytest.param("12E", NotationError,
                 "digits '12' without a suit letter (m, p, s or z) at column 1 in \"12E\"", id="digits_then_honor"),
    pytest.param("E m", NotationError, "suit letter 'm' without digits before it at column 3 in \"E m\"",
                 id="suit_without_digits"),
    pytest.param("102m", NotationError, "'0' is not a rank (ranks are 1-9) at column 2 in \"102m\"", id="zero"),
    pytest.param("0z", NotationError, "'0' is not a rank (ranks are 1-9) at column 1 in \"0z\"", id="zero_honor"),
    pytest.param("1238z", NotationError, "'8z' is not an honor (1-7z are E S W N C F P) at column 4 in \"1238z\"",
                 id="8z"),
    pytest.param("9z", NotationError, "'9z' is not an honor (1-7z are E S W N C F P) at column 1 in \"9z\"",
                 id="9z"),
    pytest.param("123m [456p", NotationError, "unclosed '[' at column 6 in \"123m [456p\"", id="unclosed_bracket"),
    pytest.param("{EEEE", NotationError, "unclosed '{' at column 1 in \"{EEEE\"", id="unclosed_brace"),
    pytest.param("123m [] 4m", NotationError, "empty meld at column 6 in \"123m [] 4m\"", id="empty_bracket"),
    pytest.param("{}", NotationError, "empty meld at column 1 in \"{}\"", id="empty_brace"),
    pytest.param("123m]", NotationError, "']' without its opening bracket at column 5 in \"123m]\"",
                 id="closing_without_opening"),
    pytest.param("[123m} 456p", NotationError,
                 "'}' closes the '[' at column 1, which needs ']' at column 6 in \"[123m} 456p\"", id="mismatched_bracket"),
    pytest.param("123m456p789s EE 4m +56m", NotationError,
                 "'+' marks one winning tile, but 2 digits follow it (write +5m) at column 20 in \"123m456p789s EE 4m +56m\"",
                 id="plus_before_two_digits"),
    pytest.param("[[123m]]", NotationError, "'[' inside an open meld at column 2 in \"[[123m]]\"", id="nested_meld"),
    pytest.param("[124m] 1m", NotationError,
                 "[1m 2m 4m] is not a set (a chow, pung or kong) at column 1 in \"[124m] 1m\"", id="meld_not_a_set"),
    pytest.param("[ESW]", NotationError, "[E S W] is not a set (a chow, pung or kong) at column 1 in \"[ESW]\"",
                 id="no_honor_chow"),
    pytest.param("[891m]", NotationError, "[1m 8m 9m] is not a set (a chow, pung or kong) at column 1 in \"[891m]\"",
                 id="no_wrap_around_chow"),
    pytest.param("[11m]", NotationError, "[1m 1m] is not a set (a chow, pung or kong) at column 1 in \"[11m]\"",
                 id="pair_is_no_meld"),
    pytest.param("{555p}", NotationError,
                 "{5p 5p 5p} is not a concealed kong (four identical tiles) at column 1 in \"{555p}\"",
                 id="concealed_pung"),
    pytest.param("[1m*1m]", NotationError,
                 "a wildcard '*' cannot be in a meld: write the tile it stands for at column 4 in \"[1m*1m]\"",
                 id="wild_in_meld"),
    pytest.param("123m456p789s EE 45m +6m +7m", NotationError,
                 "more than one '+' (one winning tile per hand) at column 25 in \"123m456p789s EE 45m +6m +7m\"",
                 id="two_plus"),
    pytest.param("123m456p789s EE 45m ++6m", NotationError,
                 "more than one '+' (one winning tile per hand) at column 22 in \"123m456p789s EE 45m ++6m\"",
                 id="double_plus"),
    pytest.param("123m456p789s EE 456m +", NotationError,
                 "'+' with no tile after it at column 22 in \"123m456p789s EE 456m +\"", id="plus_at_end"),
    pytest.param("123m456p789s E 45m +[EEE]", NotationError,
                 "'+' must be followed by a tile, not a meld at column 20 in \"123m456p789s E 45m +[EEE]\"",
                 id="plus_before_meld"),
    pytest.param("[111m+] 222p 333s EEE 99m", NotationError,
                 "'+' inside a meld at column 6 in \"[111m+] 222p 333s EEE 99m\"", id="plus_inside_meld"),
    pytest.param("4\n56p", NotationError,
                 "digits '4' without a suit letter (m, p, s or z) at column 1 in \"4\\n56p\"",
                 id="newline_quoted_escaped"),
    pytest.param("1m\x1b[31m", NotationError, "unknown character '\\x1b' at column 3 in \"1m\\x1b[31m\"",
                 id="control_character_escaped"),
    pytest.param("", NotationError, "empty hand: write tiles like 123m456p789s EE 45m +6m", id="empty"),
    pytest.param(" \t ", NotationError, "empty hand: write tiles like 123m456p789s EE 45m +6m", id="blank"),
    pytest.param("123m456p789s EE 4m", HandError,
                 "12 tiles: 123m 456p 789s EE 4m — a hand has 13 (to find waits) or 14 (to score)", id="too_few"),
    pytest.param("1m", HandError, "1 tile: 1m — a hand has 13 (to find waits) or 14 (to score)", id="one_tile"),
    pytest.param("123m456p789s EE 45m 67m", HandError,
                 "15 tiles: 123m 456p 789s EE 45m 67m — a hand has 13 (to find waits) or 14 (to score)",
                 id="too_many"),
    pytest.param("[111m] [222m] [333m] [444m] [555m]", HandError,
                 "15 tiles: [111m] [222m] [333m] [444m] [555m] (a meld counts 3: 15 in melds + 0) — a hand has 13 "
                 "(to find waits) or 14 (to score)", id="too_many_melds"),
    pytest.param("123m456p789s EE 4m +6m", HandError,
                 "13 tiles with a '+' winning tile: 123m 456p 789s EE 4m +6m — a hand to score has 14 (drop the '+' "
                 "to find waits)", id="plus_on_13_tiles"),
    pytest.param("11111m 456p 789s EE", HandError, "5 copies of 1m: there are only 4 of each tile", id="fifth_copy"),
    pytest.param("[EEEE] 123m 456p 789s 1m +E", HandError, "5 copies of E: there are only 4 of each tile",
                 id="fifth_copy_with_meld"),
]


@pytest.mark.parametrize("text, kind, message", ERRORS)
def test_errors(text, kind, message):
    with pytest.raises(kind) as info:
        parse_hand(text)
    assert str(info.value) == message
    assert len(message.splitlines()) == 1


def test_absurdly_long_input_is_answered_at_once():
    assert len("1m" * 100) == MAX_INPUT
    with pytest.raises(HandError):  # 200 characters are read (and are 100 tiles)
        parse_hand("1m" * 100)
    start = time.process_time()  # CPU seconds: a loaded machine must not fail the bound
    with pytest.raises(NotationError) as info:
        parse_hand("123m " * 2_000_000)
    assert time.process_time() - start < 0.5
    assert str(info.value) == "input too long: 10000000 characters (a hand is at most 200)"
    with pytest.raises(NotationError) as info:
        parse_hand("1" * 201)
    assert str(info.value) == "input too long: 201 characters (a hand is at most 200)"


def test_errors_are_mjcalc_errors():
    assert issubclass(NotationError, MjcalcError) and issubclass(HandError, MjcalcError)
    assert issubclass(MjcalcError, ValueError)


# --- properties ------------------------------------------------------------------------------------------------

ALPHABET = list("0123456789mpszESWNCFPeswncfpx*+[]{} \t") + list("一二三四五六七八九万萬筒饼餅条條索东南西北中发白東發") \
    + [chr(c) for c in range(0x1F000, 0x1F02C)]


@settings(max_examples=600, deadline=None)
@given(st.one_of(st.text(alphabet=ALPHABET, max_size=40), st.text(max_size=30)))
def test_random_text_raises_only_mjcalc_errors(text):
    try:
        hand = parse_hand(text)
    except MjcalcError as exc:
        assert len(str(exc).splitlines()) == 1, "one line"
        return
    assert parse_hand(format_hand(hand)) == hand


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.large_base_example])
@given(notation_hands())
def test_valid_hands_round_trip(hand):
    text = format_hand(hand)
    assert parse_hand(text) == hand
    assert format_hand(parse_hand(text)) == text
    assert eval(repr(hand), {"parse_hand": parse_hand}) == hand


@pytest.mark.parametrize("text, seat, canonical", [
    ("[5555p]W 123m 789s 234s 5m +5m", "W", "1235m 234789s [5555p]W +5m"),
    ("123m [EEE]N 456p 789s 5m +5m", "N", "1235m 456p 789s [EEE]N +5m"),
    ("[123m]S 456p 789s 234s 5m +5m", "S", "5m 456p 234789s [123m]S +5m"),
])
def test_a_seat_after_an_exposed_meld_is_whom_it_was_claimed_from(text, seat, canonical):
    hand = parse_hand(text)
    assert hand.melds[0].claimed_from == seat and hand.melds[0].exposed
    assert str(hand) == canonical and parse_hand(str(hand)) == hand


def test_a_seat_letter_after_a_space_is_a_loose_tile():
    hand = parse_hand("[EEE] E 123m 456p 78s 5m +5m")
    assert hand.melds[0].claimed_from == "" and 27 in hand.concealed
    claimed = parse_hand("[EEE]E 123m 456p 789s 5m +5m")
    assert claimed.melds[0].claimed_from == "E" and 27 not in claimed.concealed
    assert parse_hand("[5555p]W 123m 789s 234s 5m +5m") != parse_hand("[5555p] 123m 789s 234s 5m +5m")


def test_a_concealed_kong_takes_no_seat():
    hand = parse_hand("{EEEE}S 123m 456p 78s 5m +5m")
    assert hand.melds[0].concealed and hand.melds[0].claimed_from == "" and 28 in hand.concealed


def test_flowers_are_set_aside_beside_the_hand_and_read_back():
    """f1-f8 (or their glyphs) anywhere: never among the 13 or 14 tiles, written last, sorted."""
    hand = parse_hand("f2 123m 456p 789s EE 45m \U0001F029 +6m")
    assert hand.flowers == (2, 8) and hand.size == 14 and str(hand) == "12345m 456p 789s EE +6m f2 f8"
    assert parse_hand(str(hand)) == hand and parse_hand(hand.text(glyphs=True)) == hand
    assert parse_hand("1112345678999m f3").flowers == (3,)  # 13 tiles and a flower: the waits


@pytest.mark.parametrize("args, words", [
    (["analyze", "123m 456p 789s EE 45m +6m f1"], "Error: hand: beijing's wall has no flowers (f1-f8): leave them out"),
    (["waits", "1112345678999m f1", "-r", "zhuji"], "Error: hand: zhuji's wall has no flowers (f1-f8)"),
])
def test_a_flower_where_the_wall_has_none_is_one_line(args, words):
    from click.testing import CliRunner

    from mjcalc.cli import cli
    said = CliRunner().invoke(cli, args)
    assert said.exit_code in (1, 2) and words in said.output and "Traceback" not in said.output, said.output
