"""Rows for tables and dicts for `--json`; no printing here."""
from typing import Dict, List

from .analysis import Analysis
from .decompose import Block
from .notation import format_hand
from .shapes import IRREGULAR
from .tiles import NAMES, NUM_KINDS, SEATS, format_tiles, tile_text

SHAPE_NAMES = {
    "standard": ("四组一对", "sets and a pair"),
    "seven_pairs": ("七对", "seven pairs"),
    "thirteen_orphans": ("十三幺", "thirteen orphans"),
    "thirteen_lonely": ("十三浪", "thirteen lonely"),
    "nine_terminals": ("九幺", "nine terminals"),
}


def block_text(block: Block, glyphs=False) -> str:
    """A block of a decomposition: `123m`; an irregular shape keeps its groups apart (`19m 19p …`)."""
    text = format_tiles(block.tiles, glyphs)
    return text if block.kind in IRREGULAR else text.replace(" ", "")


def waits_text(waits, glyphs=False) -> str:
    return " ".join(tile_text(t, glyphs) for t in waits)


def all_kinds_note(waits) -> str:
    return "every tile completes it" if len(waits) == NUM_KINDS else ""


def decomposition_blocks(analysis: Analysis, glyphs=False) -> List[str]:
    reading = analysis.score.reading if analysis.score else None
    if reading is None or reading.decomposition is None:
        return []
    blocks = [block_text(b, glyphs) for b in reading.decomposition.blocks]
    return blocks + [m.text(glyphs) for m in analysis.hand.melds]


def pattern_rows(analysis: Analysis, lang: str) -> List[List]:
    rules = analysis.ruleset
    rows = []
    for m in analysis.score.matches:
        p = rules.pattern(m.pattern_id)
        shown = f"×{m.value}" if p.role == "multiplier" else (f"+{m.value}" if p.role == "bonus" else m.value)
        rows.append([p.name(lang), m.pattern_id, shown])
    return rows


def seat_roles(analysis: Analysis) -> Dict[str, str]:
    """Each seat's roles in the hand, as the region names them."""
    self_drawn = analysis.score.self_drawn if analysis.score else analysis.situation.self_drawn
    roles = analysis.region.seat_roles(analysis.situation, self_drawn)
    return {seat: ", ".join(tags) for seat, tags in roles.items()}


def payout_rows(analysis: Analysis, lang: str):
    payout = analysis.payout
    headers = ["seat", "role"] + [zh if lang == "zh" else en for zh, en, _ in payout.parts] + ["total"]
    roles = seat_roles(analysis)
    total = payout.deltas
    rows = [[seat, roles[seat]] + [part[2][seat] for part in payout.parts] + [total[seat]] for seat in SEATS]
    return headers, rows


def _score_dict(score):
    return {"legal": score.legal, "total": score.total if score.complete else None, "reason": score.reason}


