"""The targets of issue 6, checked against `training.benchmark.benchmark` results, and the Markdown report."""
from pathlib import Path
from typing import Any, Dict, List

from wasabi import msg

from training.benchmark.benchmark_articles import articles_markdown

# (name, what is measured, comparison, threshold)
TARGETS = (
    ("stream", "linking, Bio-ID stream (mentions/s)", ">=", 20000.0),
    ("uncached", "linking, uncached distinct mentions (mentions/s)", ">=", 2000.0),
    ("overhead", "time the linker adds to the pipeline", "<=", 0.5),
    ("load", "warm spacy.load (s)", "<=", 1.0),
    ("rss", "peak RSS, both reference sets (MB)", "<=", 500.0),
    ("build", "index build per reference set (s)", "<=", 60.0),
    ("hits", "Hits@1 lost to a default-on speed option", "<=", 0.005),
)
# Default-on speed options → the `options` row that has the option switched off.
OPTION_OFF = {
    "Annoy instead of exact search": "exact_search",
    "search_k": "search_k=-1",
    "sparse_max_df": "sparse_max_df=1.0",
    "exact_short_cut": "exact_short_cut=False",
    "precision": "precision=fp32",
}


def options_on(configured: Dict[str, Any]) -> List[str]:
    """RETURNS (List[str]): the speed options (keys of OPTION_OFF) that the configured linker uses."""
    settings = configured.get("settings", {})
    on = ["Annoy instead of exact search"]
    on += ["search_k"] if configured.get("search_k", -1) != -1 else []
    on += ["sparse_max_df"] if settings.get("sparse_max_df", 1.0) < 1.0 else []
    on += ["exact_short_cut"] if settings.get("exact_short_cut") else []
    on += ["precision"] if configured.get("precision", "fp32") != "fp32" else []
    return on


def option_losses(options: Dict[str, Any]) -> Dict[str, float]:
    """RETURNS (Dict[str, float]): for each speed option on by default, Hits@1 with the option switched
    off minus Hits@1 as configured."""
    configured = options["configured"]
    return {name: round(options[OPTION_OFF[name]]["hits@1"] - configured["hits@1"], 4)
            for name in options_on(configured) if OPTION_OFF[name] in options}


def _check(comparison: str, value: float, threshold: float) -> bool:
    return value >= threshold if comparison == ">=" else value <= threshold


def check_targets(results: Dict[str, Any]) -> List[Dict[str, Any]]:
    """RETURNS (List[Dict[str, Any]]): per target: value, met, and the miss as a ratio of the target."""
    values: Dict[str, List] = {}
    linking = results.get("linking", {})
    cpu_notes: Dict[str, str] = {}
    if linking:
        values["stream"] = [("", linking["stream"]["mentions_per_s"])]
        values["uncached"] = [("", linking["uncached"]["all"]["mentions_per_s"])]
        for key, part in (("stream", linking["stream"]), ("uncached", linking["uncached"]["all"])):
            if "mentions_per_cpu_s" in part:
                cpu_notes[key] = f"; {part['mentions_per_cpu_s']} per CPU-second"
    if "pipeline" in results:
        values["overhead"] = [("", results["pipeline"]["linker_overhead"])]
        if "linker_overhead_cpu" in results["pipeline"]:
            cpu_notes["overhead"] = f"; in CPU time {results['pipeline']['linker_overhead_cpu']:.3f}"
    if "load_memory" in results:
        values["load"] = [("", results["load_memory"]["warm_load_seconds"])]
        values["rss"] = [("", results["load_memory"]["peak_rss_mb"])]
    values["build"] = [(kb, b["seconds"]) for kb, b in results.get("index_build", {}).items()]
    values["hits"] = [(f"{kb}: {name}", loss) for kb, options in results.get("options", {}).items()
                      for name, loss in option_losses(options).items()]
    for kb, reference in results.get("index_build_fp32", {}).items():
        built = results.get("index_build", {}).get(kb, {})
        if (reference.get("rebuilt_hits") or {}).get("hits@1") is not None and (built.get("rebuilt_hits") or {}).get("hits@1") is not None:
            loss = round(reference["rebuilt_hits"]["hits@1"] - built["rebuilt_hits"]["hits@1"], 4)
            values["hits"].append((f"{kb}: build_precision {built.get('build_precision')} (names encoded)", loss))
    rows = []
    for key, label, comparison, threshold in TARGETS:
        for detail, value in values.get(key, []):
            met = _check(comparison, value, threshold)
            miss = "" if met else f"missed by {abs(value - threshold):.4g} ({abs(value - threshold) / threshold:.0%})"
            rows.append({"key": key, "target": f"{label}{' [' + detail + ']' if detail else ''} {comparison} {threshold:g}",
                         "value": value, "met": met, "note": (miss or "met") + cpu_notes.get(key, "")})
    return rows


