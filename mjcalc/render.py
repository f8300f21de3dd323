"""Each command's answer as one document (`Doc`: its JSON and its text blocks), and the rows and dicts it is
made of; no printing here (output.py prints)."""
import re
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Dict, Iterable, List, Literal, Mapping, Optional, Sequence, Tuple

from .analysis import Analysis, WaitResult
from .decompose import Block
from .errors import Notice
from .flags import flag_of
from .hand import Hand
from .messages import Message
from .notation import format_hand
from .regions.base import AnyReading, AtDraw, Region
from .ruleset import Penalty, Ruleset
from .scoring import Score, Tiles
from .shapes import IRREGULAR, KNITTED
from .tiles import HONORS, NAMES, NUM_KINDS, SEATS, format_tiles, tile_text

if TYPE_CHECKING:  # for annotations only: each is imported by the command that uses it (start-up time)
    from .advice import Advice, DiscardAdvice
    from .glossary import Term
    from .shanten import Improvement
    from .value import DiscardValue, ValueAdvice

Tone = Literal["good", "bad", "strong"]  # how a front end colours a text (None: plain)
TotalKind = Literal["unit", "flat"]  # what a total counts (`total_kind`)
Row = List[object]  # a table's row: each cell printed as text, or a (text, tone) pair
# A wait's row (`wait_rows`): its tile (or tiles), its copies left, and its verdicts (self-drawn, on a discard)
WaitRow = Tuple[str, int, Tuple[str, ...]]

SHAPE_NAMES = {
    "standard": ("四组一对", "sets and a pair"),
    "seven_pairs": ("七对", "seven pairs"),
    "thirteen_orphans": ("十三幺", "thirteen orphans"),
    "thirteen_lonely": ("十三浪", "thirteen lonely"),
    "nine_terminals": ("九幺", "nine terminals"),
    "knitted": ("全不靠", "knitted"),
    "knitted_straight": ("组合龙", "knitted straight"),
}


def bonus_text(result: Analysis, lang: str) -> str:
    """The bonus points a win is paid beside its total, by the patterns that give them (in `lang`): `  (+2 花牌,
    paid beside the total)`; '' without."""
    score = result.score
    if score is None or not score.bonus:
        return ""
    bonus = [result.ruleset.pattern(m.pattern_id) for m in score.matches]
    names = ", ".join(dict.fromkeys(p.zh if lang == "zh" else p.en for p in bonus if p.role == "bonus"))
    return f"  (+{score.bonus} {names}, paid beside the total)"


def shape_name(reading: AnyReading, lang: str) -> str:
    """The reading's shape in words: 全不靠 holding all seven honors is 七星不靠, as the players call it."""
    shape = reading.shape or ""
    if shape == KNITTED and set(HONORS) <= {t for block in reading.blocks for t in block.tiles}:
        return "七星不靠" if lang == "zh" else "greater knitted"
    return SHAPE_NAMES[shape][0 if lang == "zh" else 1]


def block_text(block: Block, glyphs: bool = False) -> str:
    """A block of a decomposition: `123m`; an irregular shape keeps its groups apart (`19m 19p …`)."""
    text = format_tiles(block.tiles, glyphs)
    return text if block.kind in IRREGULAR else text.replace(" ", "")


def waits_text(waits: Iterable[int], glyphs: bool = False) -> str:
    return " ".join(tile_text(t, glyphs) for t in waits)


def all_kinds_note(waits: Sequence[int]) -> str:
    return "every tile completes it" if len(waits) == NUM_KINDS else ""


def automatic_name(analysis: Analysis, lang: str = "zh") -> str:
    """The name of the region's win whatever the shape that applies to the hand, or ''."""
    return analysis.ruleset.pattern(analysis.automatic).name(lang) if analysis.automatic else ""


def every_tile_text(analysis: Analysis, lang: str = "zh") -> str:
    """`every tile wins (四惠牌)`: what a hand that wins on any tile it can draw says instead of its waits."""
    name = automatic_name(analysis, lang)
    return "every tile wins" + (f" ({name})" if name else "")


def total_kind(analysis: Analysis, score: Score) -> TotalKind:
    """What a score's total counts: "unit" (the ruleset's unit, 番 台 分, paid by the scheme's table) or "flat"
    (a fixed amount each payer pays times 底分: a pattern the region pays flat was scored)."""
    return "flat" if any(analysis.region.paid_flat(analysis.ruleset, m.pattern_id) for m in score.matches) else "unit"


def total_text(analysis: Analysis, score: Score, lang: str, long: bool = False) -> str:
    """A legal total as what is paid: `3 番`; a flat one `16 flat` (`long`: and what that means, for the total
    line of a scored hand: a flat 16 is not 16 番)."""
    unit = analysis.ruleset.unit(lang)
    if total_kind(analysis, score) == "unit":
        return f"{score.total} {unit}"
    if long:
        return f"{score.total} flat (a fixed amount × 底分, not {score.total} {unit})"
    return f"{score.total} flat"


def decomposition_blocks(analysis: Analysis, glyphs: bool = False) -> List[str]:
    reading = analysis.score.reading if analysis.score else None
    if reading is None or reading.decomposition is None:
        return []
    blocks = [block_text(b, glyphs) for b in reading.decomposition.blocks]
    assert analysis.hand is not None  # a decomposition is of tiles
    return blocks + [m.text(glyphs) for m in analysis.hand.melds]


def pattern_rows(analysis: Analysis, lang: str) -> List[Row]:
    rules = analysis.ruleset
    rows: List[Row] = []
    assert analysis.score is not None  # a complete hand's
    for m in analysis.score.matches:
        p = rules.pattern(m.pattern_id)
        shown: object = f"×{m.value}" if p.role == "multiplier" else (f"+{m.value}" if p.role == "bonus" else m.value)
        if analysis.region.paid_flat(rules, m.pattern_id):
            shown = f"{m.value} flat"
        rows.append([p.name(lang), m.pattern_id, shown])
    return rows


