"""Organism assignment: for each protein mention, the NCBI taxon it most likely belongs to, and why.

Evidence as a biologist reads it, each level with its weight (`AssignerSettings`): an organism word or
prefix next to the mention (`mouse Trp53`, `hTERT`) > a word or cell line in the same sentence > anywhere
in the caption > in the other panels of the same figure (when a caption comes split into panel texts) >
in the other captions of the article > the mention's own form (`Trp53` vs `TP53`) > a prior. A level's hits are
summed per taxon (word strengths from `lexicon`) and the level's weight is shared among its taxa:
`weight · count[t] / max(1, Σ count)`, so a lone weak word stays weak and a caption naming human and mouse splits
its weight. The taxon with the highest total wins; ties go to the prior's order.
Deterministic, no model: the only artifact is the optional cell line table.
"""

from dataclasses import dataclass, field, fields
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

from .cell_lines import CellLineTable
from .context_evidence import ContextEvidence
from .evidence import TextEvidence, nearest_qualifiers
from .lexicon import ECOLI, FISSION_YEAST, HUMAN, MOUSE, RAT, YEAST, canonical_taxon
from .mention_form import mention_form_evidence

DEFAULT_PRIOR: Tuple[Tuple[int, float], ...] = ((HUMAN, 1.0), (MOUSE, 0.5), (RAT, 0.1), (YEAST, 0.1), (ECOLI, 0.01))


@dataclass(frozen=True)
class AssignerSettings:
    """Weights of the evidence levels (all ≥ 0); typed so that they can be config settings.

    The defaults of near/sentence/caption/figure/article/form/prior were chosen on the even-numbered Bio-ID
    documents (`training.tuning.tune_organisms`, results/organisms/tuning.json) and checked on the odd ones
    (the tuner's article_weight 0.75 gained 0.002 on the even documents and lost as much on the odd: 1.0 stays).

    near_weight (float): An organism word inside the mention or at most `near_words` words before it.
    prefix_weight (float): A prefix or reporter name on the mention itself (`hTERT`, `EGFP`).
    sentence_weight (float): Words and cell lines in the mention's sentence.
    caption_weight (float): Words and cell lines anywhere in the text (caption).
    figure_weight (float): Words and cell lines in the other panel texts of the same figure (a caption
        split into panels, as in Bio-ID: `Figure_1-A`, `Figure_1-B`); a whole caption has none.
    article_weight (float): Words and cell lines in the other texts of the same article.
    form_weight (float): The mention's naming convention (`Trp53` mouse-like, `TP53` human-like).
    prior_weight (float): The prior (`prior`: (taxon, value) pairs, also the tie-break order).
    user_weight (float): Organisms given by the caller for the document (first one highest).
    cell_line_strength (float): Strength of a cell line hit relative to a species word (1.0).
    ambiguous_cell_line_strength (float): Strength of a name shared by lines of several species.
    graft_host_strength (float): Factor on the mouse and rat words of a text about grafted tumours
        (`xenografts in nude mice`: hosts of human cells; 1 reads them as any mouse word). 0 was chosen on the
        even documents and checked on the odd ones (`experiments.organism_signals`, results/organisms/signals/README.md).
    article_saturation (float): Total article count at which the article level reaches its full
        weight (1: one organism word in the article counts fully; 3: it counts a third).
    near_words (int): Words allowed between an organism word and the mention it qualifies.
    nearest_qualifier (bool): Of the species words before a mention, only the nearest and those joined to it by
        conjunctions, determiners or commas count (`human, mouse and rat Egr1`); one separated from the next by
        other words qualifies another noun and is left out (`mouse` for the second `Notch` of `mouse Notch1 and
        Drosophila Notch`). Cell lines always count. False: every word within `near_words` counts
        (`evidence.nearest_qualifiers`).
    max_evidence (int): Evidence strings kept per mention.
    """

    near_weight: float = 4.0
    prefix_weight: float = 6.0
    sentence_weight: float = 1.5
    caption_weight: float = 2.0
    figure_weight: float = 1.0
    article_weight: float = 1.0
    form_weight: float = 0.25
    prior_weight: float = 0.3
    user_weight: float = 4.0
    cell_line_strength: float = 1.0
    ambiguous_cell_line_strength: float = 0.5
    graft_host_strength: float = 0.0
    article_saturation: float = 1.0
    near_words: int = 3
    nearest_qualifier: bool = True
    max_evidence: int = 6
    prior: Tuple[Tuple[int, float], ...] = DEFAULT_PRIOR

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, (int, float)) and value < 0:
                raise ValueError(f"AssignerSettings.{f.name} must be ≥ 0, got {value}")

    @classmethod
    def from_dict(cls, values: Mapping[str, Any]) -> "AssignerSettings":
        """Build settings from a dict (e.g. a config block); unknown keys raise a ValueError."""
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(values) - known)
        if unknown:
            raise ValueError(f"Unknown organism assigner setting(s) {unknown}; known: {sorted(known)}")
        data = dict(values)
        if "prior" in data:
            data["prior"] = tuple((int(t), float(v)) for t, v in data["prior"])
        return cls(**data)


