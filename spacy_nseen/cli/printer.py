"""The commands' messages: wasabi's, without ANSI colour codes when the output is not a terminal (a log file)."""

import os
import sys

from wasabi import Printer


def plain_output() -> bool:
    """RETURNS (bool): whether stdout or stderr is not a terminal (or `NO_COLOR` is set): no colour codes then."""
    if os.environ.get("NO_COLOR"):
        return True
    try:
        return not (sys.stdout.isatty() and sys.stderr.isatty())
    except (AttributeError, ValueError):
        return True


def printer() -> Printer:
    """RETURNS (Printer): a wasabi printer, with colours and icons only on a terminal."""
    return Printer(pretty=not plain_output())