def seat_roles(analysis: Analysis) -> Dict[str, str]:
    """Each seat's roles in the hand, as the region names them."""
    self_drawn = analysis.score.self_drawn if analysis.score else analysis.situation.self_drawn
    roles = analysis.region.seat_roles(analysis.situation, self_drawn)
    return {seat: ", ".join(tags) for seat, tags in roles.items()}


def payout_rows(analysis: Analysis, lang: str) -> Tuple[List[str], List[List[object]]]:
    payout = analysis.payout
    assert payout is not None  # a legal win's
    headers = ["seat", "role"] + [zh if lang == "zh" else en for zh, en, _ in payout.parts] + ["total"]
    roles = seat_roles(analysis)
    total = payout.deltas
    rows: List[List[object]] = [[seat, roles[seat], *(part[2][seat] for part in payout.parts), total[seat]]
                                for seat in SEATS]
    return headers, rows


def reason_text(score: Score, said_in: str = "en") -> Optional[str]:
    """Why a score is not a legal win (`Score.reason`, a message), said in `said_in`; None for a legal win."""
    return score.reason.text(said_in) if score.reason is not None else None


def _score_dict(score: Score, said_in: str = "en") -> Dict[str, Any]:
    return {"legal": score.legal, "total": score.total if score.complete else None,
            "reason": reason_text(score, said_in)}


def analysis_json(analysis: Analysis, lang: str, said_in: str = "en") -> Dict[str, Any]:
    """`analyze --json`: names (patterns, payout parts) in `lang`, the reason a hand is refused in `said_in` (the
    language messages are said in)."""
    hand, score = analysis.hand, analysis.score
    assert hand is not None  # an analysis of tiles
    reading = score.reading if score else None
    out: Dict[str, Any] = {
        "ruleset": analysis.ruleset.id,
        "hand": format_hand(hand),
        "tiles": hand.size,
        "winning_tile": tile_text(hand.winning) if hand.winning is not None else None,
        "winning_tile_implied": bool(hand.winning_implied),
        "wildcards": [NAMES[k] for k in analysis.wild_kinds],
        "complete": bool(score and score.complete),
        "legal": bool(score and score.legal),
        "reason": reason_text(score, said_in) if score else Message("render.not_complete_13").text(said_in),
        "shape": reading.shape if reading else None,
        "decomposition": decomposition_blocks(analysis),
        "wild_as": [NAMES[t] for t in reading.decomposition.wild_as] if reading and reading.decomposition else [],
        "decompositions": len(score.decompositions) if score else 0,
        "automatic": analysis.automatic,
        "every_tile": analysis.every_tile,
        "patterns": [],
        "total": None,
        "total_kind": None,
        "unit": analysis.ruleset.unit_zh,
        "bonus": None,
        "payouts": None,
        "payout_parts": [],
        "waits": [],
        "discards": [],
        "warnings": [str(w) for w in analysis.warnings],
    }
    if score and score.complete:
        rules = analysis.ruleset
        out["patterns"] = [
            {"id": m.pattern_id, "name": rules.pattern(m.pattern_id).name(lang), "value": m.value,
             "role": rules.pattern(m.pattern_id).role, "count": m.count}
            for m in score.matches
        ]
        out["total"] = score.total
        out["total_kind"] = total_kind(analysis, score)
        out["bonus"] = score.bonus
    if analysis.payout:
        out["payouts"] = analysis.payout.deltas
        out["payout_parts"] = [{"name": zh if lang == "zh" else en, "payouts": d} for zh, en, d in analysis.payout.parts]
    out["waits"] = [wait_json(analysis, w, said_in) for w in analysis.waits]
    if analysis.wild_draw is not None:  # as `waits --json` says it
        out["wild_draw"] = {"left": analysis.wild_draw}
    out["discards"] = [{"discard": tile_text(t), "waits": [NAMES[x] for x in ws]} for t, ws in analysis.discards]
    return out


def wait_rows(analysis: Analysis, glyphs: bool = False, said_in: str = "en") -> List[WaitRow]:
    """A row per wait: the tile, copies left, what it scores self-drawn and, where a discard win can be, on a
    discard. A hand that wins on every tile has a row per verdict instead: its tiles (`every tile` when they
    all score alike) and their copies left together."""
    rows: List[WaitRow] = []
    for w in analysis.waits:
        verdicts: Tuple[str, ...] = (_verdict(analysis, w.self_draw, said_in),)
        if analysis.discard_wins:
            verdicts += (_verdict(analysis, w.discard, said_in),)
        rows.append((tile_text(w.tile, glyphs), w.left, verdicts))
    if not analysis.every_tile:
        return rows
    groups: Dict[Tuple[str, ...], List[WaitRow]] = {}
    for row in rows:
        groups.setdefault(row[2], []).append(row)
    if len(groups) == 1:
        return [("every tile", sum(w.left for w in analysis.waits), next(iter(groups)))]
    return [(" ".join(r[0] for r in group), sum(r[1] for r in group), verdict) for verdict, group in groups.items()]


def _verdict(analysis: Analysis, score: Optional[Score], said_in: str = "en") -> str:
    if score is None:
        return ""
    if score.legal:
        return str(score.total) + (" flat" if total_kind(analysis, score) == "flat" else "")
    return f"no: {reason_text(score, said_in)}"


def wild_line(analysis: Analysis) -> str:
    rules = analysis.ruleset
    if not analysis.wild_kinds:
        return ""
    kinds = ", ".join(NAMES[k] for k in analysis.wild_kinds)
    return f"{rules.wild_zh} ({rules.wild_en}): {kinds}"


