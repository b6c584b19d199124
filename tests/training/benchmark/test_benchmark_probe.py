import sys

import numpy
import pytest

from training.benchmark.benchmark_probe import resident_files


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/smaps")
def test_resident_files_counts_the_touched_pages_of_mapped_files_under_a_directory(tmp_path):
    path = tmp_path / "artifact.bin"
    numpy.zeros(4 << 20, dtype=numpy.uint8).tofile(path)
    mapped = numpy.memmap(path, dtype=numpy.uint8, mode="r")
    assert int(mapped[:: 4096].sum()) == 0  # touch every page
    found = resident_files(str(tmp_path))
    assert list(found) == [str(path)] and 3.5 <= found[str(path)] <= 4.1
    assert resident_files(str(tmp_path / "elsewhere")) == {}
    del mapped
