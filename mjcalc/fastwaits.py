"""Waits of plain 13-tile lines, fast: the `waits --batch` path for rulesets of the standard shape (and 七对).

A *plain* line holds only digit groups with m/p/s, the letters E S W N C F P, `*` and spaces, in groups the
notation accepts, with 13 tiles and at most four of a kind. Anything else gives None and the caller uses the
full parser, so every error message stays the full parser's. Answers equal `shapes.WaitFinder`'s (and so
`shapes.waits`): the same per-unit needs, read from the table of `shapes.load_suit_table` and memoised on each
suit's digit string, the same rule for where the pair goes, the same 七对, wildcard and 4-copies rules.
"""
import re
from typing import Dict

from .shapes import POW5, SUIT_MISSING, SUIT_SIZE, build_suit_table, load_suit_table
from .tiles import NAMES

MAX_INPUT = 200  # notation.MAX_INPUT: a longer line goes to the full parser, which rejects it

# The canonical order (m, p, s digit groups, then honors), in one match; other plain lines take _PLAIN.
try:  # possessive quantifiers (Python 3.11+) spare the matcher its backtracking
    _CANON = re.compile(r"(?:([1-9]++)m)?+(?: *+([1-9]++)p)?+(?: *+([1-9]++)s)?+([ ESWNCFP*]*+)")
except re.error:
    _CANON = re.compile(r"(?:([1-9]+)m)?(?: *([1-9]+)p)?(?: *([1-9]+)s)?([ ESWNCFP*]*)")
_PLAIN = re.compile(r"(?:[1-9]+[mps]|[ ESWNCFP*])+")
_GROUP = re.compile(r"([1-9]+)([mps])")
_NOT_HONOR = str.maketrans("", "", "123456789mps ")
_WEIGHT = {str(r + 1): POW5[r] for r in range(9)}  # a digit's share of its suit's table index

# An honor kind holding n natural copies: (a, b) = _need((n,), False), and the same after drawing one more.
_HONOR_NEED = ((0, 2), (2, 1), (1, 0), (0, 2), (2, 1))
_HONOR_LETTERS = "ESWNCFP"
ALL_KINDS = (1 << 34) - 1


class _Suit:
    """A suit held in a 13-tile hand, from its digit string (see `_suit`).

    `a` and `a + d` are its needs without and with the pair, `odd` the ranks with an odd count. `masks()` gives
    the ranks with an odd count and with four copies; `draws(room, other)` the ranks whose draw completes the
    hand when `room` wildcards are left for this suit and the cheapest pair elsewhere costs `other` more than
    none. A rank with four copies is never a draw (no fifth copy is a wait).
    """

    __slots__ = ("a", "d", "odd", "idx", "odd_mask", "four", "memo")

    def __init__(self, a, d, odd, idx):
        self.a, self.d, self.odd, self.idx = a, d, odd, idx
        self.odd_mask = self.four = self.memo = None

    def masks(self):
        if self.four is None:
            odd_mask = four = 0
            for r in range(9):
                n = self.idx // POW5[r] % 5
                if n & 1:
                    odd_mask |= 1 << r
                elif n == 4:
                    four |= 1 << r
            self.odd_mask, self.four = odd_mask, four
        return self.odd_mask, self.four

    def draws(self, room: int, other: int, table) -> int:
        key = room * 8 + other  # other is -1..2
        if self.memo is None:
            self.memo = {}
        mask = self.memo.get(key)
        if mask is None:
            mask = 0
            idx = self.idx
            for r in range(9):
                p = POW5[r]
                if idx // p % 5 < 4:
                    grown = table[idx + p]  # at most 13 + 1 tiles in the suit: stored
                    if grown >> 4 <= room or (grown & 15) + other <= room:
                        mask |= 1 << r
            self.memo[key] = mask
        return mask


def _suit(digits: str, table):
    """The `_Suit` of a digit string of 1-9, or None when a rank has more than four copies or the suit more
    than 13 tiles (not a plain 13-tile line: the full parser has the words)."""
    idx = sum(map(_WEIGHT.__getitem__, digits))
    if len(digits) > 13 or idx >= SUIT_SIZE:
        return None
    shape = table[SUIT_SIZE + idx]
    if shape == SUIT_MISSING or shape & 15 != len(digits):  # a fifth copy carried into the next rank
        return None
    packed = table[idx]
    a = packed & 15
    return _Suit(a, (packed >> 4) - a, shape >> 4, idx)


