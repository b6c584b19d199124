"""Building the search structures of a reference set on two cores: names encoded while the lookups are fitted.

The work of a build: encode every name (torch), index the vectors (Annoy), fit the char n-gram TF-IDF, the
word-level token index and the exact-match keys (Python loops). The lookups are fitted beside the encoding:
- for a large reference set, in a child process (the Python loops hold the GIL, which would stall the
  encoding thread after every torch call); it writes them as aligned `.npz` files that are memory-mapped here;
- for a small one (or where no child process can be started), in a second thread.
The second thread then helps encode: both threads take length-sorted chunks from one queue. With a child
process, the Annoy index is built as soon as the names are encoded, while the child may still be fitting. The result does
not depend on who fits or encodes what: every chunk is encoded alone, in eval mode, at the same precision.
Names the encoder reads alike (`encoder_input_keys`: orthologs' shared names, case variants under a folding
vocabulary) are encoded once and stored as one vector (`retrieval.shared_vectors`).
"""

import multiprocessing
import shutil
import sys
import tempfile
import threading
import time
from collections import deque
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Deque, Dict, List, Optional, Sequence

import numpy
from thinc.api import Model

from ..encoder.layer import encode_names, encoder_input_keys, get_torch_module, set_precision
from ..progress import Progress
from ..retrieval.array_io import load_npz, save_npz
from ..retrieval.char_tfidf import CharNgramTfidf
from ..retrieval.exact_names import ExactNameIndex
from ..retrieval.name_index import AnnoyNameIndex
from ..retrieval.shared_vectors import VectorRows
from ..retrieval.word_tfidf import NameTokenIndex

CHUNK_SIZE = 8192  # names per queued encoding task
# Names per forward pass while building. Measured on ChEBI (results/benchmark_notes.md): in bf16, batches of 128
# lost 0.02 dense Hits@1 against fp32 while batches of 512 did not, at the same speed; mentions keep the
# encoder's own batch size (128 is the fastest for them in fp32).
BUILD_BATCH_SIZE = 512
PROCESS_MIN_NAMES = 50_000  # smaller sets fit their lookups in a thread (no process start-up)


@dataclass
class BuiltParts:
    """What `build_parts` makes, and the seconds each part took (`total`: wall time of the whole build; with a
    child process, `encode_and_fit` includes `annoy`, which overlaps the child's fitting)."""

    index: AnnoyNameIndex
    tfidf: Optional[CharNgramTfidf]
    tokens: Optional[NameTokenIndex]
    exact_names: ExactNameIndex
    seconds: Dict[str, float] = field(default_factory=dict)


class _EncodingQueue:
    """Length-sorted chunks of names that several threads encode into one matrix."""

    def __init__(self, encoder: Model, names: Sequence[str]) -> None:
        max_length = encoder.attrs["max_length"]
        order = sorted(range(len(names)), key=lambda i: min(len(names[i]), max_length))
        self.encoder = encoder
        self.names = names
        self.vectors = numpy.zeros((len(names), encoder.get_dim("nO")), dtype=numpy.float32)
        self.chunks: Deque[List[int]] = deque(order[i : i + CHUNK_SIZE] for i in range(0, len(order), CHUNK_SIZE))
        self.lock = threading.Lock()
        self.progress = Progress("encoding names", total=len(names), unit="names")

    def work(self) -> int:
        """Encode chunks until none is left. RETURNS (int): the names this thread encoded."""
        done = 0
        while True:
            with self.lock:
                if not self.chunks:
                    return done
                rows = self.chunks.popleft()
            self.vectors[rows] = encode_names(self.encoder, [self.names[i] for i in rows])
            done += len(rows)
            with self.lock:
                self.progress.update(len(rows))


def fit_lookups(names: Sequence[str], with_sparse: bool, seconds: Dict[str, float]) -> Dict[str, Any]:
    """Fit the char TF-IDF and the token index (if `with_sparse`) and the exact-match keys of `names`."""

    def timed(part: str, make: Callable[[], Any]) -> Any:
        start = time.perf_counter()
        result = make()
        seconds[part] = round(time.perf_counter() - start, 3)
        return result

    return {
        "tfidf": timed("tfidf", lambda: CharNgramTfidf().fit(names)) if with_sparse else None,
        "tokens": timed("tokens", lambda: NameTokenIndex().fit(names)) if with_sparse else None,
        "exact": timed("exact_keys", lambda: ExactNameIndex.build(names)),
    }


def _fit_lookups_into(directory: str, names: List[str], with_sparse: bool) -> Dict[str, float]:
    """In a child process: fit the lookups and write them into `directory`. RETURNS: the seconds of each part."""
    seconds: Dict[str, float] = {}
    fitted = fit_lookups(names, with_sparse, seconds)
    start = time.perf_counter()
    if with_sparse:
        fitted["tfidf"].to_disk(Path(directory) / "tfidf.npz")
        fitted["tokens"].to_disk(Path(directory) / "tokens.npz")
    save_npz(Path(directory) / "exact.npz", fitted["exact"].to_arrays())
    seconds["write"] = round(time.perf_counter() - start, 3)
    return seconds