@dataclass
class SpanOrganism:
    """The organism decided for one mention.

    taxon (Optional[int]): NCBI taxon id, or None (no allowed organism won).
    evidence (List[str]): Short readable reasons, strongest first ("word 'mice' in caption → 10090").
    scores (Dict[int, float]): Total score per taxon (all taxa with evidence, allowed or not).
    excluded_taxon (Optional[int]): The best taxon when it is outside the allowed organisms.
    """

    taxon: Optional[int]
    evidence: List[str]
    scores: Dict[int, float] = field(default_factory=dict)
    excluded_taxon: Optional[int] = None


@dataclass
class DocumentOrganisms:
    """The assignment of one document: its organisms (most likely first) and one result per span."""

    organisms: List[int]
    spans: List[SpanOrganism]
    scores: Dict[int, float] = field(default_factory=dict)


def reusable_scan(scanned: Optional[TextEvidence], text: str, skip: Sequence[Tuple[int, int]]) -> bool:
    """Whether a scan of `text` with nothing skipped is the scan with `skip` (the mentions) skipped: skipping only
    keeps cell lines off the skipped ranges, so when no hit touches one, both scans read the text alike."""
    if scanned is None or scanned.text != text:
        return False
    return not any(h.start < end and start < h.end for h in scanned.hits for start, end in skip)


