from spacy_nseen.organisms.lexicon import (
    ECOLI,
    FLY,
    HUMAN,
    MOUSE,
    RAT,
    XENOPUS,
    YEAST,
    ZEBRAFISH,
    canonical_taxon,
    find_species_words,
    known_taxa,
    mention_prefix,
    organism_name,
    reporter_organism,
)


def taxa(text):
    return [h.taxon for h in find_species_words(text)]


def test_words_names_and_adjectives():
    assert taxa("Lysates of human and murine cells") == [HUMAN, MOUSE]
    assert taxa("Mice were injected; rats were not.") == [MOUSE, RAT]
    assert taxa("in S. cerevisiae and S.cerevisiae") == [YEAST, YEAST]
    assert taxa("Xenopus embryos, zebrafish larvae and Drosophila") == [XENOPUS, ZEBRAFISH, FLY]


def test_phrase_found_once_and_offsets():
    hits = list(find_species_words("Knockout mice (C57BL/6) were used"))
    assert [(h.start, h.end, h.taxon) for h in hits] == [(0, 13, MOUSE), (15, 22, MOUSE)]
    assert hits[0].label == "word 'Knockout mice'"


def test_antibody_hosts_and_methods_are_skipped():
    assert taxa("mouse anti-FLAG and goat anti-rabbit IgG") == []
    assert taxa("a rabbit polyclonal antibody") == []
    assert taxa("a yeast two-hybrid screen") == []
    assert taxa("yeast extracts; a yeast display library") == []
    # a method word must be a whole word: `displaying` is a verb after a patient, not `yeast display`
    assert taxa("the number of patient displaying MET") == [9606]


def test_whole_words_only():
    assert taxa("micelles, humanized, ratio") == []


def test_weak_words_for_expression_hosts():
    hit = next(find_species_words("GST-Atg8 purified from E. coli"))
    assert hit.taxon == ECOLI and hit.strength < 0.5


def test_genotypes():
    assert taxa("atg1Δ cells") == [YEAST]
    assert taxa("Atg7fl/fl livers") == [MOUSE]
    assert taxa("PS1−/− neurons") == [MOUSE]


def test_fission_yeast_notations():
    fission = 284812
    # a wild-type allele with a `+` and S. pombe systematic names are fission yeast genetics
    assert taxa("RT-PCR of crs1+, mug9+ and SPBPB2B2.03c; SPAC23C11.06c") == [fission] * 4
    assert taxa("mcp5+indicates") == [fission]  # glued to the next word, as stripped text reads
    # not: a heterozygous allele, marker-positive cells of capitalised genes, two signs, a longer word
    assert taxa("Trp53+/− mice") == [MOUSE, MOUSE]
    assert taxa("CD4+ T cells, Lgr5+ cells, ura4++, nestin1+") == []


def test_cased_codes():
    assert taxa("hsa-miR-21") == [HUMAN]
    assert taxa("HSA") == []


def test_mention_prefix():
    assert mention_prefix("hTERT") == (HUMAN, "h")
    assert mention_prefix("mPer2") == (MOUSE, "m")
    assert mention_prefix("ScRad51") == (YEAST, "Sc")
    assert mention_prefix("h-Ras") == (HUMAN, "h-")
    for not_prefixed in ("mTOR", "mTORC1", "mRNA", "mCherry", "dNTP", "hnRNP", "p53", "m-calpain", "h"):
        assert mention_prefix(not_prefixed) is None, not_prefixed


def test_reporters_and_names():
    assert reporter_organism("EGFP")[0] == 6100
    assert reporter_organism("p53") is None
    assert organism_name(MOUSE) == "mouse" and organism_name(123) == "taxon 123"
    assert canonical_taxon(4932) == YEAST and canonical_taxon(9606) == HUMAN
    assert {HUMAN, MOUSE, RAT, YEAST, ECOLI, FLY}.issubset(known_taxa())


def test_species_word_glued_to_the_next_word():
    hits = list(find_species_words("sections of humanlung and mousefibroblasts"))
    assert [(h.taxon, h.label) for h in hits] == [(9606, "word 'human' (glued to 'lung')"),
                                                 (10090, "word 'mouse' (glued to 'fibroblasts')")]
    assert hits[0].start == 12 and hits[0].end == 17
    assert taxa("humanized mice") == [10090]  # an ordinary word stays one
    assert taxa("humane endpoints, a mouseIgG control, mousetrap") == []
    assert taxa("ratliverlysosomes and Rathippocampal neurons") == [10116, 10116]
    assert taxa("ratios, Ratiometric, rather, rates, rated, rational") == []


def test_hek_293_written_as_its_number():
    assert [(h.taxon, h.label) for h in find_species_words("(D) 293 cells were treated")] == [(9606, "cells '293 cells'")]
    assert taxa("1293 cells, 293T, in 293 and") == []


def test_new_organism_words_and_no_virus_words():
    from spacy_nseen.organisms.lexicon import find_species_words, virus_prefix

    hits = {h.label: h.taxon for h in find_species_words("Wing discs and hermaphrodites; Xenopus egg extracts; KSHV")}
    assert hits["word 'hermaphrodites'"] == 6239 and hits["word 'egg extracts'"] == 8355
    assert hits["word 'Wing discs'"] == 7227
    assert 37296 not in hits.values()  # a virus word names the host proteins' captions too
    assert virus_prefix("EBV-BZLF1") == (10376, "EBV") and virus_prefix("EBVs") is None