def stand_in_line(analysis: Analysis) -> str:
    reading = analysis.score.reading if analysis.score else None
    tiles = analysis.tiles
    if not reading or not reading.decomposition or not isinstance(tiles, Tiles):
        return ""
    parts = []
    faces = list(tiles.faces)  # a wildcard standing for its own face is shown as itself
    blocks = reading.decomposition.blocks
    for b in blocks:
        for t in b.wild_as:
            own = t in faces
            if own:
                faces.remove(t)
            # a hand that is one block (十三幺, the knitted shapes) is not repeated for each wildcard
            parts.append(f"{NAMES[t]}{' (itself)' if own else ''}" + (f" in {block_text(b)}" if len(blocks) > 1 else ""))
    if not parts:
        return ""
    return f"{analysis.ruleset.wild_zh} stand for: " + ", ".join(parts)


def hand_text(analysis: Analysis, glyphs: bool = False) -> str:
    assert analysis.hand is not None  # an analysis of tiles
    return analysis.hand.text(glyphs)


# --- compare and advise -------------------------------------------------------------------------------


def _on_discard(wait: WaitResult) -> Score:
    """The wait won on a discard: `analyze` scores every wait both ways."""
    assert wait.discard is not None  # `WaitResult.discard` is Optional, but `analyze` always scores it
    return wait.discard


def given_score(analysis: Analysis, wait: WaitResult) -> Score:
    """The score of a wait won the way the situation says (self-draw unless --from)."""
    return wait.self_draw if analysis.situation.self_drawn else _on_discard(wait)


def wait_json(analysis: Analysis, w: WaitResult, said_in: str = "en") -> Dict[str, Any]:
    given = given_score(analysis, w)
    return {
        "tile": NAMES[w.tile], "left": w.left, "legal": given.legal,
        "total": given.total if given.legal else None,
        "total_kind": total_kind(analysis, given) if given.legal else None,
        "self_draw": _score_dict(w.self_draw, said_in), "discard": _score_dict(_on_discard(w), said_in),
    }


NO_BREAK = "\u00a0"  # holds a figure and its unit on one line of a wrapped cell (`16 点`); printed as a space


def _unbroken(text: str) -> str:
    """`text` with each number held to the word after it (`16 点`, `(3 left)`) when a cell is wrapped."""
    return re.sub(r"(\d) ", "\\1" + NO_BREAK, text)


def compare_column(analysis: Analysis, lang: str, glyphs: bool = False,
                   said_in: str = "en") -> Dict[str, List[Tuple[str, Optional[Tone]]]]:
    """One ruleset's column of `compare`: verdict, best reading, patterns, total, payouts (or waits); a refusal's
    reason said in `said_in`.

    Values are (text, tone) pairs where tone is "good", "bad", "strong" or None, for the caller to colour.
    """
    score = analysis.score
    col: Dict[str, List[Tuple[str, Optional[Tone]]]] = {}
    if score is None:
        lines: List[Tuple[str, Optional[Tone]]] = []
        by_verdict: Dict[Tuple[str, bool], List[WaitResult]] = {}
        for w in analysis.waits:
            given = given_score(analysis, w)
            verdict = _unbroken(total_text(analysis, given, lang)) if given.legal else \
                f"no: {reason_text(given, said_in)}"
            by_verdict.setdefault((verdict, given.legal), []).append(w)
            lines.append((f"{tile_text(w.tile, glyphs)}{NO_BREAK}({w.left}{NO_BREAK}left) {verdict}"
                          if not given.legal else NO_BREAK.join([tile_text(w.tile, glyphs), f"({w.left}", "left)",
                                                                 verdict]), "good" if given.legal else "bad"))
        if analysis.every_tile:  # a line for each verdict, not one for each of some thirty kinds
            lines = []
            for (verdict, legal), ws in by_verdict.items():
                which = every_tile_text(analysis, lang) if len(by_verdict) == 1 else \
                    " ".join(tile_text(w.tile, glyphs) for w in ws)
                lines.append((f"{which} ({sum(w.left for w in ws)} left) {verdict}", "good" if legal else "bad"))
        col["waits"] = lines or [("none: not ready", "bad")]
        return col
    if not score.complete:
        col["legal"] = [("no: not a winning shape", "bad")]
        return col
    col["legal"] = [("yes", "good")] if score.legal else [(f"no: {reason_text(score, said_in)}", "bad")]
    blocks = decomposition_blocks(analysis, glyphs)
    if blocks:
        col["best"] = [(" ".join(blocks), None)]
    col["patterns"] = [(f"{name} {value}", "strong") for name, _, value in pattern_rows(analysis, lang)] or [("—", None)]
    col["total"] = [(_unbroken(total_text(analysis, score, lang)) + (f" (+{score.bonus})" if score.bonus else ""),
                     None)]
    if analysis.payout:
        for seat in SEATS:
            amount = analysis.payout.deltas[seat]
            col[seat] = [(f"{amount:+d}" if amount else "0", None)]
    return col


COMPARE_ROWS = ("legal", "waits", "best", "patterns", "total") + tuple(SEATS)


def compare_row_label(key: str, analysis_list: Sequence[Analysis]) -> str:
    if key in SEATS:
        roles = seat_roles(analysis_list[0]) if analysis_list else {}
        return f"{key} ({roles[key]})" if roles.get(key) else key
    return key