class OrganismAssigner:
    """Assigns an organism to protein mentions of a text from the evidence around them."""

    def __init__(
        self,
        settings: Optional[AssignerSettings] = None,
        cell_lines: Optional[CellLineTable] = None,
        allowed: Optional[Iterable[int]] = None,
        fallback_to_allowed: bool = False,
    ) -> None:
        """settings (Optional[AssignerSettings]): Weights (defaults if None).
        cell_lines (Optional[CellLineTable]): Cell line → species table (no cell line evidence if None).
        allowed (Optional[Iterable[int]]): Only these taxa may be assigned (None: any).
        fallback_to_allowed (bool): When the best taxon is not allowed, assign the best allowed one
            instead of None.
        """
        self.settings = settings or AssignerSettings()
        self.cell_lines = cell_lines
        self.allowed = None if allowed is None else frozenset(canonical_taxon(int(t)) for t in allowed)
        self.fallback_to_allowed = fallback_to_allowed
        self._prior = {canonical_taxon(t): v for t, v in self.settings.prior}
        self._order = {t: i for i, (t, _) in enumerate(self.settings.prior)}

    def scan(self, text: str, skip: Sequence[Tuple[int, int]] = ()) -> TextEvidence:
        """RETURNS (TextEvidence): The organism hits of a text (cell lines not read inside `skip`)."""
        s = self.settings
        return TextEvidence.from_text(
            text, self.cell_lines, skip, s.cell_line_strength, s.ambiguous_cell_line_strength, s.graft_host_strength
        )

    def scan_key(self) -> Tuple[Optional[CellLineTable], float, float, float]:
        """RETURNS (Tuple[Optional[CellLineTable], float, float, float]): what a scan depends on (the cell line
        table, hashed by identity, and the strengths): assigners with the same key scan a text alike."""
        s = self.settings
        return (self.cell_lines, s.cell_line_strength, s.ambiguous_cell_line_strength, s.graft_host_strength)

    def context_evidence(self, texts: Iterable[str]) -> ContextEvidence:
        """RETURNS (ContextEvidence): the texts of a context (an article) scanned once: their counts without any one
        of them (`ContextEvidence.counts_without`) are the `article_counts` of the others."""
        return ContextEvidence([self.scan(text) for text in texts])

    def article_counts(self, texts: Iterable[str]) -> Dict[int, float]:
        """RETURNS (Dict[int, float]): Hit strength per taxon summed over texts (the article context), as
        `context_counts` counts them."""
        return context_counts([self.scan(text) for text in texts])

    def assign(
        self,
        doc: Any,
        spans: Optional[Sequence[Any]] = None,
        *,
        organisms: Optional[Sequence[int]] = None,
        article_texts: Optional[Iterable[str]] = None,
        article_counts: Optional[Mapping[int, float]] = None,
        figure_texts: Optional[Iterable[str]] = None,
        figure_counts: Optional[Mapping[int, float]] = None,
    ) -> DocumentOrganisms:
        """Assign organisms to the spans of a spaCy Doc.

        doc (Doc): The document. spans (Optional[Sequence[Span]]): The mentions (default: doc.ents).
        organisms (Optional[Sequence[int]]): Organisms the caller knows for the document (only these
            can be assigned; the first is preferred).
        article_texts (Optional[Iterable[str]]): Other texts of the same article (e.g. captions).
        article_counts (Optional[Mapping[int, float]]): Precomputed `article_counts(...)` instead.
        figure_texts (Optional[Iterable[str]]): Other panel texts of the same figure (a split caption).
        figure_counts (Optional[Mapping[int, float]]): Precomputed `article_counts(figure_texts)` instead.
        RETURNS (DocumentOrganisms): One SpanOrganism per span, in order.
        """
        spans = list(doc.ents) if spans is None else list(spans)
        offsets = [(sp.start_char, sp.end_char) for sp in spans]
        return self.assign_text(
            doc.text,
            offsets,
            organisms=organisms,
            article_texts=article_texts,
            article_counts=article_counts,
            figure_texts=figure_texts,
            figure_counts=figure_counts,
        )

    def assign_text(
        self,
        text: str,
        offsets: Sequence[Tuple[int, int]],
        *,
        organisms: Optional[Sequence[int]] = None,
        article_texts: Optional[Iterable[str]] = None,
        article_counts: Optional[Mapping[int, float]] = None,
        figure_texts: Optional[Iterable[str]] = None,
        figure_counts: Optional[Mapping[int, float]] = None,
        forms: Optional[Sequence[Optional[str]]] = None,
        scanned: Optional[TextEvidence] = None,
    ) -> DocumentOrganisms:
        """Assign organisms to mentions given as character offsets into a text (no spaCy needed).

        forms (Optional[Sequence[Optional[str]]]): per mention, the text whose form (`hTERT`, `Trp53`) is read, where
            it is not the mention itself: the token a component cut the mention from (`hTau` for `Tau`,
            `nseen_glued_names`), so that the cut keeps the organism the whole token said. None: the mentions.
        scanned (Optional[TextEvidence]): the text as `scan` read it with no mention skipped (an article's reading of
            it): used as is when none of its hits touches a mention (`reusable_scan`), else the text is scanned again.
        RETURNS (DocumentOrganisms): As `assign`.
        """
        if forms is not None and len(forms) != len(offsets):
            raise ValueError(
                f"{len(forms)} forms for {len(offsets)} mentions: give one per mention (None: the mention)"
            )
        for start, end in offsets:
            if not 0 <= start <= end <= len(text):
                raise ValueError(f"Mention offsets ({start}, {end}) are outside the text (length {len(text)}).")
        if article_counts is None:
            article_counts = self.article_counts(article_texts) if article_texts is not None else {}
        if figure_counts is None:
            figure_counts = self.article_counts(figure_texts) if figure_texts is not None else {}
        if _fission_article(article_counts) and figure_counts.get(YEAST):
            figure_counts = _yeast_as_fission(figure_counts)  # the figure's panels are of the same article
        user = [canonical_taxon(int(t)) for t in organisms] if organisms else []
        reuse = scanned is not None and reusable_scan(scanned, text, offsets)
        evidence = scanned if scanned is not None and reuse else self.scan(text, skip=offsets)
        if evidence.names_fission_yeast() or (
            YEAST not in evidence.named_taxa() and (_fission_context(article_counts) or _fission_context(figure_counts))
        ):
            evidence = evidence.in_fission_yeast()  # `red1Δ` in an S. pombe article is no budding yeast evidence
        caption = evidence.counts()
        base = self._base_scores(dict(article_counts), user, dict(figure_counts))
        results = [
            self._assign_span(evidence, start, end, base, caption, user, forms[i] if forms else None)
            for i, (start, end) in enumerate(offsets)
        ]
        doc_scores = {t: v for t, (v, _) in base.items()}
        ranked = sorted(doc_scores, key=lambda t: (-doc_scores[t], self._order.get(t, len(self._order)), t))
        has_evidence = (
            set(caption)
            | {t for t, v in article_counts.items() if v > 0}
            | {t for t, v in figure_counts.items() if v > 0}
            | set(user)
        )
        doc_organisms = [t for t in ranked if t in has_evidence and self._permitted(t, user)]
        if not doc_organisms and ranked:
            doc_organisms = [t for t in ranked if self._permitted(t, user)][:1]
        return DocumentOrganisms(doc_organisms, results, doc_scores)

    def _permitted(self, taxon: int, user: Sequence[int]) -> bool:
        return (not user or taxon in user) and (self.allowed is None or taxon in self.allowed)

    def _base_scores(
        self, article: Mapping[int, float], user: Sequence[int], figure: Optional[Mapping[int, float]] = None
    ) -> Dict[int, Tuple[float, List[Tuple[float, str]]]]:
        """Scores that are the same for every mention of the text: figure, article, prior, user."""
        s = self.settings
        scores: Dict[int, Tuple[float, List[Tuple[float, str]]]] = {}

        def add(taxon: int, value: float, reason: str) -> None:
            total, reasons = scores.get(taxon, (0.0, []))
            reasons.append((value, reason))
            scores[taxon] = (total + value, reasons)

        figure = figure or {}
        for taxon, share in _shares(figure, s.figure_weight).items():
            add(taxon, share, f"{figure[taxon]:g} organism word(s)/cell line(s) in the figure's other panels → {taxon}")
        for taxon, share in _shares(article, s.article_weight, s.article_saturation).items():
            add(taxon, share, f"{article[taxon]:g} organism word(s)/cell line(s) in the article → {taxon}")
        for taxon, value in self._prior.items():
            add(taxon, s.prior_weight * value, f"prior → {taxon}")
        for rank, taxon in enumerate(user):
            add(taxon, s.user_weight / (1 + rank), f"organism given for the document → {taxon}")
        return scores

    def _assign_span(
        self,
        evidence: TextEvidence,
        start: int,
        end: int,
        base: Mapping[int, Tuple[float, List[Tuple[float, str]]]],
        caption: Mapping[int, float],
        user: Sequence[int],
        form: Optional[str] = None,
    ) -> SpanOrganism:
        s = self.settings
        totals = {t: v for t, (v, _) in base.items()}
        reasons: List[Tuple[float, str, int]] = [(v, r, t) for t, (_, rs) in base.items() for v, r in rs]

        def add(taxon: int, value: float, reason: str) -> None:
            if value <= 0:
                return
            totals[taxon] = totals.get(taxon, 0.0) + value
            reasons.append((value, reason, taxon))

        sentence = evidence.sentence_of(start)
        near: Dict[int, float] = {}
        same_sentence: Dict[int, float] = {}
        labels: Dict[Tuple[str, int], str] = {}
        in_sentence = [
            hit for hit, hit_sentence in zip(evidence.hits, evidence.hit_sentences) if hit_sentence == sentence
        ]
        qualifiers = [hit for hit in in_sentence if evidence.is_near(hit, start, end, s.near_words)]
        for hit in nearest_qualifiers(evidence, qualifiers, start) if s.nearest_qualifier else qualifiers:
            near[hit.taxon] = near.get(hit.taxon, 0.0) + hit.strength
            labels.setdefault(("near", hit.taxon), hit.label)
        for hit in in_sentence:
            same_sentence[hit.taxon] = same_sentence.get(hit.taxon, 0.0) + hit.strength
            labels.setdefault(("sentence", hit.taxon), hit.label)
        for hit in evidence.hits:
            labels.setdefault(("caption", hit.taxon), hit.label)
        for level, counts, weight, where in (
            ("near", near, s.near_weight, "next to the mention"),
            ("sentence", same_sentence, s.sentence_weight, "in the sentence"),
            ("caption", caption, s.caption_weight, "in the text"),
        ):
            for taxon, share in _shares(counts, weight).items():
                add(taxon, share, f"{labels[(level, taxon)]} {where} → {taxon}")
        for form_hit in mention_form_evidence(form or evidence.text[start:end]):
            weight = s.form_weight if form_hit.kind == "form" else s.prefix_weight
            add(form_hit.taxon, weight * form_hit.strength, f"{form_hit.label} → {form_hit.taxon}")
        return self._decide(totals, reasons, user)

    def _decide(
        self, totals: Dict[int, float], reasons: List[Tuple[float, str, int]], user: Sequence[int]
    ) -> SpanOrganism:
        candidates = [t for t in totals if not user or t in user]
        order = len(self._order)
        ranked = sorted(candidates, key=lambda t: (-totals[t], self._order.get(t, order), t))
        best = ranked[0] if ranked else None
        excluded = None
        if best is not None and self.allowed is not None and best not in self.allowed:
            excluded = best
            allowed = [t for t in ranked if t in self.allowed]
            best = allowed[0] if (allowed and self.fallback_to_allowed) else None
        shown = best if best is not None else excluded
        kept = sorted((r for r in reasons if r[2] == shown), key=lambda r: -r[0])
        evidence = [r[1] for r in kept[: self.settings.max_evidence]]
        if excluded is not None:
            evidence.append(f"best organism {excluded} is not among the allowed organisms")
        return SpanOrganism(best, evidence, {t: round(v, 4) for t, v in totals.items()}, excluded)


