"""Evaluate normalisation systems on a Bio-ID mentions file (Hits@k).

python -m training.evaluation.evaluate --kb uniprot --reference corpus/reference/uniprot.tsv.gz \\
    --mentions ../shared/data/bioid/mentions.tsv.gz --output results/eval_uniprot
"""
import json
import os
import platform
import shlex
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import typer
from wasabi import msg

from training.evaluation.baselines import BASELINES, Ranker, Reference, build_baseline, read_reference
from training.common.bioid import (BioIDFormatError, caption_contexts, Query, kb_queries, read_equivalences,
                                   read_captions, read_mentions, read_secondary_map, DOCUMENT_HALVES,
                                   in_document_half)
from training.common.mirror import mirror_file
from spacy_nseen.progress import Progress
from training.evaluation.frequent_mentions import frequent_mentions
from training.evaluation.miss_causes import miss_causes
from training.evaluation.report import PAPER_TABLE3, plot_hits, write_markdown
from training.linker.settings_spec import parse_variant
from spacy_nseen.errors import ArtifactError
from spacy_nseen.text.abbreviations import searched_form
from training.common.abbreviation_lexicons import SPEC_HELP, lexicon_for_document, read_lexicon_specs

KS = (1, 3, 5, 10)
LONG_FORM_RULES = ("linker", "always")
app = typer.Typer(add_completion=False)
LINK_CHUNK = 2000  # mentions per link() call: the same links (each mention is linked on its own), with progress


@dataclass
class LinkerRanker:
    """Adapter: a `KnowledgeBaseLinker`-like object (`.link`) as a Ranker."""

    linker: Any
    name: str = "nseen"
    mode: Optional[str] = None
    organisms: bool = True  # given the organism evidence when the evaluation has it (False: species-blind)

    def rank(self, mentions: Sequence[str], k: int, organisms: Optional[Sequence[Any]] = None) -> List[List[str]]:
        kwargs: Dict[str, Any] = {} if self.mode is None else {"mode": self.mode}
        out: List[List[str]] = []
        mentions = list(mentions)
        with Progress(f"{self.name}: linking", total=len(mentions), unit="mentions") as bar:
            for start in range(0, len(mentions), LINK_CHUNK):
                chunk = mentions[start : start + LINK_CHUNK]
                if organisms is not None:  # the chunk's own organism contexts
                    kwargs["organisms"] = list(organisms[start : start + LINK_CHUNK])
                for cands in self.linker.link(chunk, top_k=k, **kwargs):
                    out.append(list(dict.fromkeys(c.kb_id for c in cands))[:k])
                bar.update(len(chunk))
        return out


def select_documents(mentions: Sequence[Any], half: str) -> List[Any]:
    """Keep the mentions of the even- or odd-numbered documents (by the digits of `pmc_id`), or all.

    A fixed split of the query set into two halves: settings are chosen on one and checked on the other.
    """
    if half not in DOCUMENT_HALVES:
        raise ValueError(f"--documents must be one of {DOCUMENT_HALVES}, got {half!r}")
    return [m for m in mentions if in_document_half(m.pmc_id, half)]


def organisms_hits1(by_organism: Dict[str, Dict[str, float]], organisms: Sequence[str]) -> Optional[float]:
    """Hits@1 over the occurrences whose gold ids all belong to `organisms` (per-organism table labels such as
    "human", "mouse"; a label "human+mouse" counts when each part is listed); None when there are none."""
    wanted = {name.strip() for name in organisms}
    rows = [row for label, row in by_organism.items() if set(label.split("+")) <= wanted]
    queries = sum(row["queries"] for row in rows)
    return sum(row["hits@1"] * row["queries"] for row in rows) / queries if queries else None


def hits_at_k(ranked: Sequence[Sequence[str]], golds: Sequence[frozenset],
              ks: Sequence[int] = KS) -> Dict[str, float]:
    """Fraction of queries with a gold id among the top-k distinct ids.

    ranked (Sequence[Sequence[str]]): Ranked kb_ids per query (collapsed to distinct).
    golds (Sequence[frozenset]): Gold ids per query.
    RETURNS (Dict[str, float]): {"hits@1": ..., ...}; 0.0 for no queries.
    """
    out = {}
    for k in ks:
        hit = 0
        for r, gold in zip(ranked, golds):
            top = list(dict.fromkeys(r))[:k]
            hit += any(x in gold for x in top)
        out[f"hits@{k}"] = hit / len(golds) if golds else 0.0
    return out


