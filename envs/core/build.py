"""A game's envs built from its registry entry (:class:`~.registry.GameSpec`), so that a game
writes its engine, its spec and its bots and no env module.

A spec that names its ``engine`` (``"module:Class"``, a class of the engine contract of
:mod:`.game`) gets, by default:

- the PettingZoo AEC env: :func:`aec_env_class` (a :class:`~.pettingzoo_env.CardGameAECEnv`
  over the engine, ``metadata["name"]`` the spec's ``env_name``, ``<name>_v0`` by default),
  made in PettingZoo's order-enforcing wrapper by ``spec.make_aec()`` and by
  ``pettingzoo.make("aec", spec's id)``;
- the parallel env when the engine is ``simultaneous``: :func:`parallel_env_class`;
- the Gymnasium env: :func:`single_env_class`, one seat of the AEC env against the game's bots
  (a :class:`~.single_seat.BotTableEnv`; the spec's ``default_opponent`` and ``default_seat``),
  or for a one-player game the engine's one seat (:class:`~.one_player.EngineOnePlayerEnv`),
  registered under the spec's ``gym_id`` (``pokerzoo/<Name>-v0`` by default).

A game that keeps its own PettingZoo module for its docstring (the shipped games: spaces,
infos, options and version history) builds that module's envs here too, so the module holds
its documentation and no repeated code: :func:`module_aec_env` (``raw_env``, the module's
placeholders filled), :func:`module_parallel_env` and the factories :func:`env_factory` and
:func:`parallel_env_factory` (``env()`` and ``parallel_env()``).

Every env behaves as the shared bases document (:mod:`.pettingzoo_env`, :mod:`.single_seat`);
a game writes its own env module only where it adds behaviour or documentation (the shipped
games keep theirs, with their documented docstrings and version histories). The classes are
made once per spec and cached. The spec's entry points name them as attributes of this module,
``<game>__env``, ``<game>__raw_env``, ``<game>__parallel_env``, ``<game>__raw_parallel_env`` and
``<game>__Env``, resolved through the registry (:func:`__getattr__`), so Gymnasium and
PettingZoo import them by their string entry points and the classes pickle by reference.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from .errors import RENDER_FPS
from .game import Game
from .one_player import EngineOnePlayerEnv
from .pettingzoo_env import (
    CardGameAECEnv,
    CardGameParallelEnv,
    document_module,
    order_enforcing,
    pettingzoo_metadata,
)
from .registry import GameSpec, get_game, load
from .single_seat import BotTableEnv

__all__ = [
    "aec_env_class",
    "built",
    "env_factory",
    "make_aec",
    "make_parallel",
    "make_single",
    "module_aec_env",
    "module_parallel_env",
    "parallel_env_class",
    "parallel_env_factory",
    "single_env_class",
]

_CLASSES: dict[tuple[str, str], tuple[GameSpec, type]] = {}


def _cached(spec: GameSpec, kind: str, make: Callable[[], type]) -> type:
    """The class of ``kind`` made for ``spec`` (this very spec: a new spec of the same name
    gets new classes)."""
    hit = _CLASSES.get((spec.name, kind))
    if hit is None or hit[0] is not spec:
        hit = _CLASSES[(spec.name, kind)] = (spec, make())
    return hit[1]


def _engine(spec: GameSpec) -> type:
    if spec.engine is None:
        raise ValueError(f"{spec.name}: its spec names no engine to build envs from")
    return load(spec.engine)


def _camel(spec: GameSpec) -> str:
    return "".join(part.capitalize() for part in spec.name.split("_"))


def _fps(spec: GameSpec) -> int:
    return RENDER_FPS if spec.render_fps is None else spec.render_fps


def _pettingzoo_metadata(
    spec: GameSpec, engine: Callable[..., Game] | None = None
) -> dict[str, Any]:
    """The PettingZoo ``metadata`` of ``spec``'s envs over ``engine`` (default: the spec's)."""
    engine = _engine(spec) if engine is None else engine
    simultaneous = bool(getattr(engine, "simultaneous", False))
    name = spec.env_name or f"{spec.name}_v0"
    return {**pettingzoo_metadata(name, parallelizable=simultaneous), "render_fps": _fps(spec)}


def _class(spec: GameSpec, kind: str, name: str, base: type, attrs: dict[str, Any]) -> type:
    """A class of this module, its ``__qualname__`` the attribute that finds it again
    (:func:`__getattr__`), so that it pickles by reference."""
    attrs = {"__module__": __name__, "__qualname__": f"{spec.name}__{kind}", **attrs}
    return type(name, (base,), attrs)


def aec_env_class(spec: GameSpec) -> type[CardGameAECEnv]:
    """The raw PettingZoo AEC env of ``spec``'s engine (cached per spec)."""

    def make() -> type:
        return _class(
            spec,
            "raw_env",
            f"{_camel(spec)}AECEnv",
            CardGameAECEnv,
            {
                "__doc__": f"{spec.title}, PettingZoo AEC env: {spec.summary}. Built from the "
                f"game's registry entry over {spec.engine} (see "
                ":mod:`pokerzoo.envs.core.pettingzoo_env` for what every env shares).",
                "metadata": _pettingzoo_metadata(spec),
                "game_class": _engine(spec),
            },
        )

    return _cached(spec, "raw_env", make)  # type: ignore[return-value]


