"""An independent, slow, obviously-correct reference for the tests of mjcalc.

This module must never import anything from ``mjcalc``: it is the check against the fast engine.
Pure standard library.  Clarity beats speed everywhere; the few speed-ups are explained where they are made.

Tile kinds are ints 0..33::

    0-8   1m..9m        9-17  1p..9p        18-26  1s..9s
    27-30 E S W N       31-33 C(中) F(发) P(白)

Hands are given as a list of 34 counts of *natural* concealed tiles, plus a number of wildcard tiles, plus a
number of melds (each meld is already a complete set, counts as 3 tiles, and only reduces how many sets the
concealed tiles must form).

A wildcard may stand for ANY tile kind, even as a fifth copy.  The definition of "complete with wildcards" is:

    some substitution of every wildcard by a tile kind makes the natural hand complete.

``ref_is_complete_bruteforce`` implements exactly that (try every substitution).  ``ref_is_complete`` computes the
same thing faster (see the comments at each shape for why it is the same); the self-test compares the two on
thousands of random hands.

Shapes (names as strings):

* ``"standard"``         (4 - melds) sets + exactly one pair from the concealed tiles.  A set is a pung (three of
                         a kind) or a chow (three consecutive ranks of one suit; no honor chows, no 8-9-1).
                         Four concealed identical tiles are not a kong; they are just tiles.
* ``"seven_pairs"``      no melds; seven pairs; four identical tiles count as two pairs.
* ``"thirteen_orphans"`` no melds; every one of the 13 terminal/honor kinds, plus one more of them.
* ``"thirteen_lonely"``  no melds; 14 distinct kinds; in each suit any two tiles at least 3 ranks apart.
* ``"nine_terminals"``   no melds; all 14 tiles are terminals or honors, any repeats, no structure.
"""

from functools import lru_cache
from itertools import combinations, combinations_with_replacement, product

# ---------------------------------------------------------------------------------------------------------------
# Tiles
# ---------------------------------------------------------------------------------------------------------------

NUM_KINDS = 34
HONORS = tuple(range(27, 34))
TERMINALS = (0, 8, 9, 17, 18, 26)  # 1m 9m 1p 9p 1s 9s
ORPHANS = TERMINALS + HONORS  # the 13 terminal/honor kinds
HONOR_LETTERS = "ESWNCFP"  # 27..33, in that order
SUIT_LETTERS = "mps"

STANDARD = "standard"
SEVEN_PAIRS = "seven_pairs"
THIRTEEN_ORPHANS = "thirteen_orphans"
THIRTEEN_LONELY = "thirteen_lonely"
NINE_TERMINALS = "nine_terminals"
ALL_SHAPES = frozenset({STANDARD, SEVEN_PAIRS, THIRTEEN_ORPHANS, THIRTEEN_LONELY, NINE_TERMINALS})


def is_honor(kind):
    return kind >= 27


def suit_of(kind):
    """0, 1, 2 for m, p, s; None for honors."""
    return None if is_honor(kind) else kind // 9


def rank_of(kind):
    """1..9 for suited tiles; None for honors."""
    return None if is_honor(kind) else kind % 9 + 1


def is_orphan(kind):
    """A terminal (rank 1 or 9) or an honor."""
    return kind in ORPHANS


def chows_containing(kind):
    """Every chow (a, a+1, a+2) of one suit that contains ``kind``.  Honors are in no chow."""
    if is_honor(kind):
        return []
    result = []
    for low in (kind - 2, kind - 1, kind):
        high = low + 2
        # all three tiles must be in the same suit as ``kind`` (this forbids 8-9-1 wrap-around and crossing suits)
        if low >= 0 and high < 27 and suit_of(low) == suit_of(kind) == suit_of(high):
            result.append((low, low + 1, low + 2))
    return result


def tile_name(kind):
    if not 0 <= kind < NUM_KINDS:
        raise ValueError(f"not a tile kind: {kind!r}")
    if is_honor(kind):
        return HONOR_LETTERS[kind - 27]
    return f"{rank_of(kind)}{SUIT_LETTERS[suit_of(kind)]}"


def tiles_from_text(text):
    """Parse simple text such as ``"123m456p EE C"`` into a list of tile kinds, in written order.

    Digits followed by m/p/s are suited tiles (``123m`` = 1m 2m 3m); ``1z``..``7z`` are E S W N C F P (Chinese
    order: 5z = C 中, 6z = F 发, 7z = P 白); the letters E S W N C F P are honors.  Whitespace is ignored.
    Anything else (including ``0``, digits without a suit, a ``*``) raises ValueError.
    """
    tiles = []
    pending = []  # digits waiting for their suit letter
    for col, ch in enumerate(text):
        if ch.isspace():
            continue
        if ch in "123456789":
            pending.append(int(ch))
        elif ch in SUIT_LETTERS:
            if not pending:
                raise ValueError(f"suit letter {ch!r} without digits at column {col} in {text!r}")
            base = 9 * SUIT_LETTERS.index(ch)
            tiles.extend(base + d - 1 for d in pending)
            pending = []
        elif ch == "z":
            if not pending:
                raise ValueError(f"'z' without digits at column {col} in {text!r}")
            for d in pending:
                if d > 7:
                    raise ValueError(f"{d}z is not an honor (column {col}) in {text!r}")
                tiles.append(27 + d - 1)
            pending = []
        elif ch in HONOR_LETTERS:
            if pending:
                raise ValueError(f"digits without a suit letter before column {col} in {text!r}")
            tiles.append(27 + HONOR_LETTERS.index(ch))
        else:
            raise ValueError(f"unexpected character {ch!r} at column {col} in {text!r}")
    if pending:
        raise ValueError(f"digits without a suit letter at the end of {text!r}")
    return tiles