def split_in_kb(queries: Sequence[Query], entities: set) -> Dict[str, Any]:
    """Separate in-KB queries (a gold id in the reference) and count both units.

    RETURNS (Dict[str, Any]): in_kb queries, unique in-KB pairs and the counts.
    """
    in_kb = [q for q in queries if q.gold & entities]
    pairs = sorted({(q.text, q.gold) for q in queries}, key=lambda p: (p[0], sorted(p[1])))
    in_pairs = [p for p in pairs if p[1] & entities]
    return {
        "in_kb": in_kb,
        "unique_pairs": in_pairs,
        "counts": {
            "queries": len(queries), "in_kb": len(in_kb),
            "out_of_kb": len(queries) - len(in_kb),
            "unique_pairs": len(pairs), "unique_pairs_in_kb": len(in_pairs),
            "unique_pairs_out_of_kb": len(pairs) - len(in_pairs),
            "unique_strings_in_kb": len({q.text for q in in_kb}),
        },
    }


def article_abbreviations(captions: Path) -> Dict[str, Dict[str, str]]:
    """RETURNS (Dict[str, Dict[str, str]]): per article (pmc_id), short form → long form defined in its
    captions (`long form (SHORT)`, Schwartz & Hearst; see `spacy_nseen.text.abbreviations`)."""
    from spacy_nseen.text.abbreviations import abbreviation_map
    from training.common.bioid import caption_texts_by_article

    return {pmc_id: abbreviation_map(t) for pmc_id, t in caption_texts_by_article(captions).items()}


def name_test(reference: Reference, linker: Any = None) -> Callable[[str], bool]:
    """RETURNS (Callable[[str], bool]): whether a text matches a name of the reference set exactly (the linker's
    exact-name keys; built from the reference names when no linker is given)."""
    from spacy_nseen.retrieval.exact_names import ExactNameIndex

    exact = linker.exact_names if linker is not None else ExactNameIndex.build(reference.names)
    return lambda text: bool(exact.lookup(text))