def analysis_json(analysis: Analysis, lang: str) -> dict:
    hand, score = analysis.hand, analysis.score
    reading = score.reading if score else None
    out = {
        "ruleset": analysis.ruleset.id,
        "hand": format_hand(hand),
        "tiles": hand.size,
        "winning_tile": tile_text(hand.winning) if hand.winning is not None else None,
        "winning_tile_implied": bool(hand.winning_implied),
        "wildcards": [NAMES[k] for k in analysis.wild_kinds],
        "complete": bool(score and score.complete),
        "legal": bool(score and score.legal),
        "reason": score.reason if score else "13 tiles: not a complete hand (see waits)",
        "shape": reading.shape if reading else None,
        "decomposition": decomposition_blocks(analysis),
        "wild_as": [NAMES[t] for t in reading.decomposition.wild_as] if reading and reading.decomposition else [],
        "decompositions": len(score.decompositions) if score else 0,
        "patterns": [],
        "total": None,
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
        out["bonus"] = score.bonus
    if analysis.payout:
        out["payouts"] = analysis.payout.deltas
        out["payout_parts"] = [{"name": zh if lang == "zh" else en, "payouts": d} for zh, en, d in analysis.payout.parts]
    for w in analysis.waits:
        given = w.self_draw if analysis.situation.self_drawn else w.discard
        out["waits"].append({
            "tile": NAMES[w.tile], "left": w.left, "legal": given.legal,
            "total": given.total if given.legal else None,
            "self_draw": _score_dict(w.self_draw), "discard": _score_dict(w.discard),
        })
    out["discards"] = [{"discard": tile_text(t), "waits": [NAMES[x] for x in ws]} for t, ws in analysis.discards]
    return out


def wait_rows(analysis: Analysis, glyphs=False):
    rows = []
    for w in analysis.waits:
        rows.append([
            tile_text(w.tile, glyphs), w.left,
            _verdict(w.self_draw), _verdict(w.discard),
        ])
    return rows


def _verdict(score) -> str:
    if score is None:
        return ""
    if score.legal:
        return str(score.total)
    return f"no: {score.reason}"


def wild_line(analysis: Analysis) -> str:
    rules = analysis.ruleset
    if not analysis.wild_kinds:
        return ""
    kinds = ", ".join(NAMES[k] for k in analysis.wild_kinds)
    return f"{rules.wild_zh} ({rules.wild_en}): {kinds}"


def stand_in_line(analysis: Analysis) -> str:
    reading = analysis.score.reading if analysis.score else None
    if not reading or not reading.decomposition:
        return ""
    parts = []
    faces = list(analysis.tiles.faces)  # a wildcard standing for its own face is shown as itself
    for b in reading.decomposition.blocks:
        for t in b.wild_as:
            own = t in faces
            if own:
                faces.remove(t)
            parts.append(f"{NAMES[t]}{' (itself)' if own else ''} in {block_text(b)}")
    if not parts:
        return ""
    return f"{analysis.ruleset.wild_zh} stand for: " + ", ".join(parts)


def hand_text(analysis: Analysis, glyphs=False) -> str:
    return analysis.hand.text(glyphs)


# --- compare and advise -------------------------------------------------------------------------------


def given_score(analysis: Analysis, wait):
    """The score of a wait won the way the situation says (self-draw unless --from)."""
    return wait.self_draw if analysis.situation.self_drawn else wait.discard


def wait_json(analysis: Analysis, w) -> dict:
    given = given_score(analysis, w)
    return {
        "tile": NAMES[w.tile], "left": w.left, "legal": given.legal,
        "total": given.total if given.legal else None,
        "self_draw": _score_dict(w.self_draw), "discard": _score_dict(w.discard),
    }


def compare_column(analysis: Analysis, lang: str, glyphs=False) -> Dict[str, object]:
    """One ruleset's column of `compare`: verdict, best reading, patterns, total, payouts (or waits).

    Values are (text, tone) pairs where tone is "good", "bad", "strong" or None, for the caller to colour.
    """
    rules, score = analysis.ruleset, analysis.score
    unit = rules.unit(lang)
    col = {}
    if score is None:
        lines = []
        for w in analysis.waits:
            given = given_score(analysis, w)
            verdict = f"{given.total} {unit}" if given.legal else f"no: {given.reason}"
            lines.append((f"{tile_text(w.tile, glyphs)} ({w.left} left) {verdict}", "good" if given.legal else "bad"))
        col["waits"] = lines or [("none: not ready", "bad")]
        return col
    if not score.complete:
        col["legal"] = [("no: not a winning shape", "bad")]
        return col
    col["legal"] = [("yes", "good")] if score.legal else [(f"no: {score.reason}", "bad")]
    blocks = decomposition_blocks(analysis, glyphs)
    if blocks:
        col["best"] = [(" ".join(blocks), None)]
    col["patterns"] = [(f"{name} {value}", "strong") for name, _, value in pattern_rows(analysis, lang)] or [("—", None)]
    col["total"] = [(f"{score.total} {unit}" + (f" (+{score.bonus})" if score.bonus else ""), None)]
    if analysis.payout:
        for seat in SEATS:
            amount = analysis.payout.deltas[seat]
            col[seat] = [(f"{amount:+d}" if amount else "0", None)]
    return col


COMPARE_ROWS = ("legal", "waits", "best", "patterns", "total") + tuple(SEATS)


def compare_row_label(key: str, analysis_list) -> str:
    if key in SEATS:
        roles = seat_roles(analysis_list[0]) if analysis_list else {}
        return f"{key} ({roles[key]})" if roles.get(key) else key
    return key


def advice_json(advice, lang: str) -> dict:
    """`advise --json`: shanten, improvements (13 tiles) or ranked discards (14 tiles)."""
    analysis = advice.analysis
    hand = analysis.hand
    out = {
        "ruleset": analysis.ruleset.id,
        "hand": format_hand(hand),
        "tiles": hand.size,
        "wildcards": [NAMES[k] for k in analysis.wild_kinds],
        "shanten": advice.shanten,
        "shanten_by_shape": dict(advice.by_shape),
        "improvements": [{"tile": NAMES[i.tile], "left": i.left} for i in advice.improvements],
        "effective": sum(i.left for i in advice.improvements),
        "waits": [wait_json(analysis, w) for w in analysis.waits],
        "discards": [],
        "warnings": [str(w) for w in analysis.warnings],
    }
    for d in advice.discards or ():
        out["discards"].append({
            "discard": tile_text(d.tile), "wild": d.wild, "shanten": d.shanten, "effective": d.effective,
            "improvements": [{"tile": NAMES[i.tile], "left": i.left} for i in d.improvements],
            "waits": [wait_json(analysis, w) for w in d.waits],
        })
    return out


def improvements_text(improvements, glyphs=False) -> str:
    return " ".join(f"{tile_text(i.tile, glyphs)}×{i.left}" for i in improvements)


def discard_rows(advice, glyphs=False) -> List[List]:
    rows = []
    for d in advice.discards:
        label = tile_text(d.tile, glyphs) + (" (wild)" if d.wild else "")
        rows.append([label, d.shanten, d.effective, improvements_text(d.improvements, glyphs)])
    return rows


def shanten_text(advice, lang: str) -> str:
    value = advice.shanten
    word = {-1: "complete 和了", 0: "ready 听牌"}.get(value, f"{value} from ready")
    shapes = ", ".join(f"{SHAPE_NAMES[s][0 if lang == 'zh' else 1]} {v}" for s, v in sorted(advice.by_shape.items(),
                                                                                          key=lambda kv: kv[1]))
    return f"{value} ({word})   [{shapes}]" if len(advice.by_shape) > 1 else f"{value} ({word})"
