"""CP-SAT encodings and search: static build, multi-round plan, puzzle generation."""
