"""Compare the sparse indexes of a real linker in the old format (float32 weights, dict vocabularies; the code of
a given git commit) with the compact format (this worktree): equality of every transform/search/score output,
file sizes, RSS after loading + scoring, and search+score time per 1,000 mentions.

Each implementation runs in its own process, importing only the sparse modules (a minimal copy of the package),
so RSS compares like with like:

    python scripts/compare_sparse_formats.py prepare --old-commit d99fbd5
    python scripts/compare_sparse_formats.py build chebi      # refit the new files into the work directory
    python scripts/compare_sparse_formats.py run chebi old    # results + RSS + times of each implementation
    python scripts/compare_sparse_formats.py run chebi new
    python scripts/compare_sparse_formats.py compare chebi
    python scripts/compare_sparse_formats.py full chebi       # whole matrices, postings and vocabularies
"""
import csv
import gzip
import importlib
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Dict, List, Tuple

import numpy

REPO = Path(__file__).resolve().parents[1]
WORK = Path("/tmp/sparse_cmp")
LINKERS = Path("/work/main/training_output/linkers")
MENTIONS = Path("/work/shared/data/bioid/mentions.tsv.gz")
MODULES = ("array_io", "errors", "greek_letters", "sparse_cosine", "ngram_tfidf", "token_index", "tf_matrix", "term_vocab")
N_MENTIONS = 2000
N_TRANSFORM = 20000
MAX_DF = 0.01  # the linkers' sparse_max_df
K = 50  # the linkers' n_candidates
REPEATS = 7  # timed passes after the first


def prepare(old_commit: str) -> None:
    """Minimal packages `old_sparse` (the commit's modules) and `new_sparse` (this worktree's)."""
    for name, source in (("old_sparse", old_commit), ("new_sparse", None)):
        pkg = WORK / "pkgs" / name
        shutil.rmtree(pkg, ignore_errors=True)
        pkg.mkdir(parents=True)
        (pkg / "__init__.py").write_text("")
        for module in MODULES:
            if source is None:
                if (REPO / "spacy_nseen" / f"{module}.py").exists():
                    shutil.copy(REPO / "spacy_nseen" / f"{module}.py", pkg / f"{module}.py")
                continue
            shown = subprocess.run(["git", "-C", str(REPO), "show", f"{source}:spacy_nseen/{module}.py"],
                                   capture_output=True, text=True)
            if shown.returncode == 0:
                (pkg / f"{module}.py").write_text(shown.stdout)


def load_package(name: str):
    """RETURNS: the (ngram_tfidf, token_index) modules of a prepared package."""
    sys.path.insert(0, str(WORK / "pkgs"))
    return importlib.import_module(f"{name}.ngram_tfidf"), importlib.import_module(f"{name}.token_index")


def mentions(n: int, seed: int = 0) -> List[str]:
    """RETURNS (List[str]): n distinct mention strings of BioID, in a seeded random order."""
    with gzip.open(MENTIONS, "rt", encoding="utf8", newline="") as f:
        distinct = list(dict.fromkeys(row["mention"] for row in csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE)))
    order = numpy.random.default_rng(seed).permutation(len(distinct))
    return [distinct[i] for i in order[:n]]


def build(linker: str) -> None:
    """Refit the compact files on the linker's names (its reference set) into WORK/linker."""
    sys.path.insert(0, str(REPO))
    from spacy_nseen.reference_set import ReferenceSet
    ngram_tfidf, token_index = load_package("new_sparse")
    names = ReferenceSet.from_tsv(LINKERS / linker / "reference.tsv.gz").names
    meta = json.loads((LINKERS / linker / "linker.json").read_text())
    assert len(names) == meta["n_names"], (len(names), meta["n_names"])
    out = WORK / linker
    out.mkdir(parents=True, exist_ok=True)
    ngram_tfidf.CharNgramTfidf().fit(names).to_disk(out / "tfidf.npz", rare_max_df=meta["settings"]["sparse_max_df"])
    token_index.NameTokenIndex().fit(names).to_disk(out / "tokens.npz")


