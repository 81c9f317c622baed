"""The one registry of pokerzoo's games.

Every game declares itself once, in its own package (``pokerzoo.envs.<game>.spec``: a
:class:`GameSpec` named ``SPEC``, built by :func:`package_game`), and everything that needs to
know the games reads this registry: Gymnasium and PettingZoo registration (``import
pokerzoo.envs``; ``pettingzoo.make("aec", "pokerzoo/DrawPoker-v0")`` with PettingZoo 1.27), the
``pokerzoo list / train / evaluate / play`` commands, the benchmarks and the conformance tests.
Adding a game adds its files; no list elsewhere names it.

Games are found by looking for ``spec`` modules in the subpackages of :mod:`pokerzoo.envs`
(:func:`discover`). A game that lives elsewhere (a plugin, or the toy game of the tests) is
added through the public path: :func:`register_game` (also ``pokerzoo.envs.register_game``),
or, for an installed package, a ``pokerzoo.games`` entry point naming its spec (in
``pyproject.toml``: ``[project.entry-points."pokerzoo.games"] my_game = "my_pkg.spec:SPEC"``),
which :func:`discover` reads once. Registering a name (or a Gymnasium or PettingZoo id) twice
is an error. Everything a spec names is a ``"module:attribute"`` string, imported only when
used, so ``import pokerzoo.envs`` stays light and nothing here imports torch or the training
package.

A game's envs need not be written by hand: a spec that names its ``engine`` (a class of the
engine contract, :mod:`.game`) gets its PettingZoo AEC env, its parallel env when the engine is
``simultaneous``, and its single-seat Gymnasium env against its bots, all built from the spec
by :mod:`.build` (:func:`~.build.aec_env_class`, :func:`~.build.single_env_class`); its own
``aec`` / ``single`` entry points, where given, take precedence (the shipped games keep their
documented modules).
"""

from __future__ import annotations

import importlib
import importlib.metadata
import pkgutil
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

__all__ = [
    "ENTRY_POINT_GROUP",
    "GameSpec",
    "GymId",
    "Scoring",
    "SeatVectorEntry",
    "discover",
    "discover_plugins",
    "game_bots",
    "games",
    "get_game",
    "load",
    "package_game",
    "pettingzoo_id",
    "register_game",
    "unregister_game",
]


def load(path: str) -> Any:
    """The object a ``"package.module:attribute"`` string names."""
    module, sep, name = path.partition(":")
    if not sep or not module or not name:
        raise ValueError(f"bad path {path!r}: expected 'package.module:attribute'")
    return getattr(importlib.import_module(module), name)


@dataclass(frozen=True)
class GymId:
    """One Gymnasium id of a game, registered with string entry points."""

    id: str
    entry_point: str
    vector_entry_point: str | None = None


def _no_threshold(options: Mapping[str, Any]) -> float | None:
    return None


@dataclass(frozen=True)
class Scoring:
    """How evaluation scores a game, for its number of players.

    One-player games (``GameSpec.players == 1``) are scored by the final score in
    ``info[score_key]``, the agent and each bot on the same deals; ``win_threshold(options)`` is
    the score that counts as a win (``None``: none). Games of several players are scored by
    duplicate deals (every seat of a deal played by the agent in turn): the agent's result is
    ``info[points_key][seat]`` at the end when ``points_key`` is set, else its summed rewards;
    ``unit`` names it in reports ("point", "chip").
    """

    score_key: str = "score"
    points_key: str | None = None
    unit: str = "point"
    win_threshold: Callable[[Mapping[str, Any]], float | None] = _no_threshold
    eval_options: Mapping[str, Any] = field(default_factory=dict)
    """Env options forced when evaluating (e.g. a reward option that pays the game's points)."""


