"""Default training configs, one ``<game>.yaml`` per game, installed as ``pokerzoo.configs``.

``pokerzoo train GAME`` reads ``configs/GAME.yaml`` from the working directory when there is one,
else the file shipped here.
"""
