"""`waits` for one hand or a stream of hands, one answer a line and none lost."""
import json

from .decompose import WaitFinder
from .errors import MjcalcError
from .notation import parse_hand
from .scoring import prepare, resolve_wild_kinds
from .tiles import NAMES


class BatchWaits:
    def __init__(self, ruleset, situation):
        self.ruleset = ruleset
        self.wild_kinds = resolve_wild_kinds(ruleset, situation)
        self.finder = WaitFinder(ruleset.shapes, self.wild_kinds)

    def waits_of(self, text: str):
        hand = parse_hand(text)
        if hand.size != 13:
            raise MjcalcError(f"{hand.size} tiles: waits need a 13-tile hand")
        tiles = prepare(hand, self.wild_kinds)
        found = self.finder.waits(tiles.naturals, tiles.wilds, tiles.melds, tiles.held)
        return hand, [(t, 4 - tiles.held[t]) for t in found]

    def one(self, text: str) -> dict:
        hand, found = self.waits_of(text)
        return {
            "hand": str(hand),
            "waits": [{"tile": NAMES[t], "left": left, "tile_id": t} for t, left in found],
        }

    def run_batch(self, lines, out, as_json: bool) -> int:
        """Write one line per input line; return how many lines were bad."""
        bad = 0
        for number, line in enumerate(lines, 1):
            line = line.rstrip("\r\n")
            try:
                hand, found = self.waits_of(line)
            except MjcalcError as exc:
                bad += 1
                out.write(json.dumps({"line": number, "error": str(exc)}, ensure_ascii=False) + "\n"
                          if as_json else f"error: {exc}\n")
                continue
            if as_json:
                out.write(json.dumps({"hand": str(hand), "waits": [{"tile": NAMES[t], "left": n} for t, n in found]},
                                     ensure_ascii=False) + "\n")
            else:
                out.write(" ".join(NAMES[t] for t, _ in found) + "\n")
        return bad
