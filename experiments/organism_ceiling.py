"""How far can organism assignment go on Bio-ID? Oracles and one-organism-per-article rules (issue 14).

The assigner decides each gold UniProt mention's organism from its own context (`evaluate_organisms`). Two
oracles bound what any decision shared across an article could reach, and three rules try such sharing without
gold:

- oracle, article: every mention of an article gets the article's most frequent gold organism;
- oracle, caption: every mention gets its caption's most frequent gold organism, the best a decision shared by
  the mentions of one caption could do;
- oracle, name in article: every mention gets the most frequent gold organism of its text (case folded) in its
  article, the best a "one organism per name and article" rule could do;
- rule, name in article, summed scores: the assigner's scores of a name's mentions in the article, summed;
- rule, name in article, majority: the most frequent assigned organism of a name's mentions in the article;
- rule, article majority: the most frequent assigned organism of the article.

Accuracy over mentions of a covered organism, per occurrence, as `evaluate_organisms` counts it (ties go to the
first organism met). Not a design: a measurement that says where the remaining organism errors are.

    python -m experiments.organism_ceiling --cell-lines corpus/organisms/cell_lines.json.gz \\
        --output results/organisms/ceiling
"""
import json
import shlex
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Callable, Dict, Hashable, List, Mapping, Optional, Sequence

import typer
from wasabi import msg

from spacy_nseen.organisms.assign import AssignerSettings, OrganismAssigner
from spacy_nseen.errors import FileProblemError
from spacy_nseen.organisms.cell_lines import CellLineTable
from training.common.bioid import DOCUMENT_HALVES, BioIDFormatError, read_captions
from training.evaluation.evaluate import select_documents
from training.evaluation.evaluate_organisms import (AssignedMention, assign_gold_mentions, organism_inputs,
                                                    reference_taxa)

app = typer.Typer(add_completion=False)
Key = Callable[[AssignedMention], Hashable]  # a mention's group
Decision = Callable[[AssignedMention], Optional[Hashable]]  # a mention's organism


def by_article(m: AssignedMention) -> Hashable:
    """RETURNS: the group of a mention: its article."""
    return m.pmc_id


def by_caption(m: AssignedMention) -> Hashable:
    """RETURNS: the group of a mention: its caption (a figure panel in Bio-ID)."""
    return m.pmc_id, m.caption_id


def by_name_in_article(m: AssignedMention) -> Hashable:
    """RETURNS: the group of a mention: its text, case folded, in its article."""
    return m.pmc_id, m.text.casefold()


def group_vote(mentions: Sequence[AssignedMention], key: Key,
               votes: Callable[[AssignedMention], Mapping[Hashable, float]]) -> Decision:
    """RETURNS: a decision giving every mention the organism with the most votes summed over its group (`key`;
    the first met on a tie); a group without votes keeps each mention's assigned organism."""
    totals: Dict[Hashable, Counter] = defaultdict(Counter)
    for m in mentions:
        totals[key(m)].update(votes(m))
    return lambda m: totals[key(m)].most_common(1)[0][0] if totals[key(m)] else m.assigned.taxon


def accuracy(mentions: Sequence[AssignedMention], decide: Decision) -> float:
    """RETURNS (float): share of the mentions whose decided organism is one of their gold organisms."""
    return round(sum(decide(m) in m.gold_taxa for m in mentions) / len(mentions), 4) if mentions else 0.0


def gold(m: AssignedMention) -> Mapping[Hashable, float]:
    """RETURNS: one vote for the mention's (first covered) gold organism: the oracles' votes."""
    return {m.covered[0]: 1.0}


def assigned(m: AssignedMention) -> Mapping[Hashable, float]:
    """RETURNS: one vote for the organism the assigner gave the mention."""
    return {m.assigned.taxon: 1.0}


def scores(m: AssignedMention) -> Mapping[Hashable, float]:
    """RETURNS: the assigner's score of every organism for the mention."""
    return m.assigned.scores


def ceiling(mentions: Sequence[AssignedMention]) -> Dict[str, object]:
    """RETURNS: the accuracy of the assigner, the oracles and the rules over the mentions of a covered organism,
    and how many names in an article have mentions of more than one gold organism."""
    covered = [m for m in mentions if m.covered]
    gold_per_name: Dict[Hashable, set] = defaultdict(set)
    for m in covered:
        gold_per_name[by_name_in_article(m)].add(m.covered[0])
    mixed = {k for k, taxa in gold_per_name.items() if len(taxa) > 1}
    return {
        "mentions": len(covered),
        "articles": len({m.pmc_id for m in covered}),
        "names_in_articles": len(gold_per_name),
        "names_in_articles_with_several_gold_organisms": len(mixed),
        "mentions_of_those_names": sum(by_name_in_article(m) in mixed for m in covered),
        "accuracy": {
            "assigner": accuracy(covered, lambda m: m.assigned.taxon),
            "oracle_article": accuracy(covered, group_vote(covered, by_article, gold)),
            "oracle_caption": accuracy(covered, group_vote(covered, by_caption, gold)),
            "oracle_name_in_article": accuracy(covered, group_vote(covered, by_name_in_article, gold)),
            "rule_name_in_article_summed_scores": accuracy(covered, group_vote(covered, by_name_in_article, scores)),
            "rule_name_in_article_majority": accuracy(covered, group_vote(covered, by_name_in_article, assigned)),
            "rule_article_majority": accuracy(covered, group_vote(covered, by_article, assigned)),
        },
    }


