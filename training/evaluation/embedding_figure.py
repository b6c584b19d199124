"""The paper's Fig. 4 (2-D map of the embedding) and Table 4 (top-10 lists).

python -m training.evaluation.embedding_figure --linker training/linker_uniprot --output results/fig4
"""
import json
from pathlib import Path
from typing import Any, Dict, List, Optional

import numpy as np
import typer
from wasabi import msg

# The paper's example queries and their correct UniProt entries (Bio-ID gold for S6K).
EXAMPLES: Dict[str, List[str]] = {
    "S6K": ["UniProt:P23443", "UniProt:Q96S38", "UniProt:Q15418"],
    "PLCγ2": ["UniProt:P16885"],
    "IKKε": ["UniProt:Q14164"],
    "H3": ["UniProt:P68431"],
}
app = typer.Typer(add_completion=False)


def name_kb_ids(reference_set: Any) -> List[str]:
    """RETURNS (List[str]): The kb_id of every reference name (row order)."""
    names = list(reference_set.names)
    kb_ids = list(reference_set.kb_ids)
    if len(kb_ids) == len(names) and not hasattr(reference_set, "name_entity"):
        return kb_ids
    return [kb_ids[int(i)] for i in np.asarray(reference_set.name_entity)]


def project_2d(vectors: np.ndarray, method: str = "tsne", seed: int = 0) -> np.ndarray:
    """Project row vectors to 2-D with t-SNE (sklearn) or PCA (numpy SVD).

    RETURNS (np.ndarray): Shape (n, 2).
    """
    if method == "tsne":
        try:
            from sklearn.manifold import TSNE

            perplexity = float(min(30, max(2, (len(vectors) - 1) // 3)))
            return TSNE(n_components=2, init="pca", perplexity=perplexity, random_state=seed,
                        metric="cosine").fit_transform(vectors)
        except ImportError:
            msg.warn("scikit-learn not installed: using PCA instead of t-SNE")
    centred = vectors - vectors.mean(axis=0, keepdims=True)
    _, _, vt = np.linalg.svd(centred, full_matrices=False)
    return centred @ vt[:2].T


def top10_table(linker: Any, examples: Dict[str, List[str]], k: int = 10
                ) -> Dict[str, List[Dict[str, Any]]]:
    """Table 4: the linker's top-k (dense, pure embedding) answers per example query.

    RETURNS (Dict[str, List[Dict[str, Any]]]): Per query, dicts with kb_id, name, score, correct.
    """
    queries = list(examples)
    ranked = linker.link(queries, top_k=k, mode="dense")
    return {q: [{"kb_id": c.kb_id, "name": c.name, "score": round(float(c.score), 4),
                 "correct": c.kb_id in set(examples[q])} for c in cands]
            for q, cands in zip(queries, ranked)}


def make_figure(linker: Any, path: Path, examples: Optional[Dict[str, List[str]]] = None,
                n_sample: int = 1000, method: str = "tsne", seed: int = 0
                ) -> Dict[str, List[Dict[str, Any]]]:
    """Draw Fig. 4 to `path` (PNG) and return Table 4.

    linker: Has `.encode(strings) -> np.ndarray`, `.reference_set` and `.link`.
    examples (Optional[Dict[str, List[str]]]): Query -> correct kb_ids (default: EXAMPLES).
    n_sample (int): Number of random reference names drawn as grey background.
    RETURNS (Dict[str, List[Dict[str, Any]]]): The top-10 lists (see top10_table).
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    examples = EXAMPLES if examples is None else examples
    names = list(linker.reference_set.names)
    kb_ids = name_kb_ids(linker.reference_set)
    rng = np.random.default_rng(seed)
    sample = rng.choice(len(names), size=min(n_sample, len(names)), replace=False).tolist()
    queries = list(examples)
    gold_rows = {q: [i for i, e in enumerate(kb_ids) if e in set(examples[q])] for q in queries}
    rows = list(dict.fromkeys(sample + [i for q in queries for i in gold_rows[q]]))
    strings = [names[i] for i in rows] + queries
    xy = project_2d(np.asarray(linker.encode(strings), dtype=np.float32), method, seed)
    pos = {r: xy[j] for j, r in enumerate(rows)}
    q_xy = xy[len(rows):]
    fig = plt.figure(figsize=(13, 7))
    grid = fig.add_gridspec(2, 4)
    main = fig.add_subplot(grid[:, :2])
    insets = [fig.add_subplot(grid[i // 2, 2 + i % 2]) for i in range(len(queries[:4]))]
    for ax in [main] + insets:
        ax.scatter(xy[:len(rows), 0], xy[:len(rows), 1], s=4, c="lightgrey")
    for qi, q in enumerate(queries):
        g = np.array([pos[r] for r in gold_rows[q]]).reshape(-1, 2)
        for ax in (main, insets[qi] if qi < len(insets) else main):
            ax.scatter(g[:, 0], g[:, 1], s=14, c="tab:blue")
            ax.scatter(*q_xy[qi], marker="^", s=80, c="red")
        main.annotate(q, q_xy[qi], fontsize=9, color="red")
        if qi < len(insets):
            ax = insets[qi]
            pts = np.vstack([g, q_xy[qi][None]])
            lo, hi = pts.min(axis=0), pts.max(axis=0)
            pad = np.maximum((hi - lo) * 0.3, 1e-3 + 0.05 * np.ptp(xy, axis=0))
            ax.set_xlim(lo[0] - pad[0], hi[0] + pad[0])
            ax.set_ylim(lo[1] - pad[1], hi[1] + pad[1])
            for r in gold_rows[q][:12]:
                ax.annotate(names[r], pos[r], fontsize=6, color="tab:blue")
            ax.set_title(f"{q} (zoom)", fontsize=9)
            ax.set_xticks([])
            ax.set_yticks([])
    main.set_title(f"{method.upper()} of the embedding: queries (red), correct names (blue), "
                   f"{len(sample)} reference names (grey)", fontsize=9)
    main.set_xticks([])
    main.set_yticks([])
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return top10_table(linker, examples)


@app.command()
def main(
    linker_dir: Path = typer.Option(..., "--linker", help="Trained UniProt linker directory"),
    output: Path = typer.Option(..., "--output", help="Output directory"),
    method: str = typer.Option("tsne", "--method", help="tsne or pca"),
    n_sample: int = typer.Option(1000, "--sample", help="Background reference names"),
) -> None:
    """Write embedding_fig4.png and table4.json for the paper's four example queries."""
    from spacy_nseen.linker.kb_linker import KnowledgeBaseLinker

    linker = KnowledgeBaseLinker.from_disk(linker_dir)
    output.mkdir(parents=True, exist_ok=True)
    table = make_figure(linker, output / "embedding_fig4.png", n_sample=n_sample, method=method)
    (output / "table4.json").write_text(json.dumps(table, indent=2, ensure_ascii=False),
                                        encoding="utf8")
    msg.good(f"Wrote {output}/embedding_fig4.png and table4.json")


if __name__ == "__main__":
    app()
