from spacy_nseen.organisms.lexicon import ECOLI, HUMAN, MOUSE, RAT, YEAST
from spacy_nseen.organisms.mention_form import mention_form_evidence


def kinds(text):
    return [(e.taxon, e.kind) for e in mention_form_evidence(text)]


def test_rodent_and_human_symbols():
    assert kinds("Trp53") == [(MOUSE, "form"), (RAT, "form")]
    assert kinds("TP53") == [(HUMAN, "form"), (YEAST, "form")]
    rodent = mention_form_evidence("Foxp2")
    assert rodent[0].strength > rodent[1].strength


def test_yeast_and_bacterial_forms():
    assert kinds("Cdc42p") == [(YEAST, "form")]
    assert kinds("YBL078C") == [(YEAST, "prefix")]
    assert kinds("recA") == [(ECOLI, "form")]


def test_prefix_and_reporter_are_explicit():
    assert kinds("hTERT") == [(HUMAN, "prefix")]
    assert kinds("mCherry") == [(86600, "reporter")]


def test_uninformative_forms():
    assert mention_form_evidence("") == []
    assert mention_form_evidence("p53") == []
    assert mention_form_evidence("tumor necrosis factor") == []


def test_virus_prefix_worm_and_arabidopsis_forms():
    from spacy_nseen.organisms.mention_form import mention_form_evidence

    assert [(e.taxon, e.kind) for e in mention_form_evidence("KSHV\u2010TK")] == [(37296, "prefix")]
    assert [(e.taxon, e.kind) for e in mention_form_evidence("HIV-1 Nef")] == [(11676, "prefix")]
    assert [(e.taxon, e.strength) for e in mention_form_evidence("unc-51")] == [(6239, 1.0)]
    assert [(e.taxon, e.strength) for e in mention_form_evidence("UNC-51")] == [(6239, 0.5)]
    assert [e.taxon for e in mention_form_evidence("At1g01010")] == [3702]
    assert not any(e.taxon == 37296 for e in mention_form_evidence("KSHV"))
