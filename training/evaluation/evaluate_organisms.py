"""Evaluate organism assignment on a Bio-ID mentions + captions file (any split).

For every gold mention with UniProt ids, the assigner (`spacy_nseen.organisms`) decides a taxon from the
caption (a Doc of `spacy.blank("en")` with the gold UniProt spans as the mentions), the other panels of its
figure (`figure_of`) and the article's other captions; it is compared with the organism of the gold accession(s): human accessions of
`uniprot/names.tsv.gz` → 9606, `uniprot_other/names_by_organism.tsv.gz` → its taxon_id, a `--taxa` TSV
(kb_id<TAB>taxon_id) for more; other accessions are "other". Accuracy is over the mentions whose gold
organism is covered (9606, 10090, 10116, 559292, 83333), per occurrence.

python -m training.evaluation.evaluate_organisms --captions ../shared/data/bioid/captions.tsv.gz \\
    --mentions ../shared/data/bioid/mentions.tsv.gz --cell-lines corpus/cell_lines.json.gz \\
    --output results/organisms --documents all
"""
import json
import shlex
import sys
import time
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Dict, FrozenSet, Iterator, List, Mapping, Optional, Sequence, Tuple

import typer
from wasabi import msg

from spacy_nseen.organisms.assign import AssignerSettings, OrganismAssigner, SpanOrganism, context_counts
from spacy_nseen.organisms.cell_lines import CellLineTable
from spacy_nseen.organisms.lexicon import canonical_taxon, organism_name
from training.common.bioid import (BioIDFormatError, Caption, _open_tsv, figure_of, gold_ids, group_by_article,
                                   read_captions)
from training.common.mirror import mirror_file
from training.evaluation.evaluate import select_documents
from training.common.headline import update_headline
from training.evaluation.organism_eval import TAXA

COVERED: Tuple[int, ...] = tuple(TAXA)  # the five organisms with reference names
OTHER = "other"
app = typer.Typer(add_completion=False)


def read_taxa(path: Path, id_column: str, taxon_column: Optional[str],
              fixed_taxon: Optional[int] = None) -> Dict[str, int]:
    """Read accession → taxon from a TSV with a header row.

    id_column (str): Column of the accession (a `UniProt:` prefix is dropped).
    taxon_column (Optional[str]): Column of the taxon id; or fixed_taxon for every row.
    RETURNS (Dict[str, int]): Bare accession → canonical taxon.
    """
    if not path.exists():
        raise BioIDFormatError(f"Taxon file not found: {path}.")
    out: Dict[str, int] = {}
    # _open_tsv names the file when it lacks a column or is truncated or corrupt
    rows = _open_tsv(path, [id_column] + ([taxon_column] if taxon_column else []))
    for i, row in enumerate(rows, start=2):
        acc = row[id_column].strip().split(":", 1)[-1]
        if taxon_column:
            try:
                taxon = int(row[taxon_column])
            except (TypeError, ValueError) as e:
                raise BioIDFormatError(f"{path}, line {i}: bad taxon id {row[taxon_column]!r}.") from e
        else:
            taxon = int(fixed_taxon)  # type: ignore[arg-type]
        out.setdefault(acc, canonical_taxon(taxon))
    return out


def reference_taxa(human_names: Path, other_names: Path) -> Dict[str, int]:
    """RETURNS (Dict[str, int]): accession → taxon of the reference names: the human UniProt names (9606) and
    the other organisms' names (their `taxon_id`; a human accession keeps 9606)."""
    taxa = read_taxa(human_names, "accession", None, fixed_taxon=9606)
    taxa.update({k: v for k, v in read_taxa(other_names, "accession", "taxon_id").items() if k not in taxa})
    return taxa


def gold_taxa(ids: FrozenSet[str], taxa: Mapping[str, int]) -> Tuple[Any, ...]:
    """RETURNS (Tuple[Any, ...]): The gold organisms of a mention's UniProt CURIEs (OTHER if unknown)."""
    return tuple(sorted({taxa.get(c.split(":", 1)[1], OTHER) for c in ids}, key=str))


def label(taxon: Any) -> str:
    """RETURNS (str): A confusion-table label: a covered taxon id, "none" or "other"."""
    if taxon is None:
        return "none"
    return str(taxon) if taxon in COVERED else OTHER


