"""Telling the kernel how a linker reads its memory-mapped artifacts: at random (`madvise(MADV_RANDOM)`), and soon
(`prefetch`: `posix_fadvise(POSIX_FADV_WILLNEED)` in the background).

A linker reads its index, TF-IDF and lookup files a few bytes at a time, at places no order predicts. By default
Linux reads ahead and maps neighbouring pages on every fault, which fills the resident set with pages no query
touches (about 150 MB of the full pipeline's peak, `results/benchmark_multi/`). The advice makes a fault map
only its own page. It changes no result; where the platform has no `madvise` it does nothing. Set
`NSEEN_PAGE_ADVICE=none` to keep the kernel's read-ahead (e.g. for artifacts on a network file system that are not
in the page cache: without read-ahead each first touch of a page is one read).

Right after a machine starts (or its page cache was dropped), each first touch of a page is a random disk read, and
linking runs at a quarter of its speed until the pages are in memory (`results/benchmark_multi/`). `prefetch`
asks the kernel to read the whole files into the page cache in one sequential pass, in a background thread, when a
linker is loaded: loading does not wait, and the page cache gives the memory back to other programs when they need
it. Set `NSEEN_PREFETCH=none` to turn it off.

What the resident set counts depends on the page cache, not only on the advice. A kernel that caches files in large
folios (Linux 6.x; this project's CI host runs 6.18) maps the whole folio around a faulting page, `MADV_RANDOM` or
not: touching one page in every 256 KB of a 64 MB file that sequential reading (or writing, or this prefetch) had
cached mapped all 64 MB, and 1 MB of the same file read first by those faults. So once the files are cached, a
process that links for a while holds about their whole size as file-backed RSS: clean pages that every process
mapping the same pipeline shares (each one's PSS counts its share) and that the kernel can drop.
"""

import ctypes
import ctypes.util
import mmap
import os
import threading
from pathlib import Path
from typing import Any, Iterable, Optional, Union

MADV_RANDOM: Optional[int] = getattr(mmap, "MADV_RANDOM", None)
ENV_VARIABLE = "NSEEN_PAGE_ADVICE"
PREFETCH_VARIABLE = "NSEEN_PREFETCH"
POSIX_FADV_WILLNEED: Optional[int] = getattr(os, "POSIX_FADV_WILLNEED", None)
PREFETCH_CHUNK = 4 << 20  # bytes per read-ahead request
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
    advice = MADV_RANDOM
    if advice is None or not advice_enabled() or length <= 0 or start % mmap.PAGESIZE:
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
    return _libc.madvise(ctypes.c_void_p(start), ctypes.c_size_t(length), ctypes.c_int(advice)) == 0


def prefetch_enabled() -> bool:
    """RETURNS (bool): whether `prefetch` reads ahead (the platform has `posix_fadvise` and `NSEEN_PREFETCH` is not
    "none"; read at each call)."""
    return (
        POSIX_FADV_WILLNEED is not None
        and hasattr(os, "posix_fadvise")
        and os.environ.get(PREFETCH_VARIABLE, "willneed").strip().lower() != "none"
    )


def advise_will_need(path: Union[str, Path]) -> bool:
    """Ask the kernel to read a whole file into the page cache (`posix_fadvise(POSIX_FADV_WILLNEED)`, one request per
    `PREFETCH_CHUNK` bytes: a single request for the whole file read only its first 8 MB here); a missing or
    unreadable file is skipped (the loader reports it).

    RETURNS (bool): whether the advice was given.
    """
    if not prefetch_enabled():
        return False
    try:
        descriptor = os.open(path, os.O_RDONLY)
    except OSError:
        return False
    try:
        size = os.fstat(descriptor).st_size
        for offset in range(
            0, size, PREFETCH_CHUNK
        ):  # one call for the whole file reads only its start on some kernels
            os.posix_fadvise(descriptor, offset, PREFETCH_CHUNK, POSIX_FADV_WILLNEED)  # type: ignore[arg-type]
    except OSError:
        return False
    finally:
        os.close(descriptor)
    return True


def prefetch(paths: Iterable[Union[str, Path]]) -> Optional[threading.Thread]:
    """Read these files into the page cache in a background (daemon) thread, one after the other.

    RETURNS (Optional[threading.Thread]): the started thread (join it to wait), or None when prefetching is off.
    """
    if not prefetch_enabled():
        return None
    files = [Path(path) for path in paths]
    thread = threading.Thread(
        target=lambda: [advise_will_need(path) for path in files], name="nseen-prefetch", daemon=True
    )
    thread.start()
    return thread