@dataclass(frozen=True)
class GameSpec:
    """Everything the package knows about one game."""

    name: str
    """Name on the command line and in configs (``pokerzoo train NAME``); lowercase, ``_``."""
    title: str
    summary: str
    players: int
    """Seats the training and evaluation use by default: 1 for a one-player game."""
    options: Mapping[str, str]
    """Env option -> one line of help (values and default), for ``pokerzoo list``."""
    bots: str
    """``module:BOTS`` of the bot registry (name -> class, built ``Cls(seed=..., **options)``).
    The envs never import the bots: a single-seat env finds its game's by this entry point
    (:func:`game_bots`), imported when the first env that needs them is built."""
    option_sets: Mapping[str, Mapping[str, Any]]
    """Named option sets every check runs over (the conformance suite, the benchmarks), valid
    for every env of the game: the default game first, then each documented variant."""
    aec: str | None = None
    """``module:env`` of the PettingZoo AEC factory (games of several players)."""
    parallel: str | None = None
    """``module:parallel_env`` of the PettingZoo parallel factory, where one exists."""
    single: str | None = None
    """``module:Class`` of the Gymnasium env training plays: a one-player game's env, or the
    single-seat view of a multi-player game, built ``Cls(**options)``."""
    gym_ids: tuple[GymId, ...] = ()
    vector: str | None = None
    """``module:Class`` of a native Gymnasium vector env (``Cls(num_envs, **options)``)."""
    table_option_sets: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    """More option sets for the PettingZoo envs only (options of the multi-player form of a
    one-player game, such as Poker Squares' ``num_players`` and ``rounds``)."""
    pettingzoo_id: str | None = None
    """The id of the PettingZoo envs in PettingZoo's registry (``pettingzoo.make("aec", id)``,
    and ``"parallel"`` where a parallel env exists); ``None``: the first Gymnasium id."""
    scoring: Scoring = field(default_factory=Scoring)
    training: str | None = None
    """``module:HOOKS`` of the game's training hooks (features, what ``play`` shows and reads),
    read only by :mod:`pokerzoo.training`."""
    config: str | None = None
    """The game's default training config, for ``pokerzoo train NAME`` without ``--config``
    (after ``configs/NAME.yaml`` in the working directory): ``"package:file.yaml"``, a file
    beside a package's modules (a plugin's own), or a path; ``None``: the package's
    ``configs/NAME.yaml`` (``pokerzoo.configs``)."""
    engine: str | None = None
    """``module:Class`` of the game's engine (:mod:`.game`), built with the env's game options.
    With it, ``aec``, ``parallel`` (when the engine is ``simultaneous``), ``single`` and the
    Gymnasium id (:attr:`gym_id`) default to envs built from this spec (:mod:`.build`), so a
    game needs no env module of its own; the engine's module is imported when the spec is
    made (to read ``simultaneous``)."""
    gym_id: str | None = None
    """With :attr:`engine`: the Gymnasium id of the built single-seat env (default
    ``pokerzoo/<Name>-v0``, ``take_two`` -> ``pokerzoo/TakeTwo-v0``), also its PettingZoo id."""
    env_name: str | None = None
    """With :attr:`engine`: the PettingZoo ``metadata["name"]`` of the built envs (default
    ``<name>_v0``)."""
    render_fps: int | None = None
    """With :attr:`engine`: the built envs' ``metadata["render_fps"]`` (default: pokerzoo's
    text frames, 4 a second)."""
    default_opponent: str = "rules"
    """With :attr:`engine`: the bot the built single-seat env seats by default (a name of
    :attr:`bots`)."""
    default_seat: int | None = None
    """With :attr:`engine`: the learner's seat by default in the built single-seat env
    (``None``: drawn every episode)."""

    def __post_init__(self) -> None:
        if not self.name.isidentifier() or self.name != self.name.lower():
            raise ValueError(f"bad game name {self.name!r}: expected a lowercase identifier")
        if self.engine is not None:
            self._fill_built_envs()
        if self.players < 1:
            raise ValueError(f"bad players {self.players!r} for {self.name}: expected >= 1")
        if self.players == 1 and self.single is None:
            raise ValueError(f"{self.name}: a one-player game needs its Gymnasium env (single)")
        if self.players > 1 and self.aec is None:
            raise ValueError(f"{self.name}: a game of several players needs its AEC env (aec)")
        if not self.option_sets:
            raise ValueError(f"{self.name}: option_sets needs at least the default set")

    def _fill_built_envs(self) -> None:
        """The entry points of the envs :mod:`.build` makes from this spec, where the spec
        names none of its own."""
        built = _BUILD
        filled: dict[str, Any] = {}
        if self.aec is None:
            filled["aec"] = f"{built}:{self.name}__env"
            if self.parallel is None and getattr(load(str(self.engine)), "simultaneous", False):
                filled["parallel"] = f"{built}:{self.name}__parallel_env"
        if self.single is None:
            filled["single"] = single = f"{built}:{self.name}__Env"
            if not self.gym_ids:
                camel = "".join(part.capitalize() for part in self.name.split("_"))
                gym_id = self.gym_id or f"pokerzoo/{camel}-v0"
                filled["gym_ids"] = (GymId(gym_id, entry_point=single),)
        for key, value in filled.items():
            object.__setattr__(self, key, value)  # a frozen dataclass: set once, here

    def config_path(self) -> Path | None:
        """The file :attr:`config` names (``None`` when it names none)."""
        if self.config is None:
            return None
        package, sep, name = self.config.partition(":")
        if sep and package.replace(".", "").isidentifier() and "/" not in package:
            return Path(str(resources.files(package).joinpath(name)))
        return Path(self.config)

    # --- builders (lazy imports) --------------------------------------------------------------
    @property
    def bot_classes(self) -> Mapping[str, type]:
        return load(self.bots)

    def _load(self, path: str) -> Any:
        """The object an entry point names; an env :mod:`.build` makes is built for this spec
        (registered or not)."""
        module, _, attribute = path.partition(":")
        if module == _BUILD and attribute.startswith(f"{self.name}__"):
            # named like every entry point: the registry imports no env module itself
            return load(f"{_BUILD}:built")(self, attribute[len(self.name) + 2 :])
        return load(path)

    def make_bot(self, name: str, seed: int | None = None, **options: Any) -> Any:
        bots = self.bot_classes
        if name not in bots:
            raise ValueError(f"unknown bot {name!r} for {self.name}: expected one of {list(bots)}")
        return bots[name](seed=seed, **options)

    def make_single(self, **options: Any) -> Any:
        """The Gymnasium env that training plays (see :attr:`single`)."""
        if self.single is None:
            raise ValueError(f"{self.name} has no Gymnasium env")
        return self._load(self.single)(**options)

    def make_aec(self, **options: Any) -> Any:
        if self.aec is None:
            raise ValueError(f"{self.name} has no PettingZoo env")
        return self._load(self.aec)(**options)

    def make_parallel(self, **options: Any) -> Any:
        if self.parallel is None:
            raise ValueError(f"{self.name} has no parallel PettingZoo env")
        return self._load(self.parallel)(**options)

    def make_vector(self, num_envs: int, **options: Any) -> Any:
        if self.vector is None:
            raise ValueError(f"{self.name} has no native vector env")
        return load(self.vector)(num_envs, **options)

    def check_options(self, options: Mapping[str, Any]) -> None:
        """Build the game's env once, so that a bad option raises the env's own error; an
        option the env does not take raises :class:`~.errors.UnknownOptionError` (a
        ``TypeError``) naming it and the game's options."""
        from .errors import UnknownOptionError

        make = self.make_single if self.players == 1 else self.make_aec
        try:
            env = make(**options)
        except UnknownOptionError as error:
            raise UnknownOptionError.naming(error.option, list(self.options), self.name) from None
        env.close()


