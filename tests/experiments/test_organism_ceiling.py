"""The organism ceiling's oracles and rules, on mentions whose assigned organisms are given."""
from pathlib import Path

from typer.testing import CliRunner

from experiments.organism_ceiling import app, ceiling
from spacy_nseen.organisms.assign import SpanOrganism
from training.evaluation.evaluate_organisms import AssignedMention

HUMAN, MOUSE = 9606, 10090


def mention(pmc_id: str, text: str, gold: int, assigned: int, scores: dict) -> AssignedMention:
    return AssignedMention(pmc_id, f"{pmc_id} Figure_1-A", text, (gold,),
                           SpanOrganism(assigned, [], scores=scores))


def test_the_oracles_and_rules_count_what_they_say() -> None:
    mentions = [
        # article 2: Akt is mouse twice (assigned once right), Tp53 human (assigned mouse)
        mention("2", "Akt", MOUSE, MOUSE, {MOUSE: 3.0, HUMAN: 1.0}),
        mention("2", "AKT", MOUSE, HUMAN, {HUMAN: 1.5, MOUSE: 1.0}),
        mention("2", "Tp53", HUMAN, MOUSE, {MOUSE: 2.0}),
        # article 3: one human mention, assigned right; a mention of another organism is not counted
        mention("3", "LC3", HUMAN, HUMAN, {HUMAN: 1.0}),
        AssignedMention("3", "3 Figure_1-A", "Atg8a", ("other",), SpanOrganism(HUMAN, [], scores={HUMAN: 1.0})),
    ]
    result = ceiling(mentions)
    acc = result["accuracy"]
    assert result["mentions"] == 4 and result["articles"] == 2
    assert acc["assigner"] == 0.5                          # Akt and LC3
    assert acc["oracle_article"] == 0.75                   # article 2 → mouse: Akt, AKT; article 3: LC3
    assert acc["oracle_name_in_article"] == 1.0            # each name has one gold organism
    assert acc["rule_name_in_article_summed_scores"] == 0.75  # Akt/AKT: mouse 4.0 > human 2.5; Tp53 stays mouse
    assert acc["rule_name_in_article_majority"] == 0.75     # Akt/AKT tie: the first met (mouse) wins
    assert acc["rule_article_majority"] == 0.75            # article 2 → mouse
    assert result["names_in_articles_with_several_gold_organisms"] == 0


def test_names_with_several_gold_organisms_are_counted() -> None:
    mentions = [mention("2", "LC3", HUMAN, HUMAN, {HUMAN: 1.0}), mention("2", "lc3", MOUSE, HUMAN, {HUMAN: 1.0})]
    result = ceiling(mentions)
    assert result["names_in_articles_with_several_gold_organisms"] == 1 and result["mentions_of_those_names"] == 2
    assert result["accuracy"]["oracle_name_in_article"] == 0.5


def test_the_caption_oracle_follows_each_caption() -> None:
    # one article, two captions: human cells in Figure 1, mice in Figure 2; the assigner says human throughout
    mentions = [AssignedMention("4", "4 Figure_1-A", name, (HUMAN,), SpanOrganism(HUMAN, [], scores={HUMAN: 1.0}))
                for name in ("MET", "HGF", "ATM")]
    mentions += [AssignedMention("4", "4 Figure_2-A", name, (MOUSE,), SpanOrganism(HUMAN, [], scores={HUMAN: 1.0}))
                 for name in ("Met", "Hgf")]
    acc = ceiling(mentions)["accuracy"]
    assert acc["oracle_article"] == 0.6     # the article's majority, human, for all five
    assert acc["oracle_caption"] == 1.0     # each caption's own organism
    assert acc["assigner"] == 0.6


def test_a_bad_half_or_a_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    bad = CliRunner().invoke(app, ["--documents", "third", "--output", str(tmp_path)])
    assert bad.exit_code == 1 and "third" in bad.output
    missing = CliRunner().invoke(app, ["--captions", str(tmp_path / "none.tsv"), "--output", str(tmp_path)])
    assert missing.exit_code == 1 and "none.tsv" in missing.output
    no_table = CliRunner().invoke(app, ["--cell-lines", str(tmp_path / "none.json.gz"), "--output", str(tmp_path)])
    assert no_table.exit_code == 1 and "none.json.gz" in no_table.output
