"""Each game's training hooks (features, what ``pokerzoo play`` shows and reads), one module per
game, each exporting ``HOOKS``: see :mod:`pokerzoo.training.hooks`."""