def counts_from_text(text):
    """Parse simple text such as ``"123m456p EE C"`` into a list of 34 counts (see ``tiles_from_text``)."""
    counts = [0] * NUM_KINDS
    for kind in tiles_from_text(text):
        counts[kind] += 1
    return counts


def counts_to_text(counts):
    """The inverse of ``counts_from_text``, for readable failure messages: ``"123m456p EE C"``."""
    groups = []
    for suit, letter in enumerate(SUIT_LETTERS):
        digits = "".join(str(r + 1) * counts[9 * suit + r] for r in range(9))
        if digits:
            groups.append(digits + letter)
    honors = "".join(HONOR_LETTERS[h - 27] * counts[h] for h in HONORS)
    if honors:
        groups.append(honors)
    return " ".join(groups)


# ---------------------------------------------------------------------------------------------------------------
# Input checks
# ---------------------------------------------------------------------------------------------------------------


def _check_counts(name, counts):
    if len(counts) != NUM_KINDS:
        raise ValueError(f"{name} must have {NUM_KINDS} entries, got {len(counts)}")
    for c in counts:
        if not isinstance(c, int) or c < 0:
            raise ValueError(f"{name} must hold non-negative ints, got {c!r}")


def _check_melds(melds):
    if not isinstance(melds, int) or not 0 <= melds <= 4:
        raise ValueError(f"melds must be an int 0..4, got {melds!r}")


def _check_wilds(wilds):
    if not isinstance(wilds, int) or wilds < 0:
        raise ValueError(f"wilds must be a non-negative int, got {wilds!r}")


def _shape_set(shapes):
    if isinstance(shapes, str):  # a single name passed by mistake for a collection: accept it
        shapes = [shapes]
    shapes = frozenset(shapes)
    unknown = shapes - ALL_SHAPES
    if unknown:
        raise ValueError(f"unknown shape(s): {sorted(unknown)}")
    return shapes


def _check_complete_size(naturals, wilds, melds):
    _check_counts("naturals", naturals)
    _check_wilds(wilds)
    _check_melds(melds)
    expected = 14 - 3 * melds
    if sum(naturals) + wilds != expected:
        raise ValueError(
            f"{sum(naturals)} naturals + {wilds} wilds with {melds} melds: expected {expected} concealed tiles")


# ---------------------------------------------------------------------------------------------------------------
# Natural hands (no wildcards): the plain definitions of each shape
# ---------------------------------------------------------------------------------------------------------------


def _first_kind(counts):
    """The lowest kind with a positive count, or None."""
    for kind in range(NUM_KINDS):
        if counts[kind] > 0:
            return kind
    return None


@lru_cache(maxsize=1 << 20)
def _natural_standard(counts, sets_needed, pairs_needed):
    """Can the natural multiset ``counts`` (a tuple) be split into exactly ``sets_needed`` sets and
    ``pairs_needed`` pairs?

    The lowest remaining tile must be in some block, and being the lowest it is that block's lowest tile: the
    block is a pair or pung of it, or the chow starting at it.  Try each.
    """
    low = _first_kind(counts)
    if low is None:
        return sets_needed == 0 and pairs_needed == 0
    for block, is_pair in _blocks_starting_at(low, sets_needed, pairs_needed):
        rest = _remove(counts, block)
        if rest is not None and _natural_standard(rest, sets_needed - (not is_pair), pairs_needed - is_pair):
            return True
    return False


def _blocks_starting_at(low, sets_needed, pairs_needed):
    """The blocks whose lowest tile is ``low``, as (tiles, is_pair), limited to what is still needed."""
    blocks = []
    if pairs_needed > 0:
        blocks.append(((low, low), True))
    if sets_needed > 0:
        blocks.append(((low, low, low), False))
        if not is_honor(low) and rank_of(low) <= 7:
            blocks.append(((low, low + 1, low + 2), False))
    return blocks


def _remove(counts, tiles):
    """``counts`` (a tuple) minus the tiles, or None if some tile is not there."""
    new = list(counts)
    for t in tiles:
        new[t] -= 1
        if new[t] < 0:
            return None
    return tuple(new)


def _natural_seven_pairs(counts, melds):
    # 14 tiles with every count even are seven pairs (a count of 4 is two pairs).
    return melds == 0 and sum(counts) == 14 and all(c % 2 == 0 for c in counts)


def _natural_thirteen_orphans(counts, melds):
    # 14 tiles, only orphans, each of the 13 orphans at least once: so exactly one orphan is doubled.
    return (melds == 0 and sum(counts) == 14
            and all(counts[k] == 0 for k in range(NUM_KINDS) if not is_orphan(k))
            and all(counts[k] >= 1 for k in ORPHANS))


def _lonely_so_far(counts):
    """No kind twice, and within each suit any two tiles at least 3 ranks apart (no size condition)."""
    if any(c > 1 for c in counts):
        return False
    for suit in range(3):
        ranks = [r for r in range(9) if counts[9 * suit + r] > 0]
        for a, b in combinations(ranks, 2):
            if abs(a - b) < 3:
                return False
    return True


def _natural_thirteen_lonely(counts, melds):
    return melds == 0 and sum(counts) == 14 and _lonely_so_far(counts)


