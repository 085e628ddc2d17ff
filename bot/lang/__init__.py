"""Tabula's languages on the platform side: the catalogues (extraction, merging, coverage) and the translator
Discord asks for every command's localised names."""