@dataclass(frozen=True)
class AssignedMention:
    """One gold UniProt mention with the organism the assigner decided for it.

    gold_taxa (Tuple[Any, ...]): The organisms of its gold accessions (`gold_taxa`; OTHER if unknown).
    assigned (SpanOrganism): The assigner's decision, its per-taxon scores and evidence.
    """

    pmc_id: str
    caption_id: str
    text: str
    gold_taxa: Tuple[Any, ...]
    assigned: SpanOrganism

    @property
    def covered(self) -> List[int]:
        """RETURNS (List[int]): the gold organisms that have reference names (COVERED)."""
        return [t for t in self.gold_taxa if t in COVERED]


def assign_gold_mentions(captions: Sequence[Caption], assigner: OrganismAssigner, taxa: Mapping[str, int],
                         use_article: bool = True, organisms: Optional[Sequence[int]] = None,
                         build_docs: bool = True, clock: Optional[List[float]] = None) -> Iterator[AssignedMention]:
    """YIELDS (AssignedMention): every gold UniProt mention of the captions with its assigned organism, decided
    from its caption, the other panels of its figure and (`use_article`) the article's other captions.

    build_docs (bool): Build each caption's Doc (`spacy.blank("en")`, gold spans as ents, each widened to
        whole tokens as an NER span is) and assign through `OrganismAssigner.assign`; False assigns on the
        text and the gold offsets themselves (faster, for tuning). The two differ where a gold mention is
        part of a token: the Doc's span reads the whole token's form (`hTau`, `rhTNF`: a prefix), the offsets
        only the mention's (`Tau`): 79 of the 8,869 even-half mentions change organism.
    clock (Optional[List[float]]): One number to which the CPU seconds of the assignment are added.
    """
    import spacy

    nlp = spacy.blank("en")
    for pmc_id, caps in group_by_article(captions).items():
        scans = [assigner.scan(c.text) for c in caps] if use_article else []
        for i, cap in enumerate(caps):
            mentions = [(m, gold_ids(m, "uniprot")) for m in cap.mentions]
            mentions = [(m, g) for m, g in mentions if g]
            if not mentions:
                continue
            # the other captions of the article and of the figure, counted as the component counts them
            others = [j for j in range(len(scans)) if j != i]
            article = context_counts([scans[j] for j in others])
            figure = context_counts([scans[j] for j in others
                                     if figure_of(caps[j].caption_id) == figure_of(cap.caption_id)])
            if build_docs:
                doc = nlp.make_doc(cap.text)
                spans = [doc.char_span(m.start, m.end, alignment_mode="expand") for m, _ in mentions]
                if any(sp is None for sp in spans):
                    raise BioIDFormatError(f"{cap.caption_id}: a gold mention is not a character span.")
                doc.ents = spacy.util.filter_spans(spans)
                start = time.process_time()
                result = assigner.assign(doc, spans, organisms=organisms, article_counts=article,
                                         figure_counts=figure)
            else:
                start = time.process_time()
                result = assigner.assign_text(cap.text, [(m.start, m.end) for m, _ in mentions],
                                              organisms=organisms, article_counts=article,
                                              figure_counts=figure)
            if clock is not None:
                clock[0] += time.process_time() - start
            for (m, gold), assigned in zip(mentions, result.spans):
                yield AssignedMention(pmc_id, cap.caption_id, m.text, gold_taxa(gold, taxa), assigned)


def evaluate(captions: Sequence[Caption], assigner: OrganismAssigner, taxa: Mapping[str, int],
             use_article: bool = True, organisms: Optional[Sequence[int]] = None,
             build_docs: bool = True) -> Dict[str, Any]:
    """Assign organisms to the gold UniProt mentions of the captions (`assign_gold_mentions`) and score them.

    RETURNS (Dict[str, Any]): counts, accuracy over covered organisms, per-organism accuracy,
        the confusion table (gold label → predicted label → count) and the speed.
    """
    confusion: Dict[str, Counter] = {}
    n_covered = n_correct = n_mentions = n_known = n_known_correct = 0
    other_not_covered = n_other = 0
    clock = [0.0]
    for mention in assign_gold_mentions(captions, assigner, taxa, use_article, organisms, build_docs, clock):
        n_mentions += 1
        gold_t, covered, predicted = mention.gold_taxa, mention.covered, mention.assigned.taxon
        if any(t != OTHER for t in gold_t):  # every organism of the taxa, new ones counted as themselves
            n_known += 1
            n_known_correct += predicted in gold_t
        if covered:
            n_covered += 1
            n_correct += predicted in gold_t
            row = str(predicted) if predicted in gold_t else str(covered[0])
        else:
            n_other += 1
            other_not_covered += predicted not in COVERED
            row = OTHER
        confusion.setdefault(row, Counter())[label(predicted)] += 1
    seconds = clock[0]
    per_organism = {}
    for row, cols in sorted(confusion.items()):
        n = sum(cols.values())
        per_organism[row] = {"mentions": n, "accuracy": round(cols.get(row, 0) / n, 4) if n else 0.0}
    n_captions = sum(1 for c in captions if any(gold_ids(m, "uniprot") for m in c.mentions))
    return {
        "counts": {"uniprot_mentions": n_mentions, "covered": n_covered, "other": n_other,
                   "captions_with_uniprot_mentions": n_captions, "articles": len({c.pmc_id for c in captions})},
        "organism_accuracy": round(n_correct / n_covered, 4) if n_covered else 0.0,
        "organism_accuracy_all_taxa": round(n_known_correct / n_known, 4) if n_known else 0.0,
        "known_taxon_mentions": n_known,
        "other_predicted_outside_covered": round(other_not_covered / n_other, 4) if n_other else 0.0,
        "always_human_accuracy": round(sum(confusion.get("9606", Counter()).values()) / n_covered, 4)
        if n_covered else 0.0,
        "per_organism": per_organism,
        "confusion": {row: dict(sorted(cols.items())) for row, cols in sorted(confusion.items())},
        "assign_seconds": round(seconds, 3),
        "captions_per_second": round(n_captions / seconds, 1) if seconds > 0 else None,
    }


