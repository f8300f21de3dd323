"""An independent oracle for 国标麻将 (MCR, the Chinese Official rules): a plain winning hand and PyMahjongGB 1.4.0.

The oracle is `PyMahjongGB==1.4.0` (`from MahjongGB import MahjongFanCalculator`), a binding of the calculator in
ChineseOfficialMahjongHelper's `mahjong-algorithm` (its CHANGELOG ends 2024-01-18), built with
`SUPPORT_CONCEALED_KONG_AND_MELDED_KONG 1`, `DISTINGUISH_PURE_SHIFTED_CHOWS 0` and `SUPPORT_BLESSINGS 0`. It is
called with `verbose=True`, which gives `(value, count, Chinese name, English name)` per fan, and fans are matched
by their ENGLISH name (the binding's own `fan_name_en` table): the Chinese names have changed between versions of
the algorithm (1.4.0 says 独听・边张 where the rule book says 边张), the English ones are the binding's stable
interface. `FANS` lists the 82 entries 1.4.0 can return: the 81 fans of MCR (花牌 last) and 明暗杠 (Concealed
Kong and Melded Kong, 5), which this build scores in place of 明杠 + 暗杠.

The oracle accepts impossible hands and knows no 8-番 minimum; `tests/deal_guobiao.py` says which hands are legal.
What a comparison must know of it: one exposed and one concealed kong are 明暗杠 5 (not 明杠 1 + 暗杠 2); a
concealed pung of the winning tile won on a discard is exposed (for 双暗刻/三暗刻/四暗刻) unless the tile can
belong to a concealed chow of the same reading; a wait on a tile whose four copies the hand already holds still
counts, so it denies 边张/嵌张/单钓将; it scores the best reading, and when a 七对 reading ties with a
four-sets one it lists the latter's fans; flowers are `FLOWER_FAN`, one 番 each.

A hand is written as mjcalc writes hands (`mjcalc help notation`): the concealed tiles, the melds (`[123m]` an
exposed chow or pung, `[EEEE]` an exposed kong, `{CCCC}` a concealed kong), `+` and the winning tile, then one
token `f1 f2 …` per flower.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import NamedTuple

SUITS = "mps"
HONORS = "ESWNCFP"
TILES = tuple(f"{rank}{suit}" for suit in SUITS for rank in range(1, 10)) + tuple(HONORS)
INDEX = {tile: i for i, tile in enumerate(TILES)}
FLOWER_FAN = "Flower Tiles"

_CODE = {**{f"{r}m": f"W{r}" for r in range(1, 10)}, **{f"{r}p": f"B{r}" for r in range(1, 10)},
         **{f"{r}s": f"T{r}" for r in range(1, 10)},
         "E": "F1", "S": "F2", "W": "F3", "N": "F4", "C": "J1", "F": "J2", "P": "J3"}
_PACK = {"chow": "CHI", "pung": "PENG", "kong": "GANG"}

FANS = (
    ("Big Four Winds", "大四喜", 88), ("Big Three Dragons", "大三元", 88), ("All Green", "绿一色", 88),
    ("Nine Gates", "九莲宝灯", 88), ("Four Kongs", "四杠", 88), ("Seven Shifted Pairs", "连七对", 88),
    ("Thirteen Orphans", "十三幺", 88),
    ("All Terminals", "清幺九", 64), ("Little Four Winds", "小四喜", 64), ("Little Three Dragons", "小三元", 64),
    ("All Honors", "字一色", 64), ("Four Concealed Pungs", "四暗刻", 64), ("Pure Terminal Chows", "一色双龙会", 64),
    ("Quadruple Chow", "一色四同顺", 48), ("Four Pure Shifted Pungs", "一色四节高", 48),
    ("Four Pure Shifted Chows", "一色四步高", 32), ("Three Kongs", "三杠", 32),
    ("All Terminals and Honors", "混幺九", 32),
    ("Seven Pairs", "七对", 24), ("Greater Honors and Knitted Tiles", "七星不靠", 24),
    ("All Even Pungs", "全双刻", 24), ("Full Flush", "清一色", 24), ("Pure Triple Chow", "一色三同顺", 24),
    ("Pure Shifted Pungs", "一色三节高", 24), ("Upper Tiles", "全大", 24), ("Middle Tiles", "全中", 24),
    ("Lower Tiles", "全小", 24),
    ("Pure Straight", "清龙", 16), ("Three-Suited Terminal Chows", "三色双龙会", 16),
    ("Pure Shifted Chows", "一色三步高", 16), ("All Five", "全带五", 16), ("Triple Pung", "三同刻", 16),
    ("Three Concealed Pungs", "三暗刻", 16),
    ("Lesser Honors and Knitted Tiles", "全不靠", 12), ("Knitted Straight", "组合龙", 12),
    ("Upper Four", "大于五", 12), ("Lower Four", "小于五", 12), ("Big Three Winds", "三风刻", 12),
    ("Mixed Straight", "花龙", 8), ("Reversible Tiles", "推不倒", 8), ("Mixed Triple Chow", "三色三同顺", 8),
    ("Mixed Shifted Pungs", "三色三节高", 8), ("Chicken Hand", "无番和", 8), ("Last Tile Draw", "妙手回春", 8),
    ("Last Tile Claim", "海底捞月", 8), ("Out with Replacement Tile", "杠上开花", 8),
    ("Robbing The Kong", "抢杠和", 8),
    ("All Pungs", "碰碰和", 6), ("Half Flush", "混一色", 6), ("Mixed Shifted Chows", "三色三步高", 6),
    ("All Types", "五门齐", 6), ("Melded Hand", "全求人", 6), ("Two Concealed Kongs", "双暗杠", 6),
    ("Two Dragons Pungs", "双箭刻", 6),
    ("Outside Hand", "全带幺", 4), ("Fully Concealed Hand", "不求人", 4), ("Two Melded Kongs", "双明杠", 4),
    ("Last Tile", "和绝张", 4),
    ("Dragon Pung", "箭刻", 2), ("Prevalent Wind", "圈风刻", 2), ("Seat Wind", "门风刻", 2),
    ("Concealed Hand", "门前清", 2), ("All Chows", "平和", 2), ("Tile Hog", "四归一", 2),
    ("Double Pung", "双同刻", 2), ("Two Concealed Pungs", "双暗刻", 2), ("Concealed Kong", "暗杠", 2),
    ("All Simples", "断幺", 2),
    ("Pure Double Chow", "一般高", 1), ("Mixed Double Chow", "喜相逢", 1), ("Short Straight", "连六", 1),
    ("Two Terminal Chows", "老少副", 1), ("Pung of Terminals or Honors", "幺九刻", 1), ("Melded Kong", "明杠", 1),
    ("One Voided Suit", "缺一门", 1), ("No Honors", "无字", 1), ("Edge Wait", "独听・边张", 1),
    ("Closed Wait", "独听・嵌张", 1), ("Single Wait", "独听・单钓", 1), ("Self-Drawn", "自摸", 1),
    ("Flower Tiles", "花牌", 1),
    ("Concealed Kong and Melded Kong", "明暗杠", 5),
)


class OracleRejected(ValueError):
    """PyMahjongGB refused a hand (too few tiles, not a win, a bad code): the hand, its notation and the reason."""


class Meld(NamedTuple):
    """A declared set: `kind` chow, pung or kong; its tiles; `concealed` only for a concealed kong; `offer` as
    PyMahjongGB wants it: for a chow which of its three tiles was claimed (1, 2, 3), for a pung or an exposed
    kong the seat it was claimed from (1 上家, 2 对家, 3 下家), 0 for a concealed kong."""

    kind: str
    tiles: tuple[str, ...]
    concealed: bool = False
    offer: int = 1


def meld(kind: str, tiles, concealed: bool = False, offer: int | None = None) -> Meld:
    """Build a meld, its tiles sorted, its offer the default one (1, or 0 when concealed) unless given."""
    return Meld(kind, _sorted(tiles), concealed, (0 if concealed else 1) if offer is None else offer)


def _known(tiles) -> None:
    unknown = [t for t in tiles if t not in INDEX]
    if unknown:
        raise ValueError(f"unknown tile {unknown[0]!r}: a tile is 1m-9m, 1p-9p, 1s-9s or one of {HONORS}")


def _sorted(tiles) -> tuple[str, ...]:
    _known(tiles)
    return tuple(sorted(tiles, key=INDEX.__getitem__))


@dataclass(frozen=True)
class McrHand:
    """A 国标 winning hand: concealed tiles (sorted, without the winning tile), melds, the winning tile, flowers,
    and the situation: `last_of_kind` 和绝张, `kong_related` 杠上开花 when self-drawn and 抢杠和 on a discard,
    `last_tile` 妙手回春 when self-drawn and 海底捞月 on a discard, `seat_wind` and `prevalent_wind` 0-3 = E S W N."""

    concealed: tuple[str, ...]
    melds: tuple[Meld, ...]
    winning: str
    flowers: int = 0
    self_drawn: bool = False
    last_of_kind: bool = False
    kong_related: bool = False
    last_tile: bool = False
    seat_wind: int = 0
    prevalent_wind: int = 0

    def __post_init__(self):
        _known([self.winning])
        object.__setattr__(self, "concealed", _sorted(self.concealed))
        object.__setattr__(self, "melds", tuple(meld(*m) for m in self.melds))

    def __str__(self):
        return notation(self)


def all_tiles(hand: McrHand) -> list[str]:
    """Every tile of the hand: concealed, melds (a kong's four), the winning tile."""
    return [*hand.concealed, *(t for m in hand.melds for t in m.tiles), hand.winning]


def counts(hand: McrHand) -> list[int]:
    """How many of each of the 34 kinds the hand holds, in `TILES` order."""
    out = [0] * len(TILES)
    for tile in all_tiles(hand):
        out[INDEX[tile]] += 1
    return out


def _group(tiles) -> list[str]:
    words: list[str] = []
    for suit in SUITS:
        ranks = "".join(t[0] for t in tiles if t[1:] == suit)
        if ranks:
            words.append(ranks + suit)
    for honor in HONORS:
        if honor in tiles:
            words.append(honor * tiles.count(honor))
    return words


def _meld_word(m: Meld) -> str:
    inner = "".join(_group(list(m.tiles)))
    return "{" + inner + "}" if m.concealed else "[" + inner + "]"


def notation(hand: McrHand) -> str:
    """The hand in mjcalc's notation, flowers as `f1 f2 …` at the end: `123m 456p EE [789s] {CCCC} +5m f1`."""
    words = _group(list(hand.concealed)) + [_meld_word(m) for m in hand.melds] + ["+" + hand.winning]
    return " ".join(words + [f"f{i}" for i in range(1, hand.flowers + 1)])


_WORD = re.compile(r"\[[^\]]*\]|\{[^}]*\}|\+\S+|f[1-8]|[^\s\[{+]+")
_TILE = re.compile(r"([1-9]+)([mps])|([ESWNCFP])")


def _tiles_of(word: str) -> list[str]:
    tiles: list[str] = []
    at = 0
    for match in _TILE.finditer(word):
        if match.start() != at:
            break
        at = match.end()
        tiles += [r + match[2] for r in match[1]] if match[1] else [match[3]]
    if at != len(word) or not tiles:
        raise ValueError(f"not tiles: {word!r}")
    return tiles


def _meld_of(word: str) -> Meld:
    tiles = _tiles_of(word[1:-1])
    concealed = word[0] == "{"
    if len(tiles) == 4 and len(set(tiles)) == 1:
        return meld("kong", tiles, concealed)
    if concealed:
        raise ValueError(f"only a kong is written in braces: {word!r}")
    return meld("pung" if len(set(tiles)) == 1 else "chow", tiles)


def parse(text: str, **situation) -> McrHand:
    """Read `notation`'s form back: melds get their default offer; `situation` gives the other fields."""
    concealed: list[str] = []
    melds: list[Meld] = []
    winning = ""
    flowers = 0
    for word in _WORD.findall(text):
        if word[0] in "[{":
            melds.append(_meld_of(word))
        elif word[0] == "+":
            (winning,) = _tiles_of(word[1:])
        elif re.fullmatch(r"f[1-8]", word):
            flowers += 1
        else:
            concealed += _tiles_of(word)
    if not winning:
        raise ValueError(f"no winning tile (+X) in {text!r}")
    return McrHand(tuple(concealed), tuple(melds), winning, flowers, **situation)


def situation_fields(hand: McrHand) -> dict:
    """The situation of `hand` in the names of mjcalc's options (`Situation(**fields)`), so that both sides are told
    the same: the winner's seat is its seat wind with East dealing, the round's wind, a discard from the next seat,
    杠上开花 (a kong draw) or 抢杠和, the last tile, 和绝张."""
    seat = "ESWN"[hand.seat_wind]
    fields: dict = {"seat": seat, "dealer": "E", "prevalent": "ESWN"[hand.prevalent_wind]}
    if not hand.self_drawn:
        fields["discarder"] = "ESWN"[(hand.seat_wind + 1) % 4]
    if hand.kong_related:
        fields["kong_draw" if hand.self_drawn else "rob_kong"] = 1 if hand.self_drawn else True
    if hand.last_tile:
        fields["last_tile"] = True
    if hand.last_of_kind:
        fields["last_of_kind"] = True
    return fields


def arguments(hand: McrHand) -> dict:
    """The keyword arguments of `MahjongFanCalculator` for this hand (a chow is named by its middle tile)."""
    packs = tuple((_PACK[m.kind], _CODE[m.tiles[1]], 0 if m.concealed else m.offer) for m in hand.melds)
    return {
        "pack": packs,
        "hand": tuple(_CODE[t] for t in hand.concealed),
        "winTile": _CODE[hand.winning],
        "flowerCount": hand.flowers,
        "isSelfDrawn": hand.self_drawn,
        "is4thTile": hand.last_of_kind,
        "isAboutKong": hand.kong_related,
        "isWallLast": hand.last_tile,
        "seatWind": hand.seat_wind,
        "prevalentWind": hand.prevalent_wind,
    }


def oracle(hand: McrHand) -> dict:
    """Score the hand with PyMahjongGB 1.4.0: `fans` {English name: count}, `total` (flowers included), `chinese`
    {English name: the oracle's Chinese name}, `values` {English name: 番 each}. Flowers are the one entry
    `FLOWER_FAN` ("Flower Tiles", 1 番 each), to drop when comparing without them."""
    from MahjongGB import MahjongFanCalculator

    try:
        rows = MahjongFanCalculator(**arguments(hand), verbose=True)
    except TypeError as error:
        raise OracleRejected(f"{notation(hand)}: {error} ({hand!r})") from error
    fans: dict[str, int] = {}
    chinese: dict[str, str] = {}
    values: dict[str, int] = {}
    total = 0
    for value, count, zh, en in rows:
        fans[en] = fans.get(en, 0) + count
        chinese[en] = zh
        values[en] = value
        total += value * count
    return {"fans": fans, "total": total, "chinese": chinese, "values": values}
