from pathlib import Path

from training.benchmark.benchmark_texts import benchmark_texts, write_benchmark_texts
from training.common.bioid import read_captions

SAMPLE_CAPTIONS = Path(__file__).parents[3] / "assets" / "sample" / "bioid" / "captions.tsv.gz"


def test_the_first_captions_of_a_split_one_line_each(tmp_path):
    captions = [c for c in read_captions(SAMPLE_CAPTIONS) if c.split == "train"]
    texts = benchmark_texts(SAMPLE_CAPTIONS, "train", 5)
    assert texts == [c.text.replace("\n", " ") for c in captions[:5]]
    assert len(benchmark_texts(SAMPLE_CAPTIONS)) == len(captions)  # 0: all
    assert benchmark_texts(SAMPLE_CAPTIONS, "no such split") == []
    path = tmp_path / "texts.txt"
    write_benchmark_texts(path, texts)
    assert path.read_text(encoding="utf8").split("\n") == texts
