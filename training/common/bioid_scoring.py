"""Scoring normalized ids as Bio-ID's scorer counts them: equivalence classes, span and caption level.

The track treats the ids of one equivalence class (`equivalence_classes.json.gz` of the release being scored,
e.g. `Uniprot:P04637` and `NCBI gene:7157`, `CHEBI:15422` and `PubChem:5957`) as the same answer. Ids are
compared as CURIEs of the pipeline's spelling (`UniProt:`, `NCBIGene:`, `CHEBI:`, `PubChem:`), ChEBI secondary
ids mapped to primary, and each id replaced by its class's representative (`EquivalenceClasses.canon`).

Two categories are scored, as in the track: `protein_gene` (UniProt and NCBI Gene ids) and `chemical`
(ChEBI and PubChem ids). Nothing here knows spaCy: gold mentions and predictions are plain tuples.
"""
import gzip
import json
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, FrozenSet, Iterable, List, Mapping, Optional, Sequence, Set, Tuple, Union

from .bioid import BioIDFormatError, _is_type_only
from .union_find import smallest_members

CATEGORIES = ("protein_gene", "chemical")
# Bio-ID id prefix -> CURIE prefix of the pipeline's ids.
CURIE_PREFIXES: Dict[str, str] = {
    "Uniprot": "UniProt", "UniProt": "UniProt", "NCBI gene": "NCBIGene", "NCBIGene": "NCBIGene",
    "CHEBI": "CHEBI", "PubChem": "PubChem",
}
CATEGORY_OF_PREFIX: Dict[str, str] = {"UniProt": "protein_gene", "NCBIGene": "protein_gene",
                                      "CHEBI": "chemical", "PubChem": "chemical"}
# Bio-ID entity types whose un-normalized mentions (`protein:Flag`) are NIL cases of a category.
CATEGORY_OF_TYPE: Dict[str, str] = {"protein": "protein_gene", "gene": "protein_gene", "chemical": "chemical"}
SpanKey = Tuple[int, int, int]  # (doc index, start char, end char)


@dataclass(frozen=True)
class GoldMention:
    """One Bio-ID mention of a scored doc.

    ids (Tuple[str, ...]): The raw Bio-ID ids (`Uniprot:P04637`, `NCBI gene:7157`, `protein:Flag`).
    """

    doc: int
    start: int
    end: int
    entity_type: str
    ids: Tuple[str, ...]

    @property
    def key(self) -> SpanKey:
        return (self.doc, self.start, self.end)

    @property
    def is_nil(self) -> bool:
        """RETURNS (bool): Whether the mention carries type-only ids (`protein:Flag`) and no normalized id."""
        return bool(self.ids) and all(_is_type_only(i) or not i.split(":", 1)[-1] for i in self.ids)


def to_curie(raw: str, secondary: Optional[Mapping[str, str]] = None) -> str:
    """Spell a Bio-ID or pipeline id as the pipeline's CURIE (`NCBI gene:7157` -> `NCBIGene:7157`).

    secondary (Optional[Mapping[str, str]]): ChEBI secondary -> primary CURIEs.
    RETURNS (str): The CURIE; ids of other prefixes are returned stripped but unchanged.
    """
    prefix, _, local = raw.strip().partition(":")
    curie = f"{CURIE_PREFIXES.get(prefix, prefix)}:{local.strip()}"
    return secondary.get(curie, curie) if secondary else curie


def category_of(curie: str) -> Optional[str]:
    """RETURNS (Optional[str]): "protein_gene", "chemical" or None for a CURIE of another kind."""
    return CATEGORY_OF_PREFIX.get(curie.partition(":")[0])


