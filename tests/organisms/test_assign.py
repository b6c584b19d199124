import pytest
import spacy

from spacy_nseen.organisms.assign import AssignerSettings, OrganismAssigner, context_counts


@pytest.fixture(scope="module")
def nlp():
    return spacy.blank("en")


def doc_with(nlp, text, mentions):
    doc = nlp.make_doc(text)
    spans = [doc.char_span(text.index(m), text.index(m) + len(m), label="PROTEIN") for m in mentions]
    doc.ents = spans
    return doc


def test_nearby_word_beats_caption(nlp):
    doc = doc_with(nlp, "Human cells were used. Mouse Trp53 and TP53 were compared.", ["Trp53", "TP53"])
    result = OrganismAssigner().assign(doc)
    mouse, human = result.spans
    assert mouse.taxon == 10090
    assert mouse.evidence[0] == "word 'Mouse' next to the mention → 10090"
    assert human.taxon == 10090  # same sentence, the nearby word qualifies both
    assert set(result.organisms) == {9606, 10090}


def test_cell_line_and_article(nlp, cell_lines):
    assigner = OrganismAssigner(cell_lines=cell_lines)
    doc = doc_with(nlp, "NIH 3T3 cells expressing Akt.", ["Akt"])
    assert assigner.assign(doc).spans[0].taxon == 10090
    plain = doc_with(nlp, "Lysates were blotted for AKT1.", ["AKT1"])
    assert assigner.assign(plain).spans[0].taxon == 9606  # the prior and the human-like form
    with_article = assigner.assign(plain, article_texts=["Livers of rats", "rat hepatocytes"])
    assert with_article.spans[0].taxon == 10116
    assert any("article" in e for e in with_article.spans[0].evidence)


def test_the_hosts_of_a_graft_do_not_make_its_proteins_mouse(nlp):
    doc = doc_with(nlp, "Tumour volume of U87 xenografts expressing MET in nude mice.", ["MET"])
    assert OrganismAssigner().assign(doc).spans[0].taxon == 9606
    as_any_mouse = OrganismAssigner(AssignerSettings(graft_host_strength=1.0)).assign(doc).spans[0]
    assert as_any_mouse.taxon == 10090
    # the article's other captions count their hosts the same way
    plain = doc_with(nlp, "Lysates were blotted for MET.", ["MET"])
    article = ["Survival of mice bearing orthotopic tumours.", "Xenografts in NOD/SCID mice."]
    assert OrganismAssigner().assign(plain, article_texts=article).spans[0].taxon == 9606
    assert OrganismAssigner(AssignerSettings(graft_host_strength=1.0)).assign(
        plain, article_texts=article).spans[0].taxon == 10090


def test_user_organisms_and_allowed(nlp):
    doc = doc_with(nlp, "Yeast Cdc42 was purified.", ["Cdc42"])
    assert OrganismAssigner().assign(doc).spans[0].taxon == 559292
    assert OrganismAssigner().assign(doc, organisms=[10090]).spans[0].taxon == 10090
    restricted = OrganismAssigner(allowed=[9606, 10090]).assign(doc).spans[0]
    assert restricted.taxon is None and restricted.excluded_taxon == 559292
    assert "not among the allowed" in restricted.evidence[-1]
    fallback = OrganismAssigner(allowed=[9606, 10090], fallback_to_allowed=True).assign(doc).spans[0]
    assert fallback.taxon in (9606, 10090)


def test_zebrafish_is_known(nlp):
    doc = doc_with(nlp, "Zebrafish embryos injected with sox2 morpholino.", ["sox2"])
    assert OrganismAssigner().assign(doc).spans[0].taxon == 7955


def test_deterministic_and_no_spans(nlp):
    doc = doc_with(nlp, "HeLa and mouse cells; Akt.", ["Akt"])
    assigner = OrganismAssigner()
    assert assigner.assign(doc).spans[0].scores == assigner.assign(doc).spans[0].scores
    empty = assigner.assign(nlp.make_doc("no proteins here"), [])
    assert empty.spans == [] and empty.organisms == [9606]


