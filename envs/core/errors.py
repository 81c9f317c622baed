"""Errors shared by every game: an illegal action, acting after the game is over, a render mode
the env does not offer, and the one check every env runs on an action."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

__all__ = [
    "GameOverError",
    "IllegalActionError",
    "UnknownOptionError",
    "UnsupportedRenderModeError",
    "MASKED_ACTIONS",
    "RENDER_FPS",
    "RENDER_MODES",
    "check_action",
    "check_render_mode",
    "resolve_action",
]

RENDER_MODES = ("ansi", "human")
"""The render modes every pokerzoo env offers: a text view, returned or printed."""

RENDER_FPS = 4
"""``metadata["render_fps"]`` of every pokerzoo env: how many "human" views a viewer shows a
second (Gymnasium's and PettingZoo's tools read it; the text views are not animated)."""

MASKED_ACTIONS = ("raise", "random")
"""What an env does with an in-space action its mask forbids (the ``masked_action`` option)."""


class IllegalActionError(ValueError):
    """An action outside the action space or masked off; the game state is left unchanged."""


class GameOverError(RuntimeError):
    """``step`` was called on a finished game (or before the first ``reset``)."""


class UnknownOptionError(TypeError):
    """A keyword an env's constructor does not take: a ``TypeError``, as Python raises for an
    unexpected keyword argument (libraries probe keywords and catch exactly that, torchrl's
    ``GymEnv`` among them). A bad value of a known option is a ``ValueError`` instead.

    Built by :meth:`naming`; ``option`` is the keyword, ``accepted`` the keywords the
    constructor takes (both empty when the error was re-raised from its message alone, as
    ``gymnasium.make`` does)."""

    def __init__(self, message: str, option: str = "", accepted: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.option, self.accepted = option, tuple(accepted)

    @classmethod
    def naming(cls, option: str, accepted: Sequence[str], what: str) -> UnknownOptionError:
        """The error for ``option`` given to ``what``, which takes ``accepted``."""
        # Python's own wording, which libraries match (torchrl's GymEnv retries without a
        # keyword it probes, frameskip, when the TypeError says exactly this)
        expected = f"; expected one of {', '.join(accepted)}" if accepted else ""
        message = f"unknown option {option!r} for {what}: {what}() got an unexpected keyword"
        return cls(f"{message} argument {option!r}{expected}", option, accepted)


def _legal_text(mask: np.ndarray, describe: Callable[[int], str]) -> str:
    legal = ", ".join(describe(int(i)) for i in np.flatnonzero(mask))
    return legal or "none"


def check_action(
    action: object,
    mask: np.ndarray,
    describe: Callable[[int], str] = str,
    what: str = "action",
) -> int:
    """Return ``action`` as an int if ``mask`` allows it, else raise :class:`IllegalActionError`.

    ``action`` must be an int (Python or numpy, or a 0-d integer array) in ``0..len(mask)-1``
    with ``mask[action]`` set; ``None``, floats and bools are out of the space. The message
    names the action (through ``describe`` when it is in the space) and the legal ones.
    """
    if type(action) is not int:
        if isinstance(action, np.ndarray) and action.shape == ():
            action = action.item()
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise IllegalActionError(
                f"bad {what} {action!r}: expected an int in 0..{len(mask) - 1}; legal are "
                f"{_legal_text(mask, describe)}"
            )
        action = int(action)
    if not 0 <= action < len(mask):
        raise IllegalActionError(
            f"bad {what} {action}: expected an int in 0..{len(mask) - 1}; legal are "
            f"{_legal_text(mask, describe)}"
        )
    if not mask[action]:
        raise IllegalActionError(
            f"illegal {what} {describe(action)}: legal are {_legal_text(mask, describe)}"
        )
    return action


def resolve_action(
    action: object,
    mask: np.ndarray,
    masked_action: str,
    rng: np.random.Generator | None,
    describe: Callable[[int], str] = str,
    what: str = "action",
) -> tuple[int, object]:
    """The action to play for ``action`` under the ``masked_action`` option, and the action
    asked for when it was replaced (else ``None``).

    ``"raise"``: :func:`check_action`. ``"random"``: an in-space action the mask forbids is
    replaced by a uniformly random legal one drawn from ``rng``; an out-of-space action still
    raises. The option exists for tools that sample actions without masks (Gymnasium's and
    PettingZoo's checkers, plain RL algorithms).
    """
    if masked_action == "random" and rng is not None:
        try:
            index = check_action(action, np.ones_like(mask), describe, what)
        except IllegalActionError:
            pass  # out of the space: raise below, naming the legal actions
        else:
            if mask[index]:
                return index, None
            legal = np.flatnonzero(mask)
            if legal.size:
                return int(legal[rng.integers(legal.size)]), action
    return check_action(action, mask, describe, what), None


class UnsupportedRenderModeError(ValueError, TypeError):
    """A render mode the env does not offer.

    Also a ``TypeError`` on purpose: Stable-Baselines3's ``make_vec_env`` first asks for
    ``render_mode="rgb_array"`` and falls back to the env's default when that raises a
    ``TypeError``, so ``make_vec_env("pokerzoo/PokerSquares-v0")`` works as users expect.
    """


def check_render_mode(render_mode: object, supported: Sequence[str]) -> str | None:
    """Return ``render_mode`` if it is ``None`` or in ``supported``, else raise."""
    if render_mode is None or (isinstance(render_mode, str) and render_mode in supported):
        return render_mode
    expected = ", ".join(["None", *(repr(m) for m in supported)])
    raise UnsupportedRenderModeError(f"bad render_mode {render_mode!r}: expected {expected}")
