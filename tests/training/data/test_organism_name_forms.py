import pytest

from training.data.extra_organisms import ExtraEntry
from training.data.organism_name_forms import RULES, name_forms, parse_rules


def _entry(gene, taxon):
    return ExtraEntry("P1", taxon, [(gene, "gene_primary"), ("MNEM", "entry_mnemonic")])


def test_yeast_protein_form_only_for_fission_yeast_gene_names():
    assert list(name_forms(_entry("cdc2", 284812), ["yeast_protein"])) == [("yeast_protein", "Cdc2p")]
    assert list(name_forms(_entry("cdc2", 7227), ["yeast_protein"])) == []
    assert list(name_forms(_entry("SPBC2A9.02", 284812), ["yeast_protein"])) == []


def test_species_and_viral_prefixes():
    assert list(name_forms(_entry("ATG8A", 3702), ["species_prefix"])) == [("species_prefix", "AtATG8A")]
    assert list(name_forms(_entry("TK", 37296), ["viral_prefix"])) == [
        ("viral_prefix", "KSHV-TK"), ("viral_prefix", "KSHV TK"), ("viral_prefix", "HHV-8-TK"),
        ("viral_prefix", "HHV-8 TK")]
    assert list(name_forms(ExtraEntry("P1", 37296, [("ORF1", "entry_mnemonic")]), ["viral_prefix"])) == []


def test_parse_rules():
    assert parse_rules("all") == list(RULES) and parse_rules("") == []
    assert parse_rules("viral_prefix") == ["viral_prefix"]
    with pytest.raises(ValueError, match="unknown name-form rules"):
        parse_rules("case_variants")