def advice_json(advice: "Advice", lang: str, said_in: str = "en") -> Dict[str, Any]:
    """`advise --json`: shanten, improvements (13 tiles) or ranked discards (14 tiles); reasons in `said_in`."""
    analysis = advice.analysis
    hand = analysis.hand
    assert hand is not None  # advice is on tiles
    out: Dict[str, Any] = {
        "ruleset": analysis.ruleset.id,
        "hand": format_hand(hand),
        "tiles": hand.size,
        "wildcards": [NAMES[k] for k in analysis.wild_kinds],
        "shanten": advice.shanten,
        "shanten_by_shape": dict(advice.by_shape),
        "automatic": analysis.automatic,
        "every_tile": analysis.every_tile,
        "win": win_json(analysis, lang),
        "win_now": win_now(analysis),
        "improvements": [{"tile": NAMES[i.tile], "left": i.left} for i in advice.improvements],
        "effective": sum(i.left for i in advice.improvements),
        "waits": [wait_json(analysis, w, said_in) for w in analysis.waits],
        "discards": [],
        "warnings": [str(w) for w in analysis.warnings],
    }
    for d in advice.discards or ():
        out["discards"].append({
            "discard": tile_text(d.tile), "wild": d.wild, "shanten": d.shanten, "effective": d.effective,
            "improvements": [{"tile": NAMES[i.tile], "left": i.left} for i in d.improvements],
            "waits": [wait_json(analysis, w, said_in) for w in d.waits],
        })
    return out


def win_now(analysis: Analysis) -> Optional[int]:
    """What 14 tiles that are a legal win as they stand pay the player's seat (less what the hand pays whoever
    wins it, as `advise --by` counts it), or None."""
    return analysis.payout.win_deltas[analysis.situation.seat] if analysis.payout else None


def win_json(analysis: Analysis, lang: str) -> Optional[Dict[str, Any]]:
    """14 tiles that are a legal win as they stand: the total, what it counts and the patterns; else None."""
    score = analysis.score
    if score is None or not score.legal:
        return None
    return {"total": score.total, "total_kind": total_kind(analysis, score),
            "patterns": [{"id": m.pattern_id, "name": analysis.ruleset.pattern(m.pattern_id).name(lang),
                          "value": m.value} for m in score.matches]}


def win_text(analysis: Analysis, lang: str) -> str:
    """`already a win: 9 番 (庄 1 + 四惠牌 8), +27 to you; …`, ranked above every discard."""
    score = analysis.score
    assert score is not None  # a legal win's
    names = " + ".join(f"{name} {value}" for name, _, value in pattern_rows(analysis, lang))
    return (f"already a win: {total_text(analysis, score, lang)}" + (f" ({names})" if names else "")
            + f", {win_now(analysis):+d} to you; declare it (`mjcalc analyze`), every discard below gives it up")


def improvements_text(improvements: Iterable["Improvement"], glyphs: bool = False) -> str:
    return " ".join(f"{tile_text(i.tile, glyphs)}×{i.left}" for i in improvements)


def discard_rows(advice: "Advice", glyphs: bool = False, lang: str = "zh") -> List[Row]:
    """A row per discard; one leaving a hand that wins on any tile says so (its JSON lists the kinds)."""
    assert advice.discards is not None  # 14 tiles
    every = every_tile_text(advice.analysis, lang)
    return [[discard_label(d, glyphs), d.shanten, d.effective,
             every if d.every_tile else improvements_text(d.improvements, glyphs)] for d in advice.discards]


def discard_label(d: "DiscardAdvice", glyphs: bool = False) -> str:
    """A discard of `advise` as the text shows it: its tile, and `(wild)` when it is a wildcard."""
    return tile_text(d.tile, glyphs) + (" (wild)" if d.wild else "")


def shanten_text(advice: "Advice", lang: str) -> str:
    value = advice.shanten
    word = {-1: "complete 和了", 0: "ready 听牌"}.get(value, f"{value} from ready")
    if advice.by_shape and value < min(advice.by_shape.values()):  # the region's win whatever the shape
        result = advice.analysis
        word += f": {automatic_name(result, lang)} wins whatever the shape" if value < 0 else \
            f": {every_tile_text(result, lang)}"
    shapes = ", ".join(f"{SHAPE_NAMES[s][0 if lang == 'zh' else 1]} {v}" for s, v in sorted(advice.by_shape.items(),
                                                                                          key=lambda kv: kv[1]))
    return f"{value} ({word})   [{shapes}]" if len(advice.by_shape) > 1 else f"{value} ({word})"


# --- documents: what each command says, built once, printed by output.py as text or JSON -----------------


# A block of a document's text, by its first item: ("field", label, text, tone), ("line", text, tone), ("table",
# headers, rows) or ("text", text). Not a union of the four: output.py reads `block[0]` into a name first, which
# does not narrow one.
DocBlock = Tuple[Any, ...]


class Doc:
    """One command's answer: `data` (the JSON document) and `blocks` (its text layout), with `warnings`.

    Blocks are ("field", label, text, tone), ("line", text, tone), ("table", headers, rows) and ("text", lines):
    a cell or a text may be a (text, tone) pair, tone one of "good", "bad", "strong" or None; "text" is lines laid
    out already (a `table` command fits its own to the terminal), printed as they are, every control character
    escaped.
    """

    def __init__(self, data: Any = None, warnings: Iterable[Notice] = ()) -> None:
        self.data = data  # a JSON document: an object, or a list of them (`compare`, `rulesets`)
        self.blocks: List[DocBlock] = []
        self.warnings = list(warnings)

    def field(self, label: str, text: object, tone: Optional[Tone] = None) -> None:
        self.blocks.append(("field", label, text, tone))

    def line(self, text: object = "", tone: Optional[Tone] = None) -> None:
        self.blocks.append(("line", text, tone))

    def table(self, headers: Iterable[object], rows: Iterable[Iterable[object]]) -> None:
        self.blocks.append(("table", list(headers), [list(r) for r in rows]))

    def text(self, *lines: str) -> None:
        """Lines laid out already (one or more to a string), each printed as it is."""
        self.blocks += [("text", str(line)) for line in lines]


def _not_assumed(notices: Iterable[Notice]) -> List[Notice]:
    """The warnings for stderr: the seat assumed is said in the answer itself (`assumed_field`)."""
    return [n for n in notices if not getattr(n, "assumed", False)]


