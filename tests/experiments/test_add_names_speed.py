"""The add_names benchmark on the toy linker: its figures and report come from the runs it makes."""
import json

from experiments.add_names_speed import made_up_names, main
from spacy_nseen.linker.kb_linker import KnowledgeBaseLinker


def test_made_up_names_are_new_names_of_distinct_entities(linker_dirs):
    linker = KnowledgeBaseLinker.from_disk(linker_dirs["uniprot"])
    names = made_up_names(linker, 5, seed=0)
    assert len({kb_id for kb_id, _, _ in names}) == 5 and all(name.endswith(" X") for _, name, _ in names)
    assert linker.add_names(names, "test") == 5


def test_the_report_holds_what_the_runs_measured(linker_dirs, tmp_path):
    main(["--linker", str(linker_dirs["uniprot"]), "--out", str(tmp_path / "report"), "--n-names", "4",
          "--n-probes", "20"])
    report = json.loads((tmp_path / "report.json").read_text())
    assert report["names_added"] == 4 and report["added_found_as_written_top1"] == 4
    assert report["probes_same_top5"] <= report["probes_same_top1"] <= report["probe_mentions"]
    assert report["same_links_after_save_and_load"] is True and report["rebuild_seconds"] > 0
    text = (tmp_path / "report.md").read_text()
    assert "python -m experiments.add_names_speed" in text and f"**{report['add_names_seconds']} s**" in text
    (tmp_path / "report.md").unlink()
    main(["--linker", str(linker_dirs["uniprot"]), "--out", str(tmp_path / "report"), "--markdown-only"])
    assert (tmp_path / "report.md").read_text() == text
