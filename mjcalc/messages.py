"""Every message mjcalc says to a user, in one table: an id, its English text, its parameters.

An error or a notice is made from an id and named parameters, never from a sentence built where it is raised::

    raise HandError("hand.fifth_copy", count=5, tile="3m")

The table gives the words (`EN`, and `ZH` where a Chinese text has been written: a missing one falls back to
English). A parameter is plain data (a string, a number, a list of strings) or another `Message`, put into words
in the same language. So a front end can say a message in its own language from the id, name the field its own
way (the CLI by its flag, the API as data: `{"error", "code", "field", "params"}`), and two front ends can be
checked to refuse the same input with the same id.

The helpers every message shares live here and nowhere else: `shown` (a value quoted as given, cut at 40
characters), `escaped` (text as written, its control characters escaped), `did_you_mean` (the closest known
word, or nothing) and `worded` (a field's name before its message).
"""
from typing import Any, Dict, Iterable, Mapping, Optional, Union

LANGS = ("en", "zh")


class Message:
    """An id and its parameters: what a message says, before it is put into words."""

    __slots__ = ("code", "params")

    def __init__(self, code: str, **params: Any):
        if code not in EN:
            raise KeyError(f"no message {code!r} in messages.EN")
        self.code = code
        self.params = params

    def text(self, lang: str = "en") -> str:
        return text(self.code, self.params, lang)

    def json(self) -> Dict[str, Any]:
        return {"code": self.code, "params": params_json(self.params)}

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"Message({self.code!r}, {self.params!r})"


Words = Union[str, Message]


def text(code: str, params: Optional[Mapping[str, Any]] = None, lang: str = "en") -> str:
    """The message `code` in `lang`, its parameters filled in. A message is said in one language: in English
    when its text, or the text of a message nested in it, is not written in `lang` yet."""
    if lang == "zh" and not _written_in_zh(code, params or {}):
        lang = "en"
    template = ZH.get(code, EN[code]) if lang == "zh" else EN[code]
    if not params:
        return template
    return template.format_map({k: _worded_value(v, lang) for k, v in params.items()})


def _written_in_zh(code: str, params: Mapping[str, Any]) -> bool:
    def nested(value: Any) -> bool:
        if isinstance(value, Message):
            return _written_in_zh(value.code, value.params)
        return all(nested(v) for v in value) if isinstance(value, (list, tuple)) else True
    return (code in ZH or _wordless(code)) and all(nested(v) for v in params.values())


def _wordless(code: str) -> bool:
    """A template of parameters and punctuation alone ("{where}: {reason}") reads the same in every language."""
    import string  # only when a message is said in another language (start-up time)
    return not any(ch.isalpha() for literal, _, _, _ in string.Formatter().parse(EN[code]) for ch in literal)


def _worded_value(value: Any, lang: str) -> Any:
    if isinstance(value, Message):
        return value.text(lang)
    if isinstance(value, (list, tuple)):
        return ", ".join(str(_worded_value(v, lang)) for v in value)
    return value


def params_json(params: Mapping[str, Any]) -> Dict[str, Any]:
    """The parameters as JSON data: a nested message is `{"code", "params"}`, a tuple a list."""
    def data(value: Any) -> Any:
        if isinstance(value, Message):
            return value.json()
        if isinstance(value, (list, tuple)):
            return [data(v) for v in value]
        return value if value is None or isinstance(value, (str, int, float, bool)) else str(value)
    return {k: data(v) for k, v in params.items()}


def shown(value: Any, limit: int = 40) -> str:
    """A value as given, quoted (its `repr`), cut to `limit` characters with '…'."""
    written = repr(value)
    return written if len(written) <= limit else written[:limit - 3] + "…"


def escaped(text: str) -> str:
    """Text quoted in a one-line message as written: line breaks and control characters escaped (`\\n`, `\\x1b`)."""
    import unicodedata  # only when a message is written (start-up time)
    return "".join(
        ch.encode("unicode_escape").decode("ascii") if unicodedata.category(ch) in ("Cc", "Zl", "Zp") else ch
        for ch in text
    )


def did_you_mean(word: Any, choices: Iterable[str]) -> Words:
    """" (did you mean 'x'?)" with the known word closest to a mistyped one, or "" when none is close."""
    import difflib  # only when a message needs it (start-up time)
    close = difflib.get_close_matches(str(word), list(choices), n=1)
    return Message("hint.did_you_mean", word=close[0]) if close else ""


def worded(name: Optional[str], detail: str) -> str:
    """A field's name before its message: `bid is not used …` (a message that starts with "is"), else `bid: …`;
    the message alone when there is no name."""
    if not name:
        return detail
    return f"{name}{' ' if detail.startswith('is ') else ': '}{detail}"


def message_lang(given: Optional[str] = None) -> str:
    """The language messages are said in: `given` (a `--lang` the user typed), else $MJCALC_LANG, else English."""
    import os  # only when a front end asks (start-up time)
    for lang in (given, os.environ.get("MJCALC_LANG", "").strip().lower()[:2]):
        if lang in LANGS:
            return lang
    return "en"


# --- the table -------------------------------------------------------------------------------------------------
# Ids are `area.what`. A template names its parameters in braces; `{at}`, `{hint}` and the like are nested
# messages (or "" when there is nothing to add). Keep each text one line, in the words of the game.