def rss() -> Dict[str, int]:
    """RETURNS: RssAnon, RssFile and VmHWM of this process, in kB."""
    fields = {}
    for line in Path("/proc/self/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("RssAnon", "RssFile", "VmHWM", "VmRSS"):
            fields[key] = int(value.split()[0])
    return fields


def search_and_score(tfidf, tokens, queries: List[str], seed: int) -> Tuple[Dict[str, numpy.ndarray], float]:
    """The linker's sparse steps for `queries`: transform, rare n-gram and token searches, pool scores."""
    start = time.perf_counter()
    tq, kq = tfidf.transform(queries), tokens.transform(queries)
    rare_ids, rare_scores = tfidf.search(tq, K, max_df=MAX_DF)
    token_ids, token_scores = tokens.search(kq, K)
    rng = numpy.random.default_rng(seed)
    pools = [list(dict.fromkeys([int(i) for i in rare_ids[r] if i >= 0] + [int(i) for i in token_ids[r] if i >= 0]
                                + rng.integers(0, tfidf.n_names, 30).tolist())) for r in range(len(queries))]
    sparse = numpy.concatenate(tfidf.score(tq, pools))
    token = numpy.concatenate(tokens.score(kq, pools))
    seconds = time.perf_counter() - start
    out = {"rare_ids": rare_ids, "rare_scores": rare_scores, "token_ids": token_ids, "token_scores": token_scores,
           "pool_sizes": numpy.array([len(p) for p in pools]), "pools": numpy.array([i for p in pools for i in p]),
           "pool_sparse": sparse, "pool_token": token}
    return out, seconds


def run(linker: str, impl: str) -> None:
    """Load one implementation's files, run the sparse steps on the mentions, save outputs and measures."""
    queries, many = mentions(N_MENTIONS), mentions(N_TRANSFORM, seed=1)
    ngram_tfidf, token_index = load_package(f"{impl}_sparse")
    directory = LINKERS / linker if impl == "old" else WORK / linker
    before = rss()
    start = time.perf_counter()
    tfidf = ngram_tfidf.CharNgramTfidf.from_disk(directory / "tfidf.npz", mmap=True)
    tokens = token_index.NameTokenIndex.from_disk(directory / "tokens.npz")
    load_seconds = time.perf_counter() - start
    loaded = rss()
    out, first = search_and_score(tfidf, tokens, queries, seed=2)
    after = rss()
    repeats = [search_and_score(tfidf, tokens, queries, seed=2)[1] for _ in range(REPEATS)]
    for name, q in (("tfidf", tfidf.transform(many)), ("tokens", tokens.transform(many))):
        out.update({f"{name}_q_data": q.data, f"{name}_q_indices": q.indices, f"{name}_q_indptr": q.indptr})
    numpy.savez(WORK / f"out_{linker}_{impl}.npz", **out)
    report = {"linker": linker, "impl": impl, "rss_before_load_kB": before, "rss_after_load_kB": loaded,
              "rss_after_2000_kB": after, "load_s": round(load_seconds, 3), "first_pass_s": round(first, 3),
              "per_1000_s_best": round(min(repeats) * 1000 / N_MENTIONS, 4),
              "per_1000_s_all": [round(r * 1000 / N_MENTIONS, 4) for r in repeats],
              "files_bytes": {f: (directory / f).stat().st_size for f in ("tfidf.npz", "tokens.npz")}}
    (WORK / f"report_{linker}_{impl}.json").write_text(json.dumps(report, indent=1))
    print(json.dumps(report))


def compare(linker: str) -> None:
    """Exact (array_equal, dtype) comparison of the two implementations' saved outputs."""
    old = numpy.load(WORK / f"out_{linker}_old.npz")
    new = numpy.load(WORK / f"out_{linker}_new.npz")
    assert sorted(old.files) == sorted(new.files)
    for name in sorted(old.files):
        same = old[name].dtype == new[name].dtype and numpy.array_equal(old[name], new[name])
        print(f"{linker} {name:16s} {str(old[name].dtype):8s} n={old[name].size:>9d} identical={same}")
        assert same, name
    print(f"{linker}: all {len(old.files)} outputs bit-identical")


def full_check(linker: str) -> None:
    """The whole matrices, postings and vocabularies of the old files equal (array_equal) the compact ones'."""
    old_ng, old_ti = load_package("old_sparse")
    new_ng, new_ti = importlib.import_module("new_sparse.ngram_tfidf"), importlib.import_module("new_sparse.token_index")
    pairs = {"tfidf": (old_ng.CharNgramTfidf.from_disk(LINKERS / linker / "tfidf.npz", mmap=True),
                       new_ng.CharNgramTfidf.from_disk(WORK / linker / "tfidf.npz", mmap=True)),
             "tokens": (old_ti.NameTokenIndex.from_disk(LINKERS / linker / "tokens.npz"),
                        new_ti.NameTokenIndex.from_disk(WORK / linker / "tokens.npz"))}
    for name, (old, new) in pairs.items():
        olds = {"matrix": old.matrix, "idf": old.idf}
        news = {"matrix": new.matrix, "idf": new.idf}
        if name == "tfidf":
            (olds["rare"],), (news["rare"],) = old._rare_t.values(), [p.to_csr() for p in new._rare_t.values()]
        else:
            olds["postings"], news["postings"] = old.postings, new.postings.to_csr()
        for part in olds:
            a, b = olds[part], news[part]
            arrays = [(a, b)] if part == "idf" else [(a.data, b.data), (a.indices, b.indices), (a.indptr, b.indptr)]
            same = all(x.dtype == y.dtype or part != "idf" and x.dtype.kind == y.dtype.kind == "i" for x, y in arrays) and all(
                numpy.array_equal(x, y) for x, y in arrays)
            print(f"{linker} {name} {part}: shape {getattr(a, 'shape', None)} nnz {len(a) if part == 'idf' else a.nnz} identical={same}")
            assert same
        same_vocab = dict(new.vocab) == old.vocab
        print(f"{linker} {name} vocab: {len(old.vocab)} terms identical={same_vocab}")
        assert same_vocab


if __name__ == "__main__":
    command, *args = sys.argv[1:]
    WORK.mkdir(parents=True, exist_ok=True)
    if command == "prepare":
        prepare(args[args.index("--old-commit") + 1] if "--old-commit" in args else "main")
    else:
        {"build": build, "run": run, "compare": compare, "full": full_check}[command](*args)
