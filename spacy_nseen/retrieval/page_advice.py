"""Telling the kernel that a memory-mapped artifact is read at random (`madvise(MADV_RANDOM)`).

A linker reads its index, TF-IDF and lookup files a few bytes at a time, at places no order predicts. By default
Linux reads ahead and maps neighbouring pages on every fault, which fills the resident set with pages no query
touches (about 150 MB of the full pipeline's peak, `results/benchmark_multi/`). The advice makes a fault map
only its own page. It changes no result; where the platform has no `madvise` it does nothing. Set
`NSEEN_PAGE_ADVICE=none` to keep the kernel's read-ahead (e.g. for artifacts on a network file system that are not
in the page cache: without read-ahead each first touch of a page is one read).
"""
import ctypes
import ctypes.util
import mmap
import os
from typing import Any, Optional

MADV_RANDOM: Optional[int] = getattr(mmap, "MADV_RANDOM", None)
ENV_VARIABLE = "NSEEN_PAGE_ADVICE"
_libc: Any = None


def advice_enabled() -> bool:
    """RETURNS (bool): whether mappings get the advice (`NSEEN_PAGE_ADVICE` is not "none"; read at each call)."""
    return MADV_RANDOM is not None and os.environ.get(ENV_VARIABLE, "random").strip().lower() != "none"


def advise_random(mapping: Any) -> bool:
    """Advise random access for a Python `mmap.mmap` (e.g. a `numpy.memmap`'s `_mmap`).

    RETURNS (bool): whether the advice was given.
    """
    if not advice_enabled() or not hasattr(mapping, "madvise"):
        return False
    try:
        mapping.madvise(MADV_RANDOM)
    except (OSError, ValueError):
        return False
    return True


def advise_random_region(start: int, length: int) -> bool:
    """Advise random access for `length` bytes of a mapping at the page-aligned address `start` that another
    library owns (Annoy's mapping of its index file).

    RETURNS (bool): whether the advice was given.
    """
    global _libc
    if not advice_enabled() or length <= 0 or start % mmap.PAGESIZE:
        return False
    if _libc is None:
        try:
            _libc = ctypes.CDLL(ctypes.util.find_library("c") or None, use_errno=True)
            _libc.madvise.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
            _libc.madvise.restype = ctypes.c_int
        except (OSError, AttributeError):
            _libc = False
    if not _libc:
        return False
    return _libc.madvise(ctypes.c_void_p(start), ctypes.c_size_t(length), ctypes.c_int(MADV_RANDOM)) == 0
