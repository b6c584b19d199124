"""Save a loaded pipeline and keep using it; copy it through disk, bytes and pickle; compare every output.

Run as a script (`python round_trip_check.py PIPELINE REPORT.json [--n-process 2]`) by `test_round_trips.py`, so
that a segfault (issue 51: Annoy's save() unmapped the memory the vector view pointed into) is a failed test,
not a dead test run. Every copy replays the same texts in the same order from a cold cache, so the linker encodes
the same mention batches and its scores are compared exactly. Each doc is reduced to its entities: offsets,
label, `kb_id_`, and every `nseen_linker` span extension (id, probability, candidates with their scores,
organism, evidence, cross-references), plus `doc._.organisms`.
"""
import argparse
import gc
import importlib
import json
import multiprocessing
import pickle
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any, Dict, List, Sequence

import spacy
from spacy.language import Language
from spacy.tokens import Doc

WARM_UP = "LC3 and p62 in HeLa cells."
TEXTS = [
    "Trp53 and Cdc42 were knocked down in NIH 3T3 cells",
    "Flag-tagged E2F7 and HA-E2F8 were immunoprecipitated.",
    "(C) HeLa cells expressing GFP‐LC3 were treated with rapamycin and immunoblotted with anti‐p62. "
    "PLCγ2 and IKKε were inhibited by ibuprofen.",
    "Trp53 knockout MEFs were stained for Flag-tagged Cdc42 and GFP.",
    "Atg5−/− MEFs were starved in EBSS with bafilomycin A1, and LC3-II, SQSTM1 and ULK1 were immunoblotted.",
    "MCF 7 cells were treated with tamoxifen; ERα and PGR mRNA were measured by qPCR.",
]
# linked after the pipeline was saved over the directory it was loaded from
MORE = [
    "Knockdown of Becn1 in Drosophila S2 cells reduced Atg8a puncta; wortmannin and 3-MA blocked it.",
    "Phospho-ERK1/2, total AKT and mTOR were detected in A549 lysates after EGF stimulation.",
]


def plain(value: Any) -> Any:
    """RETURNS (Any): `value` as JSON types (tuples as lists, numpy scalars as Python numbers), floats unrounded."""
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if isinstance(value, (list, tuple, set, frozenset)):
        items = [plain(v) for v in value]
        return sorted(items, key=json.dumps) if isinstance(value, (set, frozenset)) else items
    if hasattr(value, "item") and callable(value.item):
        return value.item()
    return value


def doc_output(doc: Doc) -> Dict[str, Any]:
    """RETURNS (Dict[str, Any]): what a user reads from a doc: its entities with every linking attribute."""
    ents: List[Any] = []
    for ent in doc.ents:
        extensions = {name: plain(getattr(ent._, name)) for name in ("kb_id", "kb_score", "kb_candidates", "kb_taxon",
                                                                      "kb_taxon_evidence", "kb_xrefs", "kb_searched")
                      if ent.has_extension(name)}
        ents.append([ent.start_char, ent.end_char, ent.label_, ent.kb_id_, extensions])
    organisms = plain(doc._.organisms) if doc.has_extension("organisms") else None
    return {"text": doc.text, "ents": ents, "organisms": organisms}


def run(nlp: Language, texts: Sequence[str]) -> List[Dict[str, Any]]:
    return [doc_output(nlp(text)) for text in texts]


def differences(name: str, got: List[Dict[str, Any]], expected: List[Dict[str, Any]], tolerance: float = 0.0) -> List[str]:
    """RETURNS (List[str]): one line per doc whose output differs (scores within `tolerance` count as equal)."""
    out = []
    for got_doc, want_doc in zip(got, expected):
        if not same(got_doc, want_doc, tolerance):
            out.append(f"{name}: {want_doc['text'][:40]!r}: {json.dumps(got_doc['ents'])[:300]} != "
                       f"{json.dumps(want_doc['ents'])[:300]}")
    if len(got) != len(expected):
        out.append(f"{name}: {len(got)} docs, expected {len(expected)}")
    return out