def _natural_nine_terminals(counts, melds):
    return melds == 0 and sum(counts) == 14 and all(counts[k] == 0 for k in range(NUM_KINDS) if not is_orphan(k))


def _natural_complete(shape, counts, melds):
    """Is the natural (wildcard-free) hand complete in this shape?  ``counts`` has 14 - 3*melds tiles."""
    counts = tuple(counts)
    if shape == STANDARD:
        return _natural_standard(counts, 4 - melds, 1)
    if shape == SEVEN_PAIRS:
        return _natural_seven_pairs(counts, melds)
    if shape == THIRTEEN_ORPHANS:
        return _natural_thirteen_orphans(counts, melds)
    if shape == THIRTEEN_LONELY:
        return _natural_thirteen_lonely(counts, melds)
    if shape == NINE_TERMINALS:
        return _natural_nine_terminals(counts, melds)
    raise ValueError(f"unknown shape {shape!r}")


def _substitutions(naturals, wilds):
    """Every substituted natural hand: (counts tuple, stand_ins tuple) for each multiset of stand-ins.

    combinations_with_replacement gives each multiset of stand-ins once (wildcards are interchangeable)."""
    for stand_ins in combinations_with_replacement(range(NUM_KINDS), wilds):
        counts = list(naturals)
        for k in stand_ins:
            counts[k] += 1
        yield tuple(counts), stand_ins


def ref_is_complete_bruteforce(naturals, wilds, melds, shapes):
    """The definition, literally: try every substitution of the wildcards.  Slow (34 multichoose wilds
    substitutions); meant for wilds <= 2 or 3, to check ``ref_is_complete``."""
    _check_complete_size(naturals, wilds, melds)
    shapes = _shape_set(shapes)
    for counts, _ in _substitutions(naturals, wilds):
        if any(_natural_complete(shape, counts, melds) for shape in shapes):
            return True
    return False


def ref_is_complete_within_four(naturals, wilds, melds, shapes, kinds=range(NUM_KINDS)):
    """As ``ref_is_complete_bruteforce``, where no wildcard may make a fifth copy: some substitution of every
    wildcard by one of ``kinds`` leaves no kind with more than four concealed tiles and makes the natural hand
    complete (红中麻将: "手牌与所和的牌张中不能同时存在 5 张及以上相同牌张"; melds are not counted)."""
    _check_complete_size(naturals, wilds, melds)
    shapes = _shape_set(shapes)
    for stand_ins in combinations_with_replacement(tuple(kinds), wilds):
        counts = list(naturals)
        for k in stand_ins:
            counts[k] += 1
        if max(counts) <= 4 and any(_natural_complete(shape, tuple(counts), melds) for shape in shapes):
            return True
    return False


# ---------------------------------------------------------------------------------------------------------------
# Hands with wildcards: the same answers as the brute force, without trying all 34^w substitutions
# ---------------------------------------------------------------------------------------------------------------


@lru_cache(maxsize=1 << 20)
def _standard_with_wilds(counts, wilds, sets_needed, pairs_needed):
    """Can the naturals ``counts`` (a tuple) plus ``wilds`` wildcards be split into exactly ``sets_needed`` sets
    and ``pairs_needed`` pairs, when each wildcard may stand for any kind?

    This is the substitution brute force with each wildcard's stand-in decided only when it is put into a block:

    * No naturals left: the remaining tiles are all wildcards.  They can be split iff their number is exactly
      3*sets + 2*pairs (let them be pungs and a pair of anything).
    * Otherwise let k be the lowest natural kind left.  In any split of any substitution, one natural copy of k
      sits in some block B containing k: a pair kk, a pung kkk, or one of the (up to three) chows containing k.
      Each other position of B holds either a natural tile of that position's kind or a wildcard standing for it.
      We try every such B and every natural/wildcard choice for its other positions, remove those tiles and
      recurse.  Conversely anything this finds is a split of the substitution "each wildcard = the kind of the
      position it took".  So this is exactly "some substitution splits".
    """
    low = _first_kind(counts)
    if low is None:
        return wilds == 3 * sets_needed + 2 * pairs_needed
    candidates = []  # (tiles of the block, is_pair)
    if pairs_needed > 0:
        candidates.append(((low, low), True))
    if sets_needed > 0:
        candidates.append(((low, low, low), False))
        for chow in chows_containing(low):
            candidates.append((chow, False))
    for block, is_pair in candidates:
        others = list(block)
        others.remove(low)  # this position holds the natural ``low`` we are placing
        for natural_choice in product((True, False), repeat=len(others)):
            rest = list(counts)
            rest[low] -= 1
            wilds_left = wilds
            possible = True
            for kind, natural in zip(others, natural_choice):
                if natural:
                    rest[kind] -= 1
                    possible = possible and rest[kind] >= 0
                else:
                    wilds_left -= 1
                    possible = possible and wilds_left >= 0
            if possible and _standard_with_wilds(tuple(rest), wilds_left,
                                                 sets_needed - (not is_pair), pairs_needed - is_pair):
                return True
    return False


def _seven_pairs_with_wilds(counts, wilds, melds):
    # A substitution gives seven pairs iff every count becomes even.  A natural kind with an odd count needs at
    # least one wildcard standing for it; one per such kind is enough, and the wildcards left over are an even
    # number (14 is even) and pair up among themselves.  Several wildcards or a pair of them may stand for a kind
    # already held: four identical tiles are two pairs.  So: odd kinds <= wilds.
    if melds != 0:
        return False
    odd_kinds = sum(1 for c in counts if c % 2 == 1)
    return odd_kinds <= wilds