ROWS = [("assigner", "the assigner, each mention from its own context (shipped)"),
        ("oracle_article", "oracle: the article's most frequent gold organism"),
        ("oracle_caption", "oracle: the caption's most frequent gold organism"),
        ("oracle_name_in_article", "oracle: the name's most frequent gold organism in its article"),
        ("rule_name_in_article_summed_scores", "rule: the name's summed assigner scores in its article"),
        ("rule_name_in_article_majority", "rule: the name's most frequent assigned organism in its article"),
        ("rule_article_majority", "rule: the article's most frequent assigned organism")]


def write_markdown(results: Dict[str, Dict], command: str, path: Path) -> None:
    """Write the table of every half's accuracies and the mixed-name counts."""
    halves = list(results)
    lines = ["# Organism assignment: the assigner against article-level oracles and rules", "",
             f"Command: `{command}`", "",
             "Accuracy over the gold UniProt mentions of the five covered organisms, per occurrence "
             "(`experiments.organism_ceiling`).", "",
             "| decision | " + " | ".join(halves) + " |", "|---|" + "---|" * len(halves)]
    for key, text in ROWS:
        lines.append(f"| {text} | " + " | ".join(f"{results[h]['accuracy'][key]:.4f}" for h in halves) + " |")
    lines += ["", "| count | " + " | ".join(halves) + " |", "|---|" + "---|" * len(halves)]
    for key in ("mentions", "articles", "names_in_articles", "names_in_articles_with_several_gold_organisms",
                "mentions_of_those_names"):
        lines.append(f"| {key.replace('_', ' ')} | " + " | ".join(str(results[h][key]) for h in halves) + " |")
    path.write_text("\n".join(lines) + "\n", encoding="utf8")


@app.command()
def main(
    captions: Optional[Path] = typer.Option(None, "--captions", help="Bio-ID captions TSV (any split; default: the mirror's)"),
    mentions: Optional[Path] = typer.Option(None, "--mentions", help="Bio-ID mentions TSV (any split; default: the mirror's)"),
    cell_lines: Optional[Path] = typer.Option(None, "--cell-lines", help="Cell line table (build-cell-lines)"),
    human_names: Optional[Path] = typer.Option(None, "--human-names", help="uniprot/names.tsv.gz (default: the mirror's)"),
    other_names: Optional[Path] = typer.Option(None, "--other-names",
                                               help="uniprot_other/names_by_organism.tsv.gz (default: the mirror's)"),
    documents: List[str] = typer.Option(["even", "odd", "all"], "--documents", help="Halves to score (repeatable)"),
    output: Path = typer.Option(Path("results/organisms/ceiling"), "--output", help="Output directory"),
) -> None:
    """Score the assigner, the article-level oracles and the rules on each half."""
    command = " ".join(shlex.quote(a) for a in ["python", "-m", "experiments.organism_ceiling", *sys.argv[1:]])
    for half in documents:
        if half not in DOCUMENT_HALVES:
            msg.fail(f"--documents must be one of {DOCUMENT_HALVES}, got {half!r}", exits=1)
    captions, mentions, human_names, other_names = organism_inputs(captions, mentions, human_names, other_names)
    try:  # each reader names a missing, truncated or foreign file
        table = CellLineTable.from_disk(cell_lines) if cell_lines else None
        taxa = reference_taxa(human_names, other_names)
        caps = read_captions(captions, mentions)
    except (BioIDFormatError, FileProblemError, ValueError) as e:
        msg.fail(str(e), exits=1)
    # an article's mentions are assigned from that article alone, so one pass serves every half
    every_mention = list(assign_gold_mentions(caps, OrganismAssigner(AssignerSettings(), cell_lines=table), taxa))
    results = {}
    for half in documents:
        results[half] = ceiling(select_documents(every_mention, half))
        msg.info(f"{half}: {results[half]['accuracy']}")
    output.mkdir(parents=True, exist_ok=True)
    (output / "metrics.json").write_text(json.dumps({"command": command, "results": results}, indent=2) + "\n",
                                         encoding="utf8")
    write_markdown(results, command, output / "metrics.md")
    msg.good(f"wrote {output}/metrics.json, metrics.md")


if __name__ == "__main__":
    app()