EN: Dict[str, str] = {
    # hints shared by every area
    "hint.did_you_mean": " (did you mean '{word}'?)",
    "hint.known": " (known: {known})",
    # --- notation: reading a hand ---
    "notation.at": " at column {column} in \"{text}\"",
    "notation.unclosed": "unclosed '{bracket}'{at}",
    "notation.plus_alone": "'+' with no tile after it{at}",
    "notation.no_suit": "digits '{written}' without a suit letter (m, p, s or z){at}",
    "notation.zero": "'0' is not a rank (ranks are 1-9){at}",
    "notation.unknown_suit": "unknown suit letter '{letter}' after '{written}' (suits are m p s z, or 万 筒 条){at}",
    "notation.lower_honor": "unknown character '{char}' (winds and dragons are upper case: E S W N C F P){at}",
    "notation.flower": "flower and season tiles are not used ('{char}'){at}",
    "notation.unknown_char": "unknown character '{char}'{at}",
    "notation.suit_alone": "suit letter '{letter}' without digits before it{at}",
    "notation.plus_many": "'+' marks one winning tile, but {count} digits follow it (write +{first}{letter}){at}",
    "notation.bad_honor": "'{digit}z' is not an honor (1-7z are E S W N C F P){at}",
    "notation.plus_in_meld": "'+' inside a meld{at}",
    "notation.wild_in_meld": "a wildcard '*' cannot be in a meld: write the tile it stands for{at}",
    "notation.inside_meld": "'{char}' inside an open meld{at}",
    "notation.plus_meld": "'+' must be followed by a tile, not a meld{at}",
    "notation.no_opening": "'{char}' without its opening bracket{at}",
    "notation.wrong_close": "'{char}' closes the '{opened}' at column {opened_at}, which needs '{needs}'{at}",
    "notation.empty_meld": "empty meld{at}",
    "notation.plus_twice": "more than one '+' (one winning tile per hand){at}",
    "notation.not_concealed_kong": "{{{written}}} is not a concealed kong (four identical tiles){at}",
    "notation.not_a_set": "[{written}] is not a set (a chow, pung or kong){at}",
    "notation.red_mixed": "'{written}' reads two ways (红 alone is 中): write 中中中 or 红中 红中{at}",
    "notation.too_long": "input too long: {length} characters (a hand is at most {limit})",
    "notation.empty": "empty hand: write tiles like 123m456p789s EE 45m +6m",
    # --- hand: a hand that reads but cannot be played ---
    "hand.size": "{size} tile{plural}: {read}{counted} — {why}",
    "hand.why_rule": "a hand has 13 (to find waits) or 14 (to score)",
    "hand.why_plus": "the winning tile +{tile} is one of the 14: write 13 before it",
    "hand.melds_count": " (a meld counts 3: {melds} in melds + {rest})",
    "hand.kongs_count": " (a meld counts 3, a kong too: {melds} in melds + {rest})",
    "hand.plus_on_13": "13 tiles with a '+' winning tile: {read}{counted} — a hand to score has 14 (drop the '+' to find waits)",
    "hand.no_concealed_win": "a 14-tile hand needs a concealed winning tile",
    "hand.fifth_copy": "{count} copies of {tile}: there are only 4 of each tile",
    # --- seats ---
    "seat.expected": "expected a seat E, S, W or N (东 南 西 北), got {value}",
    # --- rulesets and their files, payouts, scoring, the glossary ---
    # ruleset.py: a ruleset file's key, placed at its file, line and path
    "ruleset.at": "{where}: {path}: {problem}",
    "ruleset.nowhere": "ruleset",
    "ruleset.top": "(top)",
    "ruleset.none": "none",
    "ruleset.unknown_key": "unknown key{hint}",
    "ruleset.missing_key": "missing required key '{key}'",
    "ruleset.id_not_own": "this file extends {parent} and names no id of its own: add one (e.g. id: {parent}-house)",
    "ruleset.id_not_ascii": "{value} is not an id: '{char}' (U+{point}) is not ASCII; write lower-case ASCII letters, digits, '-' and '_' (e.g. my-house)",
    "ruleset.id_form": "{value} is not an id: write lower-case ASCII letters, digits, '-' and '_' (e.g. my-house)",
    "ruleset.id_builtin": "{value} is the built-in ruleset {builtin}'s name: give this file an id of its own (e.g. {own})",
    "ruleset.expected_int": "expected an integer, got {value}",
    "ruleset.not_decimal": "{value} is not a whole number: write it in decimal digits (0x…, 1:30 and 1_000 are read as text)",
    "ruleset.expected_bool": "expected true or false, got {value}",
    "ruleset.expected_text": "expected text, got {value}",
    "ruleset.expected_list": "expected a list, got {value}",
    "ruleset.expected_mapping": "expected a mapping, got {value}",
    "ruleset.expected_choice": "expected one of {choices}, got {value}{hint}",
    "ruleset.out_of_range": "must be from {minimum} to {maximum}, got {value}",
    "ruleset.below_minimum": "must be at least {minimum}, got {value}",
    "ruleset.invisible_char": "holds an invisible or control character ({char}): {value}",
    "ruleset.expected_names": "expected a list of names, got {value} in it",
    "ruleset.expected_name": "expected text or a mapping with zh and en, got {value}",
    "ruleset.unknown_scheme": "unknown payout scheme{hint}",
    "ruleset.unknown_shape": "unknown shape {shape}{hint}",
    "ruleset.no_shape": "at least one shape is needed",
    "ruleset.cap_below_minimum": "the cap {cap} is below the minimum {minimum}",
    "ruleset.unknown_pattern": "unknown pattern{hint}",
    "ruleset.pattern_not_mapping": "expected a mapping with a value, got {value}",
    "ruleset.penalty_not_mapping": "expected a mapping with points or total, got {value}",
    "ruleset.penalty_amount": "needs one of points (an amount) or total (a hand's total in the ruleset's unit)",
    "ruleset.names_no_pattern": "names {name}, which this ruleset does not have{hint}",
    "ruleset.excludes_itself": "{name} excludes itself, so it would never be scored",
    "ruleset.exclusion_cycle": "{cycle}: patterns that exclude one another are all dropped when they match together; keep one direction",
    "ruleset.robbable_kong": "expected any, never or a pattern of this ruleset (the one the robbed tile must complete), got {value}",
    "ruleset.not_an_option": "{name} is not an option of region {region}{hint}",
    "ruleset.its_options": " (its options: {options})",
    "ruleset.extends_not_name": "expected a ruleset name, got {value}",
    "ruleset.extends_cycle": "a cycle through {name}",
    "ruleset.extends_too_long": "more than {limit} files extend one another; write a shorter chain",
    "ruleset.no_file": "no ruleset file {name}",
    "ruleset.unknown": "unknown ruleset {name}{hint}; built-in: {known}",
    # yamlfile.py: a YAML file refused before it is used
    "yaml.at_line": "{file}:{line}",
    "yaml.refused": "{where}: {problem}",
    "yaml.ruleset_not_mapping": "{where}: a ruleset is a mapping of keys (id, name, patterns, …)",
    "yaml.file_refused": "{what} {where}: {problem}",
    "yaml.not_mapping": "{what} {where}: expected a mapping of fields, got {kind}",
    "yaml.kind_list": "a list",
    "yaml.kind_value": "a single value {value}",
    "yaml.key_not_plain": "a key must be a plain value",
    "yaml.key_twice": "{key}: a key written twice",
    "yaml.long_number": "a number of {digits} digits (at most {limit})",
    "yaml.not_whole_number": "'{value}' is not a whole number: write it in decimal digits",
    "yaml.cannot_read": "cannot read: {reason}",
    "yaml.too_large": "larger than {limit} KiB: not a file mjcalc reads",
    "yaml.not_utf8": "not UTF-8 text (byte 0x{byte})",
    "yaml.too_deep": "nested more than {limit} levels deep",
    "yaml.too_many_values": "more than {limit:,} values (each alias *name counted expanded)",
    "yaml.alias_loop": "an alias (*name) inside the value it names",
    "yaml.invalid": "not valid YAML: {problem}",
    "yaml.unreadable_value": "a value YAML cannot read: {problem}",
    # payouts.py
    "payout.part_too_large": "the {part} part pays more than {limit:,} to one seat: lower the base or the values",
    "payout.beyond_any_amount": "{what} pays 2^{exponent}, more than any amount (at most 2^{limit}): lower the values or the cap",
    "payout.unknown_param": "unknown parameter{hint}",
    "payout.missing_param": "missing required parameter",
    # regions/__init__.py: the list of regions
    "regions.needs_id": "a region needs an id",
    "regions.scheme_taken": "region {region}: payout scheme {scheme} is {other}'s already",
    "regions.option_clash": "region {region}: option {option} means something else in {other}",
    "regions.option_generic": "region {region}: option {option} is a generic situation field",
    "regions.built_in": "region {region} is built in",
    "regions.unknown": "unknown region {name}{hint}",
    # glossary.py
    "glossary.file": "the glossary",
    # scoring.py
    "scoring.fifth_copy": "{count} copies of {tile} (wildcards count as their face): there are only 4",
    "scoring.too_large": "the patterns add up to more than {limit:,} {unit}: lower the values or set scoring.cap",
    "scoring.capped": "the patterns add up to {uncapped} {unit}; {ruleset} caps a hand at {total}",
    "scoring.not_winning_shape": "not a winning shape",
    # --- the situation and its options, analysis, value, batch waits, the regions ---
    # situation.py: an option's value (the field named by its label, "wild (百搭): …")
    "option.whole_number": "expected a whole number, got {value}",
    "option.out_of_range": "must be from {minimum} to {maximum}, got {value}",
    "option.long_number": "a number of more than 12 digits",
    "option.true_or_false": "expected true or false, got {value}",
    "option.reason": "{reason}",  # another error's message, said about this field (a seat, a tile)
    "option.seat_given_twice": "{seat} is given twice; counted once",
    "option.seat_equals": "expected SEAT=N like S=2, got {value}",
    "option.seat_named_twice": "names {seat} twice; give each seat once",
    "option.seat_colon": "expected SEAT:{choices}, got {value}",
    "option.text": "expected text, got {value}",
    "option.tile_twice": "names the same tile twice",
    "option.tile_expected": "expected a tile like 5m or C, got {value}",
    "option.one_tile": "takes one tile like 5m or C, got {value}",
    # situation.py: a whole situation (from a file, the label is file:line)
    "situation.unknown_field": "unknown situation field {key}{hint}",
    "situation.self_drawn_and_from": "self_drawn (自摸) and from (点炮) contradict each other: choose one",
    # analysis.py
    "analysis.unknown_option": "unknown situation option {name}{hint}",
    "analysis.wildcard_not_in_play": "the hand has a wildcard '*', but no wildcards are in play {where}",
    "analysis.assumed_both": "assumed E, the dealer (give --seat and --dealer for another seat)",
    "analysis.assumed_seat": "assumed E; the dealer is {dealer} (give --seat)",
    "analysis.assumed_dealer": "assumed E; the hand is {seat}'s (give --dealer)",
    "analysis.seen_too_long": "input too long: {length} characters",
    "analysis.seen_reason": "{reason}",  # the notation's message about the seen tiles
    "analysis.seen_winning_tile": "'+' marks a winning tile; seen tiles have none",
    "analysis.seen_wildcard": "write a seen wildcard as its face (e.g. 5m), not '*'",
    "analysis.seen_too_many": "{held} {tile} in the hand and {seen} seen make {total}: there are only 4",
    # analysis.waits and batch.py
    "waits.need_13_tiles": "{size} tiles: waits need a 13-tile hand",
    # value.py
    "value.star_without_kind": "the hand holds a '*' but no wild kind is given: the wall's wildcards depend on it (give --wild or --indicator)",
    # regions/base.py: what every region checks
    "region.option_unused": "is not used by {ruleset}; ignored",
    "region.own_discard": "{seat} is the winner's own seat: a player cannot win on his own discard",
    "region.rob_needs_konger": "needs the player whose kong was robbed (--from SEAT)",
    "region.kong_draw_on_discard": "a win on one's own replacement draw cannot be on a discard (--from)",
    "region.dealer_first_turn_discard": "the dealer's first-turn win is his dealt hand, not a discard (--from)",
    "region.first_turn_with": "cannot go with {flag}",
    "region.indicator_against_wild": "{indicator} makes {after} wild, but wild says {wild}",
    "region.no_wild_kinds_one": "{ruleset} plays without wildcards, but {count} kind is named",
    "region.no_wild_kinds_many": "{ruleset} plays without wildcards, but {count} kinds are named",
    "region.too_many_wild_kinds": "{ruleset} has at most {most} {wild_zh} kind{plural}, but {count} are named",
    "region.in_ruleset": "in {ruleset}",
    "region.too_many_stars": "the hand holds {count} wildcards '*', but {ruleset} plays at most {kinds} {wild_zh} kind{plural} of 4 tiles: at most {most}",
    "region.kong_draws_no_kong": "{draws} kong replacement draw{plural} in a row, but the hand has no kongs",
    "region.kong_draws_few_kongs": "{draws} kong replacement draw{plural} in a row, but the hand has {kongs} kong{kongs_plural}",
    "region.first_turn_exposed": "a first-turn win has made no call, but the hand has an exposed meld",
    "region.dealer_first_turn_kong": "the dealer's first-turn win is his dealt hand: it has no declared kong",
    "region.claimed_from_winner": "{meld} says it was claimed from {seat}, the winner's own seat",
    "region.robbed_kong_held": "the robbed kong is of {tile}, whose other three copies the konger held, but the winner holds {more} more {tile}",
    "region.a_hand_of": "a hand of {total} {unit}",
    # regions/base.py: why a complete hand is not a legal win (a Score's reason)
    "region.no_discard_wins": "{ruleset} allows no discard wins: this hand must be self-drawn",
    "region.no_robbing": "{ruleset} allows no robbing a kong: this hand must be self-drawn",
    "region.rule_named": "{rule}: ",
    "region.exposed_no_discard": "{rule}a hand with an exposed meld (吃/碰/明杠) may not win on a discard; it must self-draw",
    "region.exposed_no_rob": "{rule}a hand with an exposed meld (吃/碰/明杠) may not rob a kong; it must self-draw",
    "region.wilds_on_discard": "a hand holding {count} {wild_zh} (more than {limit}) must self-draw",
    "region.zero_self_draw_only": "a hand worth 0 {unit} may only be won by self-draw",
    "region.below_minimum": "complete, but {total} {unit}: needs {minimum}",
    "region.below_minimum_of": "complete, but {total} {unit}: {who} needs {minimum}",
    # regions/beijing.py
    "beijing.mutual_own_seat": "{seat} is the winner's own seat",
    "beijing.rob_concealed_needs_rob": "robbing a concealed kong needs --rob-kong and --from the konger",
    "beijing.four_wilds_from_ignored": "{pattern} wins whatever the shape and is paid as a self-draw: --from {seat} is ignored",
    "beijing.rob_concealed_only_for": "a concealed kong may only be robbed to complete {pattern}",
    "beijing.rob_concealed_never": "{ruleset}: a concealed kong may not be robbed",
    "beijing.too_many_claims": "{ruleset}: a hand may claim at most {most} 吃 or 碰 (kongs do not count), this one "
                               "holds {count}: {melds}",
    "beijing.hui_on_wall_held": "{pattern} needs a hand without {wild}, but {count} are held: not counted",
    "beijing.hunr_you_not_drawn": "{pattern} needs a self-draw holding a {wild}: not counted",
    "beijing.kong_unclaimed": "明杠 {meld}: write from whom it was claimed, [{meld}]W; no kong money counted",
    # regions/zhuji.py
    "zhuji.unknown_bid": "unknown bid {bid}: write 2, du2 (独2), wucai2 (无财2), 3, … (level 2 to {most})",
    "zhuji.a_bid_of": "a bid of level {level}",
    "zhuji.wild_under_no_wild_bid": "a {bid} bid plays without 财神, but {wild} is named",
    "zhuji.bid_needs_one_wild": "a {bid} bid has 1 财神 kind: name the 包家's choice, e.g. 5m",
    "zhuji.bid_needs_two_wilds": "a {bid} bid has 2 财神 kinds: name the 包家's choice, e.g. 5m (5m and 6m)",
    "zhuji.one_wild_kind": "a {bid} bid has one 财神 kind, but {count} are named: {wild}",
    "zhuji.second_wild_follows": "a {bid} bid's second 财神 follows the first in the cycle: after {first} comes {after}, not {second}",
    "zhuji.two_wild_kinds": "a {bid} bid has two 财神 kinds, but {count} are named: {wild}",
    "zhuji.odd_half_hand": "{ruleset}: a discard win of {total} 台 has no whole H/2 = {hand}/2; the zhuji payout needs scoring.minimum 1 or more",
    "zhuji.no_indicator": "the 包家 chooses the 财神 and nothing is turned up: name them as the wild kinds",
    "zhuji.bidder_needs_bid": "names the 包家 of a bid: give the bid with --bid too",
    "zhuji.bid_needs_bidder": "{bid} needs --bidder SEAT, the 包家 who made it",
    "zhuji.under_bid": "under the bid {bid}",
    "zhuji.the_bidder": "the 包家",
    # regions/shangrao.py
    "shangrao.flown_by_winner": "{seat} is the winner's own seat: the winner's 飞宝 is flown",
    "shangrao.flown_too_many": "{total} 飞宝 in all (the winner's and the others'): there are only {most} 宝",
    "shangrao.kong_of_winner": "{seat} is the winner's own seat: write the winner's kongs in the hand as [XXXX] or {{XXXX}}",
    "shangrao.kongs_a_seat": "{seat} has {count} kongs, but a hand holds at most {most} (four sets and a pair; sixteen at the table in all)",
    "shangrao.no_bao_kind": "none",
    "shangrao.bao_held_and_flown": "the hand holds {held} 宝 ({kinds}) and {flown} were flown: there are only {most}",
    "shangrao.four_wild_count": "the winner drew all four 宝, but holds {held} and flew {flown}",
    # --- the evening: the ledger and recording a hand ---
    # evening/ledger: tables, players and the ledger file
    "ledger.unknown_player": "unknown player {player} at table {table} (players: {players})",
    "ledger.name_too_long": "{name}: {what} is at most {limit} characters, got {size}",
    "ledger.a_player": "a player's name",
    "ledger.a_table": "a table's name",
    "ledger.invisible_char": "{name}: a name may not hold a control or invisible character ({char})",
    "ledger.table_needs_name": "a table needs a name",
    "ledger.missing_players": "a table needs four players: no player for {seats} (--seat {first}=NAME)",
    "ledger.player_like_seat": "--seat {seat}={player}: a player may not be named like a seat (E S W N)",
    "ledger.same_players": "two players named {player}: give each a different name",
    "ledger.base_too_small": "--base must be at least 1, got {base}",
    "ledger.table_exists": "a table named {table} already exists in {path}",
    "ledger.dealer_before_hands": "table {table} has no hands yet: East deals the first; seat the dealer at East instead (table seat 东=PLAYER)",
    "ledger.no_table": "no table named {table} in {path}{hint}",
    "ledger.hint_tables": " (tables: {tables})",
    "ledger.hint_no_tables": " (it has no tables yet)",
    "ledger.score_too_large": "table {table}: {player}'s score would pass {limit}, beyond what is kept exactly; nothing recorded",
    "ledger.nothing_to_undo": "table {table} has no hands to undo",
    "ledger.hand_replaced": "table {table} changed meanwhile: {now} is not the {shown} shown; nothing {done}",
    "ledger.no_hand_now": "there is no hand {number} now",
    "ledger.no_hand_id": "table {table} has no hand {hand_id} now (undone or edited meanwhile); nothing {done}",
    "ledger.no_such_hand": "table {table} has no hand {number} (it has {count})",
    "import.format": "not an mjcalc table export (format {format}; this mjcalc reads format {expected})",
    "import.damaged": "the export is damaged ({reason}); nothing imported",
    "import.field": "{field} is missing or of the wrong kind",
    "import.rules_digest": "the rules filed under {sha}… are not the rules with that digest",
    "import.rules_unreadable": "the rules filed under {sha}… cannot be read",
    "import.rules_missing": "the rules {sha}… it plays are not in it",
    "import.event": "log entry {revision} is not an event of the log",
    "import.no_opening": "its log does not start with the table's opening",
    "import.replay": "its log does not replay: {reason}",
    "import.records": "a hand or penalty in its log is incomplete",
    "import.not_zero": "hand {what} does not sum to zero in whole numbers",
    "import.hands_differ": "its hands are not the ones its log makes",
    "import.penalties_differ": "its penalties are not the ones its log makes",
    "import.standings_differ": "its standings are not the ones its hands make",
    "import.state_differs": "its next hand is not the one its log makes",
    "import.unreadable": "{path}: cannot read it as JSON ({reason})",
    "settle.bad_rate": "a rate is money per point, a number above 0 and at most {limit}, got {rate}",
    "table.penalty_takes": "name the penalty: mjcalc table penalty [NAME] PENALTY --player PLAYER",
    "table.done_penalty": "the penalty",
    "ledger.table_closed": "table {table} is closed (since {closed} UTC): nothing recorded; `mjcalc table close {name} --reopen` opens it again",
    "ledger.stale_revision": "table {table} changed since it was shown (revision {revision}, now {now}); nothing changed: look again and retry",
    "ledger.not_revertible": "table {table}: revision {revision} is not an edit or an undo to take back{hint}",
    "ledger.hint_revertible": " (those there are: {kinds})",
    "ledger.hint_none": " (it has none: `table log` lists every revision)",
    "ledger.revert_blocked": "table {table}: the hand revision {revision} changed was edited or removed after it, at revision {later}; take that back first; nothing changed",
    "ledger.reverted_already": "table {table}: revision {revision} is reverted already",
    "ledger.log_damaged": "table {table}: its log does not replay ({reason}); the ledger is damaged",
    "ledger.request_taken": "request id {request_id} is taken",
    "ledger.bad_request_id": "a request id is 1 to 64 printable ASCII characters without spaces, got {request_id}",
    "ledger.request_reused": "request id {request_id} was used for another request; nothing recorded (use a new id)",
    "ledger.file_is_directory": "{path}: is a directory, not a ledger file",
    "ledger.file_not_a_file": "{path}: not a file, so a ledger there would keep nothing (give a file's path)",
    "ledger.file_cannot_open": "{path}: cannot open: {reason}",
    "ledger.file_unreadable": "{path}: not a readable ledger file ({reason})",
    "ledger.file_busy": "{path}: busy: another mjcalc kept it locked for {seconds} s",
    "ledger.file_sqlite": "{path}: {reason}",
    "ledger.table_damaged": "{path}: table {table} is damaged: {problem}{more}; nothing was shown or changed (`mjcalc table check` lists every problem)",
    "ledger.and_more": " (and {count} more)",
    "ledger.file_full": "{path}: the disk is full: nothing was written; free some space (showing the tables still works)",
    "ledger.file_readonly": "{path}: cannot be written here ({reason}); nothing was written (showing the tables still works)",
    "ledger.file_foreign": "{path}: an SQLite file of something else, not an mjcalc ledger",
    "ledger.file_damaged": "{path}: marked as an mjcalc ledger but without its tables (damaged)",
    "ledger.backup_exists": "{target} exists already: give a new file to copy the ledger to",
    "ledger.backup_failed": "cannot copy the ledger to {target}: {reason}",
    "ledger.file_no_backup": "{path}: cannot copy it to {backup} before its schema changes ({reason}); nothing changed",
    "ledger.file_newer": "{path}: made by a newer mjcalc (ledger schema version {version}; this mjcalc reads up to {supported}): upgrade mjcalc to use it",
    # evening/record: a hand from its tiles or from what the table agreed
    "record.unknown_pattern": "{ruleset} has no pattern {pattern}{hint}",
    "record.hint_patterns": " (patterns: {patterns})",
    "record.ambiguous_pattern": "{pattern} names more than one pattern of {ruleset}: {names}; write one of them",
    "record.many_digits": "a number of {digits} digits",
    "record.pattern_count": "{word}: a pattern counts from 1 to 16 times, got {count}",
    "record.pattern_twice": "{name} ({pattern}) is named twice",
    "record.no_patterns": "name at least one pattern",
    "record.total_or_patterns": "give the total or the patterns (one of them)",
    "record.total_range": "a total from 0 to {limit}, got {total}",
    "record.automatic_from_ignored": "{pattern} wins whatever the shape and is paid as a self-draw: --from {seat} is ignored",
    "record.pattern_implies": "{name} is won that way: {flag} is set",
    "record.pattern_contradicts": "{name} ({pattern}) does not fit this hand: it counts when {rule}; nothing recorded",
    "record.patterns_no_shape": "{a} and {b} cannot be one hand (they need different shapes); nothing recorded",
    "record.pattern_added": "{name} added: it counts when {rule}",
    "record.no_penalties": "{ruleset} declares no penalties (a house ruleset may: `penalties:` in its YAML)",
    "record.no_penalty": "{ruleset} has no penalty {name}{hint}",
    "record.penalty_needs_to": "{name} is paid to one player: name who is paid (--to)",
    "record.penalty_to_self": "{name}: {player} cannot pay themselves",
    "record.penalty_pays_each": "{name} is paid to each other player: no --to",
    "record.reason_too_long": "a reason is at most {limit} characters, got {size}",
    "record.duplicate": "hand {duplicate_of} ({result}; id {hand_id}) was recorded {seconds} s ago {where}, and this hand is the same: nothing recorded (to record it twice, say so: --yes, or \"confirm_duplicate\": true)",
    "record.duplicate_phone": "from another phone",
    "record.bad_client_id": "client_id must be 1-64 printable ASCII characters without spaces, got {client_id}",
    "record.duplicate_cli": "from the command line",
    "record.total_below_least": "{ruleset}: every win scores at least {least} {unit} ({why}), got {total}; nothing recorded",
    "record.total_unreadable": "{total} is not a total: give a number (3, ３, 三, 十二)",
    "record.total_unit": "{total}: {ruleset} counts in {unit}",
    "record.cap_total": "{total} {unit}; {ruleset} caps a hand at {cap}",
    "record.cap_patterns": "the patterns add up to {total} {unit}; {ruleset} caps a hand at {cap}",
    "record.patterns_excluded": "{patterns} not counted: replaced by another pattern named (the ruleset's excludes)",
    "record.not_14_tiles": "a table hand is a won hand of 14 tiles; {hand} has {size}",
    "record.not_winning": "not a winning hand: {reason}; nothing recorded",
    "record.no_shape": "not a winning shape",
    "record.not_legal": "not a legal win: {reason}; nothing recorded",
    "record.later_hand_fails": "hand {number} would no longer be a legal win ({reason}); nothing changed",
    "record.kept_changing": "table {table} kept changing; nothing recorded, try again",
    # --- the command line and the server's API ---
    # an answer stdout could not take: a write already committed (exit 4), or a read (exit 1)
    "table.answer_unwritten": "{done}, but the answer could not be written ({reason})",
    "table.done_hand": "recorded as hand {number}",
    "table.done_undo": "removed hand {number}",
    "table.done_edit": "replaced hand {number}",
    "table.done_revert": "reverted revision {revision}",
    "table.done_new": "created table {table}",
    "cli.output_failed": "the answer could not be written ({reason})",
    # cli/common.py, cli/main.py: the command line
    "cli.situation_not_mapping": "--situation {path}:{line}: 'situation' must be a mapping of fields",
    "cli.self_drawn_and_from": "--self-drawn and --from contradict each other: choose one",
    "cli.no_help_topic": "no help topic {topic} (topics: {topics})",
    "cli.hand_or_batch": "give a HAND or --batch FILE (one of them)",
    "cli.seen_with_batch": "--seen describes one table: give it with a HAND, not with --batch",
    "cli.stdin_closed": "{flag} -: standard input is closed",
    "cli.cannot_read": "{flag} {path}: cannot read: {reason}",
    "cli.cannot_write": "{flag} {path}: cannot write: {reason}",
    "cli.by_needs_14_tiles": "--by and --draws value the discards of a 14-tile hand; this one has {size}",
    "cli.needs_by": "{flag} goes with --by win or --by value",
    "cli.cannot_listen": "cannot listen on {host}:{port}: {reason}",
    "cli.no_term": "no term {word}{hint}; `mjcalc explain` lists them all",
    "cli.did_you_mean_any": " (did you mean {words}?)",
    "cli.usage": "{error} (see {command} --help)",
    "cli.no_such_option": "no such option {token} (a hand or a value that starts with '-' goes after --, e.g. mjcalc analyze -- '{token}')",
    "cli.no_such_option_close": "no such option {token}{hint}",
    "cli.aborted": "aborted",
    "cli.interrupted": "interrupted",
    "cli.bug": "{kind}: {error} (this is a bug in mjcalc; please report it)",
    "cli.os_error": "{where}{reason}",
    "cli.digits": "{start}…({count} digits)",
    # cli/table.py, cli/play.py: the evening at the command line
    "table.none_in_use": "no table in use: give its NAME, or `mjcalc table use NAME` (`mjcalc table list` lists them)",
    "table.seat_player": "{flag} takes SEAT=PLAYER like E=老王 or 东=老王, got {item}",
    "table.seat_twice": "{flag} {seat} is given twice",
    "table.keeps_field": "{flag}: the table keeps the {key}; leave it out",
    "table.file_keeps_field": "--situation {path}: the table keeps the {key}; leave it out",
    "table.winner_and_seat": "--winner and --seat say the same thing: give one",
    "table.hand_and_agreed": "give the HAND or --fan/--patterns, not both (the tiles say the total)",
    "table.fan_and_patterns": "give --fan N or --patterns, not both",
    "table.who_won": "who won? give --winner PLAYER (a name or a seat)",
    "table.nothing_to_record": "give the HAND's tiles, or what the table agreed: --fan N or --patterns A,B (see `mjcalc help notation`)",
    "table.no_hands_to_undo": "table {table} has no hands to undo",
    "table.rename_takes": "table rename takes [NAME] NEW",
    "table.seat_takes": "table seat takes SEAT=PLAYER changes or --dealer PLAYER",
    "table.rules_takes": "table rules takes [NAME] [RULESET]",
    "table.draw_takes_nothing": "--draw: a drawn hand has no tiles, winner or total",
    "table.revert_takes": "table revert takes [NAME] REVISION (an edit's or an undo's, as `table log` lists them)",
    "table.stats_name_or_all": "table stats takes a table's NAME or --all, not both (NAME {table} given with --all)",
    "play.cannot_read_line": "cannot read the line: {reason}",
    "play.who_won": "who won? start the line with the winner (a name or a seat)",
    "play.not_a_word": "{word} is not a player, 自摸, a pattern of {ruleset} or tiles{hint}",
    "play.not_a_command": "{word} is not a player or a command{hint}",
    # serve/server.py: the API's own refusals (a library error is said as the command line says it)
    "api.unknown_ruleset": "unknown ruleset {name}; this server has: {known}",
    "api.players_object": "expected {shape}",
    "api.players_seat": "{seat} is not a seat (E, S, W or N)",
    "api.undo_names_hand": "say which hand to undo: its hand_id as shown, or its number with the revision read; nothing removed",
    "api.seat_takes": "give the players by seat (E, S, W, N), or the dealer, or both",
    "api.hand_or_agreed": "give the hand's tiles (hand), or what the table agreed (total or patterns), one of them",
    "api.input_too_deep": "input too deeply nested",
    "api.not_an_object": "the request body must be a JSON object",
    "api.unknown_field": "unknown field {name}{hint}",
    "api.wrong_type": "expected {types}, got {value}",
    "api.missing_field": "missing field {name}",
    "api.lang": "expected \"zh\" or \"en\"",
    "api.too_long": "too long ({length} characters)",
    "api.not_a_json_value": "{name} is not a JSON value",
    "api.foreign_host": "this server answers only to 127.0.0.1 or localhost",
    "api.token": "missing or wrong token: open the URL that `mjcalc serve` printed",
    "api.chunked": "send the body with a Content-Length, not chunked",
    "api.no_length": "a request body needs a Content-Length",
    "api.length_not_a_number": "Content-Length is not a number",
    "api.length_negative": "Content-Length is negative",
    "api.too_large": "request body too large: {size} bytes (at most {limit})",
    "api.not_json_type": "send the request body as application/json",
    "api.bad_json": "the request body is not valid JSON: {reason}",
    "api.body_too_deep": "the request body is nested too deeply",
    "api.no_page": "no such page: {path}",
    "api.path_not_utf8": "the path is not UTF-8 once %-decoded",
    "api.no_table_name": "a table's name is missing from the path",
    "api.no_endpoint": "no such API endpoint: {path}",
    "api.method": "{method} is not allowed here (use {allowed})",
    "api.internal": "internal error (the server's log says more)",
    "api.http": "{text}",  # http.server's own words (a bad request line, headers too long)
    "api.lone_surrogate": "not text: a lone surrogate {char} (half of a UTF-16 pair) in a JSON string; nothing was done",
    "api.foreign_origin": "this server takes writes only from its own page ({expected}), not from {origin}",
    "api.foreign_host_named": "this server answers only to {names}",
    "api.body_timeout": "the request body stopped after {got} of its {size} bytes (Content-Length) for {seconds} s; nothing was done",
    "api.body_short": "the request body ended after {got} of its {size} bytes (Content-Length); nothing was done",
    "api.no_table": "no table named {table}",
}

