import gzip
from pathlib import Path

from training.data.build_reference_sets import add_other_organisms
from training.data.gene_aliases import KIND, MOUSE, RAT, authority_aliases, entry_aliases, gene_info_aliases
from training.data.gene_xrefs import GeneNames
from training.data.reference_rows import ReferenceRows

GENE_INFO = [
    "#tax_id\tGeneID\tSymbol\tLocusTag\tSynonyms\tdbXrefs",
    "10090\t18412\tSqstm1\t-\tA170|OSF-6|p62\tMGI:MGI:107931",
    "10090\t66734\tMap1lc3a\t-\tLC3|LC3a\tMGI:MGI:1915661",
    "10090\t1\tDup\t-\tx1\t-",
    "10090\t2\tDup\t-\tx2\t-",
    "9606\t8878\tSQSTM1\t-\tp62|ZIP3\t-",
]
MGI = ["ID\tsymbol\tsynonyms\tensembl", "107931\tSqstm1\tA170|STAP\tENSMUSG1"]
RGD = ["ID\tsymbol\tsynonyms\tensembl", "3213\tNtrk2\tTRKB1;trkB\tENSRNOG1", "9\tSqstm1\tOsi;ZIP\tENSRNOG2"]
OTHER_NAMES = [
    "accession\tname\tname_kind\ttaxon_id\torganism",
    "Q64337\tSequestosome-1\trecommended\t10090\tMus musculus",
    "Q64337\tSqstm1\tgene_primary\t10090\tMus musculus",
    "Q91VR7\tMap1lc3a\tgene_primary\t10090\tMus musculus",
    "Q00000\tDup\tgene_primary\t10090\tMus musculus",
    "Q63604\tNtrk2\tgene_primary\t10116\tRattus norvegicus",
    "P00001\tATG8\tgene_primary\t559292\tSaccharomyces cerevisiae",
]


def _write(path: Path, lines) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(path, "wt", encoding="utf8") as f:
        f.write("\n".join(lines) + "\n")
    return path


def test_gene_info_aliases_of_one_taxon_and_unambiguous_symbols(tmp_path):
    table = gene_info_aliases(_write(tmp_path / "g.gz", GENE_INFO), MOUSE)
    assert table["Sqstm1"] == {"A170", "OSF-6", "p62"}
    assert table["Map1lc3a"] == {"LC3", "LC3a"}
    assert "Dup" not in table  # two genes share the symbol: no aliases
    assert "SQSTM1" not in table  # human rows are not mouse aliases


def test_authority_aliases_split_on_the_files_separator(tmp_path):
    assert authority_aliases(_write(tmp_path / "r.gz", RGD), ";")["Ntrk2"] == {"TRKB1", "trkB"}
    assert authority_aliases(_write(tmp_path / "m.gz", MGI), "|")["Sqstm1"] == {"A170", "STAP"}


def test_entry_aliases_go_through_the_primary_gene_name_of_the_same_organism():
    entries = {"M": GeneNames(MOUSE, "Sqstm1"), "R": GeneNames(RAT, "Sqstm1"), "Y": GeneNames(559292, "Sqstm1"),
               "N": GeneNames(MOUSE, "")}
    tables = {MOUSE: {"Sqstm1": {"p62", "Sqstm1"}}, RAT: {"Sqstm1": {"ZIP"}}}
    assert entry_aliases(entries, tables) == {"M": ["p62"], "R": ["ZIP"]}  # the symbol itself is not repeated


def test_add_other_organisms_adds_mouse_and_rat_aliases(tmp_path):
    sources = tmp_path / "sources"
    _write(sources / "organisms/names_by_organism.tsv.gz", OTHER_NAMES)
    _write(sources / "organisms/Mus_musculus.gene_info.gz", GENE_INFO)
    _write(sources / "organisms/mgi_entries.tsv.gz", MGI)
    _write(sources / "organisms/rgd_entries.tsv.gz", RGD)
    rows = ReferenceRows()
    rows.add("UniProt:Q13501", "p62", "hgnc_alias")
    added = add_other_organisms(rows, sources, "mirror", [MOUSE, RAT, 559292])
    aliases = {(k, n) for k, n, kind in rows.rows if kind == KIND}
    assert ("UniProt:Q64337", "p62") in aliases and ("UniProt:Q64337", "STAP") in aliases
    assert ("UniProt:Q91VR7", "LC3") in aliases
    assert ("UniProt:Q63604", "trkB") in aliases
    assert not any(k == "UniProt:Q00000" for k, _ in aliases)
    assert added == {str(MOUSE): 6, str(RAT): 2}
    assert rows.taxa["UniProt:Q64337"] == MOUSE and rows.taxa["UniProt:Q13501"] == 9606


def test_missing_alias_files_are_skipped_and_aliases_can_be_turned_off(tmp_path):
    sources = tmp_path / "sources"
    _write(sources / "organisms/names_by_organism.tsv.gz", OTHER_NAMES)
    _write(sources / "organisms/rgd_entries.tsv.gz", RGD)
    rows = ReferenceRows()
    assert add_other_organisms(rows, sources, "mirror", [MOUSE, RAT]) == {str(RAT): 2}  # no mouse files fetched
    off = ReferenceRows()
    assert add_other_organisms(off, sources, "mirror", [MOUSE, RAT], gene_aliases=False) == {}
    assert not any(kind == KIND for _, _, kind in off.rows)
