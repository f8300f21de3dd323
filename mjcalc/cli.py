"""The `mjcalc` command line: the only module that imports click. Errors become one `Error: …` line."""
import os
import sys

import click

from . import __version__
from .cli_common import (
    UserError, build_situation, echo as _echo, emit_json, flagged, handle_errors, output_options, ruleset_option,
    seen_option, situation_options, table as _table, tone as _tone, warn, wild_options,
)
from .errors import MjcalcError


def one_hand_options(func):
    """Everything `analyze` and `advise` take besides the hand: ruleset, wildcards, situation, --seen, output."""
    for decorate in (handle_errors, output_options, seen_option, situation_options, wild_options, ruleset_option):
        func = decorate(func)
    return func


def _seen(text):
    from .analysis import parse_seen  # imported when used (start-up time)
    return parse_seen(text) if text else None


def _load(name):
    from .ruleset import load_ruleset  # imported when used (start-up time)
    return load_ruleset(name)

class _Commands(click.Group):
    """The command group; `table` (the ledger, with sqlite3) is imported only when it is used."""

    def list_commands(self, ctx):
        return sorted(set(super().list_commands(ctx)) | {"table"})

    def get_command(self, ctx, name):
        if name == "table" and name not in self.commands:
            from .cli_table import table  # the ledger (sqlite3) is imported only when `table` is used
            self.add_command(table)
        return super().get_command(ctx, name)


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="mjcalc")
def cli():
    """Hands, waits, scores and payouts for regional Chinese mahjong.

    \b
    Example:
      mjcalc analyze "123m456p789s EE 45m +6m" -r beijing --wild 5m

    Tiles: 1-9 m/p/s, winds E S W N, dragons C (中) F (发) P (白); 1-7z in the
    Chinese order E S W N 中 发 白 (riichi tools order 5-7z as 白 发 中).
    """


@cli.command()
@click.argument("hand")
@one_hand_options
def analyze(hand, ruleset_name, as_json, lang, glyphs, seen, **params):
    """Score a 14-tile hand, or show a 13-tile hand's waits.

    \b
    Examples:
      mjcalc analyze "[111m] 222p 333s EEE 9m +9m" --shaozhuang 1 --base 2000
      mjcalc analyze "123m456p789s EE 45m" --wild 5m --json
    """
    from .analysis import analyze as run  # imported when used (start-up time)
    from .notation import parse_hand
    from . import render  # imported when used (start-up time)

    rules = _load(ruleset_name)
    situation = build_situation(params)
    parsed = parse_hand(hand)
    result = run(parsed, rules, situation, _seen(seen))
    if as_json:
        emit_json(render.analysis_json(result, lang))
        warn(result.warnings)
        return
    _print_analysis(result, lang, glyphs)


def _print_analysis(result, lang, glyphs):
    from . import render  # imported when used (start-up time)

    rules = result.ruleset
    warn(result.warnings)
    click.echo(f"hand      {render.hand_text(result, glyphs)}   ({rules.name(lang)}, {rules.id})")
    if result.hand.winning_implied:
        click.echo("          (no '+': the last tile written is taken as the winning tile)")
    if result.wild_kinds:
        click.echo(f"wild      {render.wild_line(result)}")
    score = result.score
    if score is None:
        if not result.waits:
            click.echo("waits     none: this hand is not ready")
            return
        note = render.all_kinds_note([w.tile for w in result.waits])
        click.echo(f"waits     {render.waits_text([w.tile for w in result.waits], glyphs)}" + (f"   ({note})" if note else ""))
        _print_waits(result, lang, glyphs)
        return
    if not score.complete:
        _echo("complete  " + _tone("no: not a winning shape", "bad"))
        from .shanten import shanten  # imported when used (start-up time)
        tiles = result.tiles
        away = shanten(tiles.naturals, tiles.wilds, tiles.melds, rules.shapes)
        _echo(f"shanten   {away}   (mjcalc advise ranks every discard)")
        if result.discards:
            rows = [[render.tile_text(t, glyphs), render.waits_text(ws, glyphs)] for t, ws in result.discards]
            click.echo(_table(rows, ["discard", "leaves waits on"]))
        else:
            click.echo("          no discard leaves it ready")
        return
    count = len(score.decompositions)
    click.echo(f"complete  yes, {count} decomposition{'s' if count != 1 else ''}")
    blocks = render.decomposition_blocks(result, glyphs)
    if blocks:
        shape = render.SHAPE_NAMES[score.reading.shape][0 if lang == "zh" else 1]
        click.echo(f"best      {' '.join(blocks)}   ({shape})")
    stand = render.stand_in_line(result)
    if stand:
        click.echo(f"          {stand}")
    if score.matches:
        rows = [[_tone(row[0], "strong")] + row[1:] for row in render.pattern_rows(result, lang)]
        _echo(_table(rows, ["pattern", "id", rules.unit(lang)]))
    click.echo(f"total     {score.total} {rules.unit(lang)}" + (f"  (+{score.bonus} bonus)" if score.bonus else ""))
    if not score.legal:
        _echo("legal     " + _tone(f"no: {score.reason}", "bad"))
        return
    _echo("legal     " + _tone("yes", "good"))
    headers, rows = render.payout_rows(result, lang)
    click.echo(_table(rows, headers))


