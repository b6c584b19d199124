import pytest

from spacy_nseen.organisms.assign import OrganismAssigner
from training.common.bioid import Caption, Mention
from training.evaluation.evaluate_organisms import evaluate, gold_taxa, held_out_captions, read_taxa


def caption(pmc_id, cid, text, mentions):
    out = Caption("train", pmc_id, cid, text)
    for m, acc in mentions:
        start = text.index(m)
        out.mentions.append(Mention("train", pmc_id, cid, "1", start, start + len(m), m, "protein",
                                    (f"Uniprot:{acc}",)))
    return out


TAXA = {"P04637": 9606, "P02340": 10090, "P19882": 559292, "Q9XXX1": 7955}


def test_gold_taxa():
    assert gold_taxa(frozenset({"UniProt:P04637", "UniProt:Q0"}), TAXA) == (9606, "other")


def test_evaluate_counts_and_confusion():
    caps = [caption("2", "2 Figure_1-A", "Mouse Trp53 and TP53 in HeLa.", [("Trp53", "P02340"), ("TP53", "P04637")]),
            caption("2", "2 Figure_1-B", "Lysates of mice.", []),
            caption("3", "3 Figure_1-A", "Zebrafish sox2.", [("sox2", "Q9XXX1")])]
    result = evaluate(caps, OrganismAssigner(), TAXA)
    assert result["counts"]["covered"] == 2 and result["counts"]["other"] == 1
    assert result["confusion"]["10090"] == {"10090": 1}
    assert result["confusion"]["other"] == {"other": 1}  # zebrafish assigned: outside the covered set
    assert result["organism_accuracy"] == pytest.approx(sum(
        r["accuracy"] * r["mentions"] for k, r in result["per_organism"].items() if k != "other") / 2)
    # zebrafish is one of the taxa read: counted as itself (and assigned right) in the accuracy over every organism
    assert result["known_taxon_mentions"] == 3
    assert result["organism_accuracy_all_taxa"] == pytest.approx((result["organism_accuracy"] * 2 + 1) / 3, abs=1e-3)
    fast = evaluate(caps, OrganismAssigner(), TAXA, build_docs=False)
    assert fast["confusion"] == result["confusion"]


def test_read_taxa(tmp_path):
    path = tmp_path / "taxa.tsv"
    path.write_text("kb_id\ttaxon_id\nUniProt:P1\t4932\n", encoding="utf8")
    assert read_taxa(path, "kb_id", "taxon_id") == {"P1": 559292}
    path.write_text("kb_id\ttaxon_id\nP1\tx\n", encoding="utf8")
    with pytest.raises(ValueError, match="bad taxon"):
        read_taxa(path, "kb_id", "taxon_id")


def test_held_out_captions():
    caps = [caption(str(i), f"{i} Figure_1-A", "text", []) for i in range(20)]
    dev = held_out_captions(caps, "0.1:0")
    assert len({c.pmc_id for c in dev}) == 2
    with pytest.raises(ValueError):
        held_out_captions(caps, "0.1")




def test_a_truncated_taxon_file_is_an_error_naming_it(tmp_path):
    import gzip

    from training.common.bioid import BioIDFormatError
    from training.evaluation.evaluate_organisms import read_taxa

    path = tmp_path / "names.tsv.gz"
    with gzip.open(path, "wt", encoding="utf8") as f:
        f.write("accession\ttaxon_id\n" + "".join(f"P{i:05d}\t10090\n" for i in range(5000)))
    path.write_bytes(path.read_bytes()[:-40])
    with pytest.raises(BioIDFormatError, match="names.tsv.gz.*truncated"):
        read_taxa(path, "accession", "taxon_id")


def test_settings_are_numbers_or_true_false():
    import typer

    from training.evaluation.evaluate_organisms import parse_settings

    settings = parse_settings("near_weight=2.5,near_words=4,nearest_qualifier=false")
    assert settings.near_weight == 2.5 and settings.near_words == 4 and settings.nearest_qualifier is False
    assert parse_settings("nearest_qualifier=True").nearest_qualifier is True
    with pytest.raises(typer.BadParameter):
        parse_settings("no_such_setting=1")
