from spacy_nseen.corpus.record_ids import IdCheck, id_key


def test_numbers_and_strings_are_different_ids():
    assert id_key(1) != id_key("1")


def test_duplicates_and_generated_ids_are_counted():
    ids = IdCheck()
    for record_id in ("a", 1, "1", "a", "a", 1):
        ids.add(record_id)
    ids.add("c.jsonl:7", generated=True)
    summary = ids.summary()
    assert summary["duplicate_ids"] == 3
    assert summary["duplicate_id_examples"] == ["a", 1]
    assert summary["generated_ids"] == 1
    assert "keep all" in summary["duplicate_policy"]