def assumed_field(doc: Doc, notices: Iterable[Notice]) -> None:
    """`seat      assumed E, the dealer (…)` when the seat or the dealer was not given."""
    for notice in notices:
        if getattr(notice, "assumed", False):
            doc.field(notice.field or "", notice.detail)
            return


def analysis_doc(result: Analysis, lang: str, glyphs: bool = False, said_in: str = "en") -> Doc:
    """`analyze`: the hand, its wildcards, then the score and payouts (14 tiles) or the waits (13); names in
    `lang`, a refusal's reason in `said_in`."""
    rules = result.ruleset
    doc = Doc(analysis_json(result, lang, said_in), _not_assumed(result.warnings))
    doc.field("hand", f"{hand_text(result, glyphs)}   ({rules.name(lang)}, {rules.id})")
    assumed_field(doc, result.warnings)
    if result.hand is not None and result.hand.winning_implied:
        doc.field("", "(no '+': the last tile written is taken as the winning tile)")
    if result.wild_kinds:
        doc.field("wild", wild_line(result))
    score = result.score
    if score is None:
        ghosts = None if result.wild_draw is None else f"a {rules.wild_zh} (*) drawn: {result.wild_draw} left"
        if not result.waits:
            doc.field("waits", f"no tile kind, but {ghosts}" if ghosts else "none: this hand is not ready")
            return doc
        doc.field("waits", waits_line(result, lang, glyphs))
        if ghosts:
            doc.field("", f"and {ghosts}")
        waits_table(doc, result, lang, glyphs, said_in)
        return doc
    if not score.complete:
        doc.field("complete", "no: not a winning shape", "bad")
        doc.field("shanten", f"{result.shanten}   (mjcalc advise ranks every discard)")
        if result.discards:
            doc.table(["discard", "leaves waits on"],
                      [[tile_text(t, glyphs), waits_text(ws, glyphs)] for t, ws in result.discards])
        else:
            doc.field("", "no discard leaves it ready")
        return doc
    count = len(score.decompositions)
    if result.automatic and not count:
        doc.field("complete", f"yes: {automatic_name(result, lang)} wins whatever the shape (no decomposition)")
    else:
        doc.field("complete", f"yes, {count} decomposition{'s' if count != 1 else ''}")
    blocks = decomposition_blocks(result, glyphs)
    if blocks and score.reading is not None and score.reading.shape is not None:
        doc.field("best", f"{' '.join(blocks)}   ({shape_name(score.reading, lang)})")
    stand = stand_in_line(result)
    if stand:
        doc.field("", stand)
    if score.matches:
        doc.table(["pattern", "id", rules.unit(lang)],
                  [[(row[0], "strong")] + row[1:] for row in pattern_rows(result, lang)])
    doc.field("total", total_text(result, score, lang, long=True) + bonus_text(result, lang))
    if not score.legal:
        doc.field("legal", f"no: {reason_text(score, said_in)}", "bad")
        return doc
    doc.field("legal", "yes", "good")
    headers, rows = payout_rows(result, lang)
    doc.table(headers, rows)
    return doc


def waits_line(result: Analysis, lang: str, glyphs: bool = False) -> str:
    """The waits as a line: `2m 5p 8s`, or `every tile wins (四惠牌): 1m 2m …` (the kinds with copies left)."""
    tiles = waits_text([w.tile for w in result.waits], glyphs)
    if result.every_tile:
        return f"{every_tile_text(result, lang)}: {tiles}"
    note = all_kinds_note([w.tile for w in result.waits])
    return tiles + (f"   ({note})" if note else "")


def waits_table(doc: Doc, result: Analysis, lang: str, glyphs: bool = False, said_in: str = "en") -> None:
    """Each wait, its tiles left, and what it scores as a self-draw and on a discard (or why it cannot win). A
    ruleset where no discard win can be in this situation (`Region.discard_wins`) has no discard column: it
    would say the same refusal on every row; a line under the table says it once."""
    unit = result.ruleset.unit(lang)
    rows = [[tile, left] + [(c, "bad" if c.startswith("no") else "good") for c in verdicts]
            for tile, left, verdicts in wait_rows(result, glyphs, said_in)]
    headers = ["wait", "left", f"self-draw ({unit})"] + ([f"discard ({unit})"] if result.discard_wins else [])
    doc.table(headers, rows)
    refused = next((reason_text(w.discard, said_in) for w in result.waits
                    if w.discard is not None and not w.discard.legal), None)
    if not result.discard_wins and refused:
        doc.line(f"(no discard column: {refused})")


def short_waits_lines(doc: Doc, rules: Ruleset, short: Tuple[Sequence[int], Sequence[int]], glyphs: bool) -> None:
    """Below the waits, those that complete the shape but not the minimum a win needs (`analysis.short_waits`)."""
    drawn, never = short

    def names(tiles: Sequence[int]) -> str:
        return " ".join(tile_text(t, glyphs) for t in tiles)
    need = f"{rules.minimum} {rules.unit_zh}"
    doc.data["below_minimum"] = {"minimum": rules.minimum, "self_drawn_only": [NAMES[t] for t in drawn],
                                 "never": [NAMES[t] for t in never]}
    if never:
        doc.line(f"{names(never)}: complete{'s' if len(never) == 1 else ''} the shape, but below the {need} a win "
                 f"needs (self-drawn or on a discard)")
    if drawn:
        doc.line(f"{names(drawn)}: reach{'es' if len(drawn) == 1 else ''} the {need} a win needs only self-drawn")