class _Honors:
    """The seven honor kinds of a hand, bits at 27-33: needs, the two smallest d, odd and full kinds.

    `groups` gathers the kinds by count: (b - a, b2 - a, a2 - a, mask) for each count below four that is held,
    a, b the kind's needs and a2, b2 the same after drawing it; `memo` keeps `draws` by (slack, low1, low2).
    """

    __slots__ = ("a", "d1", "d2", "groups", "odd_mask", "odd", "four", "memo")

    def __init__(self, counts: tuple):
        a_total = 0
        ds = []
        by_count = [0, 0, 0, 0, 0]
        odd_mask = odd = 0
        bit = 1 << 27
        for n in counts:
            a, b = _HONOR_NEED[n]
            a_total += a
            ds.append(b - a)
            by_count[n] |= bit
            if n & 1:
                odd_mask |= bit
                odd += 1
            bit <<= 1
        ds.sort()
        self.a, self.d1, self.d2 = a_total, ds[0], ds[1]
        self.groups = tuple(_HONOR_GROUP[n] + (by_count[n],) for n in range(4) if by_count[n])
        self.odd_mask, self.odd, self.four = odd_mask, odd, by_count[4]
        self.memo: Dict[int, int] = {}

    def draws(self, slack: int, low1: int, low2: int) -> int:
        """The honor kinds whose draw completes the hand, `slack` wildcards to spare beyond every need."""
        key = slack * 16 + low1 * 4 + low2  # low1, low2 are -1..2
        mask = self.memo.get(key)
        if mask is None:
            mask = 0
            for d, b2, a2, bits in self.groups:
                other = low2 if d == low1 else low1
                if b2 <= slack or a2 + other <= slack:
                    mask |= bits
            self.memo[key] = mask
        return mask


def _a_relative(n):
    a, b = _HONOR_NEED[n]
    a2, b2 = _HONOR_NEED[n + 1]
    return b - a, b2 - a, a2 - a


_HONOR_GROUP = tuple(_a_relative(n) for n in range(4))


def _honor_text(rest: str):
    """(honor counts, stars, tiles, honors info or None when a kind has more than four) of the honors text."""
    counts = tuple(rest.count(c) for c in _HONOR_LETTERS)
    stars = rest.count("*")
    return counts, stars, sum(counts) + stars, _Honors(counts) if max(counts) <= 4 else None


class _Memo(dict):
    """A dict that computes a missing value with `make(key)` and keeps it."""

    def __init__(self, make):
        super().__init__()
        self.make = make

    def __missing__(self, key):
        value = self[key] = self.make(key)
        return value


