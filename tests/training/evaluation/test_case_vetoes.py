"""Which links `link_case_mismatch` withholds (`training.evaluation.case_vetoes`)."""

import gzip

import pytest

from training.evaluation.case_vetoes import linker_pipe, read_lines, vetoed_links


def test_a_lowercase_word_matching_only_a_capitalised_alias_is_withheld_and_listed(make_nlp, make_doc):
    nlp = make_nlp(link_case_mismatch=False, threshold=0.0)
    # `ras` matches only RAS, an alternative name of HRAS written in capitals; `HRAS` is the gene's primary symbol
    doc = make_doc(nlp, ["ras", "and", "HRAS"], [(0, 1, "PROTEIN"), (2, 3, "PROTEIN")])
    linked = nlp.get_pipe("nseen_linker")(doc)
    assert [e.kb_id_ for e in linked.ents] == ["", "UniProt:P01112"]
    vetoed, kept, contexts = vetoed_links(nlp, [linked])
    assert kept == 1 and vetoed == {("ras", "uniprot", "UniProt:P01112", "RAS"): 1}
    assert contexts == {("ras", "uniprot", "UniProt:P01112", "RAS"): "[[ras]] and HRAS"}


def test_with_the_default_setting_nothing_is_withheld(make_nlp, make_doc):
    nlp = make_nlp(threshold=0.0)
    doc = nlp.get_pipe("nseen_linker")(make_doc(nlp, ["ras"], [(0, 1, "PROTEIN")]))
    assert doc.ents[0].kb_id_ == "UniProt:P01112"
    assert vetoed_links(nlp, [doc]) == ({}, 1, {})


def test_lines_are_read_from_plain_or_gzip_text_and_bad_files_named(tmp_path):
    plain, packed, broken = tmp_path / "a.txt", tmp_path / "b.txt.gz", tmp_path / "c.txt.gz"
    plain.write_text("one\n\n two \n", encoding="utf8")
    with gzip.open(packed, "wt", encoding="utf8") as f:
        f.write("three\n")
    broken.write_bytes(b"\x1f\x8b not gzip")
    assert read_lines(plain) == ["one", "two"] and read_lines(packed) == ["three"]
    with pytest.raises(ValueError, match="c.txt.gz"):
        read_lines(broken)


def test_a_pipeline_without_the_linker_is_named(make_nlp):
    import spacy

    with pytest.raises(ValueError, match="no nseen_linker"):
        linker_pipe(spacy.blank("en"))
    assert linker_pipe(make_nlp(initialize=False)) is not None
