"""Why the best candidate is wrong: the organism assigned, the organism ranked, another entity, out of reach."""
from training.evaluation.miss_causes import (
    NO_CANDIDATE,
    ORGANISM_WRONG,
    OTHER_ENTITY,
    OTHER_ORGANISM_FIRST,
    OUT_OF_REACH,
    markdown,
    miss_cause,
    miss_causes,
)

HUMAN, MOUSE = 9606, 10090
TAXA = {"H1": HUMAN, "H2": HUMAN, "M1": MOUSE, "M2": MOUSE}
GOLD = frozenset({"M1"})


def test_each_miss_gets_the_first_cause_that_holds() -> None:
    taxon_of = TAXA.get
    assert miss_cause(["M1", "H1"], GOLD, HUMAN, taxon_of) is None
    assert miss_cause(["H1", "M1"], GOLD, HUMAN, taxon_of) == ORGANISM_WRONG
    assert miss_cause(["H1", "M1"], GOLD, None, taxon_of) == ORGANISM_WRONG
    assert miss_cause(["H1", "M1"], GOLD, MOUSE, taxon_of) == OTHER_ORGANISM_FIRST
    assert miss_cause(["M2", "M1"], GOLD, MOUSE, taxon_of) == OTHER_ENTITY
    assert miss_cause(["M2", "H2"], GOLD, MOUSE, taxon_of) == OUT_OF_REACH
    assert miss_cause([], GOLD, MOUSE, taxon_of) == NO_CANDIDATE


def test_causes_are_counted_per_gold_organism_with_examples() -> None:
    causes = miss_causes(["Trp53", "Trp53", "p53", "TP53"], [["H1"], ["M1"], ["M2"], ["H1"]],
                         [GOLD, GOLD, GOLD, frozenset({"H1"})], [HUMAN, MOUSE, MOUSE, HUMAN],
                         ["mouse", "mouse", "mouse", "human"], TAXA.get)
    assert causes["occurrences"] == 4 and causes["misses"] == 2
    assert causes["by_organism"] == {"human": {"occurrences": 1},
                                     "mouse": {"occurrences": 3, ORGANISM_WRONG: 1, OUT_OF_REACH: 1}}
    assert causes["examples"][ORGANISM_WRONG] == [["Trp53", "M1", "H1", 1]]
    text = "\n".join(markdown("nseen", causes))
    assert "2 of 4 occurrences" in text and "| mouse | 3 | 1 | 0 | 0 | 1 | 0 |" in text and "| all | 4 | 1 | 0 | 0 | 1 | 0 |" in text
