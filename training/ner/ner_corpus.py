"""NER corpus step: Bio-ID captions → spaCy `DocBin`s, split into train and dev by article.

    python -m training.ner.ner_corpus corpus/sources/bioid/captions.tsv.gz corpus/sources/bioid/mentions.tsv.gz \\
        corpus/ner --dev-fraction 0.1 --seed 0

Writes `OUT/train.spacy`, `OUT/dev.spacy` and `OUT/stats.json`. The split is by article (`pmc_id`): all
captions of an article go to the same side, so dev scores are on unseen articles.

Labels: Bio-ID's entity types are mapped by `--labels` (default: protein→PROTEIN, gene→GENE,
chemical→CHEMICAL, and the other types kept as CELL, TISSUE, ORGANISM, SUBCELLULAR; unmapped types are
dropped and counted). PROTEIN and GENE stay separate labels as in Bio-ID; the pipeline routes both to UniProt.

Overlapping mentions (doc.ents can't overlap) are resolved by one rule: mentions are taken by label
priority (the order of `--labels`, so linkable labels first), then longest span, then earliest start, and a
mention is dropped if it overlaps one already taken. Captions are tokenised with `training.ner.bio_tokenizer` (the rules `configs/ner.cfg` trains with). Character
offsets are aligned to tokens with
`char_span(..., alignment_mode="expand")`; `--alignment strict` drops misaligned mentions instead (their tokens
are then "outside", a negative example), and `--alignment missing` marks the tokens of a misaligned mention as
missing annotation, so that training learns neither the widened span nor "outside" there. Every drop is counted
in `stats.json`.

Each doc keeps its origin and every gold link in `doc.user_data` (the DocBin stores user data), for the
end-to-end evaluation: `{"pmc_id", "caption_id", "links": [[start_char, end_char, entity_type, [ids]], ...],
"mentions": [...]}`: `links` holds the raw Bio-ID ids of every mention carrying a UniProt or ChEBI id, `mentions`
(since gold format 2, `"gold_format": 2`) every mention of the caption in the same shape (NCBI Gene and PubChem
ids, un-normalized `protein:Flag` mentions, all types), overlapping mentions included. `training.evaluation.evaluate_pipeline`
reads `mentions`; for a DocBin made before it existed, it takes them from the Bio-ID mentions file instead.
"""
import json
import random
from collections import Counter
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

import spacy
import typer
from spacy.tokens import Doc, DocBin, Span
from wasabi import msg

from .bio_tokenizer import customize_tokenizer
from training.common.bioid import Caption, Mention, group_by_article, read_captions

DEFAULT_LABELS = "protein=PROTEIN,gene=GENE,chemical=CHEMICAL,cell=CELL,tissue=TISSUE,organism=ORGANISM,subcellular=SUBCELLULAR"
LINK_PREFIXES = ("Uniprot:", "CHEBI:")
ALIGNMENTS = ("expand", "strict", "missing")
GOLD_FORMAT = 2  # user_data["mentions"] holds every Bio-ID mention of the caption


def parse_labels(spec: str) -> Dict[str, str]:
    """Parse `type=LABEL,...` into an ordered dict (the order is the overlap priority)."""
    out: Dict[str, str] = {}
    for item in spec.split(","):
        if not item.strip():
            continue
        if "=" not in item:
            raise typer.BadParameter(f"--labels: expected type=LABEL, got {item!r}")
        src, label = item.split("=", 1)
        out[src.strip()] = label.strip()
    return out


def split_articles(articles: Sequence[str], dev_fraction: float, seed: int) -> Tuple[List[str], List[str]]:
    """Shuffle the article ids with a seed and cut off the dev share (at least one article if 0 < fraction).

    RETURNS (Tuple[List[str], List[str]]): (train articles, dev articles), each sorted.
    """
    ordered = sorted(articles)
    random.Random(seed).shuffle(ordered)
    n_dev = round(len(ordered) * dev_fraction)
    if dev_fraction > 0 and n_dev == 0 and len(ordered) > 1:
        n_dev = 1
    return sorted(ordered[n_dev:]), sorted(ordered[:n_dev])