def waits_doc(hand: Hand, found: Sequence[Tuple[int, int]], glyphs: bool = False, every: Optional[str] = None,
              at_draw: Optional[Tuple[AtDraw, str]] = None, never: Optional[str] = None,
              wild_draw: Optional[Tuple[int, str]] = None) -> Doc:
    """`waits HAND`: each wait and the tiles left. `every`: the hand wins on every tile it can draw, by the win
    of that name ('' for its shape); `found` then holds the kinds with copies left. `at_draw`: what the hand is
    paid when the wall runs out, where the ruleset pays ready hands (`analysis.ready_at_draw`), and its unit.
    `never`: why the hand waits on nothing whatever its shape (`Region.never_ready`), as said. `wild_draw`: where a
    wildcard is no tile kind (`*`), how many are left when drawing one wins, and the wildcard's name."""
    doc = Doc({"hand": str(hand), "waits": [{"tile": NAMES[t], "left": left} for t, left in found]})
    if wild_draw is not None:
        doc.data["wild_draw"] = {"left": wild_draw[0]}
        if not found:
            doc.line(f"no tile kind wins it, but a {wild_draw[1]} (*) drawn does: {wild_draw[0]} left")
            return doc
    if every is not None:
        doc.data["every_tile"] = True
    if at_draw is not None:
        best, unit = at_draw
        doc.data["at_draw"] = {"ready": True, "total": best.total, "uncapped": best.uncapped, "tile": NAMES[best.tile],
                               "dead": [NAMES[t] for t in best.dead]}
    if never is not None:
        doc.data["never_ready"] = never
    if not found:
        doc.line(f"no waits: {never}" if never is not None else "no waits: this hand is not ready"
                 if at_draw is None else "no tile left can win it, but it is ready when the wall runs out")
    else:
        doc.table(["wait", "left"], [[tile_text(t, glyphs), left] for t, left in found])
        note = ("every tile wins" + (f" ({every})" if every else "")) if every is not None else \
            all_kinds_note([t for t, _ in found])
        if note:
            doc.line(note)
        if wild_draw is not None:
            doc.line(f"and a {wild_draw[1]} (*) drawn: {wild_draw[0]} left")
    if at_draw is not None:
        best, unit = at_draw
        capped = f" (paid as {best.total})" if best.uncapped > best.total else ""
        dead = f"; {', '.join(tile_text(t, glyphs) for t in best.dead)} counts, though every copy is the hand's own" \
            if best.dead else ""
        doc.line(f"at a draw (查大叫): paid as its best win, {best.uncapped} {unit}{capped} on "
                 f"{tile_text(best.tile, glyphs)}{dead}")
    return doc


def compare_doc(hand_written: str, results: Sequence[Tuple[Ruleset, Optional[Analysis], Optional[str]]],
                lang: str, glyphs: bool = False, unused: Optional[Mapping[str, Sequence[str]]] = None,
                said_in: str = "en") -> Doc:
    """`compare`: a column per ruleset (an error in its column when it cannot take the situation, as said)."""

    doc = Doc([analysis_json(a, lang, said_in) if a else {"ruleset": r.id, "error": str(e)} for r, a, e in results])
    analyses = [a for _, a, _ in results if a]
    columns: List[Dict[str, List[Tuple[str, Optional[Tone]]]]] = []
    headers = [""]
    for r, a, error in results:
        headers.append(f"{r.id}\n{r.name(lang)}")
        columns.append(compare_column(a, lang, glyphs, said_in) if a else {"legal": [(f"error: {error}", "bad")]})
    rows: List[Row] = []
    for key in COMPARE_ROWS:
        if any(key in c for c in columns):
            rows.append([compare_row_label(key, analyses)] + [c.get(key, [("", None)]) for c in columns])
    doc.field("hand", hand_text(analyses[0], glyphs) if analyses else hand_written)
    wild = [f"{a.ruleset.id}: {wild_line(a)}" for a in analyses if a.wild_kinds]
    if wild:
        doc.field("wild", "; ".join(wild))
    doc.table(headers, rows)
    waiting = [a for a in analyses if a.score is None and a.waits]
    if waiting:  # what the figures of the waits are: the hand won the way the situation says
        doc.line("the waits' figures are what each would score self-drawn (--from SEAT: won on a discard)"
                 if waiting[0].situation.self_drawn else
                 f"the waits' figures are what each would score won on {waiting[0].situation.discarder}'s discard")
    for flag, ids in (unused or {}).items():
        doc.line(f"note: {flag} is not used by {', '.join(ids)} (ignored there)")
    if analyses:
        assumed_field(doc, analyses[0].warnings)
    return doc


def advice_doc(advice: "Advice", lang: str, glyphs: bool = False, said_in: str = "en") -> Doc:
    """`advise`: shanten, then improving tiles (13 tiles) or every discard ranked with the best ones' waits."""
    result = advice.analysis
    rules = result.ruleset
    doc = Doc(advice_json(advice, lang, said_in), _not_assumed(result.warnings))
    doc.field("hand", f"{hand_text(result, glyphs)}   ({rules.name(lang)}, {rules.id})")
    assumed_field(doc, result.warnings)
    if result.wild_kinds:
        doc.field("wild", wild_line(result))
    doc.field("shanten", shanten_text(advice, lang))
    if advice.discards is None:
        effective = sum(i.left for i in advice.improvements)
        doc.field("improve", f"{effective} tiles: {improvements_text(advice.improvements, glyphs)}")
        if result.waits:
            doc.field("waits", waits_line(result, lang, glyphs))
            waits_table(doc, result, lang, glyphs, said_in)
        return doc
    if result.score is not None and result.score.legal:
        doc.field("win", win_text(result, lang), "good")
    doc.table(["discard", "shanten", "tiles", "improved by (kind×left)"], discard_rows(advice, glyphs, lang))
    # (discards, what they leave, its table): discards in a row leaving the same, as one
    groups: List[Tuple[List["DiscardAdvice"], str, List[DocBlock]]] = []
    for d in advice.discards:
        if d.waits:
            assert d.after is not None  # the 13 tiles left, analyzed: their waits were scored
            shown = replace(d.after, waits=d.waits)
            said = every_tile_text(shown, lang) if d.every_tile else "waits " + waits_line(shown, lang, glyphs)
            table = Doc()
            waits_table(table, shown, lang, glyphs, said_in)
            if groups and groups[-1][1:] == (said, table.blocks):
                groups[-1][0].append(d)
            else:
                groups.append(([d], said, table.blocks))
    for ds, said, blocks in groups:
        doc.line()
        doc.line(f"discard {', '.join(tile_text(d.tile, glyphs) for d in ds)}: {said}")
        doc.blocks += blocks
    unscored = [d for d in advice.discards if d.shanten == 0 and not d.waits]
    if unscored and any(d.waits for d in advice.discards):
        ready = " ".join(tile_text(d.tile, glyphs) for d in unscored)
        doc.line()
        doc.line(f"(also ready after discarding {ready}: `mjcalc analyze` that hand for its waits' scores)")
    return doc


