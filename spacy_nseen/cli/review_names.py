"""The accepted names of a review file for one reference set, as the commands that add names read them."""

from pathlib import Path
from typing import List, Tuple

from ..errors import ArtifactError
from ..synonyms.review_file import FIX, ReviewFile, read_review_file


def review_source(review: ReviewFile, path: Path) -> str:
    """RETURNS (str): where a review file's names come from: its `corpus` metadata, else the file's name."""
    return review.metadata.get("corpus") or path.name


def review_names(path: Path, kb: str) -> Tuple[str, List[Tuple[str, str, str]]]:
    """RETURNS (Tuple[str, List[Tuple[str, str, str]]]): the review file's source and its accepted (kb_id, name,
    "discovered") triples for `kb`. An ArtifactError when it has accepted rows of other reference sets only."""
    review = read_review_file(path)
    names = review.accepted_names(kb)
    others = sorted({row.kb for row in review.accepted()} - {kb})
    if not names and others:
        raise ArtifactError(
            path,
            f"has accepted rows for {others} only, none for '{kb}'",
            f"Name the reference set as the review file does (--kb-name / --kb {others[0]}). {FIX}",
        )
    return review_source(review, path), names