@cli.command()
@click.argument("hand", required=False)
@click.option("--batch", type=click.Path(dir_okay=False, allow_dash=True), help="A file with one hand a line, or - for stdin.")
@ruleset_option
@wild_options
@click.option("--json", "as_json", is_flag=True, help="JSON (with --batch: one object a line).")
@click.option("--glyphs", is_flag=True, help="Print tiles as Unicode mahjong glyphs.")
@seen_option
@handle_errors
def waits(hand, batch, ruleset_name, wild, indicator, as_json, glyphs, seen):
    """The waits 听 of a 13-tile hand and how many of each are left.

    \b
    Examples:
      mjcalc waits 1112345678999m
      mjcalc waits --batch hands.txt --wild C
    """
    from .batch import BatchWaits  # imported when used (start-up time)

    if (hand is None) == (batch is None):
        raise UserError("give a HAND or --batch FILE (one of them)")
    if batch is not None and seen:
        raise UserError("--seen describes one table: give it with a HAND, not with --batch")
    rules = _load(ruleset_name)
    situation = build_situation({"wild": wild, "indicator": indicator})
    finder = BatchWaits(rules, situation)
    if batch is None:
        parsed, found = finder.waits_of(hand)
        if seen:
            found = _take_seen(found, parsed, finder.wild_kinds, _seen(seen))
        if as_json:
            from .tiles import NAMES  # imported when used (start-up time)
            emit_json({"hand": str(parsed), "waits": [{"tile": NAMES[t], "left": left} for t, left in found]})
            return
        from . import render  # imported when used (start-up time)
        if not found:
            click.echo("no waits: this hand is not ready")
            return
        rows = [[render.waits_text([t], glyphs), left] for t, left in found]
        click.echo(_table(rows, ["wait", "left"]))
        note = render.all_kinds_note([t for t, _ in found])
        if note:
            click.echo(note)
        return
    bad = finder.run_batch(_open_batch(batch), sys.stdout, as_json)
    if bad:
        raise SystemExit(1)


def _take_seen(found, hand, wild_kinds, seen):
    """Take `--seen` copies off the tiles left of each wait (never below 0; a fifth copy is an error)."""
    from .analysis import check_seen, tiles_left  # imported when used (start-up time)
    from .scoring import prepare

    held = prepare(hand, wild_kinds).held
    check_seen(held, seen)
    return [(t, tiles_left(held, seen, t)) for t, _ in found]


def _open_batch(path):
    if path == "-":
        return sys.stdin
    try:
        return open(path, encoding="utf-8", errors="replace")
    except OSError as exc:
        raise UserError(f"--batch {path}: cannot read: {exc.strerror}") from None


@cli.command()
@click.argument("hand")
@click.option("-r", "--ruleset", "ruleset_names", multiple=True, metavar="NAME|PATH",
              help="A ruleset to compare (repeatable).  [default: every built-in ruleset]")