def value_into(doc: Doc, advice: "Advice", valued: "ValueAdvice", lang: str, glyphs: bool = False) -> None:
    """`advise --by win|value`: on each discard of the JSON its P(win), expected payout and likely patterns (null:
    not valued), `ranked` (the valued discards, best for the objective first), `narrowed` (the discards the work cap
    weighed by a narrower play, `~`) and `work` (the work spent, `value.Engine.spent`); in the text, a table of
    them."""
    rules = advice.analysis.ruleset
    assert advice.discards is not None  # 14 tiles

    def top(v: "DiscardValue") -> List[Dict[str, Any]]:
        return [{"patterns": list(ids), "names": [rules.pattern(i).name(lang) for i in ids], "p": q}
                for ids, q in v.top_patterns]

    by_tile = {v.tile: v for v in valued.discards}
    data = doc.data
    data.update({"by": valued.by, "draws": valued.draws, "unseen": valued.unseen, "exact": valued.exact,
                 "win_now": valued.win_now, "model": "alone" if valued.rivals is None else "table",
                 **({} if valued.rivals is None else {"loss": round(valued.loss, 2)})})
    label: Dict[int, str] = {}
    shown: Dict[int, str] = {}
    for d, row in zip(advice.discards, data["discards"]):
        v = by_tile.get(d.tile)
        label[d.tile] = row["discard"]
        shown[d.tile] = discard_label(d, glyphs)
        row["p_win"] = v.p_win if v else None
        row["expected"] = v.expected if v else None
        row["exact"] = v.exact if v else None
        row["top_patterns"] = top(v) if v else None
    data["ranked"] = [label[v.tile] for v in valued.discards]  # one wildcard discard, as advise ranks them
    data["narrowed"] = [label[t] for t in valued.narrowed]
    data["work"] = valued.work
    note = "exact" if valued.exact else (f"~: a narrower play weighed, without exchanges (its "
                                         f"{'P(win)' if valued.by == 'win' else 'expected'} is a lower bound), "
                                         "or far from ready an estimate")
    if valued.could_be_exact:
        note += "; --exact weighs them (slower)"
    doc.line()
    capped = f" (of the {valued.asked_draws} asked)" if valued.asked_draws not in (None, valued.draws) else ""
    draws = f"{valued.draws} draw{'' if valued.draws == 1 else 's'}"
    doc.line(f"by {valued.by}: {draws}{capped} from {valued.unseen} unseen tiles, {note}")
    analysis = advice.analysis
    assert analysis.hand is not None  # advice is of tiles
    if valued.rivals is not None:
        claims = (f"claims a pung or a chow where the rules allow it and it pays, and another may win first, costing "
                  f"you {valued.loss:.2f}")
        if analysis.region.may_win_on_discard(rules, analysis.situation, analysis.hand,
                                              bool(analysis.tiles.wild_kinds)):
            doc.line(f"at the table: a ready hand also wins on the others' discards, one not ready {claims} (--alone: "
                     "the player alone, self-draws only)")
        else:
            doc.line(f"at the table: this hand wins by self-draw only here, {claims} (--alone: the player alone)")
    doc.line(f"expected: the payout to you a deal, in points at 底分 {analysis.situation.base} (what the table pays)")
    if valued.dropped:
        doc.line(f"({', '.join(flag_of(name) for name in valued.dropped)}: this moment's; the draws to come are "
                 "self-draws without them)")
    if valued.win_now is not None:
        doc.line(f"as they stand the 14 tiles are a legal win, {valued.win_now:+d} to you (`mjcalc analyze`); "
                 "the figures below are for throwing a tile instead")
    rows: List[Row] = []
    for v in valued.discards:
        plain = "无番" if lang == "zh" else "no pattern"  # a win of no pattern (sichuan's 平和)
        likely = ", ".join(f"{'+'.join(rules.pattern(i).name(lang) for i in ids) or plain} {q:.1%}"
                           for ids, q in v.top_patterns if q >= 0.0005)  # what would show as 0.0% is the JSON's
        rows.append([shown[v.tile] + ("" if v.exact else " ~"), v.shanten, f"{v.p_win:.1%}",
                     f"{v.expected:.2f}", likely])
    doc.table(["discard", "shanten", "P(win)", "expected", "most likely winning patterns"], rows)
    if valued.skipped:
        doc.line(f"(not valued, further from ready: {' '.join(tile_text(t, glyphs) for t in valued.skipped)})")
    if valued.narrowed:
        doc.line(f"(the work cap narrowed the play weighed for {' '.join(tile_text(t, glyphs) for t in valued.narrowed)}: "
                 "no exchanges, or one discard weighed after a useful draw, or, far from ready, an estimate along one "
                 "path to ready, not a bound)")


