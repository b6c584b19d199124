"""Evaluation 2: Bio-ID's missing synonyms. Does discovery find the entity of a mention the reference set lacks?

    python -m training.synonyms.evaluate_missing CONTEXTS... --pipeline /work/pipelines/full --kb uniprot \\
        --model training_output/synonyms/uniprot --mentions ../shared/data/bioid/mentions.tsv.gz \\
        --dev-stats corpus/ner/stats.json --out results/synonyms/missing_uniprot [--headline results/headline.json]

**Queries**: the gold (mention, ids) of the dev articles (`dev_articles` of the NER corpus's `stats.json`, split
into even and odd documents by `in_document_half`) whose ids are in the reference set and whose mention is a name
of none of them (by loose key): true missing synonyms. One query per distinct (mention, gold ids). **Evidence**:
only the other documents' text: every context from a dev article is dropped (the query's and the entities'),
so a query's contexts are those of the same string (by loose key) in the training captions and the unlabelled
sentences. **Systems**: `string_linker` (the linker's own ranking of the mention string: the string-only
linker), `discovery_string` (discovery's candidates in the linker's order: entities the mention already names
dropped), `discovery` (linker score + context_weight × context score, the weight chosen on the even documents'
Hits@1 from `--context-weight` values, confirmed on the odd ones). Hits@1 and Hits@5 for all queries and for those with a context outside the
dev articles; `--headline` writes `synonym_missing_hits1_gain` (discovery - string_linker, Hits@1, all queries,
both halves). Bio-ID gold is read here only, to score.
"""

import json
from dataclasses import replace
from pathlib import Path
from typing import Dict, FrozenSet, List, Optional, Set, Tuple

import typer
from wasabi import msg

from spacy_nseen.linker.kb_linker import load_linker
from spacy_nseen.synonyms.combination import ScoreCombiner
from spacy_nseen.synonyms.context_layer import load_synonymnet
from spacy_nseen.synonyms.contexts import MentionContext, MentionStats
from spacy_nseen.synonyms.discovery import SynonymScorer, entity_contexts
from spacy_nseen.synonyms.name_lookup import NameLookup
from spacy_nseen.text.normalization import loose_key
from training.common.bioid import gold_ids, in_document_half, read_mentions, read_secondary_map
from training.common.data_errors import run_cli
from training.common.headline import command_line, update_headline
from training.synonyms.make_pairs import read_all_contexts

KB_LABELS = {"uniprot": {"PROTEIN", "GENE"}, "chebi": {"CHEMICAL"}}
SYSTEMS = ("string_linker", "discovery_string", "discovery")


def article_number(article: str) -> Optional[int]:
    """RETURNS (Optional[int]): the number of an article id (`0140041` and `140041` are one article)."""
    digits = "".join(c for c in article if c.isdigit())
    return int(digits) if digits else None


def without_articles(stats: Dict[str, MentionStats], articles: Set[int]) -> Dict[str, MentionStats]:
    """RETURNS (Dict[str, MentionStats]): the stats with every context of these articles dropped."""
    out = {}
    for mention, item in stats.items():
        kept = [c for c in item.contexts if article_number(c.article) not in articles]
        out[mention] = replace(item, contexts=kept)
    return out


def missing_synonym_queries(
    mentions_path: Path, kb: str, dev_articles: Set[int], lookup: NameLookup, secondary: Optional[Dict[str, str]]
) -> List[Tuple[str, FrozenSet[str], str]]:
    """RETURNS (List[Tuple[str, FrozenSet[str], str]]): (mention, gold ids, half) of the dev articles' gold mentions
    that name none of their ids (ids in the reference set only), once per distinct (mention, gold ids)."""
    seen: Set[Tuple[str, FrozenSet[str]]] = set()
    out = []
    for m in read_mentions(mentions_path):
        number = article_number(m.pmc_id)
        if number not in dev_articles:
            continue
        gold = frozenset(g for g in gold_ids(m, kb, secondary) if g in lookup.names_by_entity)
        if not gold or any(lookup.names_entity(m.text, g) for g in gold) or (m.text, gold) in seen:
            continue
        seen.add((m.text, gold))
        out.append((m.text, gold, "even" if in_document_half(m.pmc_id, "even") else "odd"))
    return out


def pooled_contexts(stats: Dict[str, MentionStats]) -> Dict[str, List[MentionContext]]:
    """RETURNS (Dict[str, List[MentionContext]]): loose key -> the contexts of every string of that key."""
    out: Dict[str, List[MentionContext]] = {}
    for item in sorted(stats.values(), key=lambda item: -item.n_mentions):
        out.setdefault(loose_key(item.mention), []).extend(item.contexts)
    return out


def hits(ranked: List[List[str]], golds: List[FrozenSet[str]], k: int) -> float:
    """RETURNS (float): the share of queries with a gold id among the first k."""
    return sum(any(x in g for x in r[:k]) for r, g in zip(ranked, golds)) / len(golds) if golds else 0.0