def evaluate_rankers(queries: Sequence[Query], entities: set, rankers: Sequence[Ranker],
                     ks: Sequence[int] = KS,
                     search_text: Optional[Callable[[Query], str]] = None,
                     organism_of: Optional[Callable[[Query], Any]] = None,
                     gold_taxon: Optional[Callable[[Query], str]] = None,
                     taxon_of: Optional[Callable[[str], Optional[int]]] = None) -> Dict[str, Any]:
    """Run every ranker on the distinct in-KB mention strings and score them.

    search_text (Optional[Callable[[Query], str]]): the string ranked for a query (default: its text;
        e.g. the long form of an abbreviation defined in its article). With it, the unique unit is the
        (mention text, searched string, gold ids) triple.
    organism_of (Optional[Callable[[Query], Any]]): the organism evidence (`OrganismContext`) of a query
        occurrence, given to the linkers (baselines ignore it); per-occurrence figures use it, the unique-pair
        unit ranks each distinct string without it.
    gold_taxon (Optional[Callable[[Query], str]]): the organism label of a query's gold ids, for a
        per-organism breakdown of Hits@1 per occurrence.
    taxon_of (Optional[Callable[[str], Optional[int]]]): the taxon of a kb id; with `organism_of` and
        `gold_taxon`, the misses of the organism-aware linkers are broken down by cause (`miss_causes`).
    RETURNS (Dict[str, Any]): counts and, per system, Hits@k per occurrence and per
        unique (mention text, gold ids) pair, plus timing.
    """
    split = split_in_kb(queries, entities)
    if search_text is None:
        strings = sorted({q.text for q in split["in_kb"]})
        pairs = [(t, t, g) for t, g in split["unique_pairs"]]
        occurrence_texts = [q.text for q in split["in_kb"]]
    else:
        occurrence_texts = [search_text(q) for q in split["in_kb"]]
        strings = sorted(set(occurrence_texts))
        pairs = sorted({(q.text, s, q.gold) for q, s in zip(split["in_kb"], occurrence_texts)},
                       key=lambda p: (p[0], p[1], sorted(p[2])))
        split["counts"]["searched_as_long_form"] = sum(
            s != q.text for q, s in zip(split["in_kb"], occurrence_texts))
        split["counts"]["unique_triples_in_kb"] = len(pairs)
    results: Dict[str, Any] = {"counts": split["counts"], "systems": {}}
    # per in-KB occurrence, the same for every ranker
    texts = [q.text for q in split["in_kb"]]
    golds = [q.gold for q in split["in_kb"]]
    labels = [gold_taxon(q) for q in split["in_kb"]] if gold_taxon is not None else None
    groups: Dict[str, List[int]] = {}
    for i, label in enumerate(labels or []):
        groups.setdefault(label, []).append(i)
    assigned = ([getattr(organism_of(q), "taxon", None) for q in split["in_kb"]]
                if organism_of is not None and labels is not None and taxon_of is not None else None)
    for ranker in rankers:
        msg.info(f"{ranker.name}: ranking {len(strings)} distinct mention strings")
        start = time.perf_counter()
        ranked = ranker.rank(strings, max(ks))
        seconds = time.perf_counter() - start
        by_text = dict(zip(strings, ranked))
        occurrence_ranked = [by_text[t] for t in occurrence_texts]
        organism_aware = organism_of is not None and isinstance(ranker, LinkerRanker) and ranker.organisms
        if organism_aware:
            keys = sorted({(t, organism_of(q)) for t, q in zip(occurrence_texts, split["in_kb"])}, key=repr)
            by_key = dict(zip(keys, ranker.rank([t for t, _ in keys], max(ks), organisms=[c for _, c in keys])))
            occurrence_ranked = [by_key[(t, organism_of(q))] for t, q in zip(occurrence_texts, split["in_kb"])]
        occ = hits_at_k(occurrence_ranked, golds, ks)
        uniq = hits_at_k([by_text[s] for _, s, _ in pairs], [g for _, _, g in pairs], ks)
        by_organism = {label: {"queries": len(rows), **hits_at_k([occurrence_ranked[i] for i in rows],
                                                                [golds[i] for i in rows], (1,))}
                       for label, rows in sorted(groups.items())}
        causes = {}
        if organism_aware and assigned is not None and labels is not None and taxon_of is not None:
            causes = miss_causes(texts, occurrence_ranked, golds, assigned, labels, taxon_of)
        results["systems"][ranker.name] = {
            "per_occurrence": occ, "per_unique_pair": uniq, "seconds": round(seconds, 3),
            "frequent_mentions": frequent_mentions(texts, occurrence_ranked, golds),
            **({"per_organism_hits@1": by_organism} if by_organism else {}),
            **({"miss_causes": causes} if causes else {}),
            "queries_per_second": round(len(strings) / seconds, 1) if seconds > 0 else None,
        }
        msg.good(f"{ranker.name}: H@1 {occ['hits@1']:.3f} (occurrences), "
                 f"{uniq['hits@1']:.3f} (unique pairs), {len(strings) / max(seconds, 1e-9):.0f} q/s")
    return results


ORGANISM_LABELS = {9606: "human", 10090: "mouse", 10116: "rat", 559292: "yeast", 83333: "E. coli"}