@wild_options
@situation_options
@seen_option
@output_options
@handle_errors
def compare(hand, ruleset_names, as_json, lang, glyphs, seen, **params):
    """The same hand and situation under several rulesets, side by side.

    \b
    Examples:
      mjcalc compare "123m456p789s EE 45m +6m"
      mjcalc compare "11223344556677m" -r beijing -r zhuji --from S
    """
    from .analysis import compare as run, unused_options  # imported when used (start-up time)
    from .notation import parse_hand
    from .ruleset import builtin_rulesets  # imported when used (start-up time)
    from . import render

    rules = [_load(name) for name in ruleset_names] if ruleset_names else list(builtin_rulesets())
    situation = build_situation(params)
    parsed = parse_hand(hand)
    results = [(r, a, flagged(e) if e else None) for r, a, e in run(parsed, rules, situation, _seen(seen))]
    if as_json:
        emit_json([render.analysis_json(a, lang) if a else {"ruleset": r.id, "error": error} for r, a, error in results])
        return
    analyses = [a for _, a, _ in results if a]
    columns, headers = [], [""]
    for r, a, error in results:
        headers.append(f"{r.id}\n{r.name(lang)}")
        columns.append(render.compare_column(a, lang, glyphs) if a else {"legal": [(f"error: {error}", "bad")]})
    rows = []
    for key in render.COMPARE_ROWS:
        if any(key in c for c in columns):
            rows.append([render.compare_row_label(key, analyses)] + [
                "\n".join(_tone(text, tone) for text, tone in c.get(key, [("", None)])) for c in columns
            ])
    _echo(f"hand      {render.hand_text(analyses[0], glyphs) if analyses else hand}")
    wild = [f"{a.ruleset.id}: {render.wild_line(a)}" for a in analyses if a.wild_kinds]
    if wild:
        _echo(f"wild      {'; '.join(wild)}")
    _echo(_table(rows, headers))
    unused = {}
    from .cli_common import flag_of  # imported when used (start-up time)
    for r, _, _ in results:
        for name in unused_options(r, situation):
            unused.setdefault(flag_of(name), []).append(r.id)
    for flag, ids in unused.items():
        _echo(f"note: {flag} is not used by {', '.join(ids)} (ignored there)")


@cli.command()
@click.argument("hand")
@click.option("--by", "by", type=click.Choice(["win", "value"]),
              help="Also value each discard: P(win) within --draws draws and the expected payout, the player "
                   "playing for the chance to win (win) or for the expected payout (value). 14 tiles.")
@click.option("--draws", type=click.IntRange(0, 60), default=None,
              help="Draws left for --by.  [default: 8, about half of one player's draws in a hand]")
