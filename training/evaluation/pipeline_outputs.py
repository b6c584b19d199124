"""What an assembled pipeline wrote, read back for the evaluation: gold mentions of a dev doc, the ids and
organisms on predicted entities, and docs whose entities are gold spans (for the linking-only view).

Span extensions are read only if registered (`Span.has_extension`): `kb_taxon` (NCBI taxon id) and `kb_xrefs`
(`{"NCBIGene": "7157"}`) come with the species-aware linker and are optional here.
"""
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Sequence, Set, Tuple

from spacy.language import Language
from spacy.tokens import Doc, Span

from training.common.bioid import BioIDFormatError, read_mentions
from training.common.bioid_scoring import GoldMention, SpanKey

GENE_LABELS = ("GENE",)
# Components that find entities: left out when the linker runs on gold spans. Besides these factories, any
# component that declares `doc.ents` among what it assigns (the NER, rulers, `nseen_gazetteer`, `nseen_repeated_mentions`, `nseen_numbered_names`).
ENTITY_FACTORIES = frozenset({"ner", "beam_ner", "entity_ruler", "span_ruler", "spancat", "spancat_singlelabel"})
PRIMARY_MODES = ("kb_id", "ncbigene")


def sets_entities(nlp: Language, name: str) -> bool:
    """RETURNS (bool): whether a pipeline component finds entities (it is left out of the linking-only view)."""
    meta = nlp.get_pipe_meta(name)
    return meta.factory in ENTITY_FACTORIES or "doc.ents" in (meta.assigns or [])


@dataclass(frozen=True)
class SpanOutput:
    """The linker's answer on one span.

    kb_id (Optional[str]): The linked CURIE, None when the span was left unlinked.
    taxon (Optional[int]): `span._.kb_taxon`, if the pipeline writes it.
    ncbigene (Optional[str]): `NCBIGene:<id>` from `span._.kb_xrefs`, if any.
    candidates (Tuple[str, ...]): the ids of `span._.kb_candidates`, best first (also when left unlinked).
    """

    label: str
    kb_id: Optional[str]
    taxon: Optional[int] = None
    ncbigene: Optional[str] = None
    candidates: Tuple[str, ...] = ()

    def primary(self, mode: str) -> Optional[str]:
        """RETURNS (Optional[str]): The id scored: `kb_id`, or (mode "ncbigene") a GENE span's NCBI Gene xref."""
        if mode == "ncbigene" and self.label in GENE_LABELS and self.ncbigene:
            return self.ncbigene
        return self.kb_id


def has_taxa() -> bool:
    return Span.has_extension("kb_taxon")


def has_xrefs() -> bool:
    return Span.has_extension("kb_xrefs")


def span_output(ent: Span) -> SpanOutput:
    """RETURNS (SpanOutput): The id (None if unlinked), taxon and NCBI Gene xref on an entity."""
    kb_id = ent._.kb_id if Span.has_extension("kb_id") else (ent.kb_id_ or None)
    taxon = ent._.kb_taxon if has_taxa() else None
    xrefs = ent._.kb_xrefs if has_xrefs() else None
    gene = xrefs.get("NCBIGene") if isinstance(xrefs, dict) else None
    candidates = ent._.kb_candidates if Span.has_extension("kb_candidates") else None
    return SpanOutput(ent.label_, kb_id or None, int(taxon) if taxon is not None else None,
                      f"NCBIGene:{gene}" if gene else None, tuple(c[0] for c in candidates or ()))


