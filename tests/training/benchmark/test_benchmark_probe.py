import sys

import numpy
import pytest

from training.benchmark.benchmark_probe import resident_files


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/smaps")
def test_resident_files_counts_the_touched_pages_of_mapped_files_under_a_directory(tmp_path):
    path = tmp_path / "artifact.bin"
    numpy.zeros(4 << 20, dtype=numpy.uint8).tofile(path)
    mapped = numpy.memmap(path, dtype=numpy.uint8, mode="r")
    assert int(mapped[:: 4096].sum()) == 0  # touch every page
    found = resident_files(str(tmp_path))
    assert list(found) == [str(path)] and 3.5 <= found[str(path)] <= 4.1
    assert resident_files(str(tmp_path / "elsewhere")) == {}
    del mapped


def test_probe_runs_the_texts_at_the_batch_size_asked_for(tmp_path):
    import spacy

    from training.benchmark.benchmark_probe import probe

    spacy.blank("en").to_disk(tmp_path / "pipeline")
    (tmp_path / "texts.txt").write_text("Trp53 in mice\nTP53 in HeLa cells", encoding="utf8")
    ran = probe(str(tmp_path / "pipeline"), str(tmp_path / "texts.txt"), [], threads=1, batch_size=1)
    assert ran["batch_size"] == 1 and ran["entities"] == 0 and ran["run_seconds"] >= 0
    assert probe(str(tmp_path / "pipeline"), str(tmp_path / "texts.txt"), [], threads=1)["batch_size"] == 1000


def test_a_batch_size_below_one_is_refused():
    from training.benchmark.benchmark_probe import main

    with pytest.raises(SystemExit):
        main(["pipeline", "--batch-size", "0"])
