import numpy
import pytest

from spacy_nseen.text.lines import TextLines, strings_at

STRINGS = ["IKKε", "PLCγ2", "a", "Siglec‐5", "5-aza-2'-deoxycytidine", "ü" * 40, "x y\tz"]


def test_round_trip_and_sequence_behaviour():
    lines = TextLines.from_strings(STRINGS)
    assert len(lines) == len(STRINGS)
    assert list(lines) == STRINGS
    assert [lines[i] for i in range(len(STRINGS))] == STRINGS
    assert lines[-1] == STRINGS[-1] and lines[1:3] == STRINGS[1:3] and lines[::-2] == STRINGS[::-2]
    assert lines == STRINGS and lines == TextLines(lines.utf8.copy()) and lines != STRINGS[:-1]
    assert "PLCγ2" in lines and "PLC" not in lines
    assert lines.index("a") == 2
    with pytest.raises(IndexError):
        lines[len(STRINGS)]
    with pytest.raises(IndexError):
        lines[-len(STRINGS) - 1]


def test_views_the_buffer_without_copying():
    utf8 = TextLines.from_strings(STRINGS).utf8
    assert numpy.shares_memory(TextLines(utf8).utf8, utf8)


def test_empty_and_edge_cases():
    empty = TextLines.from_strings([])
    assert len(empty) == 0 and list(empty) == [] and empty == []
    assert list(TextLines.from_strings(["", "b"])) == ["", "b"]
    with pytest.raises(ValueError, match="line breaks"):
        TextLines.from_strings(["a\nb"])
    with pytest.raises(ValueError, match="one empty string"):
        TextLines.from_strings([""])
    with pytest.raises(ValueError, match="uint8"):
        TextLines(numpy.zeros(3, dtype=numpy.int32))


def test_invalid_utf8_is_reported_by_check():
    lines = TextLines(numpy.frombuffer(b"ok\n\xff\xfe", dtype=numpy.uint8))
    assert lines[0] == "ok"
    with pytest.raises(UnicodeDecodeError):
        lines.check_utf8()


def test_take_and_strings_at_agree_with_indexing():
    lines = TextLines.from_strings(STRINGS)
    rows = [3, 0, 3, len(STRINGS) - 1]
    assert lines.take(rows) == [STRINGS[i] for i in rows]
    assert lines.take([-1, numpy.int64(1)]) == [STRINGS[-1], STRINGS[1]]
    assert lines.take([]) == []
    assert strings_at(lines, rows) == strings_at(STRINGS, rows) == [STRINGS[i] for i in rows]
    with pytest.raises(IndexError):
        lines.take([0, len(STRINGS)])


def test_taking_many_rows_decodes_them_at_once_with_the_same_strings():
    from spacy_nseen.text.lines import BULK_ROWS

    rng = numpy.random.default_rng(0)
    strings = STRINGS + ["", "😀 x", "é" * 3, ""] + [f"name {i}" for i in range(300)]
    lines = TextLines.from_strings(strings)
    rows = rng.integers(0, len(strings), 3 * BULK_ROWS).tolist() + [len(strings) - 1, 0, 7, 7]
    assert lines.take(rows) == [strings[i] for i in rows]
    assert lines.take(list(range(len(strings)))) == strings
