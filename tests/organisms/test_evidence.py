from spacy_nseen.organisms.evidence import TextEvidence


def test_hits_and_sentences(cell_lines):
    text = "(A) HeLa cells expressing GFP. (B) Lysates of mouse livers."
    ev = TextEvidence.from_text(text, cell_lines)
    assert [(h.label, h.taxon) for h in ev.hits] == [("cell line 'HeLa'", 9606), ("word 'mouse'", 10090)]
    assert ev.hit_sentences[0] != ev.hit_sentences[1]
    assert ev.counts() == {9606: 1.0, 10090: 1.0}


def test_ambiguous_cell_line_is_weaker(cell_lines):
    ev = TextEvidence.from_text("PC12 cells", cell_lines, ambiguous_cell_line_strength=0.5)
    assert [(h.taxon, h.strength) for h in ev.hits] == [(10116, 0.5)]


def test_is_near():
    text = "mouse and human p53 were blotted; rat Akt (mouse) too"
    ev = TextEvidence.from_text(text)
    p53 = (text.index("p53"), text.index("p53") + 3)
    akt = (text.index("Akt"), text.index("Akt") + 3)
    near_p53 = [h.label for h in ev.hits if ev.is_near(h, *p53, max_words=3)]
    near_akt = [h.label for h in ev.hits if ev.is_near(h, *akt, max_words=3)]
    assert near_p53 == ["word 'mouse'", "word 'human'"]
    assert near_akt == ["word 'rat'", "word 'mouse'"]  # before it, and right after it in parentheses


def test_fission_yeast_alleles_make_the_yeast_words_and_deletions_fission_yeast_evidence():
    text = "Yeast cells with red1Δ; RT-PCR of mei4+ and ssm4+."
    ev = TextEvidence.from_text(text)
    assert ev.names_fission_yeast()  # the bare word `yeast` names neither yeast on its own
    assert set(ev.in_fission_yeast().counts()) == {284812}
    budding = TextEvidence.from_text("S. cerevisiae cells with red1Δ; mei4+ and ssm4+.")
    assert not budding.names_fission_yeast()  # a budding yeast name keeps the text budding yeast's
