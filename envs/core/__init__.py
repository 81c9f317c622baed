"""What every game shares: cards and decks (:mod:`.cards`), hand evaluation (:mod:`.hands`),
errors (:mod:`.errors`), option checks (:mod:`.options`), observation layouts
(:mod:`.observation`), the engine contract (:mod:`.game`), fixed-limit betting
(:mod:`.betting`), the PettingZoo env bases (:mod:`.pettingzoo_env`), the bot protocol
(:mod:`.bots`), the single-seat Gymnasium view of a multi-player game (:mod:`.single_seat`),
the game registry (:mod:`.registry`) and the envs built from a game's registry entry
(:mod:`.build`)."""