def main(
    contexts: List[Path] = typer.Argument(..., help="contexts files (collect-contexts) of the corpus"),
    pipeline: Path = typer.Option(..., "--pipeline", help="The pipeline directory"),
    kb: str = typer.Option("uniprot", "--kb"),
    model: Path = typer.Option(..., "--model", help="The SynonymNet directory"),
    mentions: Path = typer.Option(..., "--mentions", help="Bio-ID mentions.tsv.gz"),
    dev_stats: Path = typer.Option(..., "--dev-stats", help="The NER corpus's stats.json (dev_articles)"),
    out: Path = typer.Option(..., "--out", help="Results directory"),
    secondary: Optional[Path] = typer.Option(None, "--secondary", help="secondary_id -> primary_id TSV (ChEBI)"),
    top_k: int = typer.Option(10, "--top-k"),
    weights: List[float] = typer.Option([0.0, 0.05, 0.1, 0.2, 0.3, 0.5, 1.0], "--context-weight",
                                        help="Context weights tried (chosen on the even documents)"),
    headline: Optional[Path] = typer.Option(None, "--headline"),
) -> None:
    """Hits@1/@5 of discovery against the string-only linker on the dev articles' missing synonyms."""
    command = command_line("training.synonyms.evaluate_missing")
    dev_articles = {n for n in (article_number(a) for a in json.loads(dev_stats.read_text())["dev_articles"]) if n is not None}
    linker = load_linker(pipeline / "nseen_linker" / f"kb_{kb}")
    lookup = NameLookup(linker.reference_set)
    queries = missing_synonym_queries(mentions, kb, dev_articles, lookup, read_secondary_map(secondary) if secondary else None)
    stats = without_articles(read_all_contexts(contexts), dev_articles)
    layer, extra = load_synonymnet(model)
    combiner = ScoreCombiner.from_json(extra["combination"])
    labels = KB_LABELS.get(kb)
    per_entity = int(layer.attrs["shape"]["max_contexts"])
    scorer = SynonymScorer(linker, lookup, layer, combiner, entity_contexts(stats, lookup, labels, 6, per_entity), top_k)
    by_key = pooled_contexts({m: s for m, s in stats.items() if labels is None or s.label in labels})
    texts = [q[0] for q in queries]
    linked = linker.link(texts, top_k=top_k)
    string_linker = [[c.kb_id for c in cands] for cands in linked]
    query_contexts = [by_key.get(loose_key(t), []) for t in texts]
    candidates = scorer.candidates(texts)
    scored = scorer.score(query_contexts, candidates)
    golds = [q[1] for q in queries]
    even = [i for i, q in enumerate(queries) if q[2] == "even"]
    sweep = []
    for weight in weights:
        scorer.context_weight = weight
        ranked_w = [[c.kb_id for c in cands] for cands in scorer.score(query_contexts, candidates)]
        sweep.append({"context_weight": weight, "even_hits@1": hits([ranked_w[i] for i in even], [golds[i] for i in even], 1)})
    chosen = max(sweep, key=lambda row: (row["even_hits@1"], -row["context_weight"]))["context_weight"]
    scorer.context_weight = chosen
    scored = scorer.score(query_contexts, candidates)
    discovery = [[c.kb_id for c in cands] for cands in scored]
    discovery_string = [[c.kb_id for c in cands] for cands in candidates]
    ranked = {"string_linker": string_linker, "discovery_string": discovery_string, "discovery": discovery}
    result: Dict[str, Dict[str, Dict[str, float]]] = {}
    for half in ("all", "even", "odd"):
        for subset in ("all", "with_context"):
            keep = [i for i, q in enumerate(queries) if (half == "all" or q[2] == half) and (subset == "all" or query_contexts[i])]
            result[f"{half}/{subset}"] = {
                name: {"hits@1": hits([r[i] for i in keep], [golds[i] for i in keep], 1),
                       "hits@5": hits([r[i] for i in keep], [golds[i] for i in keep], 5), "queries": len(keep)}
                for name, r in ranked.items()
            }
    examples = []
    for i, q in enumerate(queries):
        if discovery[i][:1] and discovery[i][0] in q[1] and not (string_linker[i][:1] and string_linker[i][0] in q[1]):
            examples.append({"mention": q[0], "gold": sorted(q[1]), "string_linker_top": string_linker[i][:1],
                             "discovery_top": discovery[i][:1], "contexts": len(query_contexts[i])})
    out.mkdir(parents=True, exist_ok=True)
    (out / "metrics.json").write_text(json.dumps({"command": command, "context_weight": chosen, "sweep": sweep, "result": result,
                                                  "fixed_by_context": examples[:30]}, indent=2, ensure_ascii=False), encoding="utf8")
    lines = [f"# Bio-ID missing synonyms of the dev articles ({kb})", "", f"Command: `{command}`", "",
             f"context_weight {chosen} chosen on the even documents' Hits@1 (sweep: "
             + ", ".join(f"{row['context_weight']}: {row['even_hits@1']:.4f}" for row in sweep) + "); odd documents confirm.", "",
             "| documents / queries | system | Hits@1 | Hits@5 | queries |", "|---|---|---|---|---|"]
    for key, systems in result.items():
        for name, m in systems.items():
            lines.append(f"| {key} | {name} | {m['hits@1']:.4f} | {m['hits@5']:.4f} | {m['queries']} |")
    (out / "metrics.md").write_text("\n".join(lines) + "\n", encoding="utf8")
    gain = result["all/all"]["discovery"]["hits@1"] - result["all/all"]["string_linker"]["hits@1"]
    for name in SYSTEMS:
        m = result["all/all"][name]
        msg.text(f"{name}: Hits@1 {m['hits@1']:.4f}  Hits@5 {m['hits@5']:.4f} ({m['queries']} queries)")
    msg.good(f"discovery - string linker Hits@1: {gain:+.4f} -> {out}")
    if headline is not None:
        update_headline(headline, {"synonym_missing_hits1_gain": round(gain, 4)}, command)


if __name__ == "__main__":
    run_cli(main)