def _thirteen_orphans_with_wilds(counts, wilds, melds):
    # Every tile, wildcards included, must be an orphan; each missing orphan needs a wildcard standing for it,
    # and any wildcards left over stand for an orphan already there (the total of 14 makes exactly one extra).
    if melds != 0:
        return False
    if any(counts[k] > 0 for k in range(NUM_KINDS) if not is_orphan(k)):
        return False
    missing = sum(1 for k in ORPHANS if counts[k] == 0)
    return missing <= wilds


def _nine_terminals_with_wilds(counts, wilds, melds):
    # All natural tiles must be orphans; each wildcard can stand for an orphan (say E).
    return melds == 0 and all(counts[k] == 0 for k in range(NUM_KINDS) if not is_orphan(k))


def _thirteen_lonely_with_wilds(counts, wilds, melds):
    # The wildcards must stand for distinct kinds not held (no kind twice), so try sets of kinds, chosen in
    # increasing order, abandoning a choice as soon as the hand so far breaks the rule (adding tiles never repairs
    # a broken pair of tiles, so nothing is lost by abandoning it).
    if melds != 0 or not _lonely_so_far(counts):
        return False

    def extend(current, wilds_left, start):
        if wilds_left == 0:
            return True
        for kind in range(start, NUM_KINDS):
            if current[kind] == 0:
                trial = list(current)
                trial[kind] = 1
                if _lonely_so_far(trial) and extend(trial, wilds_left - 1, kind + 1):
                    return True
        return False

    return extend(list(counts), wilds, 0)


def _complete_with_wilds(shape, counts, wilds, melds):
    if shape == STANDARD:
        return _standard_with_wilds(tuple(counts), wilds, 4 - melds, 1)
    if shape == SEVEN_PAIRS:
        return _seven_pairs_with_wilds(counts, wilds, melds)
    if shape == THIRTEEN_ORPHANS:
        return _thirteen_orphans_with_wilds(counts, wilds, melds)
    if shape == THIRTEEN_LONELY:
        return _thirteen_lonely_with_wilds(counts, wilds, melds)
    if shape == NINE_TERMINALS:
        return _nine_terminals_with_wilds(counts, wilds, melds)
    raise ValueError(f"unknown shape {shape!r}")


def ref_is_complete(naturals, wilds, melds, shapes):
    """Is the hand complete in any of ``shapes``?

    naturals: 34 counts of natural concealed tiles; wilds: number of wildcard tiles among the concealed tiles;
    melds: number of melds.  sum(naturals) + wilds must be 14 - 3*melds (else ValueError).
    Same answer as ``ref_is_complete_bruteforce`` (the self-test checks this on random hands).
    """
    _check_complete_size(naturals, wilds, melds)
    shapes = _shape_set(shapes)
    return any(_complete_with_wilds(shape, naturals, wilds, melds) for shape in sorted(shapes))


# ---------------------------------------------------------------------------------------------------------------
# Waits
# ---------------------------------------------------------------------------------------------------------------


def ref_waits(naturals, wild_faces, meld_counts, melds, shapes, wild_kinds, faceless_wilds=0):
    """The waits of a 13-tile hand, as a sorted list of tile kinds.

    naturals: 34 counts of natural concealed tiles (wildcards excluded).
    wild_faces: 34 counts of the wildcard tiles held, by their face (a face must be one of ``wild_kinds``).
    meld_counts: 34 counts of the tiles inside melds (a kong contributes 4).
    wild_kinds: the kinds that are wild.
    faceless_wilds: (optional) wildcard tiles with no face (``*`` with no wild kind declared); they are wild but
        are no copy of any kind.

    A kind t is a wait iff fewer than 4 copies of t are held (naturals + wildcard faces + melds) and adding one
    tile of kind t completes the hand; when t is a wild kind the added tile is a wildcard, otherwise a natural t.
    """
    _check_counts("naturals", naturals)
    _check_counts("wild_faces", wild_faces)
    _check_counts("meld_counts", meld_counts)
    _check_melds(melds)
    _check_wilds(faceless_wilds)
    shapes = _shape_set(shapes)
    wild_kinds = frozenset(wild_kinds)
    for face in range(NUM_KINDS):
        if wild_faces[face] and face not in wild_kinds:
            raise ValueError(f"a wildcard with face {tile_name(face)}, which is not a wild kind")
    if not 3 * melds <= sum(meld_counts) <= 4 * melds:
        raise ValueError(f"{sum(meld_counts)} tiles in melds do not make {melds} melds")
    wilds = sum(wild_faces) + faceless_wilds
    if sum(naturals) + wilds != 13 - 3 * melds:
        raise ValueError(f"{sum(naturals) + wilds} concealed tiles with {melds} melds: expected {13 - 3 * melds}")

    waits = []
    for t in range(NUM_KINDS):
        held = naturals[t] + wild_faces[t] + meld_counts[t]
        if held >= 4:
            continue
        if t in wild_kinds:
            completes = ref_is_complete(naturals, wilds + 1, melds, shapes)
        else:
            plus_t = list(naturals)
            plus_t[t] += 1
            completes = ref_is_complete(plus_t, wilds, melds, shapes)
        if completes:
            waits.append(t)
    return waits


