"""The signals of the linker's fusion. Every module of this package is imported here, so a scoring signal
registered with `@scoring_signal` (or a decision stage with `@decision_stage`) in a new module joins the fusion
without an edit elsewhere."""

import importlib
import pkgutil

from .base import (
    DECISIONS,
    SCORING_SIGNALS,
    Decision,
    Pools,
    Queries,
    Signal,
    Verdict,
    decision_stage,
    scoring_signal,
    verdict,
)

for _module in sorted(m.name for m in pkgutil.iter_modules(__path__)):
    importlib.import_module(f"{__name__}.{_module}")
# The weighted sum adds the scoring signals in the order of their weights in LinkerSettings.
from ..settings import signal_weight_order as _order  # noqa: E402

SCORING_SIGNALS.sort(key=lambda cls: _order(cls.weight_setting))

__all__ = [
    "DECISIONS",
    "SCORING_SIGNALS",
    "Decision",
    "Pools",
    "Queries",
    "Signal",
    "Verdict",
    "decision_stage",
    "scoring_signal",
    "verdict",
]
