"""`spacy-nseen add-names`: a review file's accepted rows into a saved pipeline (the demo pipeline), nothing else
changed; the saved pipeline links as the grown one did."""
import csv
import gzip
import os
from pathlib import Path
from typing import List, Optional, Tuple

import pytest
import spacy

from spacy_nseen.synonyms.review_file import ReviewRow, write_review_file

REPO = Path(__file__).resolve().parents[2]
CAPTIONS = REPO / "assets" / "sample" / "bioid" / "captions.tsv.gz"
# A made-up curation for the test: two mentions the demo pipeline tags but leaves unlinked, each "accepted" as a name
# of an entity of the demo's reference sets.
ADDED = {"GAPDH": ("uniprot", "UniProt:Q86UQ4"), "AZD2014": ("chebi", "CHEBI:2431")}


def demo_pipeline() -> Optional[Path]:
    """RETURNS (Optional[Path]): NSEEN_DEMO_PIPELINE, else this checkout's `training_output/demo/pipeline`."""
    named = os.environ.get("NSEEN_DEMO_PIPELINE")
    candidates = ([Path(named)] if named else []) + [REPO / "training_output" / "demo" / "pipeline"]
    return next((path for path in candidates if path.is_dir()), None)


@pytest.fixture(scope="module")
def demo() -> Path:
    path = demo_pipeline()
    if path is None:
        pytest.skip("no demo pipeline: run `bash scripts/demo.sh` (.ci/run does) or set NSEEN_DEMO_PIPELINE")
    return path


def review_file(path: Path, extra: Tuple[ReviewRow, ...] = ()) -> Path:
    rows = [ReviewRow(mention, kb, kb_id, "?", 0.9, decision="accept") for mention, (kb, kb_id) in ADDED.items()]
    rows += [ReviewRow("Flag", "uniprot", "UniProt:Q86UQ4", "?", 0.2, decision="reject"),
             ReviewRow("HA", "uniprot", "UniProt:Q86UQ4", "?", 0.5)]
    write_review_file(path, rows + list(extra), {"corpus": "demo-captions"})
    return path


def links(nlp) -> List[tuple]:
    texts = [row["text"] for row in csv.DictReader(gzip.open(CAPTIONS, "rt", encoding="utf8"), delimiter="\t")]
    return [(e.start_char, e.text, e.label_, e.kb_id_, e._.kb_score, [tuple(c) for c in e._.kb_candidates or []])
            for doc in nlp.pipe(texts) for e in doc.ents]


def test_add_names_changes_the_links_of_the_added_names_only(run_cli, demo, tmp_path):
    result = run_cli("add-names", str(demo), str(review_file(tmp_path / "review.tsv")), "--out", str(tmp_path / "grown"))
    assert "4 row(s): 2 accepted, 1 rejected, 1 not reviewed" in result.stdout
    assert "uniprot: 1 name(s) added" in result.stdout and "chebi: 1 name(s) added" in result.stdout
    before, after = links(spacy.load(demo)), links(spacy.load(tmp_path / "grown"))
    assert len(before) == len(after) and {e[1] for e in before} >= set(ADDED)
    for old, new in zip(before, after):
        if old[1] in ADDED:
            assert new[5][0][0] == ADDED[old[1]][1] != old[5][0][0]  # its best candidate now
        else:
            assert new == old
    grown = spacy.load(tmp_path / "grown")
    meta = grown.get_pipe("nseen_linker").linkers["uniprot"].names_metadata()
    assert meta == {"n_names": 1, "sources": {"demo-captions": 1}, "n_added_after_build": 1}
    grown.to_disk(tmp_path / "again")
    assert links(spacy.load(tmp_path / "again")) == after


def test_add_names_errors_name_the_file_or_the_ids_and_save_nothing(run_cli, demo, tmp_path):
    unknown = ReviewRow("Qzz", "uniprot", "UniProt:NOPE", "?", 0.9, decision="accept")
    review = review_file(tmp_path / "review.tsv", (unknown,))
    result = run_cli("add-names", str(demo), str(review), "--out", str(tmp_path / "out"), check=False)
    assert result.returncode == 1 and "UniProt:NOPE" in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / "out").exists()
    result = run_cli("add-names", str(demo), str(review), "--out", str(tmp_path / "out"), "--kb", "chebi")
    assert "chebi: 1 name(s) added" in result.stdout and "uniprot" not in result.stdout.split("not reviewed")[1]
    review.write_text(review.read_text(encoding="utf8").replace("reject", "nah"), encoding="utf8")
    result = run_cli("add-names", str(demo), str(review), "--out", str(tmp_path / "bad"), check=False)
    assert result.returncode == 1 and "review.tsv: line" in result.stderr and "'nah'" in result.stderr
    result = run_cli("add-names", str(demo), str(review), "--out", str(demo), check=False)
    assert result.returncode != 0 and "other than PIPELINE" in result.stderr
    result = run_cli("add-names", str(tmp_path), str(review_file(review)), "--out", str(tmp_path / "x"), check=False)
    assert result.returncode == 1 and "cannot be loaded as a pipeline" in result.stderr and "Traceback" not in result.stderr
