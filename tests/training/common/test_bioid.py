import gzip
from pathlib import Path

import pytest

from training.common.bioid import (
    BioIDFormatError,
    Caption,
    caption_contexts,
    figure_of,
    group_by_article,
    kb_queries,
    panel_contexts,
    read_captions,
    read_equivalences,
    read_mentions,
    read_secondary_map,
)

FIX = Path(__file__).parents[2] / "fixtures" / "eval"


def test_read_mentions_and_ids():
    ms = read_mentions(FIX / "mentions.tsv")
    assert len(ms) == 9
    assert ms[1].ids == ("Uniprot:P00002", "NCBI gene:5")
    flag = ms[3]
    assert flag.ids == ("protein:Flag",) and not flag.is_normalized
    assert ms[0].is_normalized
    assert [m.text for m in read_mentions(FIX / "mentions.tsv", splits={"test"})] == [
        "Beta protein", "alpha kinase", "water"]


def test_captions_group_mentions_with_char_offsets():
    caps = read_captions(FIX / "captions.tsv", FIX / "mentions.tsv")
    assert [len(c.mentions) for c in caps] == [6, 3]
    for cap in caps:
        for m in cap.mentions:
            assert cap.text[m.start:m.end] == m.text
    assert sorted(group_by_article(caps)) == ["P001", "P002"]


def test_uniprot_queries_use_curie_prefix():
    qs = kb_queries(read_mentions(FIX / "mentions.tsv"), "uniprot")
    assert [q.text for q in qs] == ["AK1", "AK2", "Mk1", "AK1", "Beta protein", "alpha kinase"]
    assert qs[1].gold == {"UniProt:P00002"}


def test_chebi_secondary_mapped_to_primary():
    ms = read_mentions(FIX / "mentions.tsv")
    sec = read_secondary_map(FIX / "chebi_secondary.tsv")
    qs = kb_queries(ms, "chebi", sec)
    assert [(q.text, set(q.gold)) for q in qs] == [("ATP", {"CHEBI:15422"}),
                                                 ("water", {"CHEBI:15377"})]
    assert kb_queries(ms, "chebi")[0].gold == {"CHEBI:2"}


def test_equivalences_only_same_kb_classes():
    eq = read_equivalences(FIX / "equivalence_classes.json.gz", "uniprot")
    assert eq == {"UniProt:P00002": {"UniProt:P00002", "UniProt:P00004"},
                  "UniProt:P00004": {"UniProt:P00002", "UniProt:P00004"}}
    qs = kb_queries(read_mentions(FIX / "mentions.tsv"), "uniprot", equivalences=eq)
    assert qs[1].gold == {"UniProt:P00002", "UniProt:P00004"}
    assert read_equivalences(FIX / "equivalence_classes.json.gz", "chebi") == {}


def test_missing_and_corrupt_files(tmp_path):
    with pytest.raises(BioIDFormatError, match="not found"):
        read_mentions(tmp_path / "mentions.tsv.gz")
    bad = tmp_path / "mentions.tsv.gz"
    bad.write_bytes(gzip.compress((FIX / "mentions.tsv").read_bytes())[:60])
    with pytest.raises(BioIDFormatError, match="truncated or corrupt"):
        read_mentions(bad)
    wrong = tmp_path / "wrong.tsv"
    wrong.write_text("a\tb\n1\t2\n")
    with pytest.raises(BioIDFormatError, match="lacks the column"):
        read_mentions(wrong)
    with pytest.raises(ValueError, match="Unknown KB"):
        kb_queries([], "hgnc")


@pytest.mark.parametrize("caption_id,figure", [("140041 Figure_1-A", "140041 Figure_1"),
                                               ("140041 Figure_1-E-F", "140041 Figure_1"),
                                               ("2542474 Figure_2.-G", "2542474 Figure_2."),
                                               ("3661710 figf5-AB", "3661710 figf5"), ("77 Figure_3", "77 Figure_3")])
def test_figure_of_strips_the_panel(caption_id, figure):
    assert figure_of(caption_id) == figure


def test_caption_contexts_split_article_and_figure():
    caps = [Caption("train", "1", "1 Figure_1-A", "a"), Caption("train", "1", "1 Figure_1-B", "b"),
            Caption("train", "1", "1 Figure_2-A", "c"), Caption("train", "2", "2 Figure_1-A", "d")]
    contexts = caption_contexts(caps)
    assert contexts[0].article_texts == ["b", "c"] and contexts[0].figure_texts == ["b"]
    assert contexts[2].article_texts == ["a", "b"] and contexts[2].figure_texts == []
    assert contexts[3].article_texts == [] and contexts[3].figure_texts == []


def test_panel_contexts_without_a_caption_id_have_no_figure():
    contexts = panel_contexts([("1", None), ("1", "1 Figure_1-B"), ("1", "1 Figure_1-C")], ["a", "b", "c"])
    assert contexts[0].article_texts == ["b", "c"] and contexts[0].figure_texts == []
    assert contexts[1].figure_texts == ["c"]