class EquivalenceClasses:
    """Ids the scorer treats as one answer (classes sharing an id are merged)."""

    def __init__(self, classes: Iterable[Sequence[str]] = (), secondary: Optional[Mapping[str, str]] = None) -> None:
        self.secondary: Dict[str, str] = dict(secondary or {})
        curie_classes = [[to_curie(i, self.secondary) for i in cls if isinstance(i, str) and i.strip()]
                         for cls in classes]
        self.n_classes = len(curie_classes)
        self._rep = smallest_members(curie_classes)

    @classmethod
    def from_file(cls, path: Union[str, Path], secondary: Optional[Mapping[str, str]] = None) -> "EquivalenceClasses":
        """Read a release's `equivalence_classes.json(.gz)`: a JSON list of lists of ids."""
        path = Path(path)
        if not path.exists():
            raise BioIDFormatError(f"Equivalence file not found: {path}. Use the release's "
                                   f"equivalence_classes.json.gz (e.g. corpus/sources/bioid/).")
        try:
            opener = gzip.open if path.suffix == ".gz" else open
            with opener(path, "rt", encoding="utf8") as f:  # type: ignore[operator]
                classes = json.load(f)
        except (OSError, EOFError, UnicodeDecodeError, ValueError) as e:
            raise BioIDFormatError(f"Could not read {path} as (gzip) JSON ({e}); copy it again from the mirror.") from e
        if not isinstance(classes, list) or not all(isinstance(c, list) for c in classes):
            raise BioIDFormatError(f"{path} must hold a JSON list of lists of ids (Bio-ID equivalence classes).")
        return cls(classes, secondary)

    def canon(self, raw: str) -> str:
        """RETURNS (str): The representative CURIE of the id's class (the id itself if in no class)."""
        curie = to_curie(raw, self.secondary)
        return self._rep.get(curie, curie)

    def canon_set(self, raws: Iterable[str]) -> FrozenSet[str]:
        return frozenset(self.canon(r) for r in raws)

    def related(self, raw: str) -> List[str]:
        """RETURNS (List[str]): Every CURIE of the id's class, sorted (the id alone if in no class)."""
        rep = self.canon(raw)
        return sorted({x for x, r in self._rep.items() if r == rep} | {to_curie(raw, self.secondary)})


def normalized_ids(mention: GoldMention, category: str, equiv: EquivalenceClasses) -> FrozenSet[str]:
    """RETURNS (FrozenSet[str]): The canonical gold ids of one category on a mention (empty if none)."""
    return frozenset(equiv.canon(i) for i in mention.ids
                     if not _is_type_only(i) and category_of(to_curie(i)) == category)


def prf(tp: int, n_pred: int, n_gold: int) -> Dict[str, float]:
    """RETURNS (Dict[str, float]): precision, recall, F1 and the counts."""
    p = tp / n_pred if n_pred else 0.0
    r = tp / n_gold if n_gold else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return {"p": round(p, 4), "r": round(r, 4), "f": round(f, 4), "tp": tp, "predicted": n_pred, "gold": n_gold}


def gold_by_span(mentions: Iterable[GoldMention], equiv: EquivalenceClasses) -> Dict[str, Dict[SpanKey, FrozenSet[str]]]:
    """Canonical gold ids per category and span (mentions on the same span merged; NIL mentions left out)."""
    out: Dict[str, Dict[SpanKey, Set[str]]] = {c: defaultdict(set) for c in CATEGORIES}
    for m in mentions:
        for c in CATEGORIES:
            ids = normalized_ids(m, c, equiv)
            if ids:
                out[c][m.key] |= ids
    return {c: {k: frozenset(v) for k, v in spans.items()} for c, spans in out.items()}


def span_scores(pred: Mapping[SpanKey, str], gold: Mapping[str, Mapping[SpanKey, FrozenSet[str]]],
                equiv: EquivalenceClasses) -> Dict[str, Dict[str, float]]:
    """Span level: a predicted (span, id) is right if the span is a gold mention's and the id is in its class set.

    pred (Mapping[SpanKey, str]): One predicted id per span (spans without an id left out).
    RETURNS (Dict[str, Dict[str, float]]): P/R/F per category and "all" (both categories).
    """
    out: Dict[str, Dict[str, float]] = {}
    totals = [0, 0, 0]
    for c in CATEGORIES:
        keys = [k for k, i in pred.items() if category_of(to_curie(i)) == c]
        tp = sum(1 for k in keys if equiv.canon(pred[k]) in gold[c].get(k, ()))
        out[c] = prf(tp, len(keys), len(gold[c]))
        for j, n in enumerate((tp, len(keys), len(gold[c]))):
            totals[j] += n
    out["all"] = prf(*totals)
    return out


def caption_scores(pred: Mapping[SpanKey, str], gold: Mapping[str, Mapping[SpanKey, FrozenSet[str]]],
                   equiv: EquivalenceClasses) -> Dict[str, Dict[str, float]]:
    """Caption level: per caption, the set of predicted class ids against the set of gold class ids.

    RETURNS (Dict[str, Dict[str, float]]): P/R/F per category and "all", counts summed over captions.
    """
    out: Dict[str, Dict[str, float]] = {}
    totals = [0, 0, 0]
    for c in CATEGORIES:
        g: Dict[int, Set[str]] = defaultdict(set)
        for (doc, _, _), ids in gold[c].items():
            g[doc] |= ids
        p: Dict[int, Set[str]] = defaultdict(set)
        for (doc, _, _), i in pred.items():
            if category_of(to_curie(i)) == c:
                p[doc].add(equiv.canon(i))
        counts = (sum(len(p[d] & g.get(d, set())) for d in p), sum(map(len, p.values())), sum(map(len, g.values())))
        out[c] = prf(*counts)
        for j, n in enumerate(counts):
            totals[j] += n
    out["all"] = prf(*totals)
    return out