def organism_evidence(captions: Path, mentions: Path, cell_lines: Optional[Path], reference: Any) -> Tuple[Callable, Callable]:
    """The organism evidence of every Bio-ID mention (assigned from its caption and the other captions of
    its article, as `nseen_linker` does) and the organism label of a query's gold ids.

    RETURNS (Tuple[Callable, Callable]): query → OrganismContext (or None), query → organism label.
    """
    from spacy_nseen.organisms.assign import OrganismAssigner
    from spacy_nseen.pipe.predict import Mention, prepare_requests
    from spacy_nseen.organisms.cell_lines import CellLineTable

    assigner = OrganismAssigner(cell_lines=CellLineTable.from_disk(cell_lines) if cell_lines else None)
    texts = read_captions(captions, mentions)
    contexts: Dict[Tuple[str, str, int, int], Any] = {}
    for caption, context in zip(texts, caption_contexts(texts)):
        routed = [m for m in caption.mentions if m.entity_type in ("protein", "gene")]
        if not routed:
            continue
        # The component's predict path (its organism part: the abbreviations are the article's, see --abbreviations).
        prepared = prepare_requests(caption.text, [Mention(m.start, m.end, m.text, "uniprot") for m in routed],
                                    lambda kb: True, assigner, expand_abbreviations=False,
                                    article_texts=context.article_texts, figure_texts=context.figure_texts)
        for m, request in zip(routed, prepared.requests):
            contexts[(m.pmc_id, m.caption_id, m.start, m.end)] = request.context

    def organism_of(q: Query) -> Any:
        m = q.mention
        return contexts.get((m.pmc_id, m.caption_id, m.start, m.end))

    def gold_taxon(q: Query) -> str:
        taxa = sorted({t for t in (reference.taxon_of(i) for i in q.gold) if t})
        return "+".join(ORGANISM_LABELS.get(t, str(t)) for t in taxa) or "unknown"

    return organism_of, gold_taxon


