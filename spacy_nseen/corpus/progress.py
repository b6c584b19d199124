"""The progress of an annotation run: texts done, with a rate that counts this run's texts only (the shards a
resume skips move the count, not the rate). A tqdm bar on a terminal; plain lines without colour or carriage
returns otherwise (every `NSEEN_PROGRESS_EVERY` seconds, default 15)."""

import sys
import time
from typing import Any, Optional, TextIO

from ..progress import is_terminal, progress_interval


class AnnotationProgress:
    """Texts annotated (and records skipped) out of the corpus's items.

    total (Optional[int]): the corpus's items, if known.
    enabled (bool): show anything at all.
    stream (Optional[TextIO]): where to write (default: sys.stderr).
    every (Optional[float]): seconds between plain lines (default: `progress_interval()`).
    """

    def __init__(
        self, total: Optional[int], enabled: bool = True, stream: Optional[TextIO] = None, every: Optional[float] = None
    ) -> None:
        self.total, self.enabled = total, enabled
        self.stream = stream if stream is not None else sys.stderr
        self.every = progress_interval() if every is None else every
        self.n = 0  # items passed: resumed, annotated and bad
        self.resumed = 0
        self.done = 0  # texts annotated by this run
        self.start = self.last = time.monotonic()
        self.bar: Any = None
        if enabled and is_terminal(self.stream):
            from tqdm import tqdm

            self.bar = tqdm(total=total, desc="annotate", unit="text", file=self.stream, dynamic_ncols=True)

    def rate(self) -> float:
        """RETURNS (float): texts per second of this run (resumed shards excluded)."""
        return self.done / max(1e-9, time.monotonic() - self.start)

    def skip(self, n: int) -> None:
        """Count `n` items of a shard done by an earlier run (moves the count, not the rate)."""
        self.n += n
        self.resumed += n
        if self.bar is not None:
            self.bar.n += n
            self.bar.last_print_n += n
            self.bar.initial += n
            self.bar.refresh()

    def update(self, texts: int, bad: int = 0) -> None:
        """Count `texts` annotated texts and `bad` skipped records of this run."""
        self.n += texts + bad
        self.done += texts
        if self.bar is not None:
            self.bar.update(texts + bad)
            return
        now = time.monotonic()
        if self.enabled and now - self.last >= self.every:
            self.last = now
            self.stream.write(self.line() + "\n")
            self.stream.flush()

    def line(self) -> str:
        """RETURNS (str): the state as one plain line."""
        done = f"{self.n:,}/{self.total:,} ({self.n / max(self.total, 1):.0%})" if self.total else f"{self.n:,}"
        return f"annotate: {done} records, {time.monotonic() - self.start:.0f} s, {self.rate():.1f} texts/s"

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None

    def __enter__(self) -> "AnnotationProgress":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