def doc_mentions(docs: Sequence[Doc], mentions_file: Optional[Path] = None) -> List[GoldMention]:
    """Every gold Bio-ID mention of the docs (doc index = position in `docs`).

    Read from `doc.user_data["mentions"]` (training.ner.ner_corpus, gold format 2); for older DocBins, from
    the Bio-ID mentions file, matched by (pmc_id, caption_id) and checked against the doc text.
    """
    stored = all("mentions" in d.user_data for d in docs)
    by_caption: Dict[Tuple[str, str], List[List[object]]] = defaultdict(list)
    if not stored:
        if mentions_file is None:
            raise BioIDFormatError(
                "The dev DocBin has no doc.user_data['mentions'] (made by an older training.ner.ner_corpus): it lacks "
                "the NCBI Gene, PubChem and un-normalized mentions. Rebuild it with training.ner.ner_corpus, or pass "
                "--mentions with the release's mentions.tsv.gz (e.g. corpus/sources/bioid/mentions.tsv.gz).")
        for m in read_mentions(mentions_file):
            by_caption[(m.pmc_id, m.caption_id)].append([m.start, m.end, m.entity_type, list(m.ids)])
    out: List[GoldMention] = []
    for i, doc in enumerate(docs):
        if stored:
            rows = doc.user_data["mentions"]
        else:
            if "pmc_id" not in doc.user_data or "caption_id" not in doc.user_data:
                raise BioIDFormatError("The dev docs carry no pmc_id/caption_id: make them with training.ner.ner_corpus.")
            rows = by_caption.get((doc.user_data["pmc_id"], doc.user_data["caption_id"]), [])
        for start, end, etype, ids in rows:
            start, end = int(start), int(end)  # type: ignore[call-overload]
            if not 0 <= start < end <= len(doc.text):
                raise BioIDFormatError(
                    f"Mention offsets {start}-{end} fall outside caption {doc.user_data.get('caption_id')!r}: "
                    f"the mentions file is of another release than the DocBin; use the one the DocBin was made from.")
            out.append(GoldMention(i, start, end, str(etype), tuple(str(x) for x in ids)))  # type: ignore[union-attr]
    return out


def predicted_outputs(docs: Iterable[Doc], labels: Optional[Set[str]] = None) -> Dict[SpanKey, SpanOutput]:
    """RETURNS (Dict[SpanKey, SpanOutput]): The answer on every entity of the docs (of `labels`, if given)."""
    out: Dict[SpanKey, SpanOutput] = {}
    for i, doc in enumerate(docs):
        for ent in doc.ents:
            if labels is None or ent.label_ in labels:
                out[(i, ent.start_char, ent.end_char)] = span_output(ent)
    return out


def gold_span_docs(nlp: Language, texts: Sequence[str], spans: Dict[SpanKey, str]) -> Tuple[List[Doc], List[List[SpanKey]]]:
    """Docs whose entities are the given spans (key -> label); overlapping spans go to extra copies of a doc.

    RETURNS (Tuple[List[Doc], List[List[SpanKey]]]): the docs and, per doc, the key of each entity in order.
    Spans that cover no token are left out.
    """
    by_doc: Dict[int, List[SpanKey]] = defaultdict(list)
    for key in sorted(spans):
        by_doc[key[0]].append(key)
    out_docs: List[Doc] = []
    out_keys: List[List[SpanKey]] = []
    for i, keys in sorted(by_doc.items()):
        layers: List[Tuple[Doc, List[Span], List[SpanKey], Set[int]]] = []
        for key in keys:
            span = None
            for layer in layers:
                span = layer[0].char_span(key[1], key[2], label=spans[key], alignment_mode="expand")
                if span is not None and not (set(range(span.start, span.end)) & layer[3]):
                    break
            else:
                layer = (nlp.make_doc(texts[i]), [], [], set())
                layers.append(layer)
                span = layer[0].char_span(key[1], key[2], label=spans[key], alignment_mode="expand")
            if span is None or len(span) == 0:
                continue
            layer[1].append(span)
            layer[2].append(key)
            layer[3].update(range(span.start, span.end))
        for doc, ents, layer_keys, _ in layers:
            order = sorted(range(len(ents)), key=lambda j: ents[j].start)
            doc.ents = [ents[j] for j in order]
            out_docs.append(doc)
            out_keys.append([layer_keys[j] for j in order])
    return out_docs, out_keys


def run_without_ner(nlp: Language, docs: Sequence[Doc], batch_size: int) -> List[Doc]:
    """Run every pipeline component except those that set entities (NER, rulers) on docs whose entities
    are already set: the linker and whatever the pipeline does around it (e.g. organism assignment)."""
    stream: Iterable[Doc] = docs
    for name, pipe in nlp.pipeline:
        if sets_entities(nlp, name):
            continue
        stream = pipe.pipe(stream, batch_size=batch_size) if hasattr(pipe, "pipe") else map(pipe, stream)
    return list(stream)
