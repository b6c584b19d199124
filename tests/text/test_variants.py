import pytest

from spacy_nseen.text.variants import same_name_variants


def _variants(name):
    return dict((kind, v) for v, kind in same_name_variants(name))


@pytest.mark.parametrize(
    "name,kind,expected",
    [
        ("FOX P2", "no_spaces", "FOXP2"),
        ("FOX-P2", "alphanumeric", "FOXP2"),
        ("Ras", "upper", "RAS"),
        ("Ras", "lower", "ras"),
        ("IL‐2 receptor", "ascii_dashes", "IL-2 receptor"),
        ("PLCγ2", "greek_spelled", "PLC-gamma-2"),
        ("PKCδ", "greek_spelled_joined", "PKCdelta"),
        ("IKK-epsilon", "greek_letters_joined", "IKKε"),
        ("PLC-gamma-2", "greek_letters_joined", "PLCγ2"),
    ],
)
def test_variants(name, kind, expected):
    assert _variants(name)[kind] == expected


def test_variants_are_distinct_and_differ_from_name():
    for name in ("FOXP2", "ras", "PLCγ2", "beta-D-glucose", "x"):
        variants = [v for v, _ in same_name_variants(name)]
        assert name not in variants
        assert len(variants) == len(set(variants))
        assert all(variants)
    assert same_name_variants("ras") == [("RAS", "upper")]
    assert "upper" not in _variants("PLCγ2")  # upper case keeps γ: no variant


def test_empty_variant_dropped():
    assert all(kind != "alphanumeric" for _, kind in same_name_variants("(+)"))
