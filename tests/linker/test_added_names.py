"""Names added to a built linker: found at once by every search, saved with it, and nothing else changes."""
import json
import shutil

import numpy
import pytest

from spacy_nseen.errors import ArtifactError
from spacy_nseen.linker.added_names import UnknownIdsError, plan_names
from spacy_nseen.linker.added_names_file import ADDED_NAMES_FILE, save_added_vectors
from spacy_nseen.linker.exact_ranking import names_per_entity
from spacy_nseen.linker.kb_linker import KnowledgeBaseLinker
from spacy_nseen.reference.reference_set import DISCOVERED_KIND, ReferenceSet
from spacy_nseen.reference.short_form_names import with_short_forms
from spacy_nseen.retrieval.added_rows import AddedVectors
from spacy_nseen.synonyms.review_file import DISCOVERED_KIND as REVIEW_KIND

SQSTM1, HTT, MTOR = "UniProt:Q13501", "UniProt:P42858", "UniProt:P42345"
NEW = [(SQSTM1, "Zorblaxin-62", "discovered"), (HTT, "hTau-like Qrotein", "")]
UNRELATED = ["TP53", "Tumor suppressor p53", "AKT1", "Protein kinase B", "PTEN", "S6K1", "ras", "PLCγ2", "IKK-ε",
             "Histone H3", "mTOR kinase", "androgen receptor", "p62", "huntingtin protein", "FOXP2"]


def top(linker, mentions, k=3):
    return [[(c.kb_id, c.name, c.score) for c in found] for found in linker.link(mentions, top_k=k)]


def test_an_added_name_is_found_exactly_and_by_a_near_miss(fresh_toy_linker):
    linker = fresh_toy_linker
    n_names = len(linker.reference_set)
    assert linker.add_names(NEW, "captions") == 2
    assert len(linker.reference_set) == n_names + 2 and linker.reference_set.kinds[-2:] == [DISCOVERED_KIND] * 2
    assert top(linker, ["Zorblaxin-62", "zorblaxin 62"], k=1) == [[(SQSTM1, "Zorblaxin-62", 1.0)]] * 2
    near = linker.link(["Zorblaxin62a", "Zorblaxn-62"], top_k=3)
    assert [found[0].kb_id for found in near] == [SQSTM1, SQSTM1]
    assert [found[0].name for found in near] == ["Zorblaxin-62"] * 2 and near[0][0].score < 1.0
    dense = linker.link(["Zorblaxin-62"], top_k=1, mode="dense")[0][0]
    assert (dense.kb_id, dense.name) == (SQSTM1, "Zorblaxin-62")


def test_mentions_unrelated_to_the_added_names_keep_their_links(fresh_toy_linker):
    linker = fresh_toy_linker
    before = top(linker, UNRELATED, k=5)
    probabilities = linker.link_probabilities(UNRELATED, linker.link(UNRELATED, top_k=5))
    linker.add_names(NEW, "captions")
    assert top(linker, UNRELATED, k=5) == before
    after = linker.link_probabilities(UNRELATED, linker.link(UNRELATED, top_k=5))
    if probabilities is not None:
        numpy.testing.assert_array_equal(after, probabilities)


def test_names_already_present_are_not_added_again(fresh_toy_linker):
    linker = fresh_toy_linker
    assert linker.add_names([(SQSTM1, "SQSTM1", ""), (SQSTM1, " Sequestosome-1 ", "")], "x") == 0
    assert linker.add_names(NEW + NEW, "captions") == 2
    assert linker.add_names(NEW, "again") == 0 and linker.name_sources == {"captions": 2}
    # another entity's name is a new name of this one
    assert linker.add_names([(HTT, "SQSTM1", "discovered")], "x") == 1
    plan = plan_names(linker, [(HTT, "SQSTM1", ""), (MTOR, "SQSTM1", "")])
    assert (plan.present, [name for _, name, _ in plan.new]) == (1, ["SQSTM1"])


