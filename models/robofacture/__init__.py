"""The Robofacture parts puzzle (RULES.md section 3): polyomino parts in a production space, shipped as a rectangle.

Robofacture is another game; factoryfun implements only the spatial puzzle its players solve. It shares no tiles,
ports or networks with Factory Fun, so it has its own small model here: the parts and the space
(`parts`, `space`), the documents (`document`), the rule checker that judges a placement (`check`), the shipping
score (`shipping`) and the drawings (`render`). The solver for its puzzle questions is `solver/robofacture.py`.
"""
