"""Train the NIL decision of a linker from its reference sets alone (no Bio-ID gold normalisation).

    python -m training.linker.train_nil training_output/linkers/uniprot_multi --other corpus/reference/chebi.tsv.gz

Examples (`nil_examples`), each the features of the linker's answer and whether its best entity is right:
- **seen names**: a name of a sampled entity, in a mention-like surface form (as written, lower or upper case,
  dashes and spaces removed), linked with the entity's own organism as weak or strong evidence; right if the
  best entity is that entity (a name shared by several entities is right for one of them only);
- **held-out entities**: the same name linked as if the entity were not in the reference set (its candidates
  removed): the best remaining entity is wrong by construction; with the entity's organism as evidence, an
  ortholog of another organism is what a missing entry looks like;
- **organisms outside the set**: held-out entities whose evidence names an organism the set lacks;
- **other reference set**: names of the other reference set (chemicals for proteins, and back) that match no
  name of this one exactly;
- **tags, reporters and group labels**: `Flag`, `HA`, `GFP`, `NTG`, ... (`spacy_nseen.text.tag_names.TAG_NAMES`,
  `GROUP_LABELS`: `ALL_TAG_NAMES`), wrong for any protein entry,
  with no organism evidence and with each organism of the set as evidence.
A logistic regression (`nil_decision.fit_logistic`) is fitted and saved as `nil_model.json` in the linker
directory. Its Platt recalibration and operating point are tuned later (`training.tuning.tune_nil`).
"""
import json
import random
import sys
import time
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

import numpy
import typer
from wasabi import msg

from spacy_nseen.linker.kb_linker import Candidate, KnowledgeBaseLinker
from spacy_nseen.linker.nil_decision import FEATURES, NIL_MODEL_FILE, NilModel, fit_logistic, mention_features
from spacy_nseen.organisms.ranking import OrganismContext
from spacy_nseen.pipe.predict import Request, link_requests, request_features
from spacy_nseen.reference.reference_set import ReferenceSet
from spacy_nseen.reference.short_form_names import derived_rows
from spacy_nseen.text.tag_names import ALL_TAG_NAMES
from training.common.data_errors import run_cli

# An organism no reference set of this project covers (Drosophila), used as "outside the set" evidence.
OUTSIDE_TAXON = 7227
SURFACE_FORMS = ("as_written", "lower", "upper", "no_dashes")


def surface_form(name: str, form: str) -> str:
    """RETURNS (str): the name as a mention might write it."""
    if form == "lower":
        return name.lower()
    if form == "upper":
        return name.upper()
    if form == "no_dashes":
        return name.replace("-", "").replace(" ", "")
    return name


def _taxon_map(reference: ReferenceSet) -> Optional[Dict[str, int]]:
    if reference.entity_taxa is None:
        return None
    return {kb_id: int(t) for kb_id, t in zip(reference.kb_ids, reference.entity_taxa) if t}