def parallel_env_class(spec: GameSpec) -> type[CardGameParallelEnv]:
    """The raw PettingZoo parallel env of ``spec``'s engine, which must be ``simultaneous``
    (cached per spec)."""
    if not getattr(_engine(spec), "simultaneous", False):
        raise ValueError(f"{spec.name}: its engine is turn-based, so it has no parallel env")

    def make() -> type:
        return _class(
            spec,
            "raw_parallel_env",
            f"{_camel(spec)}ParallelEnv",
            CardGameParallelEnv,
            {
                "__doc__": f"{spec.title}, PettingZoo parallel env: {spec.summary}. Every live "
                "agent acts every step; built from the game's registry entry.",
                "metadata": _pettingzoo_metadata(spec),
                "game_class": _engine(spec),
            },
        )

    return _cached(spec, "raw_parallel_env", make)  # type: ignore[return-value]


def single_env_class(spec: GameSpec) -> type[BotTableEnv] | type[EngineOnePlayerEnv]:
    """The Gymnasium env of ``spec`` (cached per spec): for a game of several players, one seat
    of its AEC env against its bots, built ``Cls(opponent=None, seat=..., render_mode=None,
    masked_action="raise", **options)`` (:class:`~.single_seat.BotTableEnv`); for a one-player
    game (``players == 1``), its engine's one seat, built ``Cls(render_mode=None,
    masked_action="raise", **options)`` (:class:`~.one_player.EngineOnePlayerEnv`)."""
    if spec.players == 1:
        return _cached(spec, "Env", lambda: _one_player_class(spec))  # type: ignore[return-value]

    def make() -> type:
        seat = "drawn every episode" if spec.default_seat is None else f"{spec.default_seat}"
        return _class(
            spec,
            "Env",
            f"{_camel(spec)}Env",
            BotTableEnv,
            {
                "__doc__": f"{spec.title}, Gymnasium env: {spec.summary}. One seat of the "
                f"PettingZoo AEC env against the game's bots (``opponent``: a name of "
                f"``{spec.bots}``, default {spec.default_opponent!r}; seat by default: "
                f"{seat}), built from the game's "
                "registry entry (see :class:`pokerzoo.envs.core.single_seat.BotTableEnv`).",
                "metadata": {**BotTableEnv.metadata, "render_fps": _fps(spec)},
                "aec_class": aec_env_class(spec),
                "game": spec.name,
                "default_opponent": spec.default_opponent,
                "default_seat": spec.default_seat,
                # this spec's bots, whether or not it is registered
                "bot_classes": classmethod(lambda cls: spec.bot_classes),
            },
        )

    return _cached(spec, "Env", make)  # type: ignore[return-value]


def _one_player_class(spec: GameSpec) -> type:
    engine = _engine(spec)
    return _class(
        spec,
        "Env",
        f"{_camel(spec)}Env",
        EngineOnePlayerEnv,
        {
            "__doc__": f"{spec.title}, Gymnasium env: {spec.summary}. The engine's one seat, "
            "built from the game's registry entry (see "
            ":class:`pokerzoo.envs.core.one_player.EngineOnePlayerEnv`).",
            "metadata": {**EngineOnePlayerEnv.metadata, "render_fps": _fps(spec)},
            "game_class": engine,
            "action_noun": getattr(engine, "action_noun", "action"),
        },
    )


def make_aec(spec: GameSpec, **options: Any) -> Any:
    """``spec``'s AEC env in PettingZoo's order-enforcing wrapper (what a game's ``env()``
    returns)."""
    return order_enforcing(aec_env_class(spec)(**options))


def make_parallel(spec: GameSpec, **options: Any) -> CardGameParallelEnv:
    """``spec``'s parallel env."""
    return parallel_env_class(spec)(**options)


def make_single(spec: GameSpec, **options: Any) -> BotTableEnv | EngineOnePlayerEnv:
    """``spec``'s Gymnasium env."""
    return single_env_class(spec)(**options)


