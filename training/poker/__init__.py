"""What the betting games' training shares: the poker features (:mod:`.features`: Monte-Carlo
equity, hand categories, seeded samplers) and the equity hooks built on them (:mod:`.equity`:
the ``"equity"`` feature set's rule and the betting words ``pokerzoo play`` reads)."""
