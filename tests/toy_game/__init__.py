"""A toy game that lives in the tests, not in the package: proof that a game is added by adding
its files. It registers itself in the game registry (``tests/conftest.py``), and the
conformance suite and the training smoke tests then run on it like on every shipped game.

"Take two": five cards lie face up; the two players take one card each in turn (player_0 first)
until each holds two; the higher total of ranks (2 = 0 .. A = 12) wins +1, the other -1 (a tie
pays 0). Its files, as a shipped game's would be: :mod:`.game` (rules, observation, render in
one small module), :mod:`.envs` (PettingZoo and Gymnasium), :mod:`.bots`, :mod:`.hooks`
(training) and :mod:`.spec` (the registry entry).
"""
