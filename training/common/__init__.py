"""What several steps share: data-file errors and the CLI wrapper, TSV files, the Bio-ID query set and its scoring, the headline figures."""
