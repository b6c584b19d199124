"""A linker directory's cross-references: saved as xrefs.npz; the TSV of an older directory still loads. Loading reads
the memory-mapped files ahead in the background."""
import shutil

import pytest

from spacy_nseen.linker.kb_linker import KnowledgeBaseLinker
from spacy_nseen.reference.xref_table import XREF_TABLE_FILE, XrefTable
from spacy_nseen.reference.xrefs import XREFS_FILE, write_xrefs

XREFS = {"UniProt:P04637": {"NCBIGene": "7157"}, "UniProt:P00001": {"NCBIGene": "1|2"}}


def test_xrefs_are_saved_as_a_table_and_loaded_as_one(linker_dirs, tmp_path):
    linker = KnowledgeBaseLinker.from_disk(linker_dirs["uniprot"])
    linker.xrefs = dict(XREFS)
    linker.to_disk(tmp_path / "linker")
    assert (tmp_path / "linker" / XREF_TABLE_FILE).exists() and not (tmp_path / "linker" / XREFS_FILE).exists()
    loaded = KnowledgeBaseLinker.from_disk(tmp_path / "linker")
    assert isinstance(loaded.xrefs, XrefTable) and loaded.xrefs == XREFS
    loaded.xrefs = {}
    loaded.to_disk(tmp_path / "linker")
    assert not (tmp_path / "linker" / XREF_TABLE_FILE).exists()
    assert KnowledgeBaseLinker.from_disk(tmp_path / "linker").xrefs == {}


def test_an_older_directory_with_the_tsv_loads_with_a_warning(linker_dirs, tmp_path):
    old = tmp_path / "old"
    shutil.copytree(linker_dirs["uniprot"], old)
    write_xrefs(XREFS, old / XREFS_FILE)
    with pytest.warns(UserWarning, match="Save the linker again"):
        linker = KnowledgeBaseLinker.from_disk(old)
    assert linker.xrefs == XREFS
    linker.to_disk(old)  # saved again: the table replaces the TSV
    assert (old / XREF_TABLE_FILE).exists() and not (old / XREFS_FILE).exists()
    assert KnowledgeBaseLinker.from_disk(old).xrefs == XREFS


def test_loading_reads_the_mapped_files_ahead(linker_dirs, monkeypatch):
    from spacy_nseen.linker import storage

    asked = []
    monkeypatch.setattr(storage, "prefetch", lambda paths: asked.extend(paths))
    KnowledgeBaseLinker.from_disk(linker_dirs["uniprot"])
    assert [path.name for path in asked] == ["lookup.npz", "tokens.npz", "tfidf.npz", "names.ann"]
    assert all(path.parent == linker_dirs["uniprot"] for path in asked)