def nil_examples(
    linker: KnowledgeBaseLinker,
    other_names: Sequence[str],
    n_entities: int = 3000,
    n_other: int = 1000,
    seed: int = 0,
    top_k: int = 5,
) -> Tuple[numpy.ndarray, numpy.ndarray, Dict[str, int]]:
    """Make the NIL training examples of one linker (see the module docstring).

    RETURNS (Tuple[numpy.ndarray, numpy.ndarray, Dict[str, int]]): features (n, len(FEATURES)), labels (n,),
        and the number of examples of each kind.
    """
    rng = random.Random(seed)
    reference = linker.reference_set
    taxon_of = _taxon_map(reference)
    known_taxa = reference.taxa
    full = linker.with_settings(linker.settings)
    wide = linker.with_settings(type(linker.settings)(**{**linker.settings.to_dict(), "exact_short_cut": False}))
    entities = rng.sample(range(reference.n_entities), min(n_entities, reference.n_entities))
    rows_of: Dict[int, List[int]] = {}
    wanted = set(entities)
    derived = derived_rows(reference)  # queries are names as written, never a derived short form
    for row, entity in enumerate(reference.name_entity.tolist()):
        if entity in wanted and row not in derived:
            rows_of.setdefault(entity, []).append(row)
    queries: List[Tuple[int, str, Optional[OrganismContext]]] = []
    for entity in entities:
        name = reference.names[rng.choice(rows_of[entity])]
        form = rng.choice(SURFACE_FORMS)
        context = None
        if known_taxa:
            context = OrganismContext(int(reference.entity_taxa[entity]), rng.choice((0.0, 0.3, 0.6, 0.9)))
        queries.append((entity, surface_form(name, form), context))
    features: List[numpy.ndarray] = []
    labels: List[int] = []
    counts = {"seen_right": 0, "seen_wrong": 0, "held_out": 0, "outside_organism": 0, "other_reference_set": 0, "tags": 0}
    mentions = [q for _, q, _ in queries]
    contexts = [c for _, _, c in queries] if known_taxa else None
    # The component's predict path (link, then the features the NIL decision reads).
    linked = link_requests(full, [Request(linker.name, m, c, None) for m, (_, _, c) in zip(mentions, queries)], top_k=top_k)
    seen = [link.candidates for link in linked]
    seen_features = request_features(full, linked)
    held = wide.link(mentions, top_k=top_k + 10, organisms=contexts)
    for (entity, mention, context), got, more, got_features in zip(queries, seen, held, seen_features):
        kb_id = reference.kb_ids[entity]
        right = bool(got) and got[0].kb_id == kb_id
        features.append(got_features)
        labels.append(int(right))
        counts["seen_right" if right else "seen_wrong"] += 1
        rest = _as_short_cut([c for c in more if c.kb_id != kb_id])[:top_k]
        features.append(mention_features(mention, rest, context, taxon_of, known_taxa))
        labels.append(0)
        counts["held_out"] += 1
        if known_taxa and rng.random() < 0.3:
            outside = OrganismContext(OUTSIDE_TAXON, rng.choice((0.6, 0.9)))
            features.append(mention_features(mention, got, outside, taxon_of, known_taxa))
            labels.append(0)
            counts["outside_organism"] += 1
    others = [n for n in rng.sample(list(other_names), min(len(other_names), 4 * n_other))]
    exact = linker.exact_names.lookup_many(others)
    others = [n for n, rows in zip(others, exact) if not rows][:n_other]
    for mention, got in zip(others, full.link(others, top_k=top_k)):
        features.append(mention_features(mention, got, None, taxon_of, known_taxa))
        labels.append(0)
        counts["other_reference_set"] += 1
    if reference.n_entities and reference.kb_ids[0].startswith("UniProt:"):
        contexts = [None] + [OrganismContext(t, rng.choice((0.6, 0.9))) for t in known_taxa]
        not_proteins = list(ALL_TAG_NAMES)
        for context in contexts:
            for mention, got in zip(not_proteins, full.link(not_proteins, top_k=top_k,
                                                            organisms=[context] * len(not_proteins))):
                features.append(mention_features(mention, got, context, taxon_of, known_taxa))
                labels.append(0)
                counts["tags"] += 1
    return numpy.vstack(features), numpy.asarray(labels, dtype=numpy.int64), counts


def _as_short_cut(candidates: List[Candidate]) -> List[Candidate]:
    """The candidates a short-cut linker returns: only the exact ones when the best one is exact."""
    if candidates and candidates[0].score >= 1.0:
        return [c for c in candidates if c.score >= 1.0]
    return candidates


def train_nil(
    linker_dir: Path = typer.Argument(..., help="A linker directory; nil_model.json is written into it"),
    other: Path = typer.Option(..., "--other", help="The other reference set's TSV (negatives: its names)"),
    n_entities: int = typer.Option(3000, help="Entities sampled from the reference set"),
    n_other: int = typer.Option(1000, help="Names of the other reference set"),
    seed: int = typer.Option(0, help="Random seed"),
    l2: float = typer.Option(1e-3, help="Ridge penalty"),
) -> None:
    """Fit the NIL decision of a linker on examples made from the reference sets (see the module docstring)."""
    start = time.time()
    # the NIL model being replaced is not read: it may be of an earlier version (other features)
    linker = KnowledgeBaseLinker.from_disk(linker_dir, with_nil_model=False)
    other_names = ReferenceSet.from_tsv(other).names
    msg.info(f"{linker.name}: making NIL examples ({n_entities} entities, {n_other} names of {other})")
    x, y, counts = nil_examples(linker, list(other_names), n_entities=n_entities, n_other=n_other, seed=seed)
    weights = fit_logistic(x, y, l2=l2)
    model = NilModel(weights)
    p = model.probabilities(x)
    accuracy = float(((p >= 0.5) == (y == 1)).mean())
    model.info = {
        "command": "python -m training.linker.train_nil " + " ".join(sys.argv[1:]),
        "examples": counts,
        "positives": int(y.sum()),
        "negatives": int(len(y) - y.sum()),
        "train_accuracy": round(accuracy, 4),
        "weights": dict(zip(FEATURES, [round(w, 4) for w in weights])),
        "seconds": round(time.time() - start, 1),
    }
    model.to_disk(linker_dir / NIL_MODEL_FILE)
    msg.good(f"{linker_dir / NIL_MODEL_FILE}: {len(y)} examples ({int(y.sum())} right), training accuracy {accuracy:.3f}")
    msg.table(list(model.info["weights"].items()))
    print(json.dumps(counts))


if __name__ == "__main__":
    run_cli(train_nil)