def _read_lookups(directory: Path, names: Sequence[str], with_sparse: bool) -> Dict[str, Any]:
    return {
        "tfidf": CharNgramTfidf.from_disk(directory / "tfidf.npz", mmap=True) if with_sparse else None,
        "tokens": NameTokenIndex.from_disk(directory / "tokens.npz") if with_sparse else None,
        "exact": ExactNameIndex.from_arrays(names, load_npz(directory / "exact.npz")),
    }


def build_parts(
    encoder: Model,
    names: Sequence[str],
    *,
    n_trees: int,
    search_k: int,
    seed: int,
    with_sparse: bool,
    precision: Optional[str],
    use_process: Optional[bool] = None,
) -> BuiltParts:
    """Encode and index every name, fit the sparse indexes (if `with_sparse`) and the exact-match keys.

    precision (Optional[str]): the encoder precision for the names (None: the encoder's own); restored after.
    use_process (Optional[bool]): fit the lookups in a child process (None: if there are at least
        PROCESS_MIN_NAMES names and the platform can fork).
    """
    seconds: Dict[str, float] = {}
    if use_process is None:
        # A daemonic process (e.g. a multiprocessing worker) may not start children: threads there.
        use_process = (
            len(names) >= PROCESS_MIN_NAMES
            and "fork" in multiprocessing.get_all_start_methods()
            and not multiprocessing.current_process().daemon
        )
    rows, first_rows = VectorRows.from_keys(encoder_input_keys(encoder, names))
    queue = _EncodingQueue(encoder, [names[row] for row in first_rows])

    def fit_then_encode() -> Dict[str, Any]:
        fitted = fit_lookups(names, with_sparse, seconds)
        fitted["encoded"] = queue.work()
        return fitted

    start = time.perf_counter()
    module = get_torch_module(encoder)
    was_training, saved_precision, saved_batch = (
        module.training,
        encoder.attrs["precision"],
        encoder.attrs["batch_size"],
    )
    encoder.attrs["batch_size"] = BUILD_BATCH_SIZE
    switch_interval = sys.getswitchinterval()
    module.eval()  # once for both threads: encode_names would otherwise toggle the mode under the other
    if precision is not None and precision != saved_precision:
        set_precision(encoder, precision)
    # An encoding thread takes the GIL back after every torch call; a short switch interval keeps it from
    # waiting on the other thread's Python loops.
    sys.setswitchinterval(min(switch_interval, 0.0005))
    scratch = Path(tempfile.mkdtemp(prefix="nseen_build_")) if use_process else None
    index: Optional[AnnoyNameIndex] = None

    def build_index() -> AnnoyNameIndex:
        index_start = time.perf_counter()
        built = AnnoyNameIndex.build(queue.vectors, n_trees=n_trees, search_k=search_k, seed=seed, rows=rows)
        seconds["annoy"] = round(time.perf_counter() - index_start, 3)
        return built

    try:
        encode_names(encoder, list(names[:1]))  # builds an int8 module once, before the threads share it
        if scratch is not None:
            # A forked child copies nothing up front and never touches torch.
            with ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("fork")) as pool:
                child = pool.submit(_fit_lookups_into, str(scratch), list(names), with_sparse)
                seconds["encoded_by_main_thread"] = float(queue.work())
                # The Annoy index needs only the vectors: it is built while the child may still be fitting.
                seconds["encoded"] = round(time.perf_counter() - start, 3)
                index = build_index()
                seconds.update(child.result())
            fitted = _read_lookups(scratch, names, with_sparse)
        else:
            with ThreadPoolExecutor(max_workers=1) as threads:
                helper = threads.submit(fit_then_encode)
                seconds["encoded_by_main_thread"] = float(queue.work())
                fitted = helper.result()
            seconds["encoded_by_second_thread"] = float(fitted["encoded"])
        seconds["encode_and_fit"] = round(time.perf_counter() - start, 3)
    finally:
        queue.progress.close()
        sys.setswitchinterval(switch_interval)
        if encoder.attrs["precision"] != saved_precision:
            set_precision(encoder, saved_precision)
        module.train(was_training)
        encoder.attrs["batch_size"] = saved_batch
        if scratch is not None:
            # The files stay readable through their memory maps until the linker is dropped.
            shutil.rmtree(scratch, ignore_errors=True)
    if index is None:
        index = build_index()
    seconds["total"] = round(time.perf_counter() - start, 3)
    return BuiltParts(index, fitted["tfidf"], fitted["tokens"], fitted["exact"], seconds)