# ---------------------------------------------------------------------------------------------------------------
# Decompositions (brute force over substitutions, splits and wildcard positions)
# ---------------------------------------------------------------------------------------------------------------


def _standard_splits(counts, sets_needed, pairs_needed):
    """Every split of the natural multiset ``counts`` (a tuple) into the needed sets and pairs, each split as a
    sorted tuple of blocks (kind, tiles).  Returned as a set, so each multiset of blocks appears once.

    As in ``_natural_standard``: the lowest remaining tile is the lowest tile of its block, which is then a pair or
    pung of it or the chow starting at it; every split is reached this way (possibly by several orders of
    choices, which the set merges)."""
    low = _first_kind(counts)
    if low is None:
        return {()} if sets_needed == 0 and pairs_needed == 0 else set()
    splits = set()
    for tiles, is_pair in _blocks_starting_at(low, sets_needed, pairs_needed):
        rest = _remove(counts, tiles)
        if rest is None:
            continue
        kind = "pair" if is_pair else ("pung" if tiles[0] == tiles[-1] else "chow")
        for sub in _standard_splits(rest, sets_needed - (not is_pair), pairs_needed - is_pair):
            splits.add(tuple(sorted(sub + ((kind, tiles),))))
    return splits


def _seven_pairs_splits(counts):
    """The split of a natural multiset into pairs: unique when every count is even (four of a kind = two pairs)."""
    if sum(counts) != 14 or any(c % 2 for c in counts):
        return set()
    return {tuple(("pair", (k, k)) for k in range(NUM_KINDS) for _ in range(counts[k] // 2))}


def _place_wildcards(split, stand_ins):
    """For one split (blocks (kind, tiles)) of a substituted hand, every way of choosing which positions the
    wildcards occupy: a wildcard standing for k may sit at any position holding k, but no block can have more
    wildcards standing for k than it has positions holding k.  Yields decompositions (sorted tuples of
    (kind, tiles, wild_as))."""
    for where in product(range(len(split)), repeat=len(stand_ins)):  # where[j] = block of wildcard j
        wild_as = [[] for _ in split]
        for block_index, k in zip(where, stand_ins):
            wild_as[block_index].append(k)
        if all(wa.count(k) <= tiles.count(k) for (_, tiles), wa in zip(split, wild_as) for k in set(wa)):
            yield tuple(sorted((kind, tiles, tuple(sorted(wa))) for (kind, tiles), wa in zip(split, wild_as)))


def _check_small_wilds(wilds):
    _check_wilds(wilds)
    if wilds > 2:
        raise ValueError(f"decompositions are brute-forced only for up to 2 wildcards, got {wilds}")


def ref_decompositions(naturals, wilds, melds):
    """Every distinct "standard" decomposition of the concealed tiles, with the wildcards' stand-ins.

    Returns a set of decompositions.  A decomposition is a sorted tuple of blocks (kind, tiles, wild_as):
    kind is "pair", "pung" or "chow"; tiles the sorted tuple of the kinds the block stands for (a wildcard shown as
    what it stands for); wild_as the sorted stand-ins of the wildcards inside the block (() if none).
    Empty set: not complete in the standard shape.  wilds <= 2 (brute force).
    """
    _check_complete_size(naturals, wilds, melds)
    _check_small_wilds(wilds)
    result = set()
    for counts, stand_ins in _substitutions(naturals, wilds):
        for split in _standard_splits(counts, 4 - melds, 1):
            result.update(_place_wildcards(split, stand_ins))
    return result


def ref_seven_pairs_decompositions(naturals, wilds):
    """Every distinct seven-pairs decomposition (no melds), same representation as ``ref_decompositions``, all
    blocks "pair".  wilds <= 2."""
    _check_complete_size(naturals, wilds, 0)
    _check_small_wilds(wilds)
    result = set()
    for counts, stand_ins in _substitutions(naturals, wilds):
        for split in _seven_pairs_splits(counts):
            result.update(_place_wildcards(split, stand_ins))
    return result


# ---------------------------------------------------------------------------------------------------------------
# Shanten 向听
# ---------------------------------------------------------------------------------------------------------------


def _sub_multisets(counts, size):
    """Every sub-multiset of ``counts`` with ``size`` tiles, as a count tuple, each once."""
    tiles = [k for k in range(NUM_KINDS) for _ in range(counts[k])]
    seen = set()
    for chosen in combinations(tiles, size):
        if chosen not in seen:  # combinations of a sorted list: equal multisets give equal tuples
            seen.add(chosen)
            sub = [0] * NUM_KINDS
            for k in chosen:
                sub[k] += 1
            yield sub


def _minus(counts, sub):
    return [c - s for c, s in zip(counts, sub)]


def ref_shanten(naturals, wilds, melds, shapes):
    """Shanten (向听) of a 13- or 14-tile hand (concealed + 3*melds): 0 = ready, -1 = a complete 14-tile hand.

    13 tiles: the least r such that replacing r concealed tiles by other tiles makes the hand ready, i.e. able to
    complete with one more tile (the 4-copies limit is ignored here).
    14 tiles: -1 if complete, else the least 13-tile shanten over the possible discards.

    Why only wildcards need to be tried as replacements: a wildcard may stand for any kind, so whatever a hand
    with a natural tile x can complete as, the same hand with a wildcard in place of x can complete as too (let the
    wildcard stand for x).  So if replacing by some natural tiles makes the hand ready, replacing by wildcards
    does as well; and a hand with wildcards is ready only if some choice of stand-ins is, i.e. only if replacing by
    those natural tiles makes it ready.  Likewise "ready" = "complete after one more tile" = "complete after one
    more wildcard" (5th copies allowed).  And replacing a wildcard by a wildcard changes nothing, so only natural
    tiles need to be removed.  Hence for 13 tiles:

        shanten = least r such that (naturals minus some r natural tiles) + (wilds + r + 1) wildcards is complete.
    """
    _check_counts("naturals", naturals)
    _check_wilds(wilds)
    _check_melds(melds)
    shapes = _shape_set(shapes)
    size = sum(naturals) + wilds + 3 * melds
    if size == 13:
        hands = [(list(naturals), wilds)]  # the one 13-tile hand
    elif size == 14:
        if ref_is_complete(naturals, wilds, melds, shapes):
            return -1
        # the 13-tile hands left by each possible discard (a natural kind held, or a wildcard)
        hands = []
        for k in range(NUM_KINDS):
            if naturals[k] > 0:
                after = list(naturals)
                after[k] -= 1
                hands.append((after, wilds))
        if wilds > 0:
            hands.append((list(naturals), wilds - 1))
    else:
        raise ValueError(f"{size} tiles (melds count 3): shanten needs 13 or 14")

    # min over discards of min over r  ==  the least r that works for some discard
    for r in range(0, 14):
        for hand_naturals, hand_wilds in hands:
            if r > sum(hand_naturals):
                continue
            for removed in _sub_multisets(hand_naturals, r):
                if ref_is_complete(_minus(hand_naturals, removed), hand_wilds + r + 1, melds, shapes):
                    return r
    raise ValueError(f"no shape in {sorted(shapes)} can ever complete a hand with {melds} melds")


# ---------------------------------------------------------------------------------------------------------------
# Self-test
# ---------------------------------------------------------------------------------------------------------------


def _self_test():
    import random
    import time

    c = counts_from_text
    zero = [0] * NUM_KINDS
    std = {STANDARD}
    every_shape = ALL_SHAPES

    # --- parsing
    assert c("123m") == c("1m 2m 3m") == c("1m2m3m")
    assert c("E S W N C F P") == c("1234567z")
    assert c("19m19p19s ESWNCFP")[27:] == [1] * 7 and sum(c("19m19p19s ESWNCFP")) == 13
    assert counts_to_text(c("EE 456m 123p C")) == "456m 123p EEC"
    for bad in ("123", "0m", "m", "8z", "1m*", "x", "1E"):
        try:
            c(bad)
        except ValueError:
            pass
        else:
            raise AssertionError(f"parsed {bad!r}")

    # --- completeness, natural
    assert ref_is_complete(c("123m456p789s EE 456m"), 0, 0, std)
    assert not ref_is_complete(c("123m456p789s EE 457m"), 0, 0, std)
    assert not ref_is_complete(c("891m 123p 456p 789p EE"), 0, 0, std)  # no wrap-around chow
    assert not ref_is_complete(c("ESW NNN CCC FFF PP"), 0, 0, std)  # no honor chow
    assert ref_is_complete(c("1111m 22m 33m 44m 55m 66m"), 0, 0, {SEVEN_PAIRS})  # four = two pairs
    assert ref_is_complete(c("1111m 234m 567m 888m 9m"), 0, 0, std)  # 111 123 456 789 88
    assert not ref_is_complete(c("1111m 234m 567m 888m 8m"), 0, 0, std)  # 1111 234 567 8888m does not split
    assert ref_is_complete(c("111m 123m 567m 888m 99m"), 0, 0, std)
    assert ref_is_complete(c("19m19p19s ESWNCFP 1m"), 0, 0, {THIRTEEN_ORPHANS})
    assert ref_is_complete(c("147m 258p 369s ESWNC"), 0, 0, {THIRTEEN_LONELY})
    assert not ref_is_complete(c("147m 258p 369s ESWNN"), 0, 0, {THIRTEEN_LONELY})
    assert not ref_is_complete(c("147m 257p 369s ESWNC"), 0, 0, {THIRTEEN_LONELY})
    assert ref_is_complete(c("111m 999p 19s EEE CC F"), 0, 0, {NINE_TERMINALS})
    assert ref_is_complete(c("EE"), 0, 4, std) and not ref_is_complete(c("EE"), 0, 4, {SEVEN_PAIRS})
    try:
        ref_is_complete(c("123m"), 0, 0, std)
    except ValueError:
        pass
    else:
        raise AssertionError("wrong size accepted")

    # --- completeness with wildcards
    assert ref_is_complete(zero, 2, 4, std)  # a pair of wildcards
    assert ref_is_complete(zero, 14, 0, every_shape)
    assert ref_is_complete(c("123m456p789s E 45m"), 2, 0, std)
    assert ref_is_complete(c("1111m 234m 567m 888m"), 1, 0, std)  # the wildcard as 9m
    assert ref_is_complete(c("1111m 456p 789s EEE"), 1, 0, std)  # the wildcard as a 5th 1m
    assert ref_is_complete(c("19m19p19s ESWNCF"), 2, 0, {THIRTEEN_ORPHANS})  # P and a duplicate
    assert not ref_is_complete(c("19m19p19s ESWNC 2m"), 2, 0, {THIRTEEN_ORPHANS})  # 2m is no orphan
    assert not ref_is_complete(c("19m19p19s ESWNC 99m"), 1, 0, {THIRTEEN_ORPHANS})  # F and P both missing

    # --- waits
    assert ref_waits(c("1112345678999m"), zero, zero, 0, std, set()) == list(range(9))
    orphans13 = c("19m19p19s ESWNCFP")
    assert ref_waits(orphans13, zero, zero, 0, {STANDARD, THIRTEEN_ORPHANS}, set()) == sorted(ORPHANS)
    assert ref_waits(orphans13, zero, zero, 0, std, set()) == []
    # a lone wildcard (face 5p) with four melds [111m][222m][333m][EEEE]: every kind with fewer than 4 copies
    melds_held = [0] * NUM_KINDS
    melds_held[0] = melds_held[1] = melds_held[2] = 3
    melds_held[27] = 4
    faces = [0] * NUM_KINDS
    faces[13] = 1  # 5p
    assert ref_waits(zero, faces, melds_held, 4, std, {13}) == [k for k in range(NUM_KINDS) if k != 27]
    # the 4-copies rule: 1111m 456p 789s EEE could only complete with a fifth 1m, so it has no wait
    assert ref_waits(c("1111m 456p 789s EEE"), zero, zero, 0, std, set()) == []
    assert ref_shanten(c("1111m 456p 789s EEE"), 0, 0, std) == 0  # shanten ignores the 4-copies rule
    # wild kind 5p, no 5p held: 123m 123p 789s EE 44m waits 4m and E (shanpon), and 5p (drawn, it is a wildcard)
    w = ref_waits(c("123m 123p 789s EE 44m"), zero, zero, 0, std, {13})
    assert w == [3, 13, 27], w

    # --- decompositions
    one = ref_decompositions(c("123m456p789s EE 456m"), 0, 0)
    assert one == {(("chow", (0, 1, 2), ()), ("chow", (3, 4, 5), ()), ("chow", (9 + 3, 9 + 4, 9 + 5), ()),
                    ("chow", (24, 25, 26), ()), ("pair", (27, 27), ()))}
    assert len(ref_decompositions(c("111222333m 456p EE"), 0, 0)) == 2  # pungs, or three 123m chows
    two = ref_decompositions(c("123m456p789s EE 45m"), 1, 0)
    # the wildcard is 6m (in 456m), or 3m -- and then it may be the 3m of 123m or the 3m of 345m: 3 in all
    assert sorted(b for d in two for b in d if b[2]) == [("chow", (0, 1, 2), (2,)), ("chow", (2, 3, 4), (2,)),
                                                          ("chow", (3, 4, 5), (5,))]
    assert len(two) == 3
    assert ref_decompositions(c("123m456p789s EE 457m"), 0, 0) == set()
    # lone wildcard pair with four melds: 34 decompositions (the pair of anything) -- here one wildcard + E
    assert ref_decompositions(c("E"), 1, 4) == {(("pair", (27, 27), (27,)),)}
    assert len(ref_decompositions(zero, 2, 4)) == NUM_KINDS
    sp = ref_seven_pairs_decompositions(c("1122m3344p5566s 7s"), 1)
    assert sp == {tuple(sorted([("pair", (0, 0), ()), ("pair", (1, 1), ()), ("pair", (11, 11), ()),
                                ("pair", (12, 12), ()), ("pair", (22, 22), ()), ("pair", (23, 23), ()),
                                ("pair", (24, 24), (24,))]))}
    # 6 natural pairs + 2 wildcards: the wildcards pair as one of 28 new kinds (28), or join one of the six held
    # kinds, either as their own pair or one in each of the two pairs of that kind (6 * 2)
    assert len(ref_seven_pairs_decompositions(c("11223344m 5566p"), 2)) == 28 + 12

    # --- shanten
    assert ref_shanten(c("1112345678999m"), 0, 0, std) == 0
    assert ref_shanten(c("123m456p789s EE 456m"), 0, 0, std) == -1
    assert ref_shanten(c("1112345678999m 1p"), 0, 0, std) == 0
    assert ref_shanten(orphans13, 0, 0, std) == 8  # 5 isolated tiles kept, each needs its own block
    assert ref_shanten(orphans13, 0, 0, {STANDARD, THIRTEEN_ORPHANS}) == 0
    assert ref_shanten(c("123m456p789s E 45m"), 1, 0, std) == 0
    assert ref_shanten(c("123m456p789s EW 45m"), 0, 0, std) == 1  # replace W: E+? pair, 45m+? chow
    assert ref_shanten(c("123m456p789s EW 47m"), 0, 0, std) == 2  # keep one of the four as the pair start
    assert ref_shanten(zero, 1, 4, std) == 0
    assert ref_shanten(c("19m19p19s ESWNC"), 2, 0, {THIRTEEN_ORPHANS}) == 0
    assert ref_shanten(c("11m 22p 33s EE CC 1p 5s 9m 7p"), 0, 0, {SEVEN_PAIRS}) == 1

    # --- ref_is_complete agrees with the literal brute force on random hands
    rng = random.Random(20240601)

    def random_complete_hand(melds):
        """A random complete standard hand (14 - 3*melds natural tiles, 5th copies allowed)."""
        counts = [0] * NUM_KINDS
        for _ in range(4 - melds):
            if rng.random() < 0.5:
                k = rng.randrange(NUM_KINDS)
                counts[k] += 3
            else:
                s, r = rng.randrange(3), rng.randrange(7)
                for i in range(3):
                    counts[9 * s + r + i] += 1
        counts[rng.randrange(NUM_KINDS)] += 2
        return counts

    def random_hand(size):
        counts = [0] * NUM_KINDS
        pool = list(ORPHANS) * 3 if rng.random() < 0.2 else range(NUM_KINDS)
        for _ in range(size):
            counts[rng.choice(pool)] += 1
        return counts

    def perturb(counts, wilds):
        """Turn ``wilds`` random tiles into wildcards, and sometimes change one tile."""
        counts = list(counts)
        tiles = [k for k in range(NUM_KINDS) for _ in range(counts[k])]
        if rng.random() < 0.4 and tiles:
            k = rng.choice(tiles)
            counts[k] -= 1
            counts[rng.randrange(NUM_KINDS)] += 1
            tiles = [k for k in range(NUM_KINDS) for _ in range(counts[k])]
        for k in rng.sample(tiles, wilds):
            counts[k] -= 1
        return counts

    checked = agreed_true = 0
    for _trial in range(1500):
        melds = rng.choice([0, 0, 0, 1, 2, 3, 4])
        wilds = rng.choice([0, 1, 1, 2, 2])
        size = 14 - 3 * melds
        if wilds > size:
            continue
        if melds == 0 and rng.random() < 0.5:
            base = random_hand(14)
        else:
            base = random_complete_hand(melds)
        hand = perturb(base, wilds)
        for shapes in ({STANDARD}, {SEVEN_PAIRS}, {THIRTEEN_ORPHANS}, {THIRTEEN_LONELY}, {NINE_TERMINALS}):
            fast = ref_is_complete(hand, wilds, melds, shapes)
            slow = ref_is_complete_bruteforce(hand, wilds, melds, shapes)
            assert fast == slow, (counts_to_text(hand), wilds, melds, shapes, fast, slow)
            checked += 1
            agreed_true += fast
        # decompositions exist iff complete in that shape
        assert bool(ref_decompositions(hand, wilds, melds)) == ref_is_complete(hand, wilds, melds, std)
        if melds == 0:
            assert (bool(ref_seven_pairs_decompositions(hand, wilds))
                    == ref_is_complete(hand, wilds, 0, {SEVEN_PAIRS}))
    # lonely / orphan shapes with wildcards need targeted hands to be true often
    for _trial in range(300):
        wilds = rng.choice([1, 2, 3])
        kinds = rng.sample(range(NUM_KINDS), 14 - wilds) if rng.random() < 0.5 else \
            rng.sample(list(ORPHANS) + [rng.randrange(NUM_KINDS)], 14 - wilds)
        hand = [0] * NUM_KINDS
        for k in kinds:
            hand[k] += 1
        for shapes in ({THIRTEEN_ORPHANS}, {THIRTEEN_LONELY}, {NINE_TERMINALS}, {SEVEN_PAIRS}):
            fast = ref_is_complete(hand, wilds, 0, shapes)
            slow = ref_is_complete_bruteforce(hand, wilds, 0, shapes)
            assert fast == slow, (counts_to_text(hand), wilds, shapes, fast, slow)
            checked += 1
            agreed_true += fast
    lonely_hand = c("147m 258p 36s ESW")  # 11 tiles, 3 wildcards: 9s + two more honors
    assert ref_is_complete(lonely_hand, 3, 0, {THIRTEEN_LONELY}) == \
        ref_is_complete_bruteforce(lonely_hand, 3, 0, {THIRTEEN_LONELY}) is True
    print(f"fast vs brute force: {checked} checks agree ({agreed_true} complete)")

    # --- timings
    def timed(label, fn):
        _standard_with_wilds.cache_clear()
        _natural_standard.cache_clear()
        start = time.perf_counter()
        value = fn()
        print(f"{label}: {value!r} in {(time.perf_counter() - start) * 1000:.1f} ms")
        return value

    timed("is_complete 1234m 567p 9s EC + 4 wild", lambda: ref_is_complete(c("1234m 567p 9s EC"), 4, 0, every_shape))
    timed("is_complete 1357m 2468p 9s E + 4 wild", lambda: ref_is_complete(c("1357m 2468p 9s E"), 4, 0, every_shape))
    timed("is_complete 2345566778m + 4 wild", lambda: ref_is_complete(c("2345566778m"), 4, 0, every_shape))
    timed("is_complete 1122334455m + 4 wild", lambda: ref_is_complete(c("1122334455m"), 4, 0, std))
    timed("waits 1112345678999m", lambda: ref_waits(c("1112345678999m"), zero, zero, 0, every_shape, set()))
    for text, wilds in (("147m 258p 369s EC", 2), ("19m19p19s ESWNCFP", 0), ("12m 45m 78p 2s 5s 8s ESWN", 0),
                        ("13m 46p 79s EE CF 5m", 2), ("147m 258p 36s E", 4), ("1m 5m 9m 3p 7p 2s 6s ESWNC", 1),
                        ("123m 456p 78s EE 135m", 0), ("123m 456p 78s EE 1357m", 0),
                        ("159m 26p 37s ESWNCFP", 0), ("159m 26p 37s ESWNC", 2)):
        tiles = sum(c(text)) + wilds
        timed(f"shanten standard   {tiles} tiles {text} + {wilds} wild", lambda text=text, wilds=wilds: ref_shanten(c(text), wilds, 0, std))
        timed(f"shanten all shapes {tiles} tiles {text} + {wilds} wild",
              lambda text=text, wilds=wilds: ref_shanten(c(text), wilds, 0, every_shape))
    print("reference self-test passed")


if __name__ == "__main__":
    _self_test()
