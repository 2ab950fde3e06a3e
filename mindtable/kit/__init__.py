"""Small shared pieces that games and surfaces both use (imports the core only): bot names, terminal keys."""