_GAMES: dict[str, GameSpec] = {}
_BUILD = f"{__name__.rsplit('.', 1)[0]}.build"


def package_game(
    name: str,
    *,
    env_class: str,
    gym_id: str,
    parallel: bool = False,
    vector_class: str | None = None,
    **fields: Any,
) -> GameSpec:
    """The :class:`GameSpec` of a game of this package, its entry points where
    ``docs/adding_a_game.md`` puts them: the bots ``pokerzoo.agents.<name>:BOTS``, the PettingZoo
    ``pokerzoo.envs.<name>_v0:env`` (and ``:parallel_env`` with ``parallel``), the Gymnasium
    env ``pokerzoo.envs.<name>.env:<env_class>`` under the id ``gym_id`` (with
    ``pokerzoo.envs.<name>.vector:<vector_class>`` as its native vector env where given) and
    the training hooks ``pokerzoo.training.games.<name>:HOOKS``. ``fields``: the spec's other
    fields (title, summary, players, options, option sets, scoring)."""
    envs = f"pokerzoo.envs.{name}"
    single = f"{envs}.env:{env_class}"
    vector = None if vector_class is None else f"{envs}.vector:{vector_class}"
    return GameSpec(
        name=name,
        bots=f"pokerzoo.agents.{name}:BOTS",
        aec=f"{envs}_v0:env",
        parallel=f"{envs}_v0:parallel_env" if parallel else None,
        single=single,
        gym_ids=(GymId(gym_id, entry_point=single, vector_entry_point=vector),),
        vector=vector,
        training=f"pokerzoo.training.games.{name}:HOOKS",
        **fields,
    )


