import gzip

import pytest

from training.common.data_errors import DataFileError
from training.data.extra_organisms import (
    MODEL_ORGANISMS,
    ExtraEntry,
    Selection,
    parse_selection,
    read_extra_entries,
    species_taxon,
)

HEADER = "accession\tname\tname_kind\ttaxon_id\torganism\n"
ROWS = [
    ("P23226", "dpp", "gene_primary", "7227", "Drosophila melanogaster"),
    ("P23226", "DECA", "entry_mnemonic", "7227", "Drosophila melanogaster"),
    ("F5HGJ3", "TK", "gene_primary", "868565", "Human herpesvirus 8 type P (isolate GK18)"),
    ("Q9XXX1", "YB3C", "entry_mnemonic", "5555", "Some bacterium (strain X)"),
    ("P23226", "Decapentaplegic", "recommended", "7227", "Drosophila melanogaster"),
]


def _write(path, rows):
    with gzip.open(path, "wt", encoding="utf8") as f:
        f.write(HEADER + "".join("\t".join(r) + "\n" for r in rows))
    return path


def test_parse_selection_words_and_ids():
    taxa, sel = parse_selection("10090, 7227,model")
    assert taxa == [10090, 7227] and 7227 in sel and 3702 in sel and 5555 not in sel
    assert MODEL_ORGANISMS <= sel.taxa
    taxa, sel = parse_selection("all")
    assert taxa == [] and 5555 in sel and not sel.empty
    assert parse_selection("")[1].empty
    with pytest.raises(ValueError, match="fly"):
        parse_selection("fly")


def test_viral_isolates_take_the_species_taxon():
    assert species_taxon(868565, "Human herpesvirus 8 type P (isolate GK18)") == 37296
    assert species_taxon(7227, "Drosophila melanogaster") == 7227


def test_read_groups_rows_by_accession_and_selects_taxa(tmp_path):
    path = _write(tmp_path / "extra.tsv.gz", ROWS)
    entries = {e.accession: e for e in read_extra_entries(path, Selection(frozenset({7227, 37296})))}
    assert sorted(entries) == ["F5HGJ3", "P23226"]
    fly = entries["P23226"]
    assert fly.taxon == 7227 and fly.gene_name() == "dpp"
    # the mnemonic goes when the entry has other names
    assert fly.kept_names() == [("dpp", "gene_primary"), ("Decapentaplegic", "recommended")]
    assert entries["F5HGJ3"].taxon == 37296
    everything = list(read_extra_entries(path, Selection(everything=True)))
    assert [e.kept_names() for e in everything if e.accession == "Q9XXX1"] == [[("YB3C", "entry_mnemonic")]]


def test_a_bad_taxon_is_a_clear_error(tmp_path):
    path = _write(tmp_path / "extra.tsv.gz", [("P1", "x", "gene_primary", "fly", "Drosophila")])
    with pytest.raises(DataFileError, match="taxon_id 'fly'"):
        list(read_extra_entries(path, Selection(everything=True)))


def test_entry_without_gene():
    assert ExtraEntry("P1", 1, [("ABC", "entry_mnemonic")]).gene_name() is None


def test_common_english_words_are_no_names():
    from training.data.extra_organisms import is_common_word

    assert is_common_word("in") and is_common_word("en") and is_common_word("how")
    assert not is_common_word("dpp") and not is_common_word("En") and not is_common_word("unc-51")
    entry = ExtraEntry("P1", 7227, [("in", "gene_primary"), ("INAC", "entry_mnemonic")])
    assert entry.kept_names() == [("INAC", "entry_mnemonic")]
