"""`mjcalc table play`: the evening at a prompt (stdlib `cmd`, with `readline` history and tab completion).

One short line records a hand: WINNER, then FROM (a player or a seat) or 自摸, then what was won — a number
(the total in the ruleset's unit), pattern names (`对对和,庄`, as players write them: 对对胡, duiduihe) or the
tiles — and any `table hand` option after it (`--shaozhuang 1`). A word that is none of these is said as a
word, with the prompt's word it is near (自模: did you mean 自摸), never read as tiles. Every line goes through
the same `table hand`/`draw`/`undo`/… commands as the shell does, so each hand is checked and committed the
same way: closing the terminal mid-evening loses nothing.

One session is one client of the ledger (its hands and draws are recorded with its `--client`): a line said twice is two hands (two 荒牌 in a row are
two draws); only a hand another phone or terminal has just recorded is asked about at a terminal, and refused in
a script. Fed on stdin (a script of an evening), the prompt asks nothing — after `undo`, a line y or n is its
answer and any other line is no answer but the next line to do (the hand is removed) — goes on past a line that
fails, and exits 1 at the end if any line failed (4 if an answer could not be written: that hand stands).
"""
import cmd
import inspect
import secrets
import shlex
import sys
from pathlib import Path
from typing import Any, List, Optional

import click

from .. import front  # the library as the front ends see it: nothing else of it is imported here
from ..front import Doc, Ledger, LedgerError, Message, MjcalcError, Ruleset, Table, data_dir, printable, written_in_notation
from .common import said_lang
from .output import emit
from .text_table import line_width

SELF_DRAW = ("自摸", "zimo", "zm", "self", "-")
DRAWN = ("荒牌", "荒庄")  # `draw` as players say it (the glossary's 荒牌)
COMMANDS = ("draw", "penalty", "undo", "show", "settle", "score", "rules", "help", "quit")
ANSWERS = ("y", "yes", "n", "no")  # to a question (`undo`): yes, then no