def same(a: Any, b: Any, tolerance: float) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        return abs(a - b) <= tolerance
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y, tolerance) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k], tolerance) for k in a)
    return a == b


def check(source: Path, n_process: int) -> Dict[str, Any]:
    """Run every round trip over the pipeline at `source`; RETURNS (Dict[str, Any]): the report."""
    report: Dict[str, Any] = {"pipeline": str(source), "texts": len(TEXTS) + len(MORE) + 1, "checks": {}}
    texts = [WARM_UP] + TEXTS + MORE
    first, after = 1, 1 + len(TEXTS)  # the warm-up, the texts linked after saving, those after saving again

    def record(name: str, got: List[Dict[str, Any]], tolerance: float = 0.0) -> None:
        report["checks"][name] = differences(name, got, reference, tolerance)

    reference = run(spacy.load(source), texts)
    report["n_ents"] = sum(len(doc["ents"]) for doc in reference)
    report["n_linked"] = sum(1 for doc in reference for ent in doc["ents"] if ent[3])
    report["reference"] = reference

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        shutil.copytree(source, root / "own")
        # 1. save a loaded pipeline (to disk and to bytes), keep using it: the mentions after it are not cached;
        # then save it over the directory it was loaded from and keep using it
        nlp = spacy.load(root / "own")
        kept = run(nlp, texts[:first])
        nlp.to_disk(root / "copy")
        data = nlp.to_bytes()
        kept += run(nlp, texts[first:after])
        nlp.to_disk(root / "own")
        kept += run(nlp, texts[after:])
        record("saved (to_disk, to_bytes, over its own directory), kept in use", kept)
        record("loaded from the directory it was saved over", run(spacy.load(root / "own"), texts))
        # 2. the saved copy, loaded, its directory deleted after the first text, then used
        from_disk = spacy.load(root / "copy")
        from_disk_first = run(from_disk, texts[:first])
        shutil.rmtree(root / "copy")
        record("spacy.load of the copy, directory deleted", from_disk_first + run(from_disk, texts[first:]))
        # 3. from bytes into the config's blank pipeline, the original pipeline deleted
        from_bytes = spacy.util.load_model_from_config(nlp.config, auto_fill=False)
        from_bytes.from_bytes(data)
        del nlp, data
        gc.collect()
        record("from_bytes of to_bytes, source deleted", run(from_bytes, texts))
        # 4. a pickled copy (what multiprocessing with spawn, Dask and Ray do) of the pipeline loaded from bytes
        unpickled = pickle.loads(pickle.dumps(from_bytes))
        record("pickled and unpickled", run(unpickled, texts))
        # 5. the copy of the copy saved to disk and loaded back
        unpickled.to_disk(root / "again")
        record("pickled copy saved and loaded", run(spacy.load(root / "again"), texts))
    if n_process > 1:
        # 7. spaCy's multiprocessing with spawn: each process links its own batches with its own cache, so
        # mentions are encoded in other batches than in one process: scores may differ in the last float bits.
        multiprocessing.set_start_method("spawn", force=True)
        docs = list(spacy.load(source).pipe(texts, n_process=n_process, batch_size=2))
        record(f"n_process={n_process} (spawn)", [doc_output(doc) for doc in docs], tolerance=1e-5)
    report["ok"] = not any(report["checks"].values())
    return report


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pipeline", type=Path)
    parser.add_argument("report", type=Path)
    parser.add_argument("--n-process", type=int, default=1)
    parser.add_argument("--import", dest="modules", action="append", default=[],
                        help="a module to import first (one that registers the pipeline's own components)")
    args = parser.parse_args(argv)
    for module in args.modules:
        importlib.import_module(module)
    report = check(args.pipeline, args.n_process)
    args.report.write_text(json.dumps(report, indent=1, ensure_ascii=False), encoding="utf8")
    for name, lines in report["checks"].items():
        print(f"{'ok  ' if not lines else 'DIFF'} {name}", *lines, sep="\n    ")
    return 0 if report["ok"] else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
