"""The experiments' tests carry the `experiment` marker, which setup.cfg's `addopts` deselects by default; run
them with `python -m pytest -m experiment tests/experiments`."""
from pathlib import Path
from typing import List

import pytest

EXPERIMENT_TESTS = Path(__file__).resolve().parent


def pytest_collection_modifyitems(items: List[pytest.Item]) -> None:
    for item in items:
        if EXPERIMENT_TESTS in Path(item.path).resolve().parents:
            item.add_marker(pytest.mark.experiment)
