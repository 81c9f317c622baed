"""The Ray RLlib backend of ``pokerzoo train --backend rllib``: multi-agent PPO on a game's
PettingZoo env, the learner at one seat and the opponent pool's bots at the others, on this
machine or on a Ray cluster.

Modules, from the env up (only :mod:`.table` and :mod:`.settings` import no Ray; nothing in
``pokerzoo.training`` imports this package but the commands that use it, lazily):

- :mod:`.table`: the AEC env as RLlib's multi-agent protocol (roles as agent ids, the
  observation dict ``{"observations", "action_mask"}`` written in one place, masked actions
  refused); for a run in an action formulation (Quintet's ``packs``), the learner's seat of the
  SB3 run's env, the bots inside, as the protocol's one agent.
- :mod:`.env`: the table as RLlib's ``MultiAgentEnv``, built in each env runner.
- :mod:`.modules`: the learner's PPO module with the mask applied to its logits, its frozen
  snapshots, and the bots as fixed modules.
- :mod:`.algorithm`: RLlib's ``PPOConfig`` from the run's config, and the callbacks that
  re-seed the bots and count the checked actions.
- :mod:`.league`: the self-play league (the learner's snapshots in their modules, saved to
  the run folder and restored on resume).
- :mod:`.train`: the run (folder, Ray, iterations, evaluations, checkpoints).
- :mod:`.policy`: a checkpoint as the batched policy ``pokerzoo evaluate`` plays (in the game's
  own actions, whatever the run's formulation).
- :mod:`.settings`: the backend's config checks and command-line overrides.
"""
