"""Many short strings kept as one UTF-8 buffer and decoded one at a time when read.

A reference set's names as Python strings take ~100 bytes each (ChEBI: 371k names, ~45 MB); as UTF-8 bytes
joined by line breaks they take their length, and a memory-mapped buffer is shared between processes that load
the same file. Only the names a search reads are decoded.
"""

from array import array
from typing import Iterable, Iterator, List, Sequence, Union, overload

import numpy

LINE_BREAK = 10
BULK_ROWS = 256  # from this many rows, `take` decodes them at once


class TextLines(Sequence[str]):
    """A read-only sequence of strings over UTF-8 bytes in which line breaks separate the strings.

    utf8 (numpy.ndarray): uint8 bytes (e.g. a memory-mapped array, which is not copied). No string may
        contain a line break; an empty buffer holds no strings (so one empty string cannot be stored).
    """

    def __init__(self, utf8: numpy.ndarray) -> None:
        data = numpy.asarray(utf8)
        if data.dtype != numpy.uint8 or data.ndim != 1:
            raise ValueError(f"expected 1-d uint8 bytes, got {data.dtype} of shape {data.shape}")
        self._data = data
        self._buffer = numpy.ascontiguousarray(data).data  # a memoryview of the bytes
        # bounds[i] is where string i starts; string i ends one byte before bounds[i + 1]. An array.array
        # gives Python ints 3× faster than a numpy array when one string is read.
        self._bounds = array("q", [0])
        if len(data):
            breaks = numpy.flatnonzero(data == LINE_BREAK)
            self._bounds.frombytes(numpy.concatenate([breaks + 1, [len(data) + 1]]).astype(numpy.int64).tobytes())

    @classmethod
    def from_strings(cls, strings: Sequence[str]) -> "TextLines":
        """RETURNS (TextLines): the strings encoded (ValueError if one contains a line break)."""
        if any("\n" in text for text in strings):
            raise ValueError("the strings must not contain line breaks")
        if list(strings) == [""]:
            raise ValueError("one empty string cannot be told from no strings")
        if not len(strings):
            return cls(numpy.zeros(0, dtype=numpy.uint8))
        return cls(numpy.frombuffer("\n".join(strings).encode("utf8", "surrogatepass"), dtype=numpy.uint8))

    def check_utf8(self) -> None:
        """Raise UnicodeDecodeError unless the whole buffer is valid UTF-8 (decoded once, not kept)."""
        str(self._buffer, "utf8", "surrogatepass")

    @property
    def utf8(self) -> numpy.ndarray:
        """RETURNS (numpy.ndarray): the uint8 buffer (strings joined by line breaks)."""
        return self._data

    def __len__(self) -> int:
        return len(self._bounds) - 1

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> List[str]: ...

    def __getitem__(self, index: Union[int, slice]) -> Union[str, List[str]]:
        bounds = self._bounds
        if type(index) is int and 0 <= index < len(bounds) - 1:  # the common case, kept short: linking reads many
            return str(self._buffer[bounds[index] : bounds[index + 1] - 1], "utf8", "surrogatepass")
        if isinstance(index, slice):
            return [self._decode(i) for i in range(*index.indices(len(self)))]
        i = int(index)
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(f"string index {index} out of range for {n} strings")
        return self._decode(i)

    def take(self, rows: Iterable[int]) -> List[str]:
        """RETURNS (List[str]): the strings at `rows`, decoded in one loop: several times faster than indexing
        one at a time."""
        rows = list(rows)
        buffer, bounds = self._buffer, self._bounds
        if rows and (min(rows) < 0 or max(rows) >= len(bounds) - 1 or not all(type(i) is int for i in rows)):
            return [self[i] for i in rows]  # negative or numpy indices, and the errors of __getitem__
        if len(rows) >= BULK_ROWS:
            return self._take_bulk(rows)
        return [str(buffer[bounds[i] : bounds[i + 1] - 1], "utf8", "surrogatepass") for i in rows]

    def _take_bulk(self, rows: List[int]) -> List[str]:
        """`take` of many rows: their bytes gathered with line breaks between them, decoded and split at once.
        The same strings (a line break is one byte, never inside a character's encoding)."""
        bounds = numpy.frombuffer(self._bounds, dtype=numpy.int64)
        index = numpy.asarray(rows, dtype=numpy.int64)
        starts = bounds[index]
        lengths = bounds[index + 1] - starts  # each string's bytes and one more: its line break's place
        ends = numpy.cumsum(lengths)
        gathered = numpy.full(int(ends[-1]), LINE_BREAK, dtype=numpy.uint8)
        filled = numpy.ones(len(gathered), dtype=bool)
        filled[ends - 1] = False
        gathered[filled] = self._data[
            (numpy.arange(len(gathered)) - numpy.repeat(ends - lengths - starts, lengths))[filled]
        ]
        return str(gathered[:-1].data, "utf8", "surrogatepass").split("\n")

    def _decode(self, i: int) -> str:
        start, end = self._bounds[i], self._bounds[i + 1] - 1
        return str(self._buffer[start:end], "utf8", "surrogatepass")

    def __iter__(self) -> Iterator[str]:
        return (self._decode(i) for i in range(len(self)))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, TextLines):
            return numpy.array_equal(self._data, other._data)
        if isinstance(other, Sequence) and not isinstance(other, (str, bytes)):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"TextLines({len(self)} strings, {len(self._data)} bytes)"


def strings_at(strings: Sequence[str], rows: Iterable[int]) -> List[str]:
    """RETURNS (List[str]): `strings[i]` for each i in `rows`, for a list or a TextLines alike."""
    if isinstance(strings, TextLines):
        return strings.take(rows)
    return [strings[i] for i in rows]