@app.command()
def main(
    kb: str = typer.Option(..., "--kb", help="uniprot or chebi"),
    reference: Path = typer.Option(..., "--reference", help="Reference set TSV (kb_id, name, kind)"),
    mentions: Path = typer.Option(None, "--mentions", help="Bio-ID mentions TSV (any split)"),
    output: Path = typer.Option(..., "--output", help="Output directory"),
    systems: str = typer.Option("exact,rapidfuzz,tfidf", "--systems",
                                help=f"Comma-separated: {','.join(BASELINES)},nseen,nseen_dense"),
    linker: Optional[List[Path]] = typer.Option(None, "--linker", help="Trained linker dir(s)"),
    chebi_secondary: Optional[Path] = typer.Option(None, "--chebi-secondary",
                                                   help="secondary_id<TAB>primary_id TSV"),
    equivalences: Optional[Path] = typer.Option(None, "--equivalences",
                                                help="Bio-ID equivalence_classes.json.gz (off by default)"),
    split: Optional[str] = typer.Option(None, "--split", help="Only this split value"),
    documents: str = typer.Option("all", "--documents",
                                  help="Only the even- or odd-numbered documents (pmc_id): all, even or odd"),
    entity_prior: Optional[str] = typer.Option(
        None, "--entity-prior",
        help="PATH:COLUMN of a TSV with kb_id and a numeric column (e.g. the ChEBI reference set's star), "
             "set as the linkers' entity_prior for exact_tie_break=prior"),
    figure: bool = typer.Option(True, "--figure/--no-figure", help="Fig. 4 + Table 4 with a linker"),
    abbreviations: bool = typer.Option(
        False, "--abbreviations/--no-abbreviations",
        help="Search a mention that is a short form defined in its article's captions by its long form "
             "(every system, by the --long-form rule; a context-aware protocol, off by default)"),
    long_form: str = typer.Option(
        "linker", "--long-form",
        help="With --abbreviations: 'linker' (the component's rule: the long form unless the mention is a name of "
             "the reference set and the long form is not) or 'always'"),
    abbreviation_lexicon: Optional[List[str]] = typer.Option(
        None, "--abbreviation-lexicon",
        help=SPEC_HELP + "; searched by the --long-form rule"),
    captions: Optional[Path] = typer.Option(None, "--captions",
                                            help="Bio-ID captions TSV (default: --mentions with 'mentions' replaced by 'captions' in the file name)"),
    organisms: bool = typer.Option(
        False, "--organisms/--no-organisms",
        help="Give the linkers each mention's organism, assigned from its caption, figure panels and article (multi-organism "
             "reference sets; needs --captions), and break Hits@1 down by the gold id's organism"),
    cell_lines: Optional[Path] = typer.Option(None, "--cell-lines", help="Cell line table for --organisms"),
    headline: Optional[Path] = typer.Option(None, "--headline", help="Write headline figures into this JSON (results/headline.json)"),
    headline_key: Optional[List[str]] = typer.Option(
        None, "--headline-key",
        help="KEY=SYSTEM[@ORGANISM,...]: the system's Hits@1 per occurrence (only of gold mentions of those organisms, labels of the per-organism table, with --organisms) written as KEY into --headline (repeatable)"),
    variant: Optional[List[str]] = typer.Option(
        None, "--variant",
        help="Extra nseen system with other linker settings, e.g. 'nseen_nosparse:sparse_weight=0' (repeatable)"),
) -> None:
    """Hits@k of baselines and trained linkers on Bio-ID queries for one KB."""
    command = " ".join(shlex.quote(a) for a in ["python", "-m", "training.evaluation.evaluate", *sys.argv[1:]])
    kb = kb.lower()
    mentions = mentions or mirror_file("bioid", "mentions.tsv.gz")
    if kb == "chebi" and chebi_secondary is None:
        default = mirror_file("chebi", "secondary_to_primary.tsv.gz")
        if default.exists():
            chebi_secondary = default
        else:
            msg.warn("No --chebi-secondary: ChEBI secondary ids are not mapped to primary.")
    names = [s.strip() for s in systems.split(",") if s.strip()]
    unknown = [s for s in names if s not in BASELINES and s not in ("nseen", "nseen_dense")]
    if unknown:
        msg.fail(f"Unknown system(s) {unknown}", exits=1)
    if any(s.startswith("nseen") for s in names) and not linker:
        msg.fail("The nseen systems need --linker DIR", exits=1)
    try:
        secondary = read_secondary_map(chebi_secondary) if chebi_secondary else None
        equiv = read_equivalences(equivalences, kb) if equivalences else None
        all_mentions = select_documents(read_mentions(mentions, splits={split} if split else None), documents)
        queries = kb_queries(all_mentions, kb, secondary, equiv)
        ref = read_reference(reference)
    except (BioIDFormatError, FileNotFoundError, ValueError) as e:
        msg.fail(str(e), exits=1)
    if secondary:
        ref = Reference([secondary.get(i, i) for i in ref.kb_ids], ref.names, ref.kinds)
    msg.info(f"{len(queries)} {kb} queries from {mentions}; reference: {len(ref)} names, "
             f"{len(ref.entities)} entities")
    rankers: List[Ranker] = []
    setup: Dict[str, float] = {}
    for s in names:
        if s.startswith("nseen"):
            continue
        start = time.perf_counter()
        rankers.append(build_baseline(s, ref))
        setup[s] = round(time.perf_counter() - start, 2)
    linkers = []
    for path in linker or []:
        from spacy_nseen.linker.kb_linker import KnowledgeBaseLinker

        obj = KnowledgeBaseLinker.from_disk(path)
        if entity_prior:
            from spacy_nseen.linker.exact_ranking import read_entity_prior

            prior_path, _, column = entity_prior.rpartition(":")
            obj.entity_prior = read_entity_prior(obj.reference_set, prior_path, column)
        linkers.append((path, obj))
        dir_names = [p.name for p in linker or []]
        label = path.name if dir_names.count(path.name) == 1 else f"{path.parent.name}-{path.name}"
        tag = "" if len(dir_names) == 1 else f"[{label}]"
        if "nseen" in names:
            rankers.append(LinkerRanker(obj, name=f"nseen{tag}"))
        if "nseen_dense" in names:
            rankers.append(LinkerRanker(obj, name=f"nseen_dense{tag}", mode="dense"))
        if organisms and "nseen" in names:
            rankers.append(LinkerRanker(obj, name=f"nseen_species_blind{tag}", organisms=False))
        for spec in variant or []:
            label, settings = parse_variant(spec, obj.settings)
            rankers.append(LinkerRanker(obj.with_settings(settings), name=f"{label}{tag}"))
    search_text = None
    if long_form not in LONG_FORM_RULES:
        msg.fail(f"--long-form must be one of {LONG_FORM_RULES}, got {long_form!r}", exits=1)
    try:
        lexicons = read_lexicon_specs(abbreviation_lexicon or [])
    except (ArtifactError, ValueError) as e:
        msg.fail(str(e), exits=1)
    if abbreviations or lexicons:
        defined: Dict[str, Dict[str, str]] = {}
        if abbreviations:
            captions = captions or Path(mentions).with_name(Path(mentions).name.replace("mentions", "captions"))
            try:
                defined = article_abbreviations(captions)
            except (BioIDFormatError, FileNotFoundError) as e:
                msg.fail(str(e), exits=1)
        # "always": no text counts as a name, so searched_form returns every long form
        is_name = (lambda text: False) if long_form == "always" else name_test(ref, linkers[0][1] if linkers else None)
        # as the component: the lexicon's guess is not taken for a tag name the linker never links (`MBP`)
        takes_guess = linkers[0][1].takes_lexicon_guess if linkers else (lambda text: True)

        def search_text(q: Query) -> str:
            pmc_id = q.mention.pmc_id
            lexicon = lexicon_for_document(lexicons, pmc_id)
            found = defined.get(pmc_id, {}).get(q.text)
            if not found and lexicon and takes_guess(q.text):
                found = lexicon.get(q.text)
            return searched_form(q.text, found, is_name)

    organism_of = gold_taxon = taxon_of = None
    if organisms:
        if not linkers or linkers[0][1].reference_set.entity_taxa is None:
            msg.fail("--organisms needs a --linker over a multi-organism reference set (with a taxon column)", exits=1)
        captions = captions or Path(mentions).with_name(Path(mentions).name.replace("mentions", "captions"))
        organism_of, gold_taxon = organism_evidence(captions, mentions, cell_lines, linkers[0][1].reference_set)
        taxon_of = linkers[0][1].reference_set.taxon_of
    results = evaluate_rankers(queries, ref.entities, rankers, search_text=search_text,
                               organism_of=organism_of, gold_taxon=gold_taxon, taxon_of=taxon_of)
    for name, t in setup.items():
        results["systems"][name]["setup_seconds"] = t
    results.update({
        "command": command, "kb": kb, "mentions": str(mentions), "reference": str(reference),
        "reference_names": len(ref), "reference_entities": len(ref.entities),
        "chebi_secondary": str(chebi_secondary) if chebi_secondary else None,
        "equivalences": str(equivalences) if equivalences else None,
        "splits": sorted({q.mention.split for q in queries}),
        "documents": documents, "entity_prior": entity_prior,
        "abbreviations": str(captions) if abbreviations else None,
        "long_form_rule": long_form if abbreviations or lexicons else None,
        "abbreviation_lexicons": abbreviation_lexicon or None,
        "organisms": str(captions) if organisms else None,
        "queries_per_second_unit": "distinct in-KB mention strings ranked per second (top-10)",
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count()},
        "paper_table3": PAPER_TABLE3.get(kb, {}),
    })
    output.mkdir(parents=True, exist_ok=True)
    if linkers and figure and kb == "uniprot":
        from training.evaluation.embedding_figure import make_figure

        results["table4"] = make_figure(linkers[0][1], output / "embedding_fig4.png")
    (output / "metrics.json").write_text(json.dumps(results, indent=2, ensure_ascii=False),
                                         encoding="utf8")
    write_markdown(results, output / "metrics.md")
    plot_hits(results, output / "hits_at_k.png")
    msg.good(f"Wrote {output}/metrics.json, metrics.md, hits_at_k.png")
    if headline is not None and headline_key:
        from training.common.headline import update_headline

        values = {}
        for spec in headline_key:
            key, _, target = spec.partition("=")
            system, _, organisms = target.partition("@")
            if system not in results["systems"]:
                msg.fail(f"--headline-key {spec}: no system {system!r} in this evaluation", exits=1)
            if organisms:
                by_organism = results["systems"][system].get("per_organism_hits@1", {})
                value = organisms_hits1(by_organism, organisms.split(","))
                if value is None:
                    msg.fail(f"--headline-key {spec}: no gold mention of {organisms} (run with --organisms)", exits=1)
                values[key] = round(value, 4)
            else:
                values[key] = round(results["systems"][system]["per_occurrence"]["hits@1"], 4)
        update_headline(headline, values, command)
        msg.info(f"headline {values} -> {headline}")


if __name__ == "__main__":
    app()