def test_bad_offsets():
    with pytest.raises(ValueError, match="outside the text"):
        OrganismAssigner().assign_text("short", [(0, 99)])


def test_settings_from_dict():
    settings = AssignerSettings.from_dict({"near_weight": 2, "prior": [[10090, 1.0]]})
    assert settings.near_weight == 2 and settings.prior == ((10090, 1.0),)
    with pytest.raises(ValueError, match="Unknown"):
        AssignerSettings.from_dict({"nearby": 1})
    with pytest.raises(ValueError, match="≥ 0"):
        AssignerSettings(caption_weight=-1)
    doc_prior = OrganismAssigner(settings).assign_text("Akt", [(0, 3)])
    assert doc_prior.spans[0].taxon == 10090


def test_figure_panels_are_closer_evidence_than_the_article(nlp):
    panel = doc_with(nlp, "B, Lysates were blotted for AKT1.", ["AKT1"])
    article = ["Xenografts in nude mice.", "Tumour volumes of mice."]
    assert OrganismAssigner().assign(panel, article_texts=article).spans[0].taxon == 10090
    with_figure = OrganismAssigner().assign(panel, article_texts=article,
                                            figure_texts=["A, Viability of human HeLa cells."])
    assert with_figure.spans[0].taxon == 9606
    assert any("figure's other panels" in e for e in with_figure.spans[0].evidence)
    assert 9606 in with_figure.organisms and 10090 in with_figure.organisms
    silent = OrganismAssigner(AssignerSettings(figure_weight=0.0)).assign(
        panel, article_texts=article, figure_texts=["A, Viability of human HeLa cells."])
    assert silent.spans[0].taxon == 10090  # the level has its own weight


def test_figure_counts_equal_figure_texts(nlp):
    assigner = OrganismAssigner()
    panel = doc_with(nlp, "C, Akt levels.", ["Akt"])
    texts = ["A, Yeast cells.", "B, yeast strains"]
    by_texts = assigner.assign(panel, figure_texts=texts).spans[0]
    by_counts = assigner.assign(panel, figure_counts=assigner.article_counts(texts)).spans[0]
    assert by_texts.taxon == by_counts.taxon == 559292 and by_texts.scores == by_counts.scores


def test_a_yeast_deletion_counts_for_fission_yeast_where_the_text_or_its_article_names_it():
    assigner = OrganismAssigner()
    text = "Cells lacking red1 (red1Δ) were grown."

    def taxon(sentence: str, article=None) -> int:
        return assigner.assign_text(sentence, [(sentence.index("red1"), sentence.index("red1") + 4)],
                                    article_texts=article).spans[0].taxon

    assert taxon(text) == 559292  # a yeast deletion alone: budding yeast, as before
    assert taxon("S. pombe " + text) == 284812  # the text names fission yeast
    assert taxon(text, ["Fission yeast strains and plasmids."]) == 284812  # its article does
    assert taxon(text, ["S. cerevisiae strains.", "S. pombe strains."]) == 559292  # both named: no more than budding
    assert taxon("S. cerevisiae and S. pombe: " + text) == 559292  # the text names both: the deletion stays budding

    def with_figure(sentence: str, figure) -> int:
        start = sentence.index("red1")
        return assigner.assign_text(sentence, [(start, start + 4)], figure_texts=figure).spans[0].taxon

    assert with_figure(text, ["Fission yeast strains."]) == 284812  # the figure's other panels name it
    # the text itself names budding yeast: no context makes its deletion fission yeast's
    assert with_figure("S. cerevisiae " + text, ["Fission yeast strains."]) == 559292
    assert taxon("S. cerevisiae " + text, ["Fission yeast strains."]) == 559292

    # fission yeast genetics without the organism's name: alleles written `mei4+` in the article
    assert taxon(text, ["RT-PCR of mei4+, ssm4+ and rec8+ in red1Δ cells."]) == 284812
    assert taxon("Yeast cells expressing red1.", ["RT-PCR of mei4+, ssm4+ and rec8+."]) == 284812
    assert taxon("Yeast cells expressing red1.") == 559292  # the word alone: budding yeast, as before