def test_unknown_ids_are_an_error_naming_them_unless_skipped(fresh_toy_linker):
    linker = fresh_toy_linker
    n_names = len(linker.reference_set)
    with pytest.raises(UnknownIdsError, match="UniProt:NOPE1, UniProt:NOPE2") as err:
        linker.add_names(NEW + [("UniProt:NOPE1", "x", ""), ("UniProt:NOPE2", "y", "")], "captions")
    assert err.value.kb_ids == ["UniProt:NOPE1", "UniProt:NOPE2"] and len(linker.reference_set) == n_names
    assert linker.add_names(NEW + [("UniProt:NOPE1", "x", "")], "captions", skip_unknown=True) == 2


@pytest.mark.parametrize("bad", [(SQSTM1, "", ""), ("", "name", ""), (SQSTM1, "two\nlines", ""), (SQSTM1, "a\tb", ""),
                                 (SQSTM1, "pair")])
def test_bad_names_are_an_error_naming_them(fresh_toy_linker, bad):
    with pytest.raises(ValueError, match=r"names\[1\]"):
        fresh_toy_linker.add_names([NEW[0], bad], "x")
    assert fresh_toy_linker.name_sources == {}


def test_added_names_survive_to_disk_and_from_disk(fresh_toy_linker, tmp_path):
    linker = fresh_toy_linker
    linker.add_names(NEW, "captions")
    mentions = UNRELATED + ["Zorblaxin-62", "Zorblaxn-62", "hTau-like Qrotein", "htau like protein"]
    expected = top(linker, mentions, k=5)
    linker.to_disk(tmp_path / "linker")
    meta = json.loads((tmp_path / "linker" / "linker.json").read_text())
    assert meta["added_names"] == {"file": ADDED_NAMES_FILE, "first_row": meta["n_names"] - 2, "n_names": 2}
    assert meta["discovered_names"] == {"n_names": 2, "sources": {"captions": 2}, "n_added_after_build": 2}
    loaded = KnowledgeBaseLinker.from_disk(tmp_path / "linker")
    assert top(loaded, mentions, k=5) == expected and loaded.name_sources == {"captions": 2}
    assert loaded.names_metadata() == meta["discovered_names"]
    # more names on the loaded linker, saved again over its own copy elsewhere
    assert loaded.add_names([(MTOR, "Rapamycin target kinase X", "")], "abstracts") == 1
    loaded.to_disk(tmp_path / "again")
    again = KnowledgeBaseLinker.from_disk(tmp_path / "again")
    assert again.names_metadata() == {"n_names": 3, "sources": {"abstracts": 1, "captions": 2},
                                      "n_added_after_build": 3}
    assert top(again, ["Rapamycin target kinase X"], k=1) == [[(MTOR, "Rapamycin target kinase X", 1.0)]]


def test_a_linker_without_added_names_saves_no_added_names_file(fresh_toy_linker, linker_dirs, tmp_path):
    shutil.copytree(linker_dirs["uniprot"], tmp_path / "linker")
    fresh_toy_linker.add_names(NEW, "captions")
    fresh_toy_linker.to_disk(tmp_path / "grown")
    KnowledgeBaseLinker.from_disk(linker_dirs["uniprot"]).to_disk(tmp_path / "linker")
    meta = json.loads((tmp_path / "linker" / "linker.json").read_text())
    assert not (tmp_path / "linker" / ADDED_NAMES_FILE).exists() and "added_names" not in meta
    assert "discovered_names" not in meta


def test_a_missing_or_truncated_added_names_file_is_an_error_naming_it(fresh_toy_linker, tmp_path):
    fresh_toy_linker.add_names(NEW, "captions")
    fresh_toy_linker.to_disk(tmp_path / "linker")
    path = tmp_path / "linker" / ADDED_NAMES_FILE
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(ArtifactError, match=ADDED_NAMES_FILE) as err:
        KnowledgeBaseLinker.from_disk(tmp_path / "linker")
    assert "truncated" in str(err.value)
    path.unlink()
    with pytest.raises(ArtifactError, match=f"{ADDED_NAMES_FILE}: not found"):
        KnowledgeBaseLinker.from_disk(tmp_path / "linker")


