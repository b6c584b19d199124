"""Fetch and parse step: official sources or the mirror → reference sets, cell lines, gene cross-references; the demo sample."""
