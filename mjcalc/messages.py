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

    def __eq__(self, other: object) -> bool:
        """The same message: the same id and parameters (a score's reason, made twice, is one reason)."""
        if not isinstance(other, Message):
            return NotImplemented
        return self.code == other.code and self.params == other.params

    def __hash__(self) -> int:
        return hash((self.code, frozenset(self.params)))

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"Message({self.code!r}, {self.params!r})"


Words = Union[str, Message]

# What a parameter's value is called in Chinese, registered by the module that knows it (ruleset.py: a ruleset's
# id → its Chinese name): the Chinese text says 北京麻将 where the English one, and the parameter, say beijing.
ZH_NAMES: Dict[str, Dict[str, str]] = {"ruleset": {}}


def text(code: str, params: Optional[Mapping[str, Any]] = None, lang: str = "en") -> str:
    """The message `code` in `lang`, its parameters filled in. A message is said in one language: in English
    when its text, or the text of a message nested in it, is not written in `lang` yet."""
    if lang == "zh" and not _written_in_zh(code, params or {}):
        lang = "en"
    template = ZH.get(code, EN[code]) if lang == "zh" else EN[code]
    if not params:
        return template
    named = ZH_NAMES if lang == "zh" else {}
    return template.format_map({k: named[k].get(v, v) if k in named and isinstance(v, str) else _worded_value(v, lang)
                                for k, v in params.items()})


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
    "ruleset.wall_letters": "expected some of {letters}, each once, got {value}",
    "ruleset.wall_no_suit": "a wall needs at least one suit",
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
    # render.py: the reason of a 13-tile hand's answer (its waits are scored, not the hand)
    "render.not_complete_13": "13 tiles: not a complete hand (see waits)",
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
    "wall.not_in_wall": "{tile}: no such tile in this ruleset's wall of {size}",
    "region.indicator_all_held": "the hand holds all four {tile}, so none of them can be the turned-up tile",
    # analysis.waits and batch.py
    "waits.need_13_tiles": "{size} tiles: waits need a 13-tile hand",
    # value.py
    "value.star_without_kind": "the hand holds a '*' but no wild kind is given: the wall's wildcards depend on it (give --wild or --indicator)",
    "value.time_capped": "the time cap ({seconds} s) was reached: exchanges were given up, figures marked ~ are the narrower play (a lower bound)",
    "value.time_cut": "the time cap ({seconds} s) was reached: figures marked ~ are the narrower play (a lower bound), and {count} discard{plural} not valued: {tiles}",
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
    "beijing.told_kong_unclaimed": "明杠: say from whom it was claimed ({seat}:exposed:SEAT); no kong money counted",
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
    "import.result": "log entry {revision}: {what}",
    "import.hands_differ": "its hands are not the ones its log makes",
    "import.penalties_differ": "its penalties are not the ones its log makes",
    "import.standings_differ": "its standings are not the ones its hands make",
    "import.state_differs": "its next hand is not the one its log makes",
    "import.unreadable": "{path}: cannot read it as JSON ({reason})",
    "settle.bad_rate": "a rate is money per point, a number above 0 and at most {limit}, got {rate}",
    "table.penalty_takes": "name the penalty: mjcalc table penalty [NAME] PENALTY --player PLAYER",
    "table.done_penalty": "the penalty",
    "table.duplicate_ask": "hand {duplicate_of} ({result}) was recorded {seconds} s ago {where}, and this hand is the same. Record it twice?",
    "ledger.table_closed": "table {table} is closed (since {closed} UTC): nothing recorded; `mjcalc table close {name} --reopen` opens it again",
    "ledger.stale_revision": "table {table} changed since it was shown ({what}); nothing changed: look again and retry",
    "ledger.since_hand": "hand {number} recorded: {result}",
    "ledger.since_edit": "hand {number} changed: {result}",
    "ledger.since_undo": "a hand removed",
    "ledger.since_revert": "an edit or an undo taken back",
    "ledger.since_seat": "the seats changed",
    "ledger.since_dealer": "the dealer set",
    "ledger.since_rules": "the rules switched",
    "ledger.since_penalty": "a penalty recorded or taken back",
    "ledger.since_close": "the table closed or reopened",
    "ledger.since_other": "a correction",
    "ledger.not_revertible": "table {table}: revision {revision} is not an edit or an undo to take back{hint}",
    "ledger.hint_revertible": " (those there are: {kinds})",
    "ledger.hint_none": " (it has none: `table log` lists every revision)",
    "ledger.revert_blocked": "table {table}: the hand revision {revision} changed was edited or removed after it, at revision {later}; take that back first; nothing changed",
    "ledger.reverted_already": "table {table}: revision {revision} is reverted already",
    "ledger.log_damaged": "table {table}: its log does not replay ({reason}); the ledger is damaged",
    "ledger.result_changed": "hand {number}'s kept result is not what its entry scores: it {what}",
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
    "ledger.read_only": "the file system is read-only: this server only shows the tables (it could not write its ledger at start); nothing was written",
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
    "record.pattern_not_text": "a pattern is named by its name or id, got {value}",
    "record.total_or_patterns": "give the total or the patterns (one of them)",
    "record.total_range": "a total from 0 to {limit}, got {total}",
    "record.pattern_implies": "{name} is won that way: {flag} is set",
    "record.pattern_contradicts": "{name} ({pattern}) does not fit this hand: it counts when {rule}; nothing recorded",
    "record.patterns_no_shape": "{a} and {b} cannot be one hand (no hand has both); nothing recorded",
    "record.pattern_added": "{name} added: it counts when {rule}",
    # patterns.situational: when a pattern that reads only the situation counts ("it counts when …")
    "rule.dealer": "the dealer wins, or the dealer deals in",
    "rule.self_draw": "the hand is won by self-draw",
    "rule.sea_bottom": "the hand is won on the last tile",
    "rule.kong_bloom": "the hand is self-drawn on a kong replacement",
    "rule.heavenly": "the dealer is complete before discarding",
    "rule.earthly": "a non-dealer wins before his first discard",
    "rule.dealer_win": "the dealer is the winner",
    "rule.tuidaohe": "the hand is won and no pattern that replaces it counts",
    "rule.rob_kong": "the hand is won by robbing a kong",
    "rule.concealed": "the hand is concealed (no 吃, 碰 or 明杠)",
    "rule.concealed_no_wild": "the hand is concealed and holds no wildcard tile",
    "rule.no_wild": "the hand holds no wildcard tile",
    "rule.no_hunr": "the hand holds no wildcard tile, or its one wildcard is in 本混儿龙",
    "rule.four_wilds": "the hand holds all four tiles of the wildcard kind",
    "rule.hui_on_wall": "the winner has put his wildcard up on the wall and holds none",
    "rule.hunr_you": "the winner declined earlier self-draws and now draws the win holding a wildcard",
    "rule.seat_wind": "the winner is not the dealer (门风 is South's, West's or North's own wind)",
    "rule.flown": "the winner has discarded 宝 (飞宝)",
    "rule.exposed_kong": "the winner has exposed kongs",
    "rule.concealed_kong": "the winner has concealed kongs",
    "rule.jiebao": "接宝 happened for the winner",
    "rule.four_wild": "the winner drew all four 宝 this hand",
    "rule.every_pung": "every set is a pung or a kong",
    "rule.big_single_wait": "four melds are exposed, so the single tile left won the hand",
    "rule.single_wait": "four melds are declared, so the single tile left won the hand",
    "rule.pungs_with_wild": "every set is a pung or a kong and a wildcard stands in",
    "rule.pungs_without_wild": "every set is a pung or a kong and no wildcard stands in",
    "rule.pungs_wild_single": "the hand is 碰碰糊 won as 宝吊头",
    "rule.pungs_wild_single_none": "the hand is 碰碰糊 won as 宝吊无宝",
    "rule.pure_pairs": "the seven pairs hold no wildcard standing in",
    "rule.both": "the patterns it joins are named",
    "rule.earthly_dealer": "a non-dealer wins on the dealer's first discard",
    # told.py: a hand told without its tiles
    "told.rule_shape": "the hand's shape has it",
    "told.count_once": "{name} ({pattern}) counts once in a hand, got ×{count}; nothing recorded",
    "told.count_most": "{name} ({pattern}) counts at most {most} times in a hand, got ×{count}; nothing recorded",
    "told.no_facts": "no hand has these patterns in this situation; nothing recorded",
    "told.names_no_hand": "{names} cannot be one hand (no hand has them all); nothing recorded",
    "told.total_unreachable": "no hand scores {total} {unit} under {ruleset} (near it: {near}); nothing recorded",
    "told.total_below_situation": "this situation alone makes {least} {unit} ({how}): {total} is less; nothing recorded",
    "told.total_like_automatic": "{total} {unit} is what {name} is worth: if the hand is {name}, it is paid as a "
                                 "self-draw — name it ({name})",
    "told.taken_concealed": "the hand is taken as concealed (no 吃/碰 said), and an open one is paid otherwise: say "
                            "how many it claimed if it did",
    "told.no_base": "{ruleset} pays a hand by its base pattern: name one ({bases})",
    "told.worth_nothing": "{ruleset}: every win scores at least {least} {unit} ({why}); these patterns make 0",
    "told.taken_open": "{reason} (the hand is taken as open: {patterns} not named)",
    "told.untold_kongs": "which kongs the winner has changes what is paid here: say them (concealed, exposed, or "
                         "exposed:SEAT for a kong claimed from SEAT); nothing recorded",
    "told.bad_kong": "{value} is not a kong: concealed (暗杠), exposed (明杠) or exposed:SEAT (claimed from SEAT)",
    "told.many_kongs": "a hand has at most 4 kongs, got {count}",
    "told.melds_many": "a hand declares at most 4 melds (claimed 吃/碰 and kongs), got {count}",
    "told.wild_roles": "0 (no wildcard stands in for another tile: 无宝) or 1, got {value}",
    "told.unknown_fact": "{name} is not told of a hand (open, kongs, wild_roles)",
    "told.total_beyond": "{total} {unit} is more than any hand scores under {ruleset} (at most {most}); nothing recorded",
    "told.total_is_flat": "this situation makes the hand {name}, a flat {value}: the total is {value}, not {total}; "
                          "nothing recorded",
    "told.total_below_flat": "this situation makes the hand at least {name}, {value} {unit}: {total} is less; nothing "
                             "recorded",
    "told.total_like_flat": "{total} {unit} is what {name} pays flat, which only its name says: name it ({name}), or "
                            "the patterns; nothing recorded",
    "record.total_unusual": "{total} {unit} is more than a hand usually reaches under {ruleset} ({usual}: {how}); "
                            "nothing recorded — say it again to record it (--yes, or \"confirm_total\": true)",
    "record.total_above_cap": "{total} {unit} is above {ruleset}'s cap {cap}, and is paid as {cap}; nothing recorded — "
                              "say it again to record it (--yes, or \"confirm_total\": true)",
    "table.total_unusual_ask": "{total} {unit} is more than a hand usually reaches under {ruleset} ({usual}: {how}). "
                               "Record it?",
    "table.total_above_cap_ask": "{total} {unit} is above {ruleset}'s cap {cap} and is paid as {cap}. Record it?",
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
    "record.patterns_excluded": "{patterns} not counted: replaced by a pattern that counts instead (the ruleset's excludes, or a better base)",
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
    "cli.bad_public_host": "--public-host {host}: expected an address or a host name (no scheme, port or path)",
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
    "table.open_with_tiles": "--open and --kongs are for a hand entered without its tiles (the tiles say its melds)",
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
    "play.undo_words": "undo takes a hand number and y (`undo`, `undo 3`, `undo y`), not {words}",
    # serve/server.py: the API's own refusals (a library error is said as the command line says it)
    "api.unknown_ruleset": "unknown ruleset {name}; this server has: {known}",
    "api.players_object": "expected {shape}",
    "api.players_seat": "{seat} is not a seat (E, S, W or N)",
    "api.undo_names_hand": "say which hand to undo: its hand_id as shown, or its number with the revision read; nothing removed",
    "api.seat_takes": "give the players by seat (E, S, W, N), or the dealer, or both",
    "api.hand_or_agreed": "give the hand's tiles (hand), or what the table agreed (total or patterns), one of them",
    "api.told_with_tiles": "open, kongs and wild_roles tell a hand given without its tiles (its tiles say them)",
    "api.input_too_deep": "input too deeply nested",
    "api.not_an_object": "the request body must be a JSON object",
    "api.unknown_field": "unknown field {name}{hint}",
    "api.wrong_type": "expected {types}, got {value}",
    "api.either": "{a} or {b}",
    "api.type_text": "text",
    "api.type_flag": "true or false",
    "api.type_int": "a whole number",
    "api.type_list": "a list",
    "api.type_object": "an object",
    "api.missing_field": "missing field {name}",
    "api.lang": "expected \"zh\" or \"en\"",
    "api.too_long": "too long ({length} characters)",
    "api.not_a_json_value": "{name} is not a JSON value",
    "api.foreign_host": "this server answers only to 127.0.0.1 or localhost",
    "api.token": "missing or wrong token: open the URL that `mjcalc serve` printed, or scan its code again (a server started again has a new token)",
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
    "api.by": "expected \"win\" or \"value\", got {value}",
    "api.draws": "expected a whole number from {least} to {most}, got {value}",
    "api.by_needs_14_tiles": "\"by\" and \"draws\" value the discards of a 14-tile hand; this one has {size}",
    "api.needs_by": "is used only with \"by\": \"win\" or \"value\"",
    "api.duplicate_key": "the request body names {name} twice; nothing was done",
    "api.header_twice": "the request has the header {header} twice; nothing was done",
    "api.absolute_target": "ask for a path on this server (/api/…), not a whole URL; nothing was done",
    "api.headers_timeout": "the request's line and headers did not come whole within {seconds} s; nothing was done",
    "api.too_many_connections": "too many connections from one address (at most {most} at once); nothing was done: try again",
}