def held_out_captions(captions: Sequence[Caption], spec: str) -> List[Caption]:
    """Keep the captions of the dev articles of `training.ner.ner_corpus` ("FRACTION:SEED", e.g. "0.1:0").

    RETURNS (List[Caption]): The captions of the held-out articles, in order.
    """
    from training.ner.ner_corpus import split_articles

    fraction, sep, seed = spec.partition(":")
    try:
        dev_fraction, dev_seed = float(fraction), int(seed)
    except ValueError:
        raise ValueError(f"--held-out expects FRACTION:SEED such as 0.1:0, got {spec!r}") from None
    if not sep or not 0 < dev_fraction < 1:
        raise ValueError(f"--held-out expects FRACTION:SEED with 0 < FRACTION < 1, got {spec!r}")
    _, dev = split_articles(list(group_by_article(captions)), dev_fraction, dev_seed)
    keep = set(dev)
    return [c for c in captions if c.pmc_id in keep]


def parse_settings(spec: str) -> AssignerSettings:
    """Parse 'key=value,key=value' into AssignerSettings (numbers, or true/false)."""
    values: Dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in spec.split(","))):
        key, sep, value = part.partition("=")
        if not sep:
            raise typer.BadParameter(f"--set expects key=value pairs, got {part!r}")
        word = value.strip().lower()
        values[key.strip()] = (word == "true") if word in ("true", "false") else int(word) if word.isdigit() else float(value)
    try:
        return AssignerSettings.from_dict(values)
    except (ValueError, TypeError) as e:
        raise typer.BadParameter(str(e)) from e


def organism_inputs(captions: Optional[Path] = None, mentions: Optional[Path] = None,
                    human_names: Optional[Path] = None, other_names: Optional[Path] = None
                    ) -> Tuple[Path, Path, Path, Path]:
    """RETURNS: the Bio-ID captions and mentions and the human and other-organism UniProt names, each the given
    path or, if None, the mirror's file (`NSEEN_MIRROR`, default ../shared/data)."""
    return (captions or mirror_file("bioid", "captions.tsv.gz"), mentions or mirror_file("bioid", "mentions.tsv.gz"),
            human_names or mirror_file("uniprot", "names.tsv.gz"),
            other_names or mirror_file("uniprot_other", "names_by_organism.tsv.gz"))


def write_markdown(results: Dict[str, Any], path: Path) -> None:
    """Write the accuracy and the confusion table as Markdown."""
    r = results
    cols = [str(t) for t in COVERED] + [OTHER, "none"]
    lines = [
        "# Organism assignment on gold UniProt mentions", "",
        f"Command: `{r['command']}`", "",
        f"Documents: {r['documents']}"
        + (f", held-out dev articles {r['held_out']}" if r.get("held_out") else "")
        + f" ({r['counts']['articles']} articles); {r['counts']['uniprot_mentions']} UniProt mentions, "
        f"{r['counts']['covered']} of a covered organism ({', '.join(map(str, COVERED))}).", "",
        f"**Accuracy over covered organisms: {r['organism_accuracy']:.4f}** "
        f"(always human: {r['always_human_accuracy']:.4f}); over every mention whose gold organism is one of the "
        f"taxa read (`--taxa`; other organisms counted as themselves): {r['organism_accuracy_all_taxa']:.4f} "
        f"of {r['known_taxon_mentions']}; mentions of other organisms assigned an "
        f"organism outside the covered set: {r['other_predicted_outside_covered']:.4f}.", "",
        f"Speed: {r['captions_per_second']} captions per CPU-second (assignment only, one process).", "",
        "Confusion (rows: gold organism, columns: assigned; per occurrence):", "",
        "| gold \\ assigned | " + " | ".join(f"{c} ({organism_name(int(c)) if c.isdigit() else c})"
                                           for c in cols) + " | accuracy |",
        "|---" * (len(cols) + 2) + "|",
    ]
    for row, counts in r["confusion"].items():
        acc = r["per_organism"][row]["accuracy"]
        lines.append(f"| {row} | " + " | ".join(str(counts.get(c, 0)) for c in cols) + f" | {acc:.3f} |")
    lines += ["", "Settings: `" + json.dumps(r["settings"]) + "`", ""]
    path.write_text("\n".join(lines), encoding="utf8")


