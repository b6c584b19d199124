from training.common.bioid_scoring import EquivalenceClasses, GoldMention
from training.evaluation.linking_views import (
    GOLD_ORGANISMS,
    MISS_CAUSES,
    gold_organism,
    linking_only_views,
    miss_cause,
    nil_spans,
    nil_unlinked,
    uniprot_all_gold,
    uniprot_gold,
    uniprot_miss_causes,
)
from training.evaluation.pipeline_outputs import SpanOutput

EQUIV = EquivalenceClasses([["Uniprot:P1", "NCBI gene:7"], ["Uniprot:P2", "Uniprot:P3"]])
MENTIONS = [
    GoldMention(0, 0, 3, "protein", ("Uniprot:P1",)),
    GoldMention(0, 0, 3, "gene", ("NCBI gene:7",)),        # same span, gene id: one span
    GoldMention(0, 5, 8, "protein", ("Uniprot:P2",)),
    GoldMention(0, 9, 12, "protein", ("Uniprot:Q9",)),      # out of KB
    GoldMention(0, 13, 17, "protein", ("protein:Flag",)),   # NIL
    GoldMention(0, 18, 21, "gene", ("gene:abc",)),          # NIL, never seen by the linker
    GoldMention(0, 22, 25, "protein", ("protein:X",)),      # NIL span that also carries a normalized mention
    GoldMention(0, 22, 25, "protein", ("Uniprot:P5",)),
    GoldMention(0, 30, 33, "chemical", ("molecule:Y",)),    # NIL of another type
]
LINKED = {
    (0, 0, 3): SpanOutput("PROTEIN", "UniProt:P1", 9606, "NCBIGene:7"),
    (0, 5, 8): SpanOutput("PROTEIN", "UniProt:P3", 10090),
    (0, 9, 12): SpanOutput("PROTEIN", "UniProt:P4", 9606),
    (0, 13, 17): SpanOutput("PROTEIN", None),
    (0, 22, 25): SpanOutput("PROTEIN", "UniProt:P5", 9606),
}


def test_nil_spans_and_unlinked_share():
    nil = nil_spans(MENTIONS, {"protein_gene"})
    assert nil == {(0, 13, 17): "protein", (0, 18, 21): "gene"}
    share = nil_unlinked(nil, LINKED)
    assert share["share"] == 1.0 and share["by_type"]["gene"]["mentions"] == 1


def test_uniprot_all_gold_counts_out_of_kb_as_misses():
    gold = uniprot_gold(MENTIONS)
    assert set(gold) == {(0, 0, 3), (0, 5, 8), (0, 9, 12), (0, 22, 25)}
    u = uniprot_all_gold(gold, LINKED, EQUIV, known_ids={"UniProt:P1", "UniProt:P2", "UniProt:P3", "UniProt:P5"})
    assert (u["right"], u["right_strict"], u["spans"]) == (3, 2, 4)  # P3 ~ P2 right only through the class
    assert u["share"] == 0.75 and u["share_in_kb"] == 1.0 and u["spans_in_kb"] == 3


def test_views_with_modes_and_organisms():
    taxa = {"UniProt:P1": 9606, "UniProt:P2": 9606, "UniProt:P5": 10090}
    views = linking_only_views(MENTIONS, LINKED, EQUIV, {"UniProt:P1"}, ("kb_id", "ncbigene"), taxa, with_taxa=True)
    pg = views["scores"]["kb_id"]["protein_gene"]
    assert (pg["tp"], pg["predicted"], pg["gold"]) == (3, 4, 4)
    assert views["scores"]["ncbigene"]["protein_gene"]["tp"] == 3  # PROTEIN spans keep their UniProt id
    org = views["organism"]
    assert org["spans_gold_known"] == 3 and org["accuracy"] == round(1 / 3, 4)
    assert linking_only_views(MENTIONS, LINKED, EQUIV, set(), ("kb_id",), taxa, with_taxa=False)["organism"] is None