# Chinese texts, by id (the page's words, in the glossary's terms: 自摸, 点炮, 庄家, 包家, 底分, and the ruleset's
# own words for its wildcard and its unit, given as parameters); an id not here is said in English. A Chinese text
# names no command-line flag: the page and the command line say it alike.
ZH: Dict[str, str] = {
    # hints shared by every area
    "hint.did_you_mean": "（是不是 '{word}'？）",
    "hint.known": "（可选：{known}）",
    # --- notation: reading a hand ---
    "notation.at": "（\"{text}\" 第 {column} 列）",
    "notation.unclosed": "'{bracket}' 没有闭合{at}",
    "notation.plus_alone": "'+' 后面没有牌{at}",
    "notation.no_suit": "数字 '{written}' 后面缺少花色字母（m、p、s 或 z）{at}",
    "notation.zero": "'0' 不是点数（点数是 1-9）{at}",
    "notation.unknown_suit": "'{written}' 后面的花色字母 '{letter}' 不认识（花色是 m p s z，或 万 筒 条）{at}",
    "notation.lower_honor": "不认识的字符 '{char}'（风牌和箭牌用大写：E S W N C F P）{at}",
    "notation.flower": "不用花牌（'{char}'）{at}",
    "notation.unknown_char": "不认识的字符 '{char}'{at}",
    "notation.suit_alone": "花色字母 '{letter}' 前面没有数字{at}",
    "notation.plus_many": "'+' 只标一张和的牌，后面却有 {count} 个数字（写成 +{first}{letter}）{at}",
    "notation.bad_honor": "'{digit}z' 不是字牌（1-7z 是 E S W N C F P）{at}",
    "notation.plus_in_meld": "组里不能有 '+'{at}",
    "notation.wild_in_meld": "组里不能有百搭 '*'：写出它代表的牌{at}",
    "notation.inside_meld": "明牌组里不能有 '{char}'{at}",
    "notation.plus_meld": "'+' 后面应是一张牌，不是一组{at}",
    "notation.no_opening": "'{char}' 前面没有对应的左括号{at}",
    "notation.wrong_close": "'{char}' 闭合的是第 {opened_at} 列的 '{opened}'，它应该用 '{needs}'{at}",
    "notation.empty_meld": "空的组{at}",
    "notation.plus_twice": "'+' 不止一个（一手牌只和一张）{at}",
    "notation.not_concealed_kong": "{{{written}}} 不是暗杠（四张相同的牌）{at}",
    "notation.not_a_set": "[{written}] 不是一组（顺子、刻子或杠）{at}",
    "notation.red_mixed": "'{written}' 有两种读法（单个 红 是 中）：写成 中中中 或 红中 红中{at}",
    "notation.too_long": "输入太长：{length} 个字符（一手牌最多 {limit} 个）",
    "notation.empty": "没有牌：请写成 123m456p789s EE 45m +6m 这样",
    # --- hand: a hand that reads but cannot be played ---
    "hand.size": "{size} 张牌：{read}{counted} —— {why}",
    "hand.why_rule": "一手牌是 13 张（算听牌）或 14 张（算番）",
    "hand.why_plus": "和的那张 +{tile} 是 14 张之一：它前面写 13 张",
    "hand.melds_count": "（每组牌算 3 张：组里 {melds} 张 + {rest}）",
    "hand.kongs_count": "（每组牌算 3 张，杠也算 3 张：组里 {melds} 张 + {rest}）",
    "hand.plus_on_13": "13 张牌带一张 '+' 和的牌：{read}{counted} —— 算番要 14 张（算听牌请去掉 '+'）",
    "hand.no_concealed_win": "14 张的牌要有一张门前和的牌",
    "hand.fifth_copy": "{tile} 有 {count} 张：每种牌只有 4 张",
    # --- seats ---
    "seat.expected": "座位应是 E、S、W 或 N（东 南 西 北），不是 {value}",
    # --- scoring ---
    "scoring.fifth_copy": "{tile} 有 {count} 张（百搭按牌面算）：每种牌只有 4 张",
    "scoring.too_large": "番种加起来超过 {limit:,} {unit}：请调低番值或设封顶",
    "scoring.capped": "番种加起来 {uncapped} {unit}；{ruleset} 一手牌封顶 {total}",
    "scoring.not_winning_shape": "不是和牌的牌型",
    "render.not_complete_13": "13 张牌：还不是一手完整的牌（看听牌）",
    # --- the situation and its options ---
    "option.whole_number": "应是整数，不是 {value}",
    "option.out_of_range": "应在 {minimum} 到 {maximum} 之间，不是 {value}",
    "option.long_number": "数字超过 12 位",
    "option.true_or_false": "应是 是 或 否（true/false），不是 {value}",
    "option.reason": "{reason}",
    "option.seat_given_twice": "{seat} 给了两次；只算一次",
    "option.seat_equals": "应写成 座位=数目，如 S=2，不是 {value}",
    "option.seat_named_twice": "{seat} 写了两次；每个座位只写一次",
    "option.seat_colon": "应写成 座位:{choices}，不是 {value}",
    "option.text": "应是文字，不是 {value}",
    "option.tile_twice": "同一张牌写了两次",
    "option.tile_expected": "应是一张牌，如 5m 或 C，不是 {value}",
    "option.one_tile": "只写一张牌，如 5m 或 C，不是 {value}",
    "situation.unknown_field": "不认识的局况 {key}{hint}",
    "situation.self_drawn_and_from": "自摸 和 点炮 互相矛盾：只选一个",
    # analysis.py, waits, value.py
    "analysis.unknown_option": "不认识的局况 {name}{hint}",
    "analysis.wildcard_not_in_play": "牌里有百搭 '*'，但{where}不用百搭",
    "analysis.assumed_both": "按东家、庄家算（别的座位请选座位和庄家）",
    "analysis.assumed_seat": "按东家算；庄家是 {dealer}（请选座位）",
    "analysis.assumed_dealer": "庄家按东家算；这手牌是 {seat} 的（请选庄家）",
    "analysis.seen_too_long": "输入太长：{length} 个字符",
    "analysis.seen_reason": "{reason}",
    "analysis.seen_winning_tile": "'+' 标的是和的牌；见过的牌里没有",
    "analysis.seen_wildcard": "见过的百搭写牌面（如 5m），不写 '*'",
    "analysis.seen_too_many": "手里 {held} 张 {tile}，见过 {seen} 张，共 {total} 张：每种牌只有 4 张",
    "wall.not_in_wall": "{tile}：这套规则的 {size} 张牌里没有这种牌",
    "region.indicator_all_held": "四张 {tile} 都在手里，翻出来的牌不可能是它",
    "waits.need_13_tiles": "{size} 张牌：算听牌要 13 张",
    "value.star_without_kind": "牌里有 '*'，但没有给百搭是哪种牌：墙上的百搭要看它（请给百搭或翻牌）",
    "value.time_capped": "已到时间上限（{seconds} 秒）：不再算换牌，标 ~ 的数字是较窄的打法（下限）",
    "value.time_cut": "已到时间上限（{seconds} 秒）：标 ~ 的数字是较窄的打法（下限），还有 {count} 种弃牌没有估值：{tiles}",
    # --- regions/base.py: what every region checks ---
    "region.option_unused": "{ruleset} 不用这一项；已忽略",
    "region.own_discard": "{seat} 是和牌者自己的座位：不能和自己打出的牌",
    "region.rob_needs_konger": "要写被抢杠的是谁（点炮选那一家）",
    "region.kong_draw_on_discard": "杠上开花是自己补的牌，不能是点炮",
    "region.dealer_first_turn_discard": "庄家的天和是起手的牌，不能是点炮",
    "region.first_turn_with": "不能和 {flag} 一起",
    "region.indicator_against_wild": "翻牌 {indicator} 让 {after} 当百搭，但百搭写的是 {wild}",
    "region.no_wild_kinds_one": "{ruleset} 不用百搭，但写了 {count} 种",
    "region.no_wild_kinds_many": "{ruleset} 不用百搭，但写了 {count} 种",
    "region.too_many_wild_kinds": "{ruleset} 最多 {most} 种{wild_zh}，但写了 {count} 种",
    "region.in_ruleset": "在 {ruleset} 里",
    "region.too_many_stars": "牌里有 {count} 张百搭 '*'，但 {ruleset} 最多 {kinds} 种{wild_zh}、每种 4 张：最多 {most} 张",
    "region.kong_draws_no_kong": "连续 {draws} 次杠上补牌，但这手牌没有杠",
    "region.kong_draws_few_kongs": "连续 {draws} 次杠上补牌，但这手牌只有 {kongs} 个杠",
    "region.first_turn_exposed": "天和、地和没有吃碰，但这手牌有明牌组",
    "region.dealer_first_turn_kong": "庄家的天和是起手的牌：不会有杠",
    "region.claimed_from_winner": "{meld} 写的是从 {seat} 吃碰来的，那是和牌者自己的座位",
    "region.robbed_kong_held": "被抢的杠是 {tile}，另外三张在杠的人手里，但和牌者还有 {more} 张 {tile}",
    "region.a_hand_of": "{total} {unit} 的牌",
    "region.no_discard_wins": "{ruleset} 不许点炮和：这手牌必须自摸",
    "region.no_robbing": "{ruleset} 不许抢杠和：这手牌必须自摸",
    "region.rule_named": "{rule}：",
    "region.exposed_no_discard": "{rule}有明牌组（吃/碰/明杠）的牌不能点炮和，必须自摸",
    "region.exposed_no_rob": "{rule}有明牌组（吃/碰/明杠）的牌不能抢杠和，必须自摸",
    "region.wilds_on_discard": "手里有 {count} 张{wild_zh}（超过 {limit} 张）必须自摸",
    "region.zero_self_draw_only": "0 {unit} 的牌只能自摸和",
    "region.below_minimum": "和牌了，但只有 {total} {unit}：要 {minimum} {unit}",
    "region.below_minimum_of": "和牌了，但只有 {total} {unit}：{who}要 {minimum} {unit}",
    # --- regions/beijing.py ---
    "beijing.mutual_own_seat": "{seat} 是和牌者自己的座位",
    "beijing.rob_concealed_needs_rob": "抢暗杠要选抢杠，并写明杠的是哪一家（点炮）",
    "beijing.four_wilds_from_ignored": "{pattern} 不论牌型都和，按自摸付：点炮 {seat} 不算",
    "beijing.rob_concealed_only_for": "只有为了和 {pattern} 才能抢暗杠",
    "beijing.rob_concealed_never": "{ruleset}：暗杠不能抢",
    "beijing.too_many_claims": "{ruleset}：一手牌最多吃碰 {most} 次（杠不算），这手牌有 {count} 次：{melds}",
    "beijing.hui_on_wall_held": "{pattern} 要手里没有{wild}，但有 {count} 张：不算",
    "beijing.hunr_you_not_drawn": "{pattern} 要自摸并且手里有{wild}：不算",
    "beijing.kong_unclaimed": "明杠 {meld}：写明从谁那里杠来，如 [{meld}]W；不算杠钱",
    "beijing.told_kong_unclaimed": "明杠：写明从谁那里杠来（{seat}:exposed:座位）；不算杠钱",
    # --- regions/zhuji.py ---
    "zhuji.unknown_bid": "不认识的包牌 {bid}：写 2、独2、无财2、3……（2 到 {most} 台）",
    "zhuji.a_bid_of": "{level} 台的包牌",
    "zhuji.wild_under_no_wild_bid": "{bid} 包牌不用财神，但写了 {wild}",
    "zhuji.bid_needs_one_wild": "{bid} 包牌有 1 种财神：写出包家选的那种，如 5m",
    "zhuji.bid_needs_two_wilds": "{bid} 包牌有 2 种财神：写出包家选的，如 5m（即 5m 和 6m）",
    "zhuji.one_wild_kind": "{bid} 包牌只有一种财神，但写了 {count} 种：{wild}",
    "zhuji.second_wild_follows": "{bid} 包牌的第二种财神紧跟第一种：{first} 后面是 {after}，不是 {second}",
    "zhuji.two_wild_kinds": "{bid} 包牌有两种财神，但写了 {count} 种：{wild}",
    "zhuji.odd_half_hand": "{ruleset}：点炮和 {total} 台，H/2 = {hand}/2 不是整数；诸暨的付法要起和至少 1 台",
    "zhuji.no_indicator": "财神由包家选，不翻牌：请把它们写成百搭",
    "zhuji.bidder_needs_bid": "写了包家：也请写出包牌",
    "zhuji.bid_needs_bidder": "{bid} 要写包家（是谁包的）",
    "zhuji.under_bid": "在 {bid} 包牌下",
    "zhuji.the_bidder": "包家",
    # --- regions/shangrao.py ---
    "shangrao.flown_by_winner": "{seat} 是和牌者自己的座位：和牌者的飞宝写在飞宝里",
    "shangrao.flown_too_many": "一共 {total} 个飞宝（和牌者的和其他家的）：宝只有 {most} 张",
    "shangrao.kong_of_winner": "{seat} 是和牌者自己的座位：和牌者的杠写在牌里，如 [XXXX] 或 {{XXXX}}",
    "shangrao.kongs_a_seat": "{seat} 有 {count} 个杠，但一手牌最多 {most} 个（四组加一对；全桌共十六个）",
    "shangrao.no_bao_kind": "无",
    "shangrao.bao_held_and_flown": "手里有 {held} 张宝（{kinds}），又飞了 {flown} 张：宝只有 {most} 张",
    "shangrao.four_wild_count": "和牌者摸到了全部四张宝，但手里 {held} 张、飞了 {flown} 张",
    # --- the evening: the table ---
    "ledger.unknown_player": "牌桌 {table} 没有玩家 {player}（玩家：{players}）",
    "ledger.name_too_long": "{name}：{what}最多 {limit} 个字符，这里有 {size} 个",
    "ledger.a_player": "玩家的名字",
    "ledger.a_table": "牌桌的名字",
    "ledger.invisible_char": "{name}：名字里不能有控制字符或看不见的字符（{char}）",
    "ledger.table_needs_name": "牌桌要有名字",
    "ledger.missing_players": "一桌要四位玩家：{seats} 没有人",
    "ledger.player_like_seat": "{seat}={player}：玩家的名字不能和座位一样（E S W N）",
    "ledger.same_players": "两位玩家都叫 {player}：请用不同的名字",
    "ledger.base_too_small": "底分至少是 1，不是 {base}",
    "ledger.table_exists": "已经有一张叫 {table} 的牌桌",
    "ledger.dealer_before_hands": "牌桌 {table} 还没有打过一局：第一局东家坐庄；请把庄家换到东的座位",
    "ledger.no_table": "没有叫 {table} 的牌桌{hint}",
    "ledger.hint_tables": "（牌桌：{tables}）",
    "ledger.hint_no_tables": "（还没有牌桌）",
    "ledger.score_too_large": "牌桌 {table}：{player} 的分数会超过 {limit}，无法精确记录；没有记录",
    "ledger.nothing_to_undo": "牌桌 {table} 没有可以撤销的局",
    "ledger.hand_replaced": "牌桌 {table} 刚刚变了：现在的 {now} 不是显示的 {shown}；没有改动",
    "ledger.no_hand_now": "现在没有第 {number} 局",
    "ledger.no_hand_id": "牌桌 {table} 现在没有这一局 {hand_id}（刚被撤销或修改）；没有改动",
    "ledger.no_such_hand": "牌桌 {table} 没有第 {number} 局（一共 {count} 局）",
    "ledger.table_closed": "牌桌 {table} 已结束（自世界时 {closed} 起）：没有记录；重新打开牌桌才能再记",
    "ledger.stale_revision": "牌桌 {table} 在显示之后变了（{what}）；没有改动：请看一下再试",
    "ledger.since_hand": "记了第{number}手：{result}",
    "ledger.since_edit": "第{number}手改成了：{result}",
    "ledger.since_undo": "撤销了一手",
    "ledger.since_revert": "撤回了一次修改或撤销",
    "ledger.since_seat": "换了座位",
    "ledger.since_dealer": "改了庄家",
    "ledger.since_rules": "换了规则",
    "ledger.since_penalty": "记了或撤回了罚分",
    "ledger.since_close": "牌桌关了或重开了",
    "ledger.since_other": "改了一处",
    "ledger.not_revertible": "牌桌 {table}：第 {revision} 版不是可以撤回的修改或撤销{hint}",
    "ledger.hint_revertible": "（可以撤回的有：{kinds}）",
    "ledger.hint_none": "（一个也没有）",
    "ledger.revert_blocked": "牌桌 {table}：第 {revision} 版改的那一局在第 {later} 版又被修改或撤销了；请先撤回那一版；没有改动",
    "ledger.reverted_already": "牌桌 {table}：第 {revision} 版已经撤回了",
    "ledger.log_damaged": "牌桌 {table}：记录无法重放（{reason}）；账本已损坏",
    "ledger.result_changed": "第{number}手保存的结果与按其录入重算的不符（{what}）",
    "ledger.request_taken": "请求编号 {request_id} 已被使用",
    "ledger.bad_request_id": "请求编号应是 1 到 64 个可打印的 ASCII 字符、不含空格，不是 {request_id}",
    "ledger.request_reused": "请求编号 {request_id} 用在了别的请求上；没有记录（请用新的编号）",
    "ledger.and_more": "（还有 {count} 处）",
    # --- the evening: recording a hand ---
    "record.unknown_pattern": "{ruleset} 没有番种 {pattern}{hint}",
    "record.hint_patterns": "（番种：{patterns}）",
    "record.ambiguous_pattern": "{pattern} 对应 {ruleset} 的不止一个番种：{names}；请写其中一个",
    "record.many_digits": "{digits} 位的数字",
    "record.pattern_count": "{word}：一个番种算 1 到 16 次，不是 {count}",
    "record.pattern_twice": "{name} 写了两次",
    "record.no_patterns": "请至少写一个番种",
    "record.pattern_not_text": "番种要写名字或编号，不是 {value}",
    "record.total_or_patterns": "请给合计或番种（二选一）",
    "record.total_range": "合计应在 0 到 {limit} 之间，不是 {total}",
    "record.pattern_implies": "{name} 就是这样和的：已选 {flag}",
    "record.pattern_contradicts": "{name} 和这手牌不符：它要{rule}；没有记录",
    "record.patterns_no_shape": "{a} 和 {b} 不能是同一手牌（没有一手牌两个都有）；没有记录",
    "record.pattern_added": "已加上 {name}：它要{rule}",
    "rule.dealer": "庄家和牌，或庄家点炮",
    "rule.self_draw": "自摸",
    "rule.sea_bottom": "和最后一张牌",
    "rule.kong_bloom": "杠后补牌自摸",
    "rule.heavenly": "庄家起手就和（还没打过牌）",
    "rule.earthly": "闲家在第一次打牌前和",
    "rule.dealer_win": "庄家和牌",
    "rule.tuidaohe": "和牌，且没有代替它的番种",
    "rule.rob_kong": "抢杠和",
    "rule.concealed": "门清（没有吃、碰、明杠）",
    "rule.concealed_no_wild": "门清，手里也没有百搭牌",
    "rule.no_wild": "手里没有百搭牌",
    "rule.no_hunr": "手里没有混儿，或唯一的混儿在本混儿龙里",
    "rule.four_wilds": "四张百搭牌都在手里",
    "rule.hui_on_wall": "和牌者把绘上了墙、手里没有绘",
    "rule.hunr_you": "和牌者放过了前面的自摸，现在拿着混儿自摸",
    "rule.seat_wind": "和牌者不是庄家（门风是南、西、北家自己的风）",
    "rule.flown": "和牌者打出过宝（飞宝）",
    "rule.exposed_kong": "和牌者有明杠",
    "rule.concealed_kong": "和牌者有暗杠",
    "rule.jiebao": "和牌者接宝",
    "rule.four_wild": "和牌者这一局摸到了四张宝",
    "rule.every_pung": "每组都是刻子或杠",
    "rule.big_single_wait": "亮了四组，剩下的一张和牌",
    "rule.single_wait": "四组都已亮出或暗杠，剩下的一张和牌",
    "rule.pungs_with_wild": "每组都是刻子或杠，且有宝代替别的牌",
    "rule.pungs_without_wild": "每组都是刻子或杠，且没有宝代替别的牌",
    "rule.pungs_wild_single": "碰碰糊，且宝吊头和牌",
    "rule.pungs_wild_single_none": "碰碰糊，且宝吊无宝",
    "rule.pure_pairs": "七对里没有宝代替别的牌",
    "rule.both": "它合起来的番种都写了",
    "rule.earthly_dealer": "闲家和庄家打出的第一张牌",
    "told.rule_shape": "牌型里有它",
    "told.count_once": "{name} 一手牌只算一次，不是 ×{count}；没有记录",
    "told.count_most": "{name} 一手牌最多算 {most} 次，不是 ×{count}；没有记录",
    "told.no_facts": "这个局况下没有一手牌能有这些番种；没有记录",
    "told.names_no_hand": "{names} 不能是同一手牌（没有一手牌全都有）；没有记录",
    "told.total_unreachable": "{ruleset} 没有一手牌是 {total} {unit}（接近的有：{near}）；没有记录",
    "told.total_below_situation": "这个局况本身就有 {least} {unit}（{how}）：{total} 太少；没有记录",
    "told.total_like_automatic": "{total} {unit} 正是 {name} 的数：如果这手是 {name}，按自摸付——请写番种 {name}",
    "told.taken_concealed": "这手牌当作门清（没说吃碰），开了门付的钱不一样：吃碰过请写明几组",
    "told.no_base": "{ruleset} 按基本牌型算分：请写一个（{bases}）",
    "told.worth_nothing": "{ruleset}：和牌至少 {least} {unit}（{why}）；这些番种算出来是 0",
    "told.taken_open": "{reason}（没写 {patterns}，这手牌就当作开了门）",
    "told.untold_kongs": "和牌者是明杠还是暗杠，这里付的钱不一样：请写明（暗杠、明杠，或从某家杠来的明杠：明杠:座位）；没有记录",
    "told.bad_kong": "{value} 不是杠：暗杠（concealed）、明杠（exposed），或 exposed:座位（从该家杠来）",
    "told.many_kongs": "一手牌最多 4 个杠，这里有 {count} 个",
    "told.melds_many": "一手牌最多 4 组明牌和杠（吃、碰、杠），这里有 {count} 组",
    "told.wild_roles": "0（没有百搭代替别的牌：无宝）或 1，不是 {value}",
    "told.unknown_fact": "{name} 不是一手牌能说的（open、kongs、wild_roles）",
    "told.total_beyond": "{total} {unit} 比 {ruleset} 任何一手牌都大（最多 {most}）；没有记录",
    "told.total_is_flat": "这个局况下这手牌就是 {name}，固定 {value}：合计是 {value}，不是 {total}；没有记录",
    "told.total_below_flat": "这个局况下这手牌至少是 {name}，{value} {unit}：{total} 太少；没有记录",
    "told.total_like_flat": "{total} {unit} 是 {name} 的固定数：请写番种 {name}，或写出各个番种；没有记录",
    "record.total_unusual": "{total} {unit} 比 {ruleset} 一手牌通常的最大值还大（{usual}：{how}）；没有记录——确实要记，请再确认一次",
    "record.total_above_cap": "{total} {unit} 超过 {ruleset} 的封顶 {cap}，按 {cap} 付；没有记录——确实要记，请再确认一次",
    "table.total_unusual_ask": "{total} {unit} 比 {ruleset} 一手牌通常的最大值还大（{usual}：{how}）。要记下吗？",
    "table.total_above_cap_ask": "{total} {unit} 超过 {ruleset} 的封顶 {cap}，按 {cap} 付。要记下吗？",
    "record.no_penalties": "{ruleset} 没有规定罚分（自定义规则可以加上罚分）",
    "record.no_penalty": "{ruleset} 没有罚分 {name}{hint}",
    "record.penalty_needs_to": "{name} 付给一位玩家：请指定付给谁",
    "record.penalty_to_self": "{name}：{player} 不能付给自己",
    "record.penalty_pays_each": "{name} 付给其他每一位玩家：不用指定付给谁",
    "record.reason_too_long": "原因最多 {limit} 个字符，这里有 {size} 个",
    "record.duplicate": "第 {duplicate_of} 局（{result}；编号 {hand_id}）{seconds} 秒前刚从{where}记过，这一局和它一样：没有记录（确实要记两次，请再确认）",
    "record.duplicate_phone": "另一部手机",
    "record.duplicate_cli": "命令行",
    "record.bad_client_id": "设备编号应是 1 到 64 个可打印的 ASCII 字符、不含空格，不是 {client_id}",
    "record.total_below_least": "{ruleset}：和牌至少 {least} {unit}（{why}），这里是 {total}；没有记录",
    "record.total_unreadable": "{total} 不是合计：请写数字（3、３、三、十二）",
    "record.total_unit": "{total}：{ruleset} 按{unit}算",
    "record.cap_total": "{total} {unit}；{ruleset} 一手牌封顶 {cap}",
    "record.cap_patterns": "番种加起来 {total} {unit}；{ruleset} 一手牌封顶 {cap}",
    "record.patterns_excluded": "{patterns} 不算：被另一个算数的番种代替了（规则里的不重复计，或更大的基本牌型）",
    "record.not_14_tiles": "牌桌记的是和了的 14 张牌；{hand} 有 {size} 张",
    "record.not_winning": "没有和牌：{reason}；没有记录",
    "record.no_shape": "不是和牌的牌型",
    "record.not_legal": "不能这样和：{reason}；没有记录",
    "record.later_hand_fails": "第 {number} 局就不能这样和了（{reason}）；没有改动",
    "record.kept_changing": "牌桌 {table} 一直在变；没有记录，请再试一次",
    "table.done_hand": "记为第 {number} 局",
    "table.done_undo": "撤销了第 {number} 局",
    "table.done_edit": "改写了第 {number} 局",
    "table.done_revert": "撤回了第 {revision} 版",
    "table.done_new": "开了牌桌 {table}",
    "table.done_penalty": "罚分",
    "play.undo_words": "undo 只接受局数和 y（`undo`、`undo 3`、`undo y`），不是 {words}",
    # --- the server's API ---
    "api.unknown_ruleset": "不认识的规则 {name}；这里有：{known}",
    "api.players_object": "应是 {shape}",
    "api.players_seat": "{seat} 不是座位（E、S、W 或 N）",
    "api.undo_names_hand": "请说撤销哪一局：显示的编号，或局数加上看到的版本；没有撤销",
    "api.seat_takes": "请按座位（E、S、W、N）给出玩家，或给庄家，或两样都给",
    "api.hand_or_agreed": "请给这手牌，或牌桌上说定的合计或番种（二选一）",
    "api.told_with_tiles": "吃碰、杠、无宝只用于不写牌的一手（写了牌，牌里就有）",
    "api.input_too_deep": "输入嵌套太深",
    "api.not_an_object": "请求内容应是一个 JSON 对象",
    "api.unknown_field": "不认识的字段 {name}{hint}",
    "api.wrong_type": "应是{types}，不是 {value}",
    "api.either": "{a}或{b}",
    "api.type_text": "文字",
    "api.type_flag": "true 或 false",
    "api.type_int": "整数",
    "api.type_list": "列表",
    "api.type_object": "对象",
    "api.missing_field": "缺少字段 {name}",
    "api.lang": "语言应是 \"zh\" 或 \"en\"",
    "api.too_long": "太长（{length} 个字符）",
    "api.not_a_json_value": "{name} 不是 JSON 的值",
    "api.foreign_host": "这个服务只回应 127.0.0.1 或 localhost",
    "api.token": "缺少口令或口令不对：请打开 `mjcalc serve` 显示的网址，或重新扫它的二维码（服务重新启动后口令会变）",
    "api.too_large": "请求太大：{size} 字节（最多 {limit}）",
    "api.bad_json": "请求内容不是有效的 JSON：{reason}",
    "api.body_too_deep": "请求内容嵌套太深",
    "api.no_page": "没有这个页面：{path}",
    "api.no_table_name": "路径里缺少牌桌的名字",
    "api.no_endpoint": "没有这个接口：{path}",
    "api.internal": "内部错误（详见服务的日志）",
    "api.lone_surrogate": "不是文字：JSON 字符串里有单独的代理字符 {char}；什么都没做",
    "api.foreign_origin": "这个服务只接受自己页面（{expected}）的写入，不接受 {origin}",
    "api.foreign_host_named": "这个服务只回应 {names}",
    "api.body_timeout": "请求内容收到 {got} 字节后停了 {seconds} 秒（应有 {size} 字节）；什么都没做",
    "api.body_short": "请求内容只有 {got} 字节（应有 {size} 字节）；什么都没做",
    "api.no_table": "没有叫 {table} 的牌桌",
    "api.by": "应是 \"win\" 或 \"value\"，不是 {value}",
    "api.draws": "应是 {least} 到 {most} 的整数，不是 {value}",
    "api.by_needs_14_tiles": "算每张弃牌的和牌机会和期望得分要 14 张牌；这手牌有 {size} 张",
    "api.needs_by": "只在算弃牌的和牌机会或期望得分时用",
    "api.duplicate_key": "请求内容里 {name} 出现了两次；什么都没做",
    "api.header_twice": "请求里有两个 {header} 头；什么都没做",
    "api.absolute_target": "请求应是本服务上的路径（/api/…），不是完整的网址；什么都没做",
    "api.headers_timeout": "请求行和请求头在 {seconds} 秒内没有收全；什么都没做",
    "api.too_many_connections": "同一地址的连接太多（同时最多 {most} 个）；什么都没做，请再试",
    "ledger.read_only": "文件系统是只读的：这个服务只能查看牌桌（启动时无法写入账本）；什么都没写",
}
