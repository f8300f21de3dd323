"""Issue 24, items 6 and 7: bounds the tiles set (kongs a seat, flown 宝 in the tiles left) and ruleset checks that
let a typo through (a pattern excluding itself or a cycle of exclusions, YAML 1.1 numbers, a house file taking a
built-in's id, 红 beside 中). Every figure is worked by hand in the comment beside it."""
import json
import textwrap

import pytest
from click.testing import CliRunner

from mjcalc.analysis import waits as hand_waits
from mjcalc.cli import cli
from mjcalc.errors import NotationError, RulesetError
from mjcalc.notation import parse_hand
from mjcalc.ruleset import BUILTIN_DIR, builtin_paths, load_ruleset, load_ruleset_file
from mjcalc.situation import Situation
from mjcalc.tiles import NAMES

WIN = "123m456p789s123p 5s +5s"  # 平糊自摸 2 with 宝 9m (no 宝 held): E wins, each other pays 2
READY = "123m456p789s123p 5s"  # waits on 5s (a natural pair) and on the 宝 (宝吊: 5s and a 宝)


def run(*args, db=None):
    argv = list(args) + (["--db", str(db)] if db is not None else [])
    result = CliRunner().invoke(cli, argv)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def kongs(spec, n):
    return [arg for _ in range(n) for arg in ("--kong", spec)]