@one_hand_options
def advise(hand, ruleset_name, as_json, lang, glyphs, seen, by, draws, **params):
    """Shanten 向听 and discard advice: which tile to throw, and which draws help.

    For 14 tiles, every discard ranked by the shanten it leaves and the tiles that improve it (有效牌,
    with copies left); the best three ready results show their waits and what each would score. For 13
    tiles, the shanten and the improving tiles (and the waits, when ready).

    With --by win|value (14 tiles), each discard also gets P(win), the expected payout to the player and
    the most likely winning patterns, in this model: after the discard the player draws --draws tiles, one
    at a time, uniformly without replacement from the unseen tiles (all tiles less the hand and --seen);
    a complete hand that is a legal self-draw win is taken at once; a drawn tile that lowers the shanten is
    kept, throwing the tile best for the objective (win: the chance to win; value: the expected payout,
    by the ruleset's scoring and payout with the situation options; --from, --kong-draw, --rob-kong,
    --first-turn and --last-tile are dropped), and any other drawn tile is thrown.
    No calls, no other players. Wildcards are drawn like any tile. Exact in this model, except 3 or more
    from ready, where only the two discards leaving the most improving tiles are weighed (marked ~).

    \b
    Examples:
      mjcalc advise "1368m 27p 469s E 5m5m5m5m" --wild 5m
      mjcalc advise "123m 456p 1s 79s EES C" --seen "8s 8s E"
      mjcalc advise "11112345667p 9p FF" --by value --draws 8
    """
    from .advice import advise as run  # imported when used (start-up time)
    from .notation import parse_hand
    from . import render  # imported when used (start-up time)

    rules = _load(ruleset_name)
    situation = build_situation(params)
    parsed = parse_hand(hand)
    if (by or draws is not None) and parsed.size != 14:
        raise UserError("--by and --draws value the discards of a 14-tile hand")
    if draws is not None and not by:
        raise UserError("--draws goes with --by win or --by value")
    advice = run(parsed, rules, situation, _seen(seen))
    result = advice.analysis
    valued = None
    if by:
        from .value import DEFAULT_DRAWS, advise_value  # imported when used (start-up time)
        valued = advise_value(parsed, rules, situation, _seen(seen), DEFAULT_DRAWS if draws is None else draws, by)
    warn(result.warnings)
    if as_json:
        out = render.advice_json(advice, lang)
        if valued:
            _value_json(out, advice, valued, lang)
        emit_json(out)
        return
    _echo(f"hand      {render.hand_text(result, glyphs)}   ({rules.name(lang)}, {rules.id})")
    if result.wild_kinds:
        _echo(f"wild      {render.wild_line(result)}")
    _echo(f"shanten   {render.shanten_text(advice, lang)}")
    if advice.discards is None:
        effective = sum(i.left for i in advice.improvements)
        _echo(f"improve   {effective} tiles: {render.improvements_text(advice.improvements, glyphs)}")
        if result.waits:
            _echo(f"waits     {render.waits_text([w.tile for w in result.waits], glyphs)}")
            _print_waits(result, lang, glyphs)
        return
    headers = ["discard", "shanten", "tiles", "improved by (kind×left)"]
    _echo(_table(render.discard_rows(advice, glyphs), headers))
    for d in advice.discards:
        if d.waits:
            _echo(f"\ndiscard {render.tile_text(d.tile, glyphs)}: waits {render.waits_text([w.tile for w in d.waits], glyphs)}")
            result.waits = d.waits
            _print_waits(result, lang, glyphs)
    result.waits = []
    unscored = [d for d in advice.discards if d.shanten == 0 and not d.waits]
    if unscored and any(d.waits for d in advice.discards):
        shown = " ".join(render.tile_text(d.tile, glyphs) for d in unscored)
        _echo(f"\n(also ready after discarding {shown}: `mjcalc analyze` that hand for its waits' scores)")
    if valued:
        _print_value(valued, rules, lang, glyphs)


def _top_patterns(top, rules, lang):
    return [{"patterns": list(ids), "names": [rules.pattern(i).name(lang) for i in ids], "p": q} for ids, q in top]


def _value_json(out, advice, valued, lang):
    """advise --json --by: P(win), expected payout and top patterns on each discard (null: not valued), and
    `ranked`: the valued discards, best for the objective first."""
    by_tile = {v.tile: v for v in valued.discards}
    rules = advice.analysis.ruleset
    out.update({"by": valued.by, "draws": valued.draws, "unseen": valued.unseen, "exact": valued.exact})
    label = {}
    for d, row in zip(advice.discards, out["discards"]):
        v = by_tile.get(d.tile)
        label[d.tile] = row["discard"]
        row["p_win"] = v.p_win if v else None
        row["expected"] = v.expected if v else None
        row["exact"] = v.exact if v else None
        row["top_patterns"] = _top_patterns(v.top_patterns, rules, lang) if v else None
    from .tiles import tile_text  # imported when used (start-up time)
    out["ranked"] = [label.get(v.tile, tile_text(v.tile)) for v in valued.discards]  # a second wild: its face


def _print_value(valued, rules, lang, glyphs):
    from . import render  # imported when used (start-up time)
    note = "exact" if valued.exact else "~: 3 or more from ready, a narrower play weighed (a lower bound)"
    _echo(f"\nby {valued.by}: {valued.draws} draws from {valued.unseen} unseen tiles, {note}")
    rows = []
    for v in valued.discards:
        top = ", ".join(f"{'+'.join(rules.pattern(i).name(lang) for i in ids)} {q:.1%}" for ids, q in v.top_patterns)
        rows.append([render.tile_text(v.tile, glyphs) + ("" if v.exact else " ~"), v.shanten, f"{v.p_win:.1%}",
                     f"{v.expected:.2f}", top])
    _echo(_table(rows, ["discard", "shanten", "P(win)", "expected", "most likely winning patterns"]))
    if valued.skipped:
        shown = " ".join(render.tile_text(t, glyphs) for t in valued.skipped)
        _echo(f"(not valued, further from ready: {shown})")


