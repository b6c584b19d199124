"""The test tree: pytest imports test modules by their file name (the folders have no __init__.py), so two test files
of one name in different folders stop the whole run at collection."""

from collections import Counter
from pathlib import Path

TESTS = Path(__file__).parent


def test_no_two_test_files_share_a_name():
    names = Counter(p.name for p in TESTS.rglob("test_*.py"))
    assert not [name for name, n in names.items() if n > 1]