class TablePrompt(cmd.Cmd):
    intro = None

    def __init__(self, ledger: Ledger, table: Table, commands: click.Group):
        """`commands`: the `mjcalc table` click group every line goes through."""
        super().__init__()
        self.commands = commands
        self.ledger = ledger
        self.table = table
        self.history: Optional[Path] = None
        self.rules: Optional[Ruleset] = None  # the table's, read when the prompt starts
        self.client = f"play-{secrets.token_hex(8)}"  # this session, to the ledger (`table hand --client`)
        self.status = 0  # the exit a script is given: 1 if a line failed, 4 if an answer could not be written

    # --- running -----------------------------------------------------------------------------------------

    def run(self) -> None:
        self.rules = front.table_rules(self.table, self.ledger)
        self._readline()
        say(f"table {self.table.name!r} ({self.rules.id}, {self.rules.unit_zh}): "
            + ", ".join(f"{s} {p}" for s, p in zip("ESWN", self.table.players)),
            "a hand: WINNER FROM|自摸 TOTAL|PATTERNS|TILES;  help, quit or Ctrl-D")
        try:
            while True:
                try:
                    self.cmdloop()
                    break
                except KeyboardInterrupt:  # Ctrl-C drops the line being typed; Ctrl-D or quit leaves
                    say("^C")
        finally:
            self._save_history()
        if self.status and not self.at_terminal():
            raise SystemExit(self.status)  # every line was read and done; the script is told that some failed

    @staticmethod
    def at_terminal() -> bool:
        """A player types the lines (else a script is fed on stdin: no prompts, no questions)."""
        return sys.stdin.isatty()

    def failed(self, code: int = 1) -> None:
        """A line failed (its error line is said): the exit at the end is 1, or 4 once an answer was not written."""
        self.status = 4 if 4 in (code, self.status) else 1

    @property
    def prompt(self) -> str:  # type: ignore[override]  # cmd.Cmd reads self.prompt: a property reads the same
        if not self.at_terminal():  # a script fed on stdin: no prompts between its lines
            return ""
        number, state = self.ledger.state(self.table)
        return printable(f"{self.table.name} #{number + 1} 庄{self.table.player(state.dealer)}> ")

    def _readline(self) -> None:
        try:
            import readline  # optional: history and completion where the platform has it
        except ImportError:
            return
        self.history = data_dir() / "play_history"
        try:
            readline.read_history_file(str(self.history))
        except OSError:
            pass
        readline.set_completer_delims(" ,")

    def _save_history(self) -> None:
        if self.history is None:
            return
        try:
            import readline  # optional: history where the platform has it
            self.history.parent.mkdir(parents=True, exist_ok=True)
            readline.set_history_length(1000)
            readline.write_history_file(str(self.history))
        except (ImportError, OSError):
            pass

    def invoke(self, *args: object) -> None:
        """Run `mjcalc table ARGS…` on this ledger; an error is its one line, and the prompt goes on."""
        argv = [str(a) for a in args] + ["--db", str(self.ledger.path)]
        try:
            self.commands.main(args=argv, prog_name="mjcalc table", standalone_mode=False)
        except click.ClickException as exc:
            exc.show()
            self.failed(exc.exit_code)
        except click.exceptions.Abort:
            say("")
            self.failed()
        except SystemExit as exc:
            if exc.code:  # a question answered no: nothing done
                self.failed()

    def emptyline(self) -> bool:
        return False

    def onecmd(self, line: str) -> bool:
        """One line, whatever it is: a line that cannot be read is one error line, and the prompt goes on."""
        try:
            return super().onecmd(line)
        except MjcalcError as exc:
            click.echo(f"Error: {printable(exc.text(said_lang()))}", err=True)
            self.failed()
            return False

    @staticmethod
    def words(line: str) -> List[str]:
        """The words of a prompt line, quotes read as a shell reads them (an unclosed one is a LedgerError)."""
        try:
            return shlex.split(line)
        except ValueError as exc:
            raise LedgerError("play.cannot_read_line", reason=str(exc)) from None

    def precmd(self, line: str) -> str:
        """`#` starts a comment (a script of an evening can explain itself); 荒牌 is `draw`."""
        line = line.split("#", 1)[0].strip() if "#" in line else line
        first, _, rest = line.strip().partition(" ")
        if first in DRAWN and not self._is_player(first):
            return f"draw {rest}".strip()
        if self._is_penalty(first) and not self._is_player(first):  # 暗杠 阿张: kong money as players say it
            return f"penalty {line.strip()}"
        return line

    # --- hands -------------------------------------------------------------------------------------------

    def hand_args(self, line: str) -> List[str]:
        """`table hand` arguments from a prompt line: WINNER [FROM|自摸] [TOTAL|PATTERNS|TILES] [--options]."""
        words = self.words(line)
        options = []
        if "--" in " ".join(words):
            first = next(i for i, w in enumerate(words) if w.startswith("--"))
            words, options = words[:first], words[first:]
        if not words:
            raise LedgerError("play.who_won")
        winner, rest = words[0], words[1:]
        close = "" if self._is_player(winner) else front.closest(winner, COMMANDS + DRAWN)
        if close:  # `undoo`: a mistyped command, not an unknown player
            raise LedgerError("play.not_a_command", word=repr(winner), hint=Message("hint.did_you_mean", word=close))
        self.table.seat(winner)  # an unknown player is said now
        args = ["hand", self.table.name, "--winner", winner]
        said_from = bool(rest) and (rest[0] in SELF_DRAW or self._is_player(rest[0]))
        if rest and rest[0] in SELF_DRAW:
            rest = rest[1:]
        elif rest and self._is_player(rest[0]):
            args += ["--from", rest[0]]
            rest = rest[1:]
        if len(rest) == 1 and self._is_total(rest[0]):
            unit = self.rules.unit_en if self.rules is not None else "fan"
            args += [f"--{unit}" if unit in ("fan", "tai", "points") else "--fan", rest[0]]  # the table's own word
        elif rest and self._all_patterns(rest):
            args += ["--patterns", ",".join(rest)]
        else:
            self._words_are_tiles(rest, from_place=not said_from)
            args += rest  # the tiles, checked by `table hand`
        return args + options

    def _words_are_tiles(self, words: List[str], from_place: bool) -> None:
        """Refuse a word that is not written as tiles (自模, duiduhe) as the word it is: a near miss of 自摸 or
        a player right after the winner, else an unknown (or ambiguous) pattern, with the names it is near."""
        rules = self.rules
        assert rules is not None, "the prompt reads its table's rules before any line"
        for i, word in enumerate(words):
            try:
                front.find_pattern(rules, word)
                continue  # a pattern among tiles: `table hand` says what the tiles are
            except LedgerError as exc:
                if exc.code == "record.ambiguous_pattern":
                    raise
                unknown = exc
            if written_in_notation(word):
                continue
            close = front.closest(word, list(SELF_DRAW[:2]) + list(self.table.players)) \
                if i == 0 and from_place else ""
            if close:
                raise LedgerError("play.not_a_word", word=repr(word), ruleset=rules.id,
                                  hint=Message("hint.did_you_mean", word=close))
            raise unknown

    def _is_total(self, word: str) -> bool:
        """A total as `parse_total` reads it (3, 3番, ３, 十二), or a number it refuses (said by `table hand`)."""
        try:
            front.parse_total(front.table_rules(self.table), word)
            return True
        except LedgerError as exc:
            return exc.code != "record.total_unreadable"

    def _is_penalty(self, word: str) -> bool:
        """One of the table's rules' payments between hands, by id or Chinese name (暗杠, concealed_kong)."""
        return self.rules is not None and any(word in (p.id, p.zh) for p in self.rules.penalties)

    def _is_player(self, word: str) -> bool:
        try:
            self.table.seat(word)
            return True
        except (LedgerError, MjcalcError):
            return False

    def _all_patterns(self, words: List[str]) -> bool:
        assert self.rules is not None  # read when the prompt started
        try:
            front.parse_patterns(self.rules, ",".join(words))
            return True
        except MjcalcError:
            return False

    def default(self, line: str) -> bool:  # type: ignore[override]  # onecmd returns it: the stop flag
        if line.strip() in ("EOF",):
            return True
        return self._hand(line, "--brief")

    def do_score(self, line: str) -> bool:
        """score [WINNER FROM] WHAT: what a hand would pay; nothing recorded

        WHAT is a total, pattern names or the tiles, as for a hand. Without a winner,
        the dealer self-draws it:
          score 3                   the dealer's self-drawn 3 (番, 台 or 分)
          score 小李 老王 对对和    小李 on 老王's discard, 对对和"""
        words = line.split()
        if words and not self._is_player(words[0]):
            _, state = self.ledger.state(self.table)
            line = f"{state.dealer} {line}"
        return self._hand(line, "--dry-run")

    def _hand(self, line: str, flag: str) -> bool:
        """Run `table hand` on the words of `line` with `flag` (--brief records, --dry-run only scores); a line
        that cannot be read is one error line, and the prompt goes on."""
        try:
            args = self.hand_args(line)
        except MjcalcError as exc:
            click.echo(f"Error: {printable(exc.text(said_lang()))}", err=True)
            self.failed()
            return False
        self.invoke(*args, flag, "--client", self.client)
        return False

    def do_hand(self, line: str) -> bool:
        """WINNER FROM|自摸 WHAT [options]: record a won hand (`hand` may be left out)

        WHAT is the total, the pattern names or the tiles:
          小李 老王 3                 小李 won on 老王's discard, 3 番 (or 台, 分)
          小李 自摸 对对和            小李 self-drew; the ruleset values the patterns
          S E 123m456p789s234s5m +5m  from the tiles; seats as letters work too
          小李 老王 3 --shaozhuang 1  any `mjcalc table hand` option after it

        A line said twice is two hands. A hand another phone or terminal has just
        recorded is asked about (y/n); in a script it is refused unless the line
        ends with --yes."""
        return self.default(line)

    # --- the rest ----------------------------------------------------------------------------------------

    def do_draw(self, line: str) -> None:
        """draw (or 荒牌) [FACT=SEATS]: a drawn hand, paid as the rules say (twice: 2 draws)

        Where the rules pay on a draw, say what they ask: draw ready=小李,大刘;
        sichuan counts each ready hand's best 番 and names each 主动花猪: 荒牌 ready=小李:2,大刘 pig=阿张"""
        told = [arg for word in self.words(line) for arg in ("--told", word)]
        self.invoke("draw", self.table.name, "--client", self.client, *told)

    def do_penalty(self, line: str) -> None:
        """penalty NAME PLAYER [TO]: a penalty, or kong money when the kong is made

        NAME is one of the rules' (`mjcalc rulesets show`), by its name or id; PLAYER pays a penalty, or is paid
        kong money (the konger); TO is the one other player in it, where there is one (明杠: the discarder).
        The word penalty may be left out: 暗杠 阿张, 明杠 小李 老王."""
        words = self.words(line)
        if len(words) not in (2, 3):
            raise LedgerError("play.penalty_words", words=repr(line.strip()))
        self.invoke("penalty", self.table.name, words[0], "--player", words[1], *(["--to", words[2]] if len(words) == 3
                                                                                else []))

    def do_undo(self, line: str) -> None:
        """undo [N] [y]: show the last hand (or hand N) and remove it

        At a terminal it asks first (`undo y` does not). In a script fed on stdin
        it asks nothing: a next line that is y or n answers it; any other next
        line is no answer (the hand is removed without asking) and is done as
        the line it is."""
        words = self.words(line)
        yes = [w for w in words if w.lower() in ANSWERS[:2]]
        number = [w for w in words if w not in yes]
        if len(number) > 1 or len(yes) > 1 or (number and not number[0].isdigit()):
            raise LedgerError("play.undo_words", words=repr(line.strip()))
        if not yes and not self.at_terminal():
            answer = self._answer()
            if answer in ANSWERS[2:]:
                say("nothing removed")
                return
            yes = ["y"]
        self.invoke("undo", self.table.name, *(["--hand", number[0]] if number else []), *(["--yes"] if yes else []))

    def _answer(self) -> Optional[str]:
        """The script's next line if it answers a question (y, yes, n, no), else None, and the line is left to be
        done as it is (the end of the script is left to end it)."""
        try:
            line = input()
        except EOFError:
            line = "EOF"
        said = self.precmd(line).strip().lower() if line != "EOF" else ""
        if said in ANSWERS:
            return said
        self.cmdqueue.insert(0, line)
        return None

    def do_show(self, line: str) -> None:
        """show [--tiles]: the standings, the hands so far and who deals next"""
        self.invoke("show", self.table.name, *self.words(line))

    def do_settle(self, line: str) -> None:
        """settle: who pays whom, with the fewest transfers"""
        self.invoke("settle", self.table.name)

    def do_rules(self, line: str) -> None:
        """rules: which rules the table plays"""
        self.invoke("rules", self.table.name)

    def do_quit(self, line: str) -> bool:
        """quit (or Ctrl-D): leave; every hand is already recorded"""
        return True

    do_exit = do_quit

    def do_help(self, arg: str) -> None:
        """help [COMMAND]: the commands, or one of them in full"""
        name = arg.strip()
        if not name:
            say(*self.help_lines())
            return
        doc = getattr(getattr(self, f"do_{name}", None), "__doc__", None) if name in COMMANDS + ("hand",) else None
        if doc is None:
            say(f"no command {name!r}: `help` lists them")
            return
        say(inspect.cleandoc(doc))

    def help_lines(self) -> List[str]:
        """`help`: a hand's line, then each command's first line of help, in columns that fit 80."""
        lines = ["a hand:  WINNER FROM|自摸 WHAT [options]     (`help hand`)",
                 "         WHAT: a total (3), pattern names (对对和) or the tiles", "commands:"]
        for name in COMMANDS:
            usage, _, what = inspect.cleandoc(getattr(self, f"do_{name}").__doc__).splitlines()[0].partition(": ")
            room = 26 - (line_width(usage) or len(usage))
            lines += [f"  {usage}{' ' * room}{what}"] if room > 0 else [f"  {usage}", f"  {'':<26}{what}"]
        return lines

    def do_EOF(self, line: str) -> bool:
        say("")
        return True

    # --- completion ----------------------------------------------------------------------------------------

    def _words(self) -> List[str]:
        assert self.rules is not None  # read when the prompt started
        return list(self.table.players) + list(SELF_DRAW[:1]) + [p.zh for p in self.rules.patterns]

    def completenames(self, text: str, *ignored: Any) -> List[str]:
        return [w for w in list(COMMANDS) + list(DRAWN[:1]) + list(self.table.players) if w.startswith(text)]

    def completedefault(self, text: str, *ignored: Any) -> List[str]:
        return [w for w in self._words() if w.startswith(text)]

    def complete_score(self, text: str, line: str, begidx: int, endidx: int) -> List[str]:
        return self.completedefault(text, line, begidx, endidx)

    complete_hand = complete_score


def say(*lines: str) -> None:
    """The prompt's own lines (its greeting, its help, `nothing removed`) through the one output path."""
    doc = Doc()
    doc.text(*lines)
    emit(doc)


def keystrokes(line: str) -> int:
    """Keys typed for a prompt line: its characters and Enter (a CJK character counted as one key)."""
    return len(line) + 1

