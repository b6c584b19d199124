"""Memory-mapped artifacts are advised for random access: the kernel marks such a mapping `rr` in smaps."""
import mmap
import sys
from pathlib import Path
from typing import Optional

import numpy
import pytest

from spacy_nseen.retrieval.array_io import load_npz, save_npz
from spacy_nseen.retrieval.name_index import AnnoyNameIndex
from spacy_nseen.retrieval.page_advice import advise_random, advise_random_region

linux = pytest.mark.skipif(not sys.platform.startswith("linux") or not Path("/proc/self/smaps").exists(),
                           reason="smaps and madvise are Linux's")


def vm_flags(start: int) -> Optional[str]:
    """The VmFlags of this process's mapping that contains the address `start`."""
    current = None
    for line in Path("/proc/self/smaps").read_text().splitlines():
        head = line.split()[0]
        if "-" in head and ":" not in head:
            low, high = (int(a, 16) for a in head.split("-"))
            current = low <= start < high
        elif head == "VmFlags:" and current:
            return line
    return None


def test_nothing_to_advise_is_a_defined_no():
    assert advise_random(None) is False
    assert advise_random_region(0, 0) is False
    assert advise_random_region(mmap.PAGESIZE + 1, 10) is False  # not page-aligned


@linux
def test_an_mmap_is_marked_random_read(tmp_path):
    path = tmp_path / "data.bin"
    path.write_bytes(bytes(4 * mmap.PAGESIZE))
    with path.open("rb") as file_:
        mapping = mmap.mmap(file_.fileno(), 0, access=mmap.ACCESS_READ)
    address = numpy.frombuffer(mapping, dtype=numpy.uint8).ctypes.data
    assert " rr" not in vm_flags(address)
    assert advise_random(mapping) is True
    assert " rr" in vm_flags(address)
    del address
    mapping.close()


@linux
def test_load_npz_maps_arrays_for_random_access(tmp_path):
    save_npz(tmp_path / "a.npz", {"x": numpy.arange(4 * mmap.PAGESIZE, dtype=numpy.int32)})
    x = load_npz(tmp_path / "a.npz")["x"]
    assert isinstance(x, numpy.memmap)
    assert " rr" in vm_flags(x.ctypes.data)
    assert int(x[-1]) == 4 * mmap.PAGESIZE - 1


@linux
def test_annoys_mapping_of_a_loaded_index_is_marked_random_read(tmp_path):
    vectors = numpy.random.default_rng(0).normal(size=(500, 16)).astype(numpy.float32)
    vectors /= numpy.linalg.norm(vectors, axis=1, keepdims=True)
    AnnoyNameIndex.build(vectors, n_trees=3, n_jobs=1).save(tmp_path / "names.ann")
    index = AnnoyNameIndex.load(tmp_path / "names.ann", dim=16, n_items=500)
    assert index.vectors is not None
    assert " rr" in vm_flags(index.vectors.ctypes.data)
    neighbours, _ = index.query(vectors[:5], 1)
    assert neighbours[:, 0].tolist() == [0, 1, 2, 3, 4]


@linux
def test_the_environment_variable_keeps_the_kernels_read_ahead(tmp_path, monkeypatch):
    monkeypatch.setenv("NSEEN_PAGE_ADVICE", "none")
    save_npz(tmp_path / "a.npz", {"x": numpy.arange(4 * mmap.PAGESIZE, dtype=numpy.int32)})
    x = load_npz(tmp_path / "a.npz")["x"]
    assert " rr" not in vm_flags(x.ctypes.data)
    monkeypatch.setenv("NSEEN_PAGE_ADVICE", "random")
    assert " rr" in vm_flags(load_npz(tmp_path / "a.npz")["x"].ctypes.data)


def test_prefetch_advises_each_file_once_in_a_background_thread(tmp_path, monkeypatch):
    from spacy_nseen.retrieval import page_advice

    if page_advice.POSIX_FADV_WILLNEED is None:
        pytest.skip("no posix_fadvise on this platform")
    files = [tmp_path / "a.bin", tmp_path / "b.bin"]
    files[0].write_bytes(bytes(3 * mmap.PAGESIZE))
    files[1].write_bytes(bytes(2 * page_advice.PREFETCH_CHUNK + 1))  # three requests cover it
    advised = []
    real_open = page_advice.os.open

    def record_open(path, flags):
        descriptor = real_open(path, flags)
        advised.append([Path(path), descriptor])
        return descriptor

    def record_fadvise(descriptor, offset, length, advice):
        assert advice == page_advice.POSIX_FADV_WILLNEED and length == page_advice.PREFETCH_CHUNK
        advised[-1].append(offset)

    monkeypatch.setattr(page_advice.os, "open", record_open)
    monkeypatch.setattr(page_advice.os, "posix_fadvise", record_fadvise)
    monkeypatch.delenv(page_advice.PREFETCH_VARIABLE, raising=False)
    thread = page_advice.prefetch(files + [tmp_path / "missing.bin"])  # a missing file is skipped
    assert thread is not None and thread.daemon
    thread.join(timeout=10)
    chunk = page_advice.PREFETCH_CHUNK
    assert [(path, *rest[1:]) for path, *rest in advised] == [(files[0], 0), (files[1], 0, chunk, 2 * chunk)]


def test_prefetch_can_be_turned_off(tmp_path, monkeypatch):
    from spacy_nseen.retrieval import page_advice

    path = tmp_path / "a.bin"
    path.write_bytes(b"x")
    monkeypatch.setenv(page_advice.PREFETCH_VARIABLE, "none")
    assert page_advice.prefetch([path]) is None
    assert page_advice.advise_will_need(path) is False


def test_prefetch_of_a_real_file_returns_true(tmp_path, monkeypatch):
    from spacy_nseen.retrieval import page_advice

    if not page_advice.prefetch_enabled() and page_advice.POSIX_FADV_WILLNEED is None:
        pytest.skip("no posix_fadvise on this platform")
    monkeypatch.delenv(page_advice.PREFETCH_VARIABLE, raising=False)
    path = tmp_path / "a.bin"
    path.write_bytes(bytes(mmap.PAGESIZE))
    assert page_advice.advise_will_need(path) is True
    assert page_advice.advise_will_need(tmp_path / "missing.bin") is False
