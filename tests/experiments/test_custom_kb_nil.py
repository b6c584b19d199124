"""The reagent benchmark's sets: made-up names are no name of the file; variants differ from their names."""
from experiments.custom_kb_nil import made_up_names, name_variants, reagent_rows, with_words
from spacy_nseen.text.normalization import loose_key


def test_the_sets_are_what_the_benchmark_says():
    rows = reagent_rows(0)
    assert len({kb_id for kb_id, _, _ in rows}) > 100
    known = {loose_key(name) for _, name, _ in rows}
    made_up = made_up_names(rows)
    assert len(made_up) == len(set(made_up)) == 200 and made_up[:2] == ["AbLab-999", "pEF-V5-p63"]
    assert not any(loose_key(name) in known for name in made_up)
    assert "pEF-V5-p53" in {name for _, name, _ in rows}
    names = {kb_id: {name for k, name, _ in rows if k == kb_id} for kb_id, _, _ in rows}
    variants = name_variants(rows)
    assert len(variants) == 200
    for form, kb_id in variants:
        assert form not in names[kb_id] and loose_key(form) in {loose_key(n) for n in names[kb_id]}
    assert all(" " in form for form, _ in with_words(rows))
    assert reagent_rows(0) == rows  # the same file from the same seed