def write(tmp_path, text, name="house.yaml"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def refused(tmp_path, monkeypatch, text, name="house.yaml"):
    """The one line `rulesets check` prints for the file (exit 1), as load_ruleset_file says it."""
    monkeypatch.chdir(tmp_path)
    write(tmp_path, text, name)
    with pytest.raises(RulesetError) as info:
        load_ruleset_file(name)
    result = run("rulesets", "check", name)
    assert result.exit_code == 1 and result.stderr == f"Error: {info.value}\n", result.output
    return str(info.value)


# --- item 6: kongs a seat ----------------------------------------------------------------------------------


def test_five_kongs_of_one_seat_are_refused():
    result = run("analyze", WIN, "-r", "shangrao", "--wild", "9m", *kongs("S:concealed", 5))
    assert result.exit_code == 2
    assert result.stderr == ("Error: --kong: S has 5 kongs, but a hand holds at most 4 (four sets and a pair; "
                             "sixteen at the table in all)\n")


def test_thirty_kongs_are_refused_not_paid():
    result = run("analyze", WIN, "-r", "shangrao", "--wild", "9m", *kongs("S:concealed", 30), "--json")
    assert result.exit_code == 2 and "S has 30 kongs" in result.stderr and "+170" not in result.stdout


def test_four_kongs_a_seat_for_each_other_seat_are_paid():
    # 12 concealed kongs, 2 each from each of the three others: every konger +4·2·3 = 24 and pays 2·8 = 16 to
    # the two other kongers: net +8 in 杠分; E pays 2·12 = 24. The hand part: E +6, each other −2.
    args = kongs("S:concealed", 4) + kongs("W:concealed", 4) + kongs("N:concealed", 4)
    result = run("analyze", WIN, "-r", "shangrao", "--wild", "9m", *args, "--json")
    assert result.exit_code == 0, result.output
    parts = {p["name"]: p["payouts"] for p in json.loads(result.stdout)["payout_parts"]}
    assert parts["杠分"] == {"E": -24, "S": 8, "W": 8, "N": 8}
    assert json.loads(result.stdout)["payouts"] == {"E": -18, "S": 6, "W": 6, "N": 6}


def test_four_kongs_of_one_seat_are_the_bound_exposed_and_concealed_alike():
    args = kongs("N:exposed", 2) + kongs("N:concealed", 2)
    assert run("analyze", WIN, "-r", "shangrao", "--wild", "9m", *args).exit_code == 0
    result = run("analyze", WIN, "-r", "shangrao", "--wild", "9m", *args, "--kong", "N:exposed")
    assert result.exit_code == 2 and "N has 5 kongs" in result.stderr


def test_a_table_hand_with_five_kongs_of_a_player_is_refused_and_nothing_recorded(tmp_path):
    db = tmp_path / "t.sqlite3"
    seats = ["--seat", "E=a", "--seat", "S=b", "--seat", "W=c", "--seat", "N=d"]
    assert run("table", "new", "s", "-r", "shangrao", *seats, db=db).exit_code == 0
    for entry in ([WIN, "--wild", "9m"], ["--points", "2"]):
        result = run("table", "hand", "s", *entry, "--winner", "b", *kongs("a:concealed", 5), db=db)
        assert result.exit_code == 2 and "a (E) has 5 kongs, but a hand holds at most 4" in result.stderr, result.output
    assert run("table", "hand", "s", "--points", "2", "--winner", "b", *kongs("a:concealed", 4), db=db).exit_code == 0
    shown = run("table", "show", "s", "--json", db=db)
    assert shown.exit_code == 0 and len(json.loads(shown.stdout)["hands"]) == 1


# --- item 6: flown 宝 in the tiles left ---------------------------------------------------------------------


def left(hand, *options):
    result = run("analyze", hand, "-r", "shangrao", "--json", *options)
    assert result.exit_code == 0, result.output
    return {w["tile"]: w["left"] for w in json.loads(result.stdout)["waits"]}


def test_flown_bao_are_not_left():
    # 宝 9m: none held; 3 flown by the winner leave 1 of 4; 5s: one held, 3 left (flown 宝 are 9m, not 5s).
    assert left(READY, "--wild", "9m") == {"9m": 4, "5s": 3}
    assert left(READY, "--wild", "9m", "--flown", "3") == {"9m": 1, "5s": 3}
    assert left(READY, "--wild", "9m", "--flown", "1", "--flown-by", "S=2", "--flown-by", "W=1") == {"9m": 0, "5s": 3}


def test_the_bao_held_and_flown_leave_none():
    # 宝 5s: one held, three flown: no 5s can come (the "3 left shown when none can come").
    got = left(READY, "--wild", "5s", "--flown", "3")  # a 宝吊: every tile wins, and those with none left go unlisted
    assert got.get("5s", 0) == 0 and got["1m"] == 3 and got["9m"] == 4


def test_a_flown_bao_also_written_as_seen_is_counted_once():
    # Flown 宝 are discards, so --seen may list them too: the tiles gone are the larger count, not the sum.
    assert left(READY, "--wild", "9m", "--flown", "2", "--seen", "9m")["9m"] == 2
    assert left(READY, "--wild", "9m", "--flown", "1", "--seen", "9m 9m 9m")["9m"] == 1


def test_the_library_waits_take_flown_bao_off():
    situation = Situation(wild=(NAMES.index("9m"),), extras=(("flown", 3),))
    found = dict(hand_waits(parse_hand(READY), load_ruleset("shangrao"), situation))
    assert found == {NAMES.index("9m"): 1, NAMES.index("5s"): 3}


# --- item 7: exclusions -----------------------------------------------------------------------------------


def test_a_pattern_excluding_itself_is_refused(tmp_path, monkeypatch):
    text = "extends: beijing\nid: h\npatterns:\n  dealer: {value: 1, excludes: [dealer]}\n"
    assert refused(tmp_path, monkeypatch, text) == (
        "house.yaml:4: patterns.dealer.excludes: 'dealer' excludes itself, so it would never be scored")


def test_a_pattern_excluded_by_itself_is_refused(tmp_path, monkeypatch):
    text = "extends: beijing\nid: h\npatterns:\n  dealer:\n    value: 1\n    excluded_by: [dealer]\n"
    assert refused(tmp_path, monkeypatch, text) == (
        "house.yaml:6: patterns.dealer.excluded_by: 'dealer' excludes itself, so it would never be scored")


def test_two_patterns_excluding_each_other_are_refused(tmp_path, monkeypatch):
    text = ("extends: beijing\nid: h\npatterns:\n  dealer: {value: 1, excludes: [sea_bottom]}\n"
            "  sea_bottom: {value: 1, excludes: [dealer]}\n")
    assert refused(tmp_path, monkeypatch, text) == (
        "house.yaml:4: patterns.dealer.excludes: dealer → sea_bottom → dealer: patterns that exclude one another "
        "are all dropped when they match together; keep one direction")


def test_a_longer_cycle_through_excluded_by_is_refused_where_this_file_closes_it(tmp_path, monkeypatch):
    # dealer excludes sea_bottom; sea_bottom excludes catch_five (written as catch_five's excluded_by);
    # catch_five excludes dealer.
    text = ("extends: beijing\nid: h\npatterns:\n  dealer: {value: 1, excludes: [sea_bottom]}\n"
            "  catch_five:\n    value: 1\n    excludes: [dealer]\n    excluded_by: [sea_bottom]\n")
    message = refused(tmp_path, monkeypatch, text)
    assert message.startswith("house.yaml:") and " → " in message
    assert {"dealer", "sea_bottom", "catch_five"} <= set(message.split(": ")[2].replace(" → ", " ").split())


def test_a_cycle_half_written_by_the_file_extended_is_refused_at_this_files_line(tmp_path, monkeypatch):
    # beijing.yaml has heavenly excludes dealer; the house file adds dealer excludes heavenly.
    text = "extends: beijing\nid: h\npatterns:\n  dealer: {value: 1, excludes: [heavenly]}\n"
    assert refused(tmp_path, monkeypatch, text) == (
        "house.yaml:4: patterns.dealer.excludes: dealer → heavenly → dealer: patterns that exclude one another "
        "are all dropped when they match together; keep one direction")


def test_a_chain_of_exclusions_is_no_cycle(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "extends: beijing\nid: h\npatterns:\n  dealer: {value: 1, excludes: [sea_bottom]}\n"
                    "  sea_bottom: {value: 1, excludes: [catch_five]}\n")
    assert load_ruleset_file("house.yaml").pattern("dealer").excludes == ("sea_bottom",)


# --- item 7: YAML 1.1 numbers -----------------------------------------------------------------------------


@pytest.mark.parametrize("written", ["1:30", "0x2710", "1_0_0_0_0", "0b11", "0o17", "+0x10"])
def test_a_yaml_1_1_number_is_not_a_whole_number(tmp_path, monkeypatch, written):
    text = f"extends: beijing\nid: h\npatterns:\n  seven_pairs: {{value: {written}}}\n"
    assert refused(tmp_path, monkeypatch, text) == (
        f"house.yaml:4: patterns.seven_pairs.value: '{written}' is not a whole number: write it in decimal "
        "digits (0x…, 1:30 and 1_000 are read as text)")


def test_an_explicit_int_tag_takes_decimal_digits_only(tmp_path, monkeypatch):
    text = "extends: beijing\nid: h\npatterns:\n  seven_pairs: {value: !!int 0x10}\n"
    assert refused(tmp_path, monkeypatch, text) == (
        "house.yaml:4: '0x10' is not a whole number: write it in decimal digits")


def test_decimal_numbers_read_as_yaml_1_2_does(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "extends: beijing\nid: h\npatterns:\n  seven_pairs: {value: 010}\n  dealer: {value: +2}\n")
    rules = load_ruleset_file("house.yaml")
    assert rules.pattern("seven_pairs").value == 10 and rules.pattern("dealer").value == 2  # not octal 8


def test_a_sexagesimal_name_stays_the_text_written(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "extends: beijing\nid: h\nname: 1:30\ndescription: 1_000\n")
    rules = load_ruleset_file("house.yaml")
    assert (rules.zh, rules.description) == ("1:30", "1_000")


def test_a_situation_file_number_in_hex_is_refused(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "flown: 0x1\n", "s.yaml")
    result = run("analyze", WIN, "-r", "shangrao", "--wild", "9m", "--situation", "s.yaml")
    assert result.exit_code == 2 and "expected a whole number, got '0x1'" in result.stderr, result.output


# --- item 7: a house file's id ----------------------------------------------------------------------------


def test_a_house_file_may_not_take_a_built_in_id(tmp_path, monkeypatch):
    text = "extends: beijing\nid: beijing\npatterns:\n  seven_pairs: {value: 9}\n"
    assert refused(tmp_path, monkeypatch, text, "beijing.yaml") == (
        "beijing.yaml:2: id: 'beijing' is the built-in ruleset beijing's name: give this file an id of its own "
        "(e.g. beijing-house)")


def test_a_house_file_may_not_take_a_built_in_alias(tmp_path, monkeypatch):
    assert refused(tmp_path, monkeypatch, "extends: shangrao\nid: sr\n") == (
        "house.yaml:2: id: 'sr' is the built-in ruleset shangrao's name: give this file an id of its own "
        "(e.g. sr-house)")


@pytest.mark.parametrize("written, why", [
    ("b\u0435ijing", "'\u0435' (U+0435) is not ASCII; "),  # a Cyrillic е: it looks like beijing
    ("北京", "'北' (U+5317) is not ASCII; "),
    ("Beijing", ""),
    ("my house", ""),
    ("-x", ""),
])
def test_an_id_is_ascii_lower_case_letters_digits_dash_and_underscore(tmp_path, monkeypatch, written, why):
    assert refused(tmp_path, monkeypatch, f"extends: beijing\nid: '{written}'\n") == (
        f"house.yaml:2: id: '{written}' is not an id: {why}write lower-case ASCII letters, digits, '-' and '_' "
        "(e.g. my-house)")


def test_a_house_file_without_an_id_of_its_own_is_refused(tmp_path, monkeypatch):
    assert refused(tmp_path, monkeypatch, "extends: beijing-money\npatterns:\n  seven_pairs: {value: 9}\n") == (
        "house.yaml:1: id: this file extends beijing-money and names no id of its own: add one "
        "(e.g. id: beijing-money-house)")


def test_house_ids_that_are_not_built_in_load(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for rid in ("my-house", "beijing2", "friday_rules", "h"):
        write(tmp_path, f"extends: beijing\nid: {rid}\n")
        assert load_ruleset_file("house.yaml").id == rid


def test_a_built_in_file_keeps_its_own_id():
    for path in builtin_paths():
        assert path.parent == BUILTIN_DIR and load_ruleset_file(path).id == load_ruleset(path.stem).id


# --- item 7: 红 beside 中 -----------------------------------------------------------------------------------


@pytest.mark.parametrize("text, column, written", [
    ("中红中 123m456p789s 5m5m", 1, "中红中"),
    ("123m456p789s 5m5m 红中中", 19, "红中中"),
    ("中红 中 123m456p789s 5m5m", 1, "中红"),
    ("红红中 123m456p789s 5m5m", 1, "红红中"),
    ("红中红 123m456p789s 5m5m", 1, "红中红"),
])
def test_red_beside_red_dragon_is_refused(text, column, written):
    with pytest.raises(NotationError) as info:
        parse_hand(text)
    assert str(info.value) == (f"'{written}' reads two ways (红 alone is 中): write 中中中 or 红中 红中"
                               f" at column {column} in \"{text}\"")


def test_red_beside_red_dragon_is_exit_2():
    result = run("analyze", "中红中 123m456p789s 5m5m")
    assert result.exit_code == 2 and "write 中中中 or 红中 红中" in result.stderr


@pytest.mark.parametrize("text", ["红中红中红中 123m456p789s 5m5m", "红红红 123m456p789s 5m5m", "中中中 123m456p789s 5m5m",
                                  "紅中紅中紅中 123m456p789s 5m5m", "红中 红中 红中 123m456p789s 5m5m", "CCC 123m456p789s 5m5m"])
def test_red_dragon_written_one_way_reads_three(text):
    assert parse_hand(text) == parse_hand("CCC 123m456p789s 5m5m")
