"""Training and evaluation of agents against the baseline bots (needs the ``train`` extra)."""
