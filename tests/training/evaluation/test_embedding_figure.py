from tests.training.evaluation.test_evaluate import FakeLinker
from training.evaluation.embedding_figure import make_figure, name_kb_ids


def test_make_figure_with_fake(tmp_path):
    fake = FakeLinker()
    assert name_kb_ids(fake.reference_set)[3] == "UniProt:P00002"
    table = make_figure(fake, tmp_path / "fig.png", {"AK2": ["UniProt:P00002"],
                                                     "BP": ["UniProt:P00003"]}, method="tsne")
    assert (tmp_path / "fig.png").stat().st_size > 0
    assert [c["kb_id"] for c in table["BP"]] == ["UniProt:P00002", "UniProt:P00002",
                                                 "UniProt:P00001"]
    assert not any(c["correct"] for c in table["BP"])