def _pettingzoo_entries(spec: GameSpec) -> list[tuple[str, str]]:
    """``(env_type, entry_point)`` of each of the game's PettingZoo envs."""
    entries = [("aec", spec.aec)] if spec.aec else []
    if spec.parallel:
        entries.append(("parallel", spec.parallel))
    return entries  # type: ignore[return-value]


def pettingzoo_id(spec: GameSpec) -> str | None:
    """The game's id in PettingZoo's registry (``None``: it has no PettingZoo env, or no id)."""
    if spec.aec is None:
        return None
    return spec.pettingzoo_id or (spec.gym_ids[0].id if spec.gym_ids else None)


def _pettingzoo_registries() -> dict[str, dict[str, Any]] | None:
    """PettingZoo's registries by env type (PettingZoo 1.27 and later; else ``None``)."""
    try:
        from pettingzoo.env_registry.registration import aec_registry, parallel_registry
    except ImportError:
        return None
    return {"aec": aec_registry, "parallel": parallel_registry}


@dataclass(frozen=True)
class SeatVectorEntry:
    """The ``vector_entry_point`` of a multi-player game's Gymnasium id (registered by
    :func:`register_game`): ``SeatVectorEntry(entry)(num_envs, autoreset_mode=...,
    **options)`` is a :class:`~.seat_vector.SeatVectorEnv` of ``num_envs`` tables
    ``entry(**options)``, so ``gymnasium.make_vec(id, num_envs, **options)`` builds it."""

    entry_point: str
    """``module:Class`` of the id's single-seat env."""

    def __call__(
        self,
        num_envs: int = 1,
        *,
        autoreset_mode: str = "NextStep",
        **options: Any,
    ) -> Any:
        from .options import check_int
        from .seat_vector import SeatVectorEnv  # imported when a vector env is built

        count = check_int("num_envs", num_envs, 1)
        make = load(self.entry_point)
        return SeatVectorEnv([make(**options) for _ in range(count)], autoreset_mode=autoreset_mode)


def _vector_entry_point(spec: GameSpec, gym_id: GymId) -> Any:
    """The id's own vector entry point, else for a game of several players the vector env of
    tables of its single-seat env (:class:`SeatVectorEntry`)."""
    if gym_id.vector_entry_point is not None or spec.players == 1:
        return gym_id.vector_entry_point
    return SeatVectorEntry(gym_id.entry_point)


def register_game(spec: GameSpec) -> GameSpec:
    """Add a game to the registry and register its Gymnasium ids and (with PettingZoo 1.27 or
    later) its PettingZoo envs in PettingZoo's registry.

    Raises ``ValueError`` when the name or one of the ids is registered already.
    """
    from gymnasium.envs.registration import register, registry

    if spec.name in _GAMES:
        raise ValueError(f"game {spec.name!r} is registered already")
    for gym_id in spec.gym_ids:
        if gym_id.id in registry:
            raise ValueError(f"Gymnasium id {gym_id.id!r} is registered already")
    pz_id, pz_registries = pettingzoo_id(spec), _pettingzoo_registries()
    if pz_id is not None and pz_registries is not None:
        for env_type, _ in _pettingzoo_entries(spec):
            if pz_id in pz_registries[env_type]:
                raise ValueError(f"PettingZoo {env_type} id {pz_id!r} is registered already")
    _GAMES[spec.name] = spec
    for gym_id in spec.gym_ids:
        register(
            id=gym_id.id,
            entry_point=gym_id.entry_point,
            vector_entry_point=_vector_entry_point(spec, gym_id),
        )
    if pz_id is not None and pz_registries is not None:
        from pettingzoo.env_registry.registration import register as register_pettingzoo

        for env_type, entry_point in _pettingzoo_entries(spec):
            register_pettingzoo(env_type, pz_id, entry_point=entry_point)  # type: ignore[arg-type]
    return spec