def test_linker_json_and_the_added_names_file_must_agree(fresh_toy_linker, tmp_path):
    fresh_toy_linker.add_names(NEW, "captions")
    fresh_toy_linker.to_disk(tmp_path / "linker")
    meta_path = tmp_path / "linker" / "linker.json"
    meta = json.loads(meta_path.read_text())
    meta["added_names"]["n_names"] = 3
    meta_path.write_text(json.dumps(meta))
    with pytest.raises(ArtifactError, match="linker.json: says 3 added names"):
        KnowledgeBaseLinker.from_disk(tmp_path / "linker")
    meta["added_names"]["n_names"] = 2
    meta_path.write_text(json.dumps(meta))
    save_added_vectors(tmp_path / "linker" / ADDED_NAMES_FILE, AddedVectors(meta["n_names"] - 2, numpy.ones((1, 32))))
    with pytest.raises(ArtifactError, match=rf"{ADDED_NAMES_FILE}: holds \(1, 32\) vectors"):
        KnowledgeBaseLinker.from_disk(tmp_path / "linker")


def test_the_discovered_penalty_weighs_discovered_names_only(fresh_toy_linker):
    linker = fresh_toy_linker
    linker.add_names([(HTT, "Sequestosome-2", "")], "captions")
    plain = {c.kb_id: c.score for c in linker.link(["Sequestosom-2"], top_k=5)[0]}
    assert linker.settings.discovered_penalty == 0.0
    penalised = linker.with_settings(type(linker.settings)(**{**linker.settings.to_dict(), "discovered_penalty": 0.3}))
    weighed = {c.kb_id: c.score for c in penalised.link(["Sequestosom-2"], top_k=5)[0]}
    assert weighed[HTT] == pytest.approx(plain[HTT] - 0.3, abs=1e-5)
    assert weighed[SQSTM1] == pytest.approx(plain[SQSTM1])
    # the reference names keep their scores: only the discovered one moves (down)
    kept = [[c for c in found if c[1] != "Sequestosome-2"] for found in top(penalised, UNRELATED, k=5)]
    assert kept == [[c for c in found if c[1] != "Sequestosome-2"][: len(k)] for found, k in
                    zip(top(linker, UNRELATED, k=6), kept)]


def test_discovered_names_do_not_count_in_the_names_prior(fresh_toy_linker):
    before = names_per_entity(fresh_toy_linker.reference_set)
    fresh_toy_linker.add_names(NEW, "captions")
    numpy.testing.assert_array_equal(names_per_entity(fresh_toy_linker.reference_set), before)


def test_the_kind_is_the_review_files():
    assert DISCOVERED_KIND == REVIEW_KIND


def test_a_derived_short_form_becomes_an_exact_name(toy_encoder, tmp_path):
    rows = [("UniProt:Q9H492", "Autophagy-related protein LC3 A", "alternative"),
            ("UniProt:Q9GZQ8", "Autophagy-related protein LC3 B", "alternative"),
            ("UniProt:P04637", "TP53", "gene_primary")]
    reference = with_short_forms(ReferenceSet.from_rows(rows))
    stem_rows = [row for row, name in enumerate(reference.names) if name == "LC3"]
    assert len(stem_rows) == 2 and all(reference.kinds[row] == "short_stem" for row in stem_rows)
    linker = KnowledgeBaseLinker.build("uniprot", toy_encoder, reference, n_trees=4)
    assert not linker.exact_names.lookup("LC3")  # a short form is searched, never an exact match
    n_names = len(linker.reference_set)
    assert linker.add_names([("UniProt:Q9GZQ8", "LC3", "")], "captions") == 1
    assert len(linker.reference_set) == n_names and linker.index.added is None  # no new row: the kind changed
    assert top(linker, ["LC3"], k=1) == [[("UniProt:Q9GZQ8", "LC3", 1.0)]]
    assert linker.names_metadata() == {"n_names": 1, "sources": {"captions": 1}, "n_added_after_build": 0}
    linker.to_disk(tmp_path / "linker")
    loaded = KnowledgeBaseLinker.from_disk(tmp_path / "linker")
    assert top(loaded, ["LC3", "TP53"], k=2) == top(linker, ["LC3", "TP53"], k=2)
    assert loaded.add_names([("UniProt:Q9GZQ8", "LC3", "")], "captions") == 0