def _table(header: List[str], rows: List[List[Any]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def write_markdown(results: Dict[str, Any], path: Path) -> None:
    """Write the report: the command, the targets, and every measurement."""
    parts = [f"# Benchmark ({results.get('date', '')})", "", "Produced by:", "", "```", results["command"], "```", "",
             f"Machine: {results['machine']}", "",
             f"Load average (1, 5, 15 min) at the start: {results.get('load_average_at_start')}, at the end: "
             f"{results.get('load_average_at_end')} (other work on the machine slows every figure alike).", ""]
    parts += ["## Targets", "", _table(["target", "value", "met"], [[r["target"], r["value"], r["note"]] for r in results["targets"]]), ""]
    linking = results.get("linking")
    if linking:
        rows = [[kb, v["mentions"], v["mentions_per_s"], v["dictionary_mentions_per_s"]] for kb, v in linking["uncached"].items()]
        stream = linking["stream"]
        rows.append(["stream (all, document order)", stream["mentions"], stream["mentions_per_s"], stream["dictionary_mentions_per_s"]])
        parts += ["## Linking throughput", "", _table(["mentions", "count", "nseen mentions/s", "exact dictionary mentions/s"], rows), ""]
    if "pipeline" in results:
        pipe = results["pipeline"]
        rows = [[name, v["docs_per_s"], v["words_per_s"], v["seconds"]] for name, v in pipe.items() if isinstance(v, dict)]
        parts += ["## Pipeline", "", f"Pipeline: {pipe['name']} ({', '.join(pipe['components'])}); {pipe['docs']} captions; "
                  f"the linker adds {pipe['linker_overhead']:.0%} to the time without it.", "",
                  _table(["run", "docs/s", "words/s", "seconds"], rows), ""]
    if "load_memory" in results:
        lm = results["load_memory"]
        parts += ["## Load time and memory (fresh processes)", "",
                  _table(["measure", "value"], [
                      ["cold spacy.load (s)" + ("" if lm["cold_after_dropping_page_cache"] else ", page cache not dropped"), lm["cold"]["load_seconds"]],
                      ["cold import of spacy + spacy_nseen (s)", lm["cold"]["import_seconds"]],
                      ["warm spacy.load (s)", lm["warm_load_seconds"]], ["warm spacy.load without the linker (s)", lm["warm_load_seconds_without_linker"]],
                      ["warm import (s)", lm["warm_import_seconds"]],
                      ["after load (MB)", lm["after_load"]], ["after load, without linker (MB)", lm["after_load_without_linker"]],
                      ["after linking every caption (MB)", lm["after_run"]], ["same, without linker (MB)", lm["after_run_without_linker"]],
                      *[[f"two processes side by side, process {i + 1}, after linking every caption (MB)", reading]
                        for i, reading in enumerate(lm.get("two_processes_after_run", []))],
                  ]), "",
                  "Every probe is a fresh process; the benchmark process no longer maps the pipeline's files"
                  + (" (it did: PSS figures are shared with it)" if lm.get("parent_maps_pipeline_files") else "")
                  + ". File-backed pages (`RssFile`) are the memory-mapped indexes the searches touched; processes that map the "
                  "same pipeline share them, so each one's proportional set size (`Pss`) counts a shared page by half when two "
                  "run side by side.", ""]
    if "index_build" in results:
        rows = [[kb, b["names"], b["n_trees"], b.get("build_precision", ""), b["seconds"], b["parts_seconds"], b.get("build_parts_seconds", {}),
                 b.get("rebuilt_size_mb", b["size_mb"]), b.get("rebuilt_files_mb", b["files_mb"]), (b.get("rebuilt_hits") or {}).get("hits@1", "")]
                for kb, b in results["index_build"].items()]
        parts += ["## Index build", "",
                  "`KnowledgeBaseLinker.build` (what `training.linker.build_linker` and `nseen_linker.initialize` run) from the encoder and "
                  "reference set; the sparse indexes and keys are fitted in a second thread while the names are encoded and indexed, "
                  "so the parts overlap. Sizes are of the rebuilt directory; Hits@1 is the rebuilt linker's.", "",
                  _table(["set", "names", "n_trees", "name precision", "seconds", "parts (s)", "inside build (s)", "size (MB)", "files (MB)", "Hits@1"], rows), ""]
    if "index_build_fp32" in results:
        rows = [[kb, b.get("build_precision"), b["seconds"], (b.get("rebuilt_hits") or {}).get("hits@1"),
                 (b.get("rebuilt_hits") or {}).get("dense_hits@1")]
                for source in ("index_build", "index_build_fp32") for kb, b in results.get(source, {}).items()]
        parts += ["### Build precision of the reference names", "",
                  _table(["set", "names encoded in", "build seconds", "Hits@1 (hybrid, configured settings)", "Hits@1 (dense mode)"], rows), ""]
    for kb, annoy in results.get("annoy", {}).items():
        rows = [[k, v["recall@10"], v["queries_per_s"]] for k, v in annoy.items() if isinstance(v, dict) and "recall@10" in v]
        builds = [[k, v["build_seconds"], v["size_mb"]] for k, v in annoy.items() if isinstance(v, dict) and "size_mb" in v]
        parts += [f"## Annoy recall@10 vs exact search: {kb} ({annoy['n_trees']} trees, {annoy['queries']} queries)", "",
                  _table(["index, search_k", "recall@10", "queries/s"], rows), ""]
        if builds:
            parts += ["Rebuilt indexes:", "", _table(["index", "build seconds", "size (MB)"], builds), ""]
    for kb, options in results.get("options", {}).items():
        rows = [[name, v["hits@1"], v["hits@10"], v["mentions_per_s"]] for name, v in options.items()]
        parts += [f"## Options: {kb} (Hits@1 per occurrence, in-KB Bio-ID queries; one option changed at a time)", "",
                  f"Configured: {options['configured'].get('settings')}, search_k {options['configured'].get('search_k')}, "
                  f"precision {options['configured'].get('precision')}", "",
                  _table(["run", "Hits@1", "Hits@10", "uncached mentions/s"], rows), ""]
    for kb, enc in results.get("encoder", {}).items():
        rows = [[what, *[v.get(p) for p in ("fp32", "bf16", "int8")]] for what, v in enc.items()]
        parts += [f"## Encoder throughput: {kb} (names/s)", "", _table(["strings", "fp32", "bf16", "int8"], rows), ""]
    if "articles" in results:
        parts += articles_markdown(results["articles"])
    path.write_text("\n".join(parts) + "\n", encoding="utf8")


def print_targets(results: Dict[str, Any]) -> None:
    """Print the targets as a wasabi table."""
    msg.table([[r["target"], r["value"], r["note"]] for r in results["targets"]], header=("target", "value", "result"), divider=True)
