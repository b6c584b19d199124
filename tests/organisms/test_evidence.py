from spacy_nseen.organisms.evidence import TextEvidence


def test_hits_and_sentences(cell_lines):
    text = "(A) HeLa cells expressing GFP. (B) Lysates of mouse livers."
    ev = TextEvidence.from_text(text, cell_lines)
    assert [(h.label, h.taxon) for h in ev.hits] == [("cell line 'HeLa'", 9606), ("word 'mouse'", 10090)]
    assert ev.hit_sentences[0] != ev.hit_sentences[1]
    assert ev.counts() == {9606: 1.0, 10090: 1.0}


def test_the_mice_of_a_graft_are_hosts(cell_lines):
    text = "MET in xenografts of U87 cells in nude mice; NIH 3T3 tumours in Trp53−/− mice."
    plain = TextEvidence.from_text(text, cell_lines)
    hosts = TextEvidence.from_text(text, cell_lines, graft_host_strength=0.0)
    assert [(h.label, h.strength) for h in plain.hits if h.label.startswith("word")] == [
        ("word 'mice'", 1.0), ("word 'mice'", 1.0)]
    assert [(h.label, h.strength) for h in hosts.hits if h.label.startswith("word")] == [
        ("word 'mice' (host of a graft)", 0.0), ("word 'mice' (host of a graft)", 0.0)]
    # cell lines and genotypes keep their strength: NIH 3T3 and the knockout still say mouse
    assert hosts.counts()[10090] == plain.counts()[10090] - 2.0 > 0
    half = TextEvidence.from_text("Tumour-bearing rats were treated.", cell_lines, graft_host_strength=0.5)
    assert [(h.taxon, h.strength) for h in half.hits] == [(10116, 0.5)]
    # without a graft word, mice are mice
    assert TextEvidence.from_text("Livers of mice.", cell_lines, graft_host_strength=0.0).counts() == {10090: 1.0}
    # a hit of strength 0 names no organism
    assert 10090 not in TextEvidence.from_text("Xenografts in nude mice.", cell_lines,
                                               graft_host_strength=0.0).counts()


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


def _qualifiers(text, mention, cell_lines=None, occurrence=-1):
    from spacy_nseen.organisms.evidence import nearest_qualifiers

    ev = TextEvidence.from_text(text, cell_lines)
    start = text.rindex(mention) if occurrence == -1 else text.index(mention)
    near = [h for h in ev.hits if ev.is_near(h, start, start + len(mention), max_words=3)]
    return [text[h.start : h.end] for h in nearest_qualifiers(ev, near, start)]


def test_the_species_word_nearest_a_mention_qualifies_it_not_one_that_qualifies_another_noun():
    assert _qualifiers("the RAM23 regions of mouse Notch1 and Drosophila Notch", "Notch") == ["Drosophila"]
    assert _qualifiers("The human homolog of yeast Enp1 was cloned", "Enp1") == ["yeast"]
    assert _qualifiers("mouse ADA and human ADA", "ADA") == ["human"]


def test_species_words_joined_by_conjunctions_qualify_together():
    assert _qualifiers("the mouse, rat, and human Egr1 genes", "Egr1") == ["mouse", "rat", "human"]
    assert _qualifiers("to activate the human and the rat VPAC1", "VPAC1") == ["human", "rat"]
    assert _qualifiers("in human, but not mouse, Th cells", "Th") == ["human", "mouse"]


def test_a_cell_line_is_a_host_kept_beside_the_words_and_never_shadows_them(cell_lines):
    assert _qualifiers("mouse Akt (HeLa-Akt cells)", "Akt", cell_lines) == ["mouse", "HeLa"]