KNOWN = {"UniProt:P1", "UniProt:P2", "UniProt:P3", "UniProt:P5", "UniProt:M5"}
TAXA = {"UniProt:P1": 9606, "UniProt:P2": 9606, "UniProt:P3": 9606, "UniProt:P5": 9606, "UniProt:M5": 10090}


def test_miss_cause_of_each_outcome():
    def cause(ids, out, taxa=TAXA):
        return miss_cause(ids, out, EQUIV, KNOWN, taxa)

    assert cause(["UniProt:P2"], SpanOutput("PROTEIN", "UniProt:P3", 9606)) == "right"  # through the class
    assert cause(["UniProt:Q9"], SpanOutput("PROTEIN", "UniProt:P1", 9606)).startswith("out of KB")
    assert cause(["UniProt:P1"], None) == "left unlinked, the gold id not a candidate"  # the linker never saw it
    unlinked = [SpanOutput("PROTEIN", None, 9606, candidates=c) for c in (("UniProt:P1",), ("UniProt:P5", "UniProt:P1"), ("UniProt:P5",))]
    assert [cause(["UniProt:P1"], o) for o in unlinked] == [MISS_CAUSES[2], MISS_CAUSES[3], MISS_CAUSES[4]]
    assert cause(["UniProt:P5"], SpanOutput("PROTEIN", "UniProt:M5", 10090)) == "another id, organism assigned wrong"
    assert cause(["UniProt:P5"], SpanOutput("PROTEIN", "UniProt:M5", 9606)) == MISS_CAUSES[6]
    assert cause(["UniProt:P5"], SpanOutput("PROTEIN", "UniProt:P1", 9606)) == "another id of the gold organism"
    assert cause(["UniProt:P5"], SpanOutput("PROTEIN", "UniProt:P1", 9606), taxa=None) == MISS_CAUSES[-1]


def test_uniprot_miss_causes_count_every_span_once_with_its_strings():
    gold = uniprot_gold(MENTIONS)
    texts = ["TP5  Trp XYZ " + " " * 30]  # the out-of-KB span (0, 9, 12) reads "XYZ"
    causes = uniprot_miss_causes(gold, LINKED, EQUIV, KNOWN, TAXA, texts)
    assert list(causes) == list(MISS_CAUSES)
    assert sum(c["spans"] for c in causes.values()) == len(gold) == 4
    assert causes["right"]["spans"] == 3 and causes[MISS_CAUSES[1]]["mentions"] == [["XYZ", 1]]
    assert causes["right"]["share"] == 0.75
    assert all(c["mentions"] == [] for c in uniprot_miss_causes(gold, LINKED, EQUIV, KNOWN).values())


def test_gold_organism_of_a_span():
    assert gold_organism(["UniProt:M5"], TAXA) == "mouse"
    assert gold_organism(["UniProt:P1", "UniProt:Q9"], TAXA) == "human"  # the out-of-KB id has no organism
    assert gold_organism(["UniProt:P1", "UniProt:M5"], TAXA) == "several"
    assert gold_organism(["UniProt:Q9"], TAXA) == "other/unknown"
    assert gold_organism(["UniProt:R1"], {"UniProt:R1": 7227}) == "other/unknown"  # fly: not one of the five


def test_uniprot_miss_causes_by_gold_organism():
    gold = uniprot_gold(MENTIONS)
    causes = uniprot_miss_causes(gold, LINKED, EQUIV, KNOWN, TAXA)
    assert all(list(c["gold_organism"]) == list(GOLD_ORGANISMS) for c in causes.values())
    assert causes["right"]["gold_organism"]["human"] == 3
    assert causes[MISS_CAUSES[1]]["gold_organism"]["other/unknown"] == 1
    assert sum(sum(c["gold_organism"].values()) for c in causes.values()) == len(gold)
    assert all("gold_organism" not in c for c in uniprot_miss_causes(gold, LINKED, EQUIV, KNOWN).values())
