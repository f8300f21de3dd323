"""Progress on long work (`advise --by`, `waits --batch`, `table import`): one line on stderr that a spinner
keeps moving with the count done and the seconds spent, redrawn several times a second by a thread of its own
(a single step may take minutes: the line never stands still for more than a second), and wiped when the work is
done. Only when stderr is a terminal — a script's stderr and every stdout stay as they were — or when
$MJCALC_PROGRESS says so (1: always, 0: never)."""
import os
import sys
import threading
import time
from typing import Any, Callable, Literal, Optional, TextIO

from .text_table import text_width

PROGRESS = "MJCALC_PROGRESS"
SPINNER = "|/-\\"
EVERY = 0.2  # seconds between two drawings of the line


def wanted(stream: Optional[TextIO] = None, stdout_too: bool = False) -> bool:
    """Whether to show progress on `stream` (stderr): $MJCALC_PROGRESS 1 or 0, else when it is a terminal.
    `stdout_too`: the work writes stdout as it goes, so not when stdout is that terminal as well (the line would
    land between the answer's lines)."""
    said = os.environ.get(PROGRESS, "").strip()
    if said in ("0", "1"):
        return said == "1"
    stream = stream if stream is not None else sys.stderr
    try:
        at_terminal = stream is not None and stream.isatty()
        if at_terminal and stdout_too:
            at_terminal = not sys.stdout.isatty()
    except (AttributeError, ValueError, OSError):  # a closed or odd stream: no progress
        return False
    return at_terminal


class Progress:
    """`with Progress("valuing discards", total=11) as p: … p.done = 3 …`: the line while the block runs (nothing
    when progress is not `wanted`). `done` and `total` may be set from the work at any time; `unit` names what is
    counted when there is no total (`123 hands`)."""

    def __init__(self, what: str, total: Optional[int] = None, unit: str = "", stream: Optional[TextIO] = None,
                 stdout_too: bool = False, clock: Callable[[], float] = time.monotonic) -> None:
        self.what, self.total, self.unit = what, total, unit
        self.done = 0
        self.stream = stream if stream is not None else sys.stderr
        self.on = wanted(self.stream, stdout_too)
        self.clock = clock
        self._stop = threading.Event()
        self._thread: Optional[threading.Thread] = None
        self._width = 0
        self._turn = 0

    def step(self, done: int, total: Optional[int] = None) -> None:
        """The work says how far it is (a callback for the library: it never prints)."""
        self.done = done
        if total is not None:
            self.total = total

    def line(self, seconds: float) -> str:
        """The line as it is drawn now: `| valuing discards 3/11, 4 s`."""
        count = f" {self.done}/{self.total}" if self.total is not None else f" {self.done} {self.unit}" \
            if self.unit else ""
        self._turn += 1
        return f"{SPINNER[self._turn % len(SPINNER)]} {self.what}{count}, {seconds:.0f} s"

    def _draw(self, text: str) -> None:
        pad = max(0, self._width - (text_width(text) or len(text)))
        try:
            self.stream.write("\r" + text + " " * pad)
            self.stream.flush()
        except (OSError, ValueError):  # stderr went away: the work goes on without its line
            self._stop.set()
        self._width = text_width(text) or len(text)

    def _run(self, start: float) -> None:
        while True:
            self._draw(self.line(self.clock() - start))
            if self._stop.wait(EVERY):
                return

    def __enter__(self) -> "Progress":
        if self.on:
            self._thread = threading.Thread(target=self._run, args=(self.clock(),), name="mjcalc-progress",
                                            daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> Literal[False]:
        if self._thread is not None:
            self._stop.set()
            self._thread.join()
            try:  # the line wiped: what comes next starts at the left
                self.stream.write("\r" + " " * self._width + "\r")
                self.stream.flush()
            except (OSError, ValueError):
                pass
        return False