def context_counts(evidences: Sequence[TextEvidence]) -> Dict[int, float]:
    """Hit strength per taxon summed over the scanned texts of a context (an article, a figure's panels).

    A text that names fission yeast counts its yeast deletions and the word `yeast` for it, and so does every
    text when the texts together name fission yeast and never budding yeast alone (an S. pombe article whose
    `red1Δ` caption says only "yeast"). The sums are exact, then rounded once (`ContextEvidence`, which gives the
    same counts of an article without one of its texts in constant time).
    RETURNS (Dict[int, float]): taxon → summed strength.
    """
    return ContextEvidence(evidences).counts_without(None)


def _fission_article(counts: Mapping[int, float]) -> bool:
    """Whether context counts (`context_counts`) are of a fission yeast article: fission yeast and no budding yeast."""
    return counts.get(FISSION_YEAST, 0.0) > 0 and not counts.get(YEAST, 0.0)


def _yeast_as_fission(counts: Mapping[int, float]) -> Dict[int, float]:
    """RETURNS (Dict[int, float]): the counts with budding yeast's moved to fission yeast."""
    out = {t: v for t, v in counts.items() if t != YEAST}
    out[FISSION_YEAST] = out.get(FISSION_YEAST, 0.0) + counts.get(YEAST, 0.0)
    return out


def _fission_context(counts: Mapping[int, float]) -> bool:
    """Whether context texts name fission yeast more than budding yeast (its deletions included)."""
    fission = counts.get(FISSION_YEAST, 0.0)
    return fission > counts.get(YEAST, 0.0)


def _shares(counts: Mapping[int, float], weight: float, saturation: float = 1.0) -> Dict[int, float]:
    """A level's weight shared among its taxa: weight · count / max(saturation, total)."""
    total = sum(counts.values())
    if weight <= 0 or total <= 0:
        return {}
    return {t: weight * c / max(saturation, total) for t, c in counts.items() if c > 0}
