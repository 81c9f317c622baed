"""Each game's training hooks (features, rules, formulations, learners, what ``pokerzoo play``
shows and reads), one package per game, ``pokerzoo.training.games.<game>``, exporting ``HOOKS``
(from its ``hooks`` module): see :mod:`pokerzoo.training.hooks`. The poker features the betting
games share are in :mod:`pokerzoo.training.poker`."""