def rulesets_doc(rulesets: Sequence[Ruleset]) -> Doc:
    """`rulesets`: the built-in rulesets."""
    rows = [[r.id, r.zh, r.en, ", ".join(r.aliases), r.path.replace("\\", "/").rsplit("/", 1)[-1]] for r in rulesets]
    doc = Doc([{"id": r.id, "zh": r.zh, "en": r.en, "aliases": list(r.aliases), "region": r.region}
               for r in rulesets])
    doc.table(["id", "名称", "name", "aliases", "file"], rows)
    return doc


def ruleset_doc(rules: Ruleset, region: Region, lang: str) -> Doc:
    """`rulesets show`: a ruleset's wildcards, shapes, win rules, patterns and payout, in words."""
    doc = Doc({"id": rules.id, "region": rules.region, "patterns": [
        {"id": p.id, "name": p.name(lang), "value": p.value, "role": p.role, "excludes": list(p.excludes)}
        for p in rules.patterns], "payout": rules.payout, "params": dict(rules.payout_params),
        "options": list(rules.options)})
    doc.line(f"{rules.id}: {rules.zh} / {rules.en}   ({rules.path})")
    if rules.description:
        doc.line(rules.description)
    wild = f"{rules.wild_zh} ({rules.wild_en}), up to {rules.wild_kinds} kind(s)" if rules.wild_kinds else "none"
    doc.line(f"wildcards: {wild};  shapes: {', '.join(rules.shapes)};  unit: {rules.unit_zh} ({rules.unit_en})")
    concealed_rob = rules.robbable_concealed_kong
    if concealed_rob not in ("any", "never"):
        concealed_rob = f"only to complete {rules.pattern(concealed_rob).zh}"
    doc.line(f"wins: discard {rules.discard}, rob a kong {rules.rob_kong}"
             + (" (scored and paid as a self-draw)" if rules.rob_kong_as_self_draw else "")
             + (f", rob a concealed kong {concealed_rob}" if rules.robbable_concealed_kong != "never" else "")
             + (f", more than {rules.max_wilds_on_discard} {rules.wild_zh} must self-draw"
                if rules.max_wilds_on_discard is not None else "")
             + f";  minimum {rules.minimum}" + (f";  cap {rules.cap}" if rules.cap is not None else ""))
    rows: List[Row] = []
    for p in rules.patterns:
        value: object = f"×{p.value}" if p.role == "multiplier" else p.value
        if p.scale == "power":
            value = f"{p.value}^n" if p.role == "multiplier" else f"{p.value}·2^n"
        if p.param("discard_value") is not None:
            value = f"{value} (on a discard: {p.param('discard_value')})"
        if p.param("without_wild") is not None:
            value = f"{value} (no {rules.wild_zh}: {p.param('without_wild')})"
        rows.append([p.id, p.name(lang), value, p.role, ", ".join(p.excludes)])
    doc.table(["id", "pattern", rules.unit(lang), "role", "replaces"], rows)
    for line in region.describe(rules):
        doc.line(line)
    _penalties_into(doc, rules, region, lang)
    return doc


def _penalties_into(doc: Doc, rules: Ruleset, region: Region, lang: str) -> None:
    """The penalties `table penalty` takes at a table of these rules: each by its name and id, who is paid and
    what, at 底分 1 (the JSON's `penalties`, with that `amount`)."""
    unit = region.schemes[rules.payout].unit_points

    def amount(p: Penalty) -> int:
        if p.points is not None:
            return p.points
        assert p.total is not None  # a penalty is its points or a hand's total (validated by ruleset.py)
        return unit(p.total, rules)

    doc.data["penalties"] = [{"id": p.id, "zh": p.zh, "en": p.en, "pays": p.pays, "points": p.points,
                              "total": p.total, "amount": amount(p)} for p in rules.penalties]
    if not rules.penalties:
        doc.line("penalties: none; `mjcalc table penalty` takes none at a table of these rules (a house ruleset "
                 "may declare them: `penalties:`)")
        return
    doc.line("penalties, between hands (mjcalc table penalty NAME --player PLAYER):")
    rows: List[Row] = []
    for p, data in zip(rules.penalties, doc.data["penalties"]):
        paid = (f"{data['amount']} × 底分" if p.points is not None
                else f"{data['amount']} × 底分 (a {p.total} {rules.unit(lang)} hand)")
        if p.gets:  # money the ruleset pays the player (kong money): the others pay him
            between = "from each other player" if p.pays == "each" else "from one player (--to)"
        else:
            between = "to each other player" if p.pays == "each" else "to one player (--to)"
        rows.append([p.name(lang), p.id, between, paid])
    doc.table(["penalty", "id", "the player pays / is paid", "each is paid"], rows)


def glossary_doc(terms: Sequence["Term"]) -> Doc:
    """`explain` alone: every term of the glossary, in Chinese, pinyin and English."""
    doc = Doc([{"zh": t.zh, "pinyin": t.pinyin, "en": t.en} for t in terms])
    doc.table(["术语", "pinyin", "term"], [[t.zh, t.pinyin, t.en] for t in terms])
    return doc


def terms_doc(terms: Sequence["Term"]) -> Doc:

    """`explain TERM`: the entries the word names (more than one when a spelling is shared)."""
    doc = Doc([{"zh": t.zh, "pinyin": t.pinyin, "en": t.en, "aliases": list(t.aliases),
                "patterns": list(t.patterns), "text": t.text} for t in terms])
    for i, t in enumerate(terms):
        if i:
            doc.line()
        doc.line(f"{t.zh} ({t.pinyin}) — {t.en}", "strong")
        doc.line(t.text)
        if t.aliases:
            doc.line(f"also: {', '.join(t.aliases)}")
        if t.patterns:
            doc.line(f"pattern ids: {', '.join(t.patterns)}")
    return doc
