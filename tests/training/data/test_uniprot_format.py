import pytest

from training.common.data_errors import DataFileError
from training.data.reference_rows import ReferenceRows
from training.data.uniprot_format import (
    add_approved_symbols,
    read_hgnc_approved,
    read_hgnc_synonyms,
    read_uniprot_tsv,
    split_gene_names,
    split_name_and_alternatives,
    split_protein_names,
)


def test_split_alternatives_and_components():
    text = (
        "Angiotensinogen (Serpin A8) [Cleaved into: Angiotensin-1 (Angiotensin I) (Ang I); "
        "Angiotensin-3 (Des-Asp[1]-angiotensin II); Angiotensin 1-9]"
    )
    assert split_protein_names(text) == [
        ("Angiotensinogen", "recommended"),
        ("Serpin A8", "alternative"),
        ("Angiotensin-1", "component"),
        ("Angiotensin I", "component"),
        ("Ang I", "component"),
        ("Angiotensin-3", "component"),
        ("Des-Asp[1]-angiotensin II", "component"),
        ("Angiotensin 1-9", "component"),
    ]


@pytest.mark.parametrize(
    "text,expected",
    [
        # parentheses glued to a name stay in it
        (
            "Calcium-transporting ATPase type 2C member 2 (ATPase 2C2) (Secretory pathway Ca(2+)-ATPase 2)",
            ("Calcium-transporting ATPase type 2C member 2", ["ATPase 2C2", "Secretory pathway Ca(2+)-ATPase 2"]),
        ),
        # nested parentheses inside an alternative name
        (
            "Sodium/potassium-transporting ATPase subunit alpha-1 (Na(+)/K(+) ATPase alpha-1 subunit)",
            ("Sodium/potassium-transporting ATPase subunit alpha-1", ["Na(+)/K(+) ATPase alpha-1 subunit"]),
        ),
        # a name ending in a glued group, no alternatives
        ("Ca(2+)", ("Ca(2+)", [])),
        # a spaced group in the middle of the name is part of the name
        ("Protein (E3-independent) E2 enzyme (UBE2)", ("Protein (E3-independent) E2 enzyme", ["UBE2"])),
    ],
)
def test_split_name_and_alternatives(text, expected):
    assert split_name_and_alternatives(text) == expected


def test_brackets_inside_names_and_special_kinds():
    text = (
        "[3-methyl-2-oxobutanoate dehydrogenase [lipoamide]] kinase, mitochondrial (EC 2.7.11.4) "
        "(BCKD-kinase) (CD antigen CD184) (allergen Hom s 1)"
    )
    assert split_protein_names(text) == [
        ("[3-methyl-2-oxobutanoate dehydrogenase [lipoamide]] kinase, mitochondrial", "recommended"),
        ("2.7.11.4", "ec_number"),
        ("BCKD-kinase", "alternative"),
        ("CD184", "cd_antigen"),
        ("Hom s 1", "allergen"),
    ]


def test_includes_block():
    names = split_protein_names(
        "Bifunctional coenzyme A synthase (CoA synthase) [Includes: Phosphopantetheine "
        "adenylyltransferase (EC 2.7.7.3) (PPAT); Dephospho-CoA kinase (DPCK)]"
    )
    assert [n for n, k in names if k == "component"] == [
        "Phosphopantetheine adenylyltransferase",
        "PPAT",
        "Dephospho-CoA kinase",
        "DPCK",
    ]


def test_gene_names():
    assert split_gene_names("AGT SERPINA8") == [("AGT", "gene_primary"), ("SERPINA8", "gene_synonym")]
    assert split_gene_names("EEF1AKMT4-ECE2; ECE2") == [
        ("EEF1AKMT4-ECE2", "gene_primary"),
        ("ECE2", "gene_primary"),
    ]


def test_read_rest_export(fixtures):
    entries = {e.accession: e for e in read_uniprot_tsv(fixtures / "uniprot_rest_sample.tsv")}
    assert len(entries) == 8
    p31946 = entries["P31946"].names
    assert p31946[0] == ("14-3-3 protein beta/alpha", "recommended")
    assert ("14-3-3 protein beta/alpha, N-terminally processed", "component") in p31946
    assert p31946[-2:] == [("YWHAB", "gene_primary"), ("1433B", "entry_mnemonic")]
    assert entries["Q13057"].ec_numbers == ["2.7.7.3", "2.7.1.24"]
    assert all(k != "ec_number" for e in entries.values() for _, k in e.names)
    assert ("CD184", "cd_antigen") in entries["P61073"].names
    assert ("Secretory pathway Ca(2+)-ATPase 2", "alternative") in entries["O75185"].names
    assert entries["O75185"].families == ["Cation transport ATPase (P-type) (TC 3.A.3) family, Type IIA subfamily"]


def test_hgnc_synonyms(fixtures):
    synonyms = read_hgnc_synonyms(fixtures / "mirror_hgnc.tsv.gz")
    assert set(synonyms) == {"P31946", "P62258"}
    assert all(kind in ("hgnc_alias", "hgnc_previous") for _, kind in synonyms["P62258"])


def test_hgnc_approved_symbols(fixtures, tmp_path):
    assert read_hgnc_approved(fixtures / "mirror_hgnc.tsv.gz") == {"P31946": "YWHAB", "P62258": "YWHAE"}
    two_genes = tmp_path / "hgnc.tsv"
    two_genes.write_text("Approved symbol\tStatus\tUniProt ID(supplied by UniProt)\n"
                         "APP\tApproved\tP05067\nHBA1\tApproved\tP69905\nHBA2\tApproved\tP69905\n"
                         "OLD1\tSymbol Withdrawn\tP99999\n")
    # an accession of two genes (HBA1, HBA2) or of a withdrawn symbol gets none
    assert read_hgnc_approved(two_genes) == {"P05067": "APP"}


def test_add_approved_symbols_promotes_or_adds():
    rows = ReferenceRows()
    rows.add("UniProt:P05067", "Amyloid beta A4 protein", "unmatched")
    rows.add("UniProt:P05067", "APP", "alternative")  # the symbol is there, but not as a gene symbol
    rows.add("UniProt:Q7RTV5", "Peroxiredoxin-like 2C", "recommended")  # no row with the symbol
    rows.add("UniProt:P35318", "ADM", "recommended")  # a recommended name keeps its kind
    rows.add("UniProt:P04637", "Cellular tumor antigen p53", "recommended")
    rows.add("UniProt:P04637", "TP53", "gene_primary")  # has a gene symbol: untouched
    approved = {"P05067": "APP", "Q7RTV5": "PRXL2C", "P35318": "ADM", "P04637": "P53-OTHER"}
    assert add_approved_symbols(rows, approved) == {"added": 1, "promoted": 1}
    assert ("UniProt:P05067", "APP", "gene_primary") in rows.rows
    assert rows.rows[-1] == ("UniProt:Q7RTV5", "PRXL2C", "gene_primary")
    assert ("UniProt:P35318", "ADM", "recommended") in rows.rows
    assert not any(name == "P53-OTHER" for _, name, _ in rows.rows)


def test_missing_file_and_columns(tmp_path):
    with pytest.raises(DataFileError, match="file not found"):
        list(read_uniprot_tsv(tmp_path / "nope.tsv"))
    bad = tmp_path / "bad.tsv"
    bad.write_text("Accession\tName\nP1\tx\n")
    with pytest.raises(DataFileError, match="missing column"):
        list(read_uniprot_tsv(bad))
