import gzip
import shutil
from pathlib import Path

from spacy_nseen.corpus.articles import bioc_key
from spacy_nseen.corpus.bioc import read_bioc_xml
from training.benchmark.fulltext_corpus import write_fulltext_bioc
from training.common.bioid import read_captions

SAMPLE = Path(__file__).parents[3] / "assets" / "sample"


def test_documents_are_articles_with_paragraphs_and_their_captions_by_figure(tmp_path):
    mirror = tmp_path / "mirror"
    shutil.copytree(SAMPLE / "bioid", mirror / "bioid")
    (mirror / "unlabelled").mkdir()
    with gzip.open(mirror / "unlabelled" / "biomedical_sentences.txt.gz", "wt", encoding="utf8") as f:
        f.write("".join(f"Sentence {i} about p53 in mice.\n" for i in range(7)))
    captions = read_captions(mirror / "bioid" / "captions.tsv.gz")
    n_articles = len({c.pmc_id for c in captions})
    n = write_fulltext_bioc(mirror, tmp_path / "corpus.xml", n_articles + 1, paragraphs=2, sentences_each=3)
    records = list(read_bioc_xml(tmp_path / "corpus.xml"))
    assert n == len(records) == 2 * (n_articles + 1) + len(captions) + len([c for c in captions if c.pmc_id == captions[0].pmc_id])
    first = [r for r in records if r.meta["document"] == f"{captions[0].pmc_id}-0"]
    assert first[0].text == "Sentence 0 about p53 in mice. Sentence 1 about p53 in mice. Sentence 2 about p53 in mice."
    assert bioc_key(first[0]) == (f"{captions[0].pmc_id}-0", None)
    assert first[2].text == captions[0].text and bioc_key(first[2])[1] == captions[0].caption_id.split("-", 1)[0]
    offsets = [r.meta["passage_offset"] for r in first]
    assert offsets == sorted(offsets) and offsets[1] == len(first[0].text) + 1