def _print_waits(result, lang, glyphs):
    from . import render  # imported when used (start-up time)

    unit = result.ruleset.unit(lang)
    rows = [[cells[0], cells[1]] + [_tone(c, "bad" if c.startswith("no") else "good") for c in cells[2:]]
            for cells in render.wait_rows(result, glyphs)]
    _echo(_table(rows, ["wait", "left", f"self-draw ({unit})", f"discard ({unit})"]))


@cli.group(invoke_without_command=True)
@click.pass_context
def rulesets(ctx):
    """List the built-in rulesets; `show NAME` one of them; `check FILE…` validates files.

    \b
    Examples:
      mjcalc rulesets
      mjcalc rulesets show zhuji
      mjcalc rulesets check my-house.yaml
    """
    if ctx.invoked_subcommand is not None:
        return
    from .ruleset import builtin_rulesets  # imported when used (start-up time)
    try:
        rows = [[r.id, r.zh, r.en, ", ".join(r.aliases), os.path.basename(r.path)] for r in builtin_rulesets()]
    except MjcalcError as exc:
        raise UserError(str(exc)) from None
    click.echo(_table(rows, ["id", "名称", "name", "aliases", "file"]))


@rulesets.command("show")
@click.argument("name")
@click.option("--lang", type=click.Choice(["zh", "en"]), default="zh", show_default=True)
@handle_errors
def rulesets_show(name, lang):
    """Show a ruleset's patterns and values.  Example: mjcalc rulesets show beijing"""
    from .regions import find_region  # imported when used (start-up time)
    rules = _load(name)
    click.echo(f"{rules.id}: {rules.zh} / {rules.en}   ({rules.path})")
    if rules.description:
        click.echo(rules.description)
    wild = f"{rules.wild_zh} ({rules.wild_en}), up to {rules.wild_kinds} kind(s)" if rules.wild_kinds else "none"
    click.echo(f"wildcards: {wild};  shapes: {', '.join(rules.shapes)};  unit: {rules.unit_zh} ({rules.unit_en})")
    click.echo(f"wins: discard {rules.discard}, rob a kong {rules.rob_kong}"
               + (f", more than {rules.max_wilds_on_discard} {rules.wild_zh} must self-draw" if rules.max_wilds_on_discard is not None else "")
               + f";  minimum {rules.minimum}" + (f";  cap {rules.cap}" if rules.cap is not None else ""))
    rows = []
    for p in rules.patterns:
        value = f"×{p.value}" if p.role == "multiplier" else p.value
        if p.scale == "power":
            value = f"{p.value}^n" if p.role == "multiplier" else f"{p.value}·2^n"
        if p.param("without_wild") is not None:
            value = f"{value} (no {rules.wild_zh}: {p.param('without_wild')})"
        rows.append([p.id, p.name(lang), value, p.role, ", ".join(p.excludes)])
    click.echo(_table(rows, ["id", "pattern", rules.unit(lang), "role", "replaces"]))
    for line in find_region(rules.region).describe(rules):
        click.echo(line)


@rulesets.command("check")
@click.argument("files", nargs=-1, required=True, type=click.Path())
def rulesets_check(files):
    """Validate ruleset files; each error with its file, line and path.  Example: mjcalc rulesets check house.yaml"""
    from .ruleset import load_ruleset_file  # imported when used (start-up time)
    bad = 0
    for path in files:
        try:
            rules = load_ruleset_file(path)
            click.echo(f"{path}: ok ({rules.id}, {len(rules.patterns)} patterns)")
        except MjcalcError as exc:
            bad += 1
            click.echo(f"error: {exc}", err=True)
    if bad:
        raise SystemExit(1)




def main():
    try:
        cli.main(prog_name="mjcalc", standalone_mode=True)
    except KeyboardInterrupt:
        click.echo("Error: interrupted", err=True)
        sys.exit(130)
    except (MjcalcError, RecursionError, ValueError, TypeError, KeyError, OSError) as exc:
        click.echo(f"Error: {exc.__class__.__name__}: {exc} (this is a bug in mjcalc; please report it)", err=True)
        sys.exit(3)


if __name__ == "__main__":
    main()
