"""Text of mentions and names: normalisation, Greek letters, abbreviations, variants, plurals, query forms."""