def test_an_s_pombe_article_makes_every_yeast_deletion_and_yeast_word_of_its_texts_fission_yeast():
    assigner = OrganismAssigner()
    article = ["Yeast cells with red1Δ.", "RT-PCR of mei4+ and ssm4+ in red1Δ cells."]
    # the texts together show fission yeast genetics and no budding yeast name: all of it is fission yeast's
    assert set(context_counts([assigner.scan(t) for t in article])) == {284812}
    assert set(context_counts([assigner.scan(t) for t in article + ["S. cerevisiae RED1"]])) >= {559292, 284812}
    # the figure's other panels say only "yeast"; the article makes them fission yeast, for the doc as for the span
    text = "B, red1Δ cells grow slowly."
    result = assigner.assign_text(text, [(3, 7)], article_texts=article, figure_texts=["A, Yeast cells."])
    assert result.spans[0].taxon == 284812 and result.organisms[0] == 284812


def test_forms_name_the_text_whose_form_is_read():
    text = "Brains of transgenic mice. Blots of hTau."
    start = text.index("Tau")
    assigner = OrganismAssigner()
    assert assigner.assign_text(text, [(start, start + 3)]).spans[0].taxon == 10090
    assert assigner.assign_text(text, [(start, start + 3)], forms=["hTau"]).spans[0].taxon == 9606
    assert assigner.assign_text(text, [(start, start + 3)], forms=[None]).spans[0].taxon == 10090
    with pytest.raises(ValueError, match="one per mention"):
        assigner.assign_text(text, [(start, start + 3)], forms=[])


SCANNED_TEXTS = [
    ("HeLa cells expressing HEK293 and mouse Trp53 in COS-7 cells.", [(39, 44)]),
    ("NIH 3T3 cells and PC-12 cells; Jurkat lysates blotted for AKT1.", [(59, 63)]),
    ("HeLa cells expressing HeLa-tagged LC3.", [(22, 26), (34, 37)]),  # a mention on a cell line name
    ("Lysates were blotted for CCl4 and p62 in U2OS cells.", [(25, 29), (34, 37)]),
]


@pytest.mark.parametrize("text,offsets", SCANNED_TEXTS)
def test_a_scan_without_skips_is_reused_only_where_it_is_the_same(cell_lines, text, offsets):
    from spacy_nseen.organisms.assign import reusable_scan

    assigner = OrganismAssigner(cell_lines=cell_lines)
    scanned = assigner.scan(text)
    if reusable_scan(scanned, text, offsets):
        assert scanned == assigner.scan(text, skip=offsets)
    assert assigner.assign_text(text, offsets, scanned=scanned) == assigner.assign_text(text, offsets)
    assert not reusable_scan(scanned, text + " ", offsets) and not reusable_scan(None, text, offsets)


def test_a_mention_on_a_cell_line_name_is_scanned_again(cell_lines):
    from spacy_nseen.organisms.assign import reusable_scan

    text, offsets = SCANNED_TEXTS[2]
    assert not reusable_scan(OrganismAssigner(cell_lines=cell_lines).scan(text), text, offsets)
    text, offsets = SCANNED_TEXTS[0]
    assert reusable_scan(OrganismAssigner(cell_lines=cell_lines).scan(text), text, offsets)


def test_of_two_species_words_the_nearest_decides_unless_switched_off(nlp):
    text = "RBP-J binds the RAM23 regions of mouse Notch1 and Drosophila Notch, respectively."
    doc = nlp.make_doc(text)
    start = text.rindex("Notch")
    doc.ents = [doc.char_span(text.index("Notch1"), text.index("Notch1") + 6, label="PROTEIN"),
                doc.char_span(start, start + 5, label="PROTEIN")]
    notch1, notch = OrganismAssigner().assign(doc).spans
    assert notch1.taxon == 10090 and notch.taxon == 7227
    assert notch.evidence[0] == "word 'Drosophila' next to the mention → 7227"
    every_word = OrganismAssigner(AssignerSettings(nearest_qualifier=False)).assign(doc).spans[1]
    assert every_word.taxon == 10090  # mouse is within three words too, and the prior and the form favour it