def unregister_game(name: str) -> None:
    """Remove a game, its Gymnasium ids and its PettingZoo ids (for tests that register a game
    of their own)."""
    from gymnasium.envs.registration import registry

    spec = _GAMES.pop(name)
    for gym_id in spec.gym_ids:
        registry.pop(gym_id.id, None)
    pz_id, pz_registries = pettingzoo_id(spec), _pettingzoo_registries()
    if pz_id is not None and pz_registries is not None:
        for env_type, _ in _pettingzoo_entries(spec):
            pz_registries[env_type].pop(pz_id, None)


ENTRY_POINT_GROUP = "pokerzoo.games"
"""The entry point group of plugin games: each entry point names a :class:`GameSpec`."""


def discover() -> None:
    """Register every game package under :mod:`pokerzoo.envs` that has a ``spec`` module, then
    every game an installed package declares in the ``pokerzoo.games`` entry point group (read
    once; idempotent: games already registered are skipped)."""
    # The folder of pokerzoo.envs, found without importing it (it imports this module).
    envs_dir = Path(__file__).resolve().parent.parent
    envs_name = __name__.rsplit(".", 2)[0]
    for module in sorted(pkgutil.iter_modules([str(envs_dir)]), key=lambda m: m.name):
        # Look for the file first: only a game package (one with a spec) is imported.
        if not module.ispkg or module.name in _DISCOVERED:
            continue
        if not (envs_dir / module.name / "spec.py").is_file():
            continue
        spec = importlib.import_module(f"{envs_name}.{module.name}.spec").SPEC
        _DISCOVERED.add(module.name)
        if spec.name not in _GAMES:
            register_game(spec)
    if not _PLUGINS_READ:
        _PLUGINS_READ.append(True)
        discover_plugins()


def discover_plugins() -> list[str]:
    """Register the games of the ``pokerzoo.games`` entry points (each names a
    :class:`GameSpec`) that are not registered yet; the names of those it registered. An entry
    point that fails to load, names no spec or clashes with a registered game is skipped with
    a warning naming it (a broken plugin does not break ``import pokerzoo.envs``)."""
    added = []
    for entry in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
        try:
            spec = entry.load()
            if not isinstance(spec, GameSpec):
                raise TypeError(f"expected a GameSpec, got {type(spec).__name__}")
            if _GAMES.get(spec.name) is spec:
                continue
            register_game(spec)
        except Exception as error:  # noqa: BLE001 - any plugin failure is reported, not raised
            warnings.warn(
                f"pokerzoo: game plugin {entry.name} = {entry.value!r} skipped: {error}",
                RuntimeWarning,
                stacklevel=2,
            )
            continue
        added.append(spec.name)
    return added


_DISCOVERED: set[str] = set()
_PLUGINS_READ: list[bool] = []


def games() -> dict[str, GameSpec]:
    """Every registered game, by name, in registration order."""
    discover()
    return dict(_GAMES)


def get_game(name: str) -> GameSpec:
    """The game called ``name`` (``-`` is read as ``_``: ``poker-squares``)."""
    known = games()
    key = name.replace("-", "_") if isinstance(name, str) else name
    if key not in known:
        raise ValueError(f"unknown game {name!r}: expected one of {', '.join(sorted(known))}")
    return known[key]


def game_bots(name: str) -> Mapping[str, Callable[..., Any]]:
    """The bot registry of the game called ``name`` (bot name -> class, built
    ``Cls(seed=..., **options)``): the object its spec's ``bots`` entry point names, imported
    on the first call, as Gymnasium imports an ``entry_point`` when an env is made. This is how
    the single-seat envs (:class:`~.single_seat.BotTableEnv`) reach ``pokerzoo.agents``
    without importing it."""
    spec = _GAMES.get(name) or get_game(name)  # a registered game needs no discovery
    return spec.bot_classes
