"""Text of mentions and names: normalisation, Greek letters, abbreviations (defined in a text, or known to an
abbreviation lexicon), epitope tag names, variants, query forms."""
