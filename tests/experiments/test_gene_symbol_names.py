"""Gene symbols for the PROTEIN name list: NCBI gene_info (protein-coding only) and the MGI/RGD entries files."""
import gzip

import pytest

from experiments.gene_symbol_names import gene_info_names, gene_names
from training.data.gene_xrefs import GeneSourceError

GENE_INFO = ("#tax_id\tGeneID\tSymbol\tLocusTag\tSynonyms\tdbXrefs\tchromosome\tmap_location\tdescription\ttype_of_gene\n"
             "10090\t1\tClec7a\t-\tDectin1|BGR\t-\t6\t-\tC-type lectin\tprotein-coding\n"
             "10090\t2\tMalat1\t-\t-\t-\t19\t-\tlncRNA\tncRNA\n")


def test_gene_info_keeps_protein_coding_symbols_and_synonyms(tmp_path):
    path = tmp_path / "Mus_musculus.gene_info.gz"
    with gzip.open(path, "wt") as f:
        f.write(GENE_INFO)
    assert list(gene_info_names(path)) == ["Clec7a", "Dectin1", "BGR"]


def test_mgi_synonyms_split_at_bars_and_rgd_synonyms_at_semicolons(tmp_path):
    info = tmp_path / "human.gene_info"
    info.write_text(GENE_INFO.replace("10090", "9606"))
    mgi = tmp_path / "mgi.tsv"
    mgi.write_text("ID\tsymbol\tsynonyms\tensembl\n1\tPtf1a\tp48|PTF1-p48\tENSMUSG1\n2\tTrp53\t\tENSMUSG2\n")
    rgd = tmp_path / "rgd.tsv"
    rgd.write_text("ID\tsymbol\tsynonyms\tensembl\n2004\tA2m\tA2MAC1;A2m1\tENSRNOG1\n")
    assert list(gene_names([info], mgi, rgd)) == ["Clec7a", "Dectin1", "BGR", "Ptf1a", "p48", "PTF1-p48", "Trp53",
                                                 "A2m", "A2MAC1", "A2m1"]
    assert list(gene_names(rgd=rgd)) == ["A2m", "A2MAC1", "A2m1"]


def test_a_file_of_another_format_is_refused(tmp_path):
    path = tmp_path / "other.tsv"
    path.write_text("#tax_id\tGeneID\n1\t2\n")
    with pytest.raises(GeneSourceError, match=r"lacks the column\(s\) \['Symbol', 'Synonyms', 'type_of_gene'\]"):
        list(gene_info_names(path))