@app.command()
def main(
    captions: Path = typer.Option(None, "--captions", help="Bio-ID captions TSV (any split)"),
    mentions: Path = typer.Option(None, "--mentions", help="Bio-ID mentions TSV (any split)"),
    cell_lines: Optional[Path] = typer.Option(None, "--cell-lines",
                                              help="Cell line table (training.data.build_cell_lines)"),
    human_names: Path = typer.Option(None, "--human-names", help="uniprot/names.tsv.gz (accessions → 9606)"),
    other_names: Path = typer.Option(None, "--other-names", help="uniprot_other/names_by_organism.tsv.gz"),
    taxa_tsv: Optional[Path] = typer.Option(None, "--taxa", help="Extra kb_id<TAB>taxon_id TSV"),
    output: Path = typer.Option(Path("results/organisms"), "--output", help="Output directory"),
    documents: str = typer.Option("all", "--documents", help="all, even or odd (pmc_id parity)"),
    held_out: Optional[str] = typer.Option(
        None, "--held-out", help="FRACTION:SEED: only the dev articles that training.ner.ner_corpus holds out "
                                 "with --dev-fraction FRACTION --seed SEED (e.g. 0.1:0)"),
    settings: str = typer.Option("", "--set", help="Assigner settings, e.g. near_weight=8,form_weight=0.5"),
    no_article: bool = typer.Option(False, "--no-article", help="Don't use the other captions (article and figure)"),
    headline: Optional[Path] = typer.Option(None, "--headline",
                                            help="Merge organism_accuracy into this headline JSON"),
) -> None:
    """Score organism assignment against the gold accessions' organisms."""
    command = " ".join(shlex.quote(a) for a in ["python", "-m", "training.evaluation.evaluate_organisms", *sys.argv[1:]])
    captions, mentions, human_names, other_names = organism_inputs(captions, mentions, human_names, other_names)
    try:
        taxa = reference_taxa(human_names, other_names)
        if taxa_tsv is not None:
            taxa.update(read_taxa(taxa_tsv, "kb_id", "taxon_id"))
        caps = select_documents(read_captions(captions, mentions), documents)
        if held_out is not None:
            caps = held_out_captions(caps, held_out)
    except (BioIDFormatError, ValueError) as e:
        msg.fail(str(e), exits=1)
    table = CellLineTable.from_disk(cell_lines) if cell_lines is not None else None
    assigner_settings = parse_settings(settings)
    assigner = OrganismAssigner(assigner_settings, cell_lines=table)
    results = evaluate(caps, assigner, taxa, use_article=not no_article)
    results.update({"command": command, "documents": documents, "held_out": held_out,
                    "captions": str(captions),
                    "mentions": str(mentions), "cell_lines": str(cell_lines) if cell_lines else None,
                    "use_article": not no_article, "settings": asdict(assigner_settings)})
    output.mkdir(parents=True, exist_ok=True)
    (output / "metrics.json").write_text(json.dumps(results, indent=2), encoding="utf8")
    write_markdown(results, output / "metrics.md")
    msg.good(f"Organism accuracy ({documents}): {results['organism_accuracy']:.4f} over "
             f"{results['counts']['covered']} covered mentions; always human "
             f"{results['always_human_accuracy']:.4f}; {results['captions_per_second']} captions/s")
    if headline is not None:
        values = {"organism_accuracy": results["organism_accuracy"]}
        if taxa_tsv is not None:
            values["organism_accuracy_all_taxa"] = results["organism_accuracy_all_taxa"]
        update_headline(headline, values, command)
        msg.info(f"organism_accuracy merged into {headline}")


if __name__ == "__main__":
    app()