def caption_to_doc(nlp: spacy.Language, caption: Caption, labels: Dict[str, str], alignment: str,
                   counts: Counter) -> Doc:
    """Tokenise a caption and set its (non-overlapping, token-aligned) entities and gold links."""
    doc = nlp.make_doc(caption.text)
    priority = {src: i for i, src in enumerate(labels)}
    candidates: List[Tuple[Mention, Span]] = []
    unaligned: List[Span] = []
    for m in caption.mentions:
        counts["mentions"] += 1
        if m.entity_type not in labels:
            counts[f"dropped_type_{m.entity_type or 'none'}"] += 1
            continue
        span = doc.char_span(m.start, m.end, label=labels[m.entity_type])
        if span is None:
            if alignment == "strict":
                counts["dropped_misaligned"] += 1
                continue
            span = doc.char_span(m.start, m.end, label=labels[m.entity_type], alignment_mode="expand")
            if span is None or len(span) == 0:
                counts["dropped_misaligned"] += 1
                continue
            if alignment == "missing":
                unaligned.append(span)
                continue
            counts["expanded"] += 1
        candidates.append((m, span))
    candidates.sort(key=lambda c: (priority[c[0].entity_type], -(c[1].end - c[1].start), c[1].start))
    taken = [False] * len(doc)
    ents: List[Span] = []
    for m, span in candidates:
        if any(taken[span.start:span.end]):
            counts["dropped_overlap"] += 1
            continue
        for i in range(span.start, span.end):
            taken[i] = True
        kb_id = next((_curie(i) for i in m.ids if i.startswith(LINK_PREFIXES)), "")
        ents.append(Span(doc, span.start, span.end, label=span.label_, kb_id=kb_id))
        counts[f"entities_{span.label_}"] += 1
    free = [span for span in unaligned if not any(taken[span.start:span.end])]
    if unaligned:
        counts["missing_misaligned"] += len(free)
        counts["dropped_misaligned"] += len(unaligned) - len(free)
    unknown = sorted({i for span in free for i in range(span.start, span.end)})
    doc.set_ents(sorted(ents, key=lambda s: s.start), missing=[doc[i:i + 1] for i in unknown], default="outside")
    doc.user_data["pmc_id"] = caption.pmc_id
    doc.user_data["caption_id"] = caption.caption_id
    doc.user_data["links"] = [
        [m.start, m.end, m.entity_type, list(m.ids)] for m in caption.mentions
        if any(i.startswith(LINK_PREFIXES) for i in m.ids)
    ]
    doc.user_data["mentions"] = [[m.start, m.end, m.entity_type, list(m.ids)] for m in caption.mentions]
    doc.user_data["gold_format"] = GOLD_FORMAT
    return doc


def _curie(raw: str) -> str:
    return "UniProt:" + raw[len("Uniprot:"):] if raw.startswith("Uniprot:") else raw


def ner_corpus(
    captions: Path = typer.Argument(..., help="Bio-ID captions TSV (mirror format, any split)"),
    mentions: Path = typer.Argument(..., help="Bio-ID mentions TSV (mirror format)"),
    out: Path = typer.Argument(..., help="Output directory for train.spacy, dev.spacy, stats.json"),
    dev_fraction: float = typer.Option(0.1, help="Share of the articles held out for dev"),
    seed: int = typer.Option(0, help="Random seed of the article split"),
    labels: str = typer.Option(DEFAULT_LABELS, help="type=LABEL pairs, in overlap priority order"),
    alignment: str = typer.Option("expand", help="expand (widen to tokens), strict (drop misaligned) or missing "
                                  "(their tokens unannotated)"),
    lang: str = typer.Option("en", help="Language of the tokenizer"),
    split: Optional[str] = typer.Option(None, help="Only this Bio-ID split value"),
) -> None:
    """Convert Bio-ID captions into train/dev DocBins for `spacy train`, split by article."""
    if alignment not in ALIGNMENTS:
        raise typer.BadParameter(f"--alignment must be one of {', '.join(ALIGNMENTS)}, not {alignment!r}")
    label_map = parse_labels(labels)
    nlp = customize_tokenizer(spacy.blank(lang))
    caps = read_captions(captions, mentions, splits={split} if split else None)
    articles = group_by_article(caps)
    train_articles, dev_articles = split_articles(list(articles), dev_fraction, seed)
    out.mkdir(parents=True, exist_ok=True)
    stats: Dict[str, object] = {"labels": label_map, "alignment": alignment, "seed": seed, "dev_fraction": dev_fraction}
    for name, arts in (("train", train_articles), ("dev", dev_articles)):
        counts: Counter = Counter()
        db = DocBin(store_user_data=True)
        for art in arts:
            for cap in articles[art]:
                db.add(caption_to_doc(nlp, cap, label_map, alignment, counts))
                counts["docs"] += 1
        db.to_disk(out / f"{name}.spacy")
        stats[name] = {"articles": len(arts), **dict(sorted(counts.items()))}
        msg.good(f"{name}: {counts['docs']} captions from {len(arts)} articles, "
                 f"{sum(v for k, v in counts.items() if k.startswith('entities_'))} entities "
                 f"({counts['expanded']} expanded, {counts['dropped_overlap']} overlapping and "
                 f"{counts['dropped_misaligned']} misaligned mentions dropped)")
    stats["dev_articles"] = dev_articles
    (out / "stats.json").write_text(json.dumps(stats, indent=2) + "\n", encoding="utf8")
    msg.good(f"Wrote {out}/train.spacy, {out}/dev.spacy and {out}/stats.json")


if __name__ == "__main__":
    typer.run(ner_corpus)
