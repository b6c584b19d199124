"""Progress of long steps: a tqdm bar on a terminal, plain periodic lines in a log.

A log gets no carriage-return noise: when stderr is not a terminal, `Progress` writes one line such as
`encoding names: 120,000/371,234 (32%), 41 s` at most every `every` seconds (`NSEEN_PROGRESS_EVERY`,
default 15), and nothing for steps shorter than that.
"""

import os
import sys
import time
from typing import Any, Iterable, Iterator, Optional, TextIO, TypeVar

T = TypeVar("T")


def progress_interval() -> float:
    """RETURNS (float): seconds between two plain progress lines (env `NSEEN_PROGRESS_EVERY`, default 15)."""
    try:
        return max(0.0, float(os.environ.get("NSEEN_PROGRESS_EVERY", "15")))
    except ValueError:
        return 15.0


class Progress:
    """Count work done and show it: tqdm on a terminal, periodic plain lines otherwise.

    desc (str): what is being done ("encoding names").
    total (Optional[int]): the amount of work, if known.
    unit (str): the unit of work ("names", "steps").
    stream (Optional[TextIO]): where to write (default: sys.stderr).
    every (Optional[float]): seconds between plain lines (default: `progress_interval()`).
    """

    def __init__(
        self,
        desc: str,
        total: Optional[int] = None,
        unit: str = "it",
        stream: Optional[TextIO] = None,
        every: Optional[float] = None,
    ) -> None:
        self.desc, self.total, self.unit = desc, total, unit
        self.stream = stream if stream is not None else sys.stderr
        self.every = progress_interval() if every is None else every
        self.n = 0
        self.postfix = ""
        self.start = self.last = time.monotonic()
        self.bar: Any = None
        if is_terminal(self.stream):
            from tqdm import tqdm

            self.bar = tqdm(total=total, desc=desc, unit=f" {unit}", leave=False, file=self.stream)

    def update(self, n: int = 1, **postfix: Any) -> None:
        """Add `n` units of work done; `postfix` values (e.g. loss=0.12) are shown beside the count."""
        self.n += n
        if postfix:
            self.postfix = ", ".join(f"{k} {v}" for k, v in postfix.items())
        if self.bar is not None:
            self.bar.update(n)
            if postfix:
                self.bar.set_postfix_str(self.postfix, refresh=False)
            return
        now = time.monotonic()
        if now - self.last >= self.every:
            self.last = now
            self.stream.write(self.line() + "\n")
            self.stream.flush()

    def line(self) -> str:
        """RETURNS (str): the current state as one plain line."""
        done = f"{self.n:,}/{self.total:,} ({self.n / max(self.total, 1):.0%})" if self.total else f"{self.n:,}"
        extra = f", {self.postfix}" if self.postfix else ""
        return f"  {self.desc}: {done} {self.unit}, {time.monotonic() - self.start:.0f} s{extra}"

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None

    def __enter__(self) -> "Progress":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def is_terminal(stream: TextIO) -> bool:
    """RETURNS (bool): whether `stream` is a terminal (False for a file, a pipe or a closed stream)."""
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def progress_iter(iterable: Iterable[T], desc: str, total: Optional[int] = None, unit: str = "it") -> Iterator[T]:
    """Yield the items of `iterable`, showing progress (see `Progress`); `total` defaults to `len(iterable)`."""
    if total is None and hasattr(iterable, "__len__"):
        total = len(iterable)  # type: ignore[arg-type]
    with Progress(desc, total=total, unit=unit) as bar:
        for item in iterable:
            yield item
            bar.update(1)
