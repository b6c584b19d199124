"""Markdown table and Hits@k chart for `training.evaluation.evaluate` results."""
from pathlib import Path
from typing import Any, Dict, List

from training.evaluation import frequent_mentions, miss_causes
from training.evaluation.tables import markdown_row

# Table 3 of Fazeli Fard et al. (NSEEN): H@1, H@3, H@5, H@10.
PAPER_TABLE3: Dict[str, Dict[str, Dict[str, List[float]]]] = {
    "uniprot": {
        "BioC1": {"DeepMatcher": [0.697, 0.728, 0.739, 0.744], "BioBERT": [0.729, 0.761, 0.779, 0.808],
                  "USC-ISI": [0.814, 0.864, 0.875, 0.885], "NSEEN": [0.833, 0.869, 0.886, 0.894]},
        "BioC2": {"DeepMatcher": [0.767, 0.792, 0.803, 0.814], "BioBERT": [0.801, 0.827, 0.827, 0.840],
                  "USC-ISI": [0.841, 0.888, 0.904, 0.919], "NSEEN": [0.861, 0.888, 0.904, 0.930]},
    },
    "chebi": {
        "BioC1": {"DeepMatcher": [0.288, 0.363, 0.397, 0.419], "BioBERT": [0.360, 0.473, 0.499, 0.524],
                  "USC-ISI": [0.418, 0.451, 0.460, 0.468], "NSEEN": [0.505, 0.537, 0.554, 0.574]},
        "BioC2": {"DeepMatcher": [0.373, 0.463, 0.491, 0.517], "BioBERT": [0.422, 0.558, 0.577, 0.596],
                  "USC-ISI": [0.444, 0.472, 0.480, 0.491], "NSEEN": [0.578, 0.608, 0.624, 0.641]},
    },
}
KS = (1, 3, 5, 10)


def markdown(results: Dict[str, Any]) -> str:
    """RETURNS (str): The results (both counting units) and the paper's Table 3 as Markdown."""
    c = results["counts"]
    half = results.get("documents", "all")
    title = f"{', '.join(results.get('splits', []))}" + ("" if half == "all" else f", {half}-numbered documents")
    lines = [f"# Hits@k on Bio-ID, {results['kb']} ({title})", "",
             f"Command: `{results['command']}`", "",
             f"Reference: `{results['reference']}` ({results['reference_names']} names, "
             f"{results['reference_entities']} entities). Queries: {c['queries']} mentions with "
             f"an id of this KB; in-KB {c['in_kb']}, out-of-KB {c['out_of_kb']} (not scored). "
             f"Unique (mention text, gold ids) pairs: {c['unique_pairs']}; in-KB "
             f"{c['unique_pairs_in_kb']}, out-of-KB {c['unique_pairs_out_of_kb']}. "
             f"Distinct in-KB strings ranked: {c['unique_strings_in_kb']}.", ""]
    if results.get("abbreviations"):
        rule = {"always": "always", "linker": "unless the mention is a reference name and the long form is not (the "
                "component's rule)"}.get(results.get("long_form_rule") or "always", results.get("long_form_rule"))
        lines += [f"Abbreviations defined in the article's captions (`{results['abbreviations']}`) are searched "
                  f"by their long form, {rule}: {c['searched_as_long_form']} of the in-KB occurrences, every system. "
                  f"The unique unit is the (mention text, searched string, gold ids) triple: "
                  f"{c['unique_triples_in_kb']} in-KB triples.", ""]
    if results.get("organisms"):
        lines += [f"Organisms: each occurrence's organism is assigned from its caption, its figure's other panels and its article "
                  f"(`{results['organisms']}`) and given to the nseen systems (per occurrence; the unique-pair "
                  f"unit ranks each string without it).", ""]
    header = ["system"] + [f"H@{k}" for k in KS]
    for unit, title in (("per_occurrence", "Per mention occurrence"),
                        ("per_unique_pair", "Per unique (mention text, gold ids) pair")):
        lines += [f"## {title}", "", markdown_row(header + ["queries/s"]),
                  markdown_row(["---"] * (len(header) + 1))]
        for name, r in results["systems"].items():
            lines.append(markdown_row([name] + [f"{r[unit][f'hits@{k}']:.3f}" for k in KS]
                              + [str(r["queries_per_second"])]))
        lines.append("")
    lines += ["queries/s = " + results.get("queries_per_second_unit", "") + "; one core.", ""]
    with_organisms = {n: r["per_organism_hits@1"] for n, r in results["systems"].items() if r.get("per_organism_hits@1")}
    if with_organisms:
        labels = sorted({label for groups in with_organisms.values() for label in groups})
        lines += ["## Hits@1 per occurrence by the gold id's organism", "",
                  markdown_row(["system"] + [f"{label} ({next(iter(with_organisms.values())).get(label, {}).get('queries', 0)})" for label in labels]),
                  markdown_row(["---"] * (len(labels) + 1))]
        for name, groups in with_organisms.items():
            lines.append(markdown_row([name] + [f"{groups[label]['hits@1']:.3f}" if label in groups else "" for label in labels]))
        lines.append("")
    for name, r in results["systems"].items():
        if r.get("miss_causes"):
            lines += miss_causes.markdown(name, r["miss_causes"])
    lines += frequent_mentions.markdown(results["systems"])
    paper = results.get("paper_table3") or {}
    if paper:
        lines += ["## The paper's Table 3 (for comparison; their query counting is unspecified)",
                  "", markdown_row(["dataset", "method"] + header[1:]), markdown_row(["---"] * (len(header) + 1))]
        for ds, rows in paper.items():
            for method, vals in rows.items():
                lines.append(markdown_row([ds, method] + [f"{v:.3f}" for v in vals]))
        lines.append("")
    if results.get("table4"):
        lines += ["## Table 4: top-10 names for the paper's example queries", ""]
        for query, cands in results["table4"].items():
            shown = ", ".join(("**" + c["name"] + "**") if c["correct"] else c["name"]
                              for c in cands)
            lines.append(f"- {query}: {shown}")
        lines.append("")
    return "\n".join(lines)


def write_markdown(results: Dict[str, Any], path: Path) -> None:
    """Write `markdown(results)` to a file."""
    Path(path).write_text(markdown(results), encoding="utf8")


def plot_hits(results: Dict[str, Any], path: Path) -> None:
    """Line chart of Hits@k per system (both counting units) plus the paper's BioC1 rows."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2), sharey=True)
    paper = (results.get("paper_table3") or {}).get("BioC1", {})
    for ax, unit in zip(axes, ("per_occurrence", "per_unique_pair")):
        for name, r in results["systems"].items():
            ax.plot(KS, [r[unit][f"hits@{k}"] for k in KS], marker="o", label=name)
        for method, vals in paper.items():
            ax.plot(KS, vals, linestyle="--", alpha=0.6, label=f"paper {method} (BioC1)")
        ax.set_xticks(KS)
        ax.set_xlabel("k")
        ax.set_title(unit.replace("_", " "))
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("Hits@k (in-KB queries)")
    axes[1].legend(fontsize=7, loc="lower right")
    fig.suptitle(f"Bio-ID → {results['kb']}")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
