"""Fixtures of the organism tests: a cell line table cut from the mirror's Cellosaurus file."""
from pathlib import Path

import pytest

from spacy_nseen.organisms.cell_lines import CellLineTable

CELLOSAURUS_FIXTURE = Path(__file__).parent.parent / "fixtures" / "organisms" / "cell_line_species.tsv"


@pytest.fixture(scope="session")
def cell_lines() -> CellLineTable:
    """HeLa, HEK293, U2OS (human), NIH 3T3, C2C12 (mouse), PC-12 (rat and a human line), COS-7, Jurkat, CCL4."""
    return CellLineTable.from_cellosaurus(CELLOSAURUS_FIXTURE, other_names=["CCl4", "water"])