class FastWaits:
    """Waits of plain lines under shapes ⊆ {standard, seven_pairs} (standard included) and `wild_kinds`."""

    def __init__(self, seven_pairs: bool, wild_kinds=(), refer_at: int = 5):
        """`refer_at`: a line holding that many copies of one wild kind (a `*` counting as its face) is left to
        the full path (None), where the region's win whatever the shape is looked at."""
        self.seven_pairs = seven_pairs
        self.refer_at = refer_at
        self.wild_kinds = tuple(wild_kinds)
        self.table = table = load_suit_table(build_suit_table)
        self.suits = _Memo(lambda digits: _suit(digits, table))
        self.honor_text = _Memo(_honor_text)
        self.honors = _Memo(_Honors)
        self.texts = {0: "-\n"}  # no waits
        self.wild_mask = 0
        for t in self.wild_kinds:
            self.wild_mask |= 1 << t
        # wild kinds by suit (the digit to strip) and as honors (the index to zero)
        self.strip = [[str(t % 9 + 1) for t in self.wild_kinds if t < 27 and t // 9 == s] for s in range(3)]
        self.wild_honors = [t - 27 for t in self.wild_kinds if t >= 27]
        self.star_face = self.wild_kinds[0] if self.wild_kinds else -1
        # (kind, suit index or 3, digit or honor index, bit) of each wild kind
        self.wild_where = [(t, t // 9, str(t % 9 + 1), 1 << t) if t < 27 else (t, 3, t - 27, 1 << t)
                           for t in self.wild_kinds]

    def read(self, line: str):
        """(m, p, s digit strings, honor counts, stars, honors info) of a plain 13-tile line, or None."""
        if len(line) > MAX_INPUT:
            return None
        match = _CANON.fullmatch(line)
        if match is not None:
            m, p, s, rest = match.groups("")
        elif _PLAIN.fullmatch(line):
            groups = {"m": "", "p": "", "s": ""}
            for digits, suit in _GROUP.findall(line):
                groups[suit] += digits
            m, p, s = groups["m"], groups["p"], groups["s"]
            rest = line.translate(_NOT_HONOR)
        else:
            return None
        counts, stars, tiles, honors = self.honor_text[rest]
        if len(m) + len(p) + len(s) + tiles != 13 or honors is None:
            return None
        return m, p, s, counts, stars, honors

    def mask(self, line: str):
        """The waits of a plain line as a bit mask over the 34 kinds, or None: use the full parser."""
        match = _CANON.fullmatch(line) if len(line) <= MAX_INPUT else None
        if match is not None:  # `read`, inlined for the usual line
            m, p, s, rest = match.groups("")
            honor_counts, stars, tiles, honors = self.honor_text[rest]
            if len(m) + len(p) + len(s) + tiles != 13 or honors is None:
                return None
        else:
            read = self.read(line)
            if read is None:
                return None
            m, p, s, honor_counts, stars, honors = read
        suits = self.suits
        sm, sp, ss = suits[m], suits[p], suits[s]
        if sm is None or sp is None or ss is None:
            return None
        if not self.wild_kinds:
            return self._mask(sm, sp, ss, honors, stars, 0)
        # wild kinds: naturals leave them out; a wild kind's copies held count the wildcards of its face
        digit_strings = (m, p, s)
        wilds = stars
        four = 0
        for t, x, ch, bit in self.wild_where:
            n = digit_strings[x].count(ch) if x < 3 else honor_counts[ch]
            wilds += n
            if t == self.star_face:
                n += stars
                if n > 4:
                    return None  # prepare() has the words
            if n >= self.refer_at:
                return None
            if n >= 4:
                four |= bit
        units = []
        for x, digits in enumerate(digit_strings):
            for ch in self.strip[x]:
                digits = digits.replace(ch, "")
            units.append(suits[digits])
        if self.wild_honors:
            naturals = list(honor_counts)
            for h in self.wild_honors:
                naturals[h] = 0
            honors = self.honors[tuple(naturals)]
        return self._mask(units[0], units[1], units[2], honors, wilds, four)

    def held(self, suits, honor_counts, stars):
        """Copies held of each kind: every tile of the line, a `*` counting as its face."""
        held = [0] * 34
        for x, digits in enumerate(suits):
            for ch in digits:
                held[9 * x + ord(ch) - 49] += 1
        held[27:] = honor_counts
        if self.star_face >= 0:
            held[self.star_face] += stars
        return held

    def _mask(self, s0, s1, s2, honors, wilds, four):
        """`WaitFinder.waits` as a bit mask: the units' rows, the pair's best place, 七对, wild kinds, 4 copies.

        A unit with needs a (no pair) and a + d (pair), drawing a tile that makes them a2, b2, completes the
        hand when b2 <= room or a2 + other <= room: room = wildcards - the other units' needs, other = the
        cheapest d elsewhere (2: a pair of wildcards). A draw lowers a need by at most one and d >= -1, so
        with slack = wildcards - every need, a unit can only complete when d or other is at most slack + 1,
        and no unit can when slack < -2 (most hands stop there).
        """
        mask = 0
        slack = wilds - honors.a - s0.a - s1.a - s2.a
        if slack >= -2:
            low1, low2 = honors.d1, honors.d2  # the two smallest d; honors' d are -1 or 2
            for d in (s0.d, s1.d, s2.d):
                if d < low1:
                    low1, low2 = d, low1
                elif d < low2:
                    low2 = d
            near = slack + 1
            shift = 0
            for unit in (s0, s1, s2):
                d = unit.d
                other = low2 if d == low1 else low1
                if d <= near or other <= near:
                    mask |= unit.draws(slack + unit.a, other, self.table) << shift
                shift += 9
            if honors.groups:
                mask |= honors.draws(slack, low1, low2)
        else:
            low1 = 2
        odd = 99
        if self.seven_pairs:
            odd = s0.odd + s1.odd + s2.odd + honors.odd
            if odd == wilds + 1:  # the odd kinds (never four copies)
                mask |= s0.masks()[0] | s1.masks()[0] << 9 | s2.masks()[0] << 18 | honors.odd_mask
            elif odd < wilds + 1:  # every kind but those with four copies
                mask = ALL_KINDS & ~(s0.masks()[1] | s1.masks()[1] << 9 | s2.masks()[1] << 18 | honors.four)
        if self.wild_mask:
            mask &= ~self.wild_mask
            if mask or slack + 1 >= low1 or odd <= wilds + 1:  # complete with one more wildcard
                mask |= self.wild_mask
            mask &= ~four  # wild kinds with four copies held (draws never hold a kind's fifth copy)
        return mask

    def text(self, mask: int) -> str:
        """The line the batch prints: the waits' names in canonical order, single spaces (`-` for no waits),
        and a newline."""
        text = self.texts.get(mask)
        if text is None:
            text = self.texts[mask] = (" ".join(NAMES[t] for t in range(34) if mask >> t & 1) or "-") + "\n"
        return text