# Chinese texts, by id (the page's words); an id not here is said in English.
ZH: Dict[str, str] = {
    "hint.did_you_mean": "（是不是 '{word}'？）",
    "notation.at": "（\"{text}\" 第 {column} 列）",
    "notation.unclosed": "'{bracket}' 没有闭合{at}",
    "notation.plus_alone": "'+' 后面没有牌{at}",
    "notation.no_suit": "数字 '{written}' 后面缺少花色字母（m、p、s 或 z）{at}",
    "notation.zero": "'0' 不是点数（点数是 1-9）{at}",
    "notation.unknown_suit": "'{written}' 后面的花色字母 '{letter}' 不认识（花色是 m p s z，或 万 筒 条）{at}",
    "notation.unknown_char": "不认识的字符 '{char}'{at}",
    "notation.empty": "没有牌：请写成 123m456p789s EE 45m +6m 这样",
    "hand.size": "{size} 张牌：{read}{counted} —— {why}",
    "hand.why_rule": "一手牌是 13 张（算听牌）或 14 张（算番）",
    "hand.why_plus": "和的那张 +{tile} 是 14 张之一：它前面写 13 张",
    "hand.melds_count": "（每组牌算 3 张：组里 {melds} 张 + {rest}）",
    "hand.kongs_count": "（每组牌算 3 张，杠也算 3 张：组里 {melds} 张 + {rest}）",
    "hand.fifth_copy": "{tile} 有 {count} 张：每种牌只有 4 张",
    "seat.expected": "座位应是 E、S、W 或 N（东 南 西 北），不是 {value}",
    "record.duplicate": "第 {duplicate_of} 局（{result}；id {hand_id}）{seconds} 秒前刚从{where}记过，这一局和它一样：没有记录（确实要记两次，请再确认）",
    "record.duplicate_phone": "另一部手机",
    "record.duplicate_cli": "命令行",
    "ledger.table_closed": "牌桌 {table} 已结束（{closed} UTC 起）：没有记录；`mjcalc table close {name} --reopen` 可重新打开",
    "record.no_penalties": "{ruleset} 没有规定罚分（自定义规则可在 YAML 的 penalties: 里写）",
    "record.penalty_needs_to": "{name} 付给一位玩家：请指定付给谁",
    "record.penalty_to_self": "{name}：{player} 不能付给自己",
    "record.penalty_pays_each": "{name} 付给其他每一位玩家：不用指定付给谁",
}
