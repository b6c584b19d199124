import pytest

from spacy_nseen.text.greek import greek_letter_name, greek_to_letters, has_greek, spell_out_greek


@pytest.mark.parametrize(
    "text,sep,expected",
    [
        ("PLCγ2", "-", "PLC-gamma-2"),
        ("PLCγ2", "", "PLCgamma2"),
        ("IKKε", "-", "IKK-epsilon"),
        ("PKCδ", "", "PKCdelta"),
        ("IFN-γ", "-", "IFN-gamma"),
        ("α-actinin", "-", "alpha-actinin"),
        ("TGF-β1", "-", "TGF-beta-1"),
        ("Δ9", "-", "Delta-9"),
        ("µ-opioid", "-", "mu-opioid"),
        ("no greek", "-", "no greek"),
    ],
)
def test_spell_out_greek(text, sep, expected):
    assert spell_out_greek(text, sep) == expected


@pytest.mark.parametrize(
    "text,keep,expected",
    [
        ("PLC-gamma-2", False, "PLCγ2"),
        ("PLC-gamma-2", True, "PLC-γ-2"),
        ("IKK-epsilon", False, "IKKε"),
        ("PKCdelta", True, "PKCδ"),
        ("IFNgamma", True, "IFNγ"),
        ("alpha-actinin", False, "α-actinin"),
        ("Interferon gamma", False, "Interferon γ"),
        ("Beta-lactamase", True, "β-lactamase"),
        # no false matches inside words or all-caps abbreviations
        ("betaine", True, "betaine"),
        ("spin", True, "spin"),
        ("taurine", True, "taurine"),
        ("ETA receptor", True, "ETA receptor"),
    ],
)
def test_greek_to_letters(text, keep, expected):
    assert greek_to_letters(text, keep_separators=keep) == expected


def test_round_trip():
    for text in ("PLCγ2", "IKKε", "PKCδ", "TNFα"):
        assert greek_to_letters(spell_out_greek(text), keep_separators=False) == text


def test_letter_names():
    assert greek_letter_name("γ") == "gamma"
    assert greek_letter_name("Γ") == "Gamma"
    assert greek_letter_name("g") == ""
    assert has_greek("IKKε") and not has_greek("IKK")


@pytest.mark.parametrize(
    "text,expected",
    [("LC3β", "LC3b"), ("Sec61β", "Sec61b"), ("PKCθ", "PKCq"), ("IL-1β", "IL-1b"), ("NF-κB", "NF-kB"),
     ("ϐ-actin", "b-actin"), ("µ-opioid", "m-opioid"), ("ΔN-p63", "ΔN-p63"), ("TP53", "TP53"), ("", "")],
)
def test_greek_as_latin_writes_lower_case_letters_as_gene_symbols_do(text, expected):
    from spacy_nseen.text.greek import greek_as_latin

    assert greek_as_latin(text) == expected