def _module_class(
    module_name: str,
    name: str,
    base: type,
    spec: GameSpec,
    game_class: Callable[..., Game],
    attrs: dict[str, Any],
) -> Any:
    """The class ``name`` of the game's module ``module_name`` (which binds it to that name, so
    that it pickles by reference): ``base`` over ``game_class``, its metadata from ``spec``."""
    attrs = {
        "__module__": module_name,
        "__qualname__": name,
        "metadata": _pettingzoo_metadata(spec, game_class),
        "game_class": game_class,
        **attrs,
    }
    return type(name, (base,), attrs)


def module_aec_env(
    module_name: str,
    spec: GameSpec,
    game_class: Callable[..., Game],
    reset_options: tuple[str, ...] | None = None,
    *,
    doc: str | None = None,
    **tables: str,
) -> type[CardGameAECEnv]:
    """The class ``raw_env`` of a game's own PettingZoo module ``module_name``: the AEC env over
    ``game_class`` (a :class:`~.pettingzoo_env.CardGameAECEnv`), ``metadata`` from ``spec``
    (``env_name``, ``<name>_v0`` by default; parallelizable when the engine is
    ``simultaneous``), ``reset_options`` where the game takes more than ``"cards"``. ``doc``
    is its docstring (default: ``"<spec's title>, turn-based (see the module docstring for
    spaces, rewards and options)."``). First fills the module docstring's placeholders from the
    engine (:func:`~.pettingzoo_env.document_module`, with ``tables``)."""
    document_module(module_name, game_class(), **tables)
    if doc is None:
        doc = (
            f"{spec.title}, turn-based (see the module docstring for spaces, rewards and options)."
        )
    attrs: dict[str, Any] = {"__doc__": doc}
    if reset_options is not None:
        attrs["reset_options"] = reset_options
    return _module_class(module_name, "raw_env", CardGameAECEnv, spec, game_class, attrs)


def module_parallel_env(
    module_name: str, spec: GameSpec, game_class: Callable[..., Game], name: str, doc: str
) -> type[CardGameParallelEnv]:
    """The class ``name`` of a game's own PettingZoo module ``module_name``: the parallel env
    over the simultaneous ``game_class`` (a :class:`~.pettingzoo_env.CardGameParallelEnv`),
    ``metadata`` from ``spec``, ``doc`` its docstring."""
    attrs = {"__doc__": doc}
    return _module_class(module_name, name, CardGameParallelEnv, spec, game_class, attrs)


def _module_function(function: Callable[..., Any], cls: type, name: str, doc: str) -> None:
    """Make ``function`` the function ``name`` of ``cls``'s module."""
    function.__module__ = cls.__module__
    function.__name__ = function.__qualname__ = name
    function.__doc__ = doc


def env_factory(
    raw_env: type[CardGameAECEnv],
    doc: str = "The AEC env in PettingZoo's order-enforcing wrapper.",
) -> Callable[..., Any]:
    """The function ``env(**options)`` of ``raw_env``'s module: ``raw_env(**options)`` in
    PettingZoo's order-enforcing wrapper; ``doc`` is its docstring."""

    def env(**options: Any) -> Any:
        return order_enforcing(raw_env(**options))

    _module_function(env, raw_env, "env", doc)
    return env


def parallel_env_factory(
    raw_parallel_env: type[CardGameParallelEnv], doc: str
) -> Callable[..., CardGameParallelEnv]:
    """The function ``parallel_env(**options)`` of ``raw_parallel_env``'s module: a new
    ``raw_parallel_env(**options)``; ``doc`` is its docstring."""

    def parallel_env(**options: Any) -> CardGameParallelEnv:
        return raw_parallel_env(**options)

    _module_function(parallel_env, raw_parallel_env, "parallel_env", doc)
    return parallel_env


_KINDS: dict[str, Callable[[GameSpec], Any]] = {
    "env": lambda spec: functools.partial(make_aec, spec),
    "parallel_env": lambda spec: functools.partial(make_parallel, spec),
    "raw_env": aec_env_class,
    "raw_parallel_env": parallel_env_class,
    "Env": single_env_class,
}


def built(spec: GameSpec, kind: str) -> Any:
    """What the entry point ``<game>__<kind>`` of this module names for ``spec``: the factory
    ``env`` or ``parallel_env`` (options -> env) or the class ``raw_env``,
    ``raw_parallel_env`` or ``Env``."""
    if kind not in _KINDS:
        raise ValueError(f"bad env kind {kind!r}: expected one of {', '.join(_KINDS)}")
    return _KINDS[kind](spec)


def __getattr__(attribute: str) -> Any:
    """``<game>__<kind>`` (:func:`built`) of the registered game ``<game>``."""
    game, sep, kind = attribute.rpartition("__")
    if not sep or not game or kind not in _KINDS:
        raise AttributeError(f"module {__name__!r} has no attribute {attribute!r}")
    try:
        spec = get_game(game)
    except ValueError as error:
        raise AttributeError(f"{attribute}: {error}") from None
    return built(spec, kind)
