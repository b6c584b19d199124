"""Synonym discovery: names the literature uses that the reference sets lack, proposed for a curator's review."""
