"""A toy game that lives in the tests, not in the package: proof that a game is added by adding
its files, as a plugin package would. It joins the game registry through the public path
(``pokerzoo.envs.register_game`` in ``tests/conftest.py``, or a ``pokerzoo.games`` entry point:
``test_plugin.py``), and the conformance suite and the training smoke tests then run on it like
on every shipped game.

"Take two": five cards lie face up; the two players take one card each in turn (player_0 first)
until each holds two; the higher total of ranks (2 = 0 .. A = 12) wins +1, the other -1 (a tie
pays 0). Its files: :mod:`.game` (rules, observation, render in one small module), :mod:`.bots`,
:mod:`.hooks` (training), ``take_two.yaml`` (its training config) and :mod:`.spec` (the registry
entry, which names the engine: its PettingZoo and Gymnasium envs are built from it by
``pokerzoo.envs.core.build``, the Gymnasium id ``pokerzoo/TakeTwo-v0``).
"""
