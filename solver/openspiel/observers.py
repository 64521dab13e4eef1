"""Observations and information states of the adapter: OpenSpiel's observation types over our games.

An observation type (OpenSpiel's ``IIGObservationType``) says whose private information is
seen (``none``, the observing player's, ``all``), whether public information is, and
whether the observation has perfect recall (an information state). Each game lists its
public and private tensor pieces (``solver/<game>/openspiel.py``); an observation of a
type is the pieces that type sees, plus the adapter's own ``progress`` (decisions made
over ``max_moves``, public) and ``observer`` (who observes, when one player's private
information is seen).

Perfect recall: the information state of a type is the player's action-observation
history (OpenSpiel's definition): the observation of that type at the start, then one
record per step of the game (a decision or a chance outcome) with who acted, the player's
own action (every player's action for the all-players type, none for the public type),
and the observation after the step. The default information state string records the
observation as what changed in our JSON observation; the tensor stacks the records in
fixed slots, as many as the game can have steps (``docs/openspiel.md``).

Records are built lazily: a position keeps the list of steps since it started (its
*trail*) and works the records out the first time an information state is asked for,
advancing a copy of the position from where it last stopped, so that algorithms that never
ask (random rollouts, self-play) pay nothing for them.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from solver.errors import InvalidInputError
from solver.learning import Piece, bit_width, bits

if TYPE_CHECKING:
    from solver.openspiel.adapter import Context, Position

NONE, SINGLE, ALL = "none", "single", "all"
#: an information state tensor is offered when it has at most this many floats (else ``max_moves`` is too high)
INFO_TENSOR_LIMIT = 1 << 16


@dataclass(frozen=True)
class Kind:
    """An observation type: perfect recall or not, public information or not, whose private information."""

    perfect_recall: bool = False
    public: bool = True
    private: str = SINGLE

    @property
    def default(self) -> bool:
        """OpenSpiel's default observation or information state (public and the observer's private information)."""
        return self.public and self.private == SINGLE

    def now(self) -> Kind:
        """The same type without perfect recall (what one record of a history holds)."""
        return Kind(False, self.public, self.private)


def kind_of(iig_obs_type: Any) -> Kind:
    """Our :class:`Kind` of an ``IIGObservationType`` (``None``: the default observation)."""
    if iig_obs_type is None:
        return Kind()
    private = {"NONE": NONE, "SINGLE_PLAYER": SINGLE, "ALL_PLAYERS": ALL}[iig_obs_type.private_info.name]
    return Kind(bool(iig_obs_type.perfect_recall), bool(iig_obs_type.public_info), private)


# -- observations without memory ----------------------------------------------------------------------------------
class Layout:
    """The tensor pieces of one observation type (without perfect recall) for one parameter set."""

    def __init__(self, context: Context, kind: Kind) -> None:
        game, facts = context.game, context.facts
        self.kind = kind
        self.public: list[Piece] = facts.public_pieces(game) + [Piece("progress", (1,))] if kind.public else []
        self.private: list[list[Piece]] = []   # per player whose private pieces are seen
        self.players: list[int] = []
        own = facts.private_pieces(game)
        if kind.private == SINGLE:
            self.private = [own + [Piece("observer", (context.num_players,))]]
        elif kind.private == ALL:
            self.players = list(range(context.num_players))
            self.private = [[Piece(f"p{q}.{p.name}", p.shape) for p in own] for q in self.players]
        self.pieces = self.public + [p for block in self.private for p in block]
        self.size = sum(p.size for p in self.pieces)
        self._spans = []
        start = 0
        for piece in self.pieces:
            self._spans.append((piece.name, start, start + piece.size, piece.shape))
            start += piece.size
        self._last: tuple[np.ndarray, dict[str, np.ndarray]] | None = None

    def spans(self) -> list[tuple[str, int, int, tuple[int, ...]]]:
        """``(name, start, end, shape)`` of each piece in the flat tensor."""
        return list(self._spans)

    def views(self, tensor: np.ndarray) -> dict[str, np.ndarray]:
        """Named views into ``tensor`` (OpenSpiel's observer ``dict``; the views of the last tensor are kept)."""
        if self._last is not None and self._last[0] is tensor:
            return self._last[1]
        out = {name: tensor[a:b].reshape(shape) for name, a, b, shape in self._spans}
        self._last = (tensor, out)
        return out

    def fill(self, position: Position, player: int, tensor: np.ndarray) -> None:
        """Write the observation of ``player`` (whose private information a single-player type sees) into
        ``tensor`` (zeroed here)."""
        tensor.fill(0)
        planes = self.views(tensor)
        context = position.context
        game, facts = context.game, context.facts
        playing = position.playing
        if self.kind.public:
            planes["progress"][0] = position.moves / context.max_moves
            if playing:
                facts.fill_public(game, position.inner, planes)
        if self.kind.private == SINGLE:
            planes["observer"][player] = 1
            if playing:
                facts.fill_private(game, position.inner, player, planes)
        elif self.kind.private == ALL and playing:
            for q in self.players:
                prefix = f"p{q}."
                own = {name[len(prefix):]: view for name, view in planes.items() if name.startswith(prefix)}
                facts.fill_private(game, position.inner, q, own)

    def snapshot(self, position: Position, player: int) -> np.ndarray:
        """A new array with ``player``'s observation."""
        tensor = np.zeros(self.size, np.float32)
        self.fill(position, player, tensor)
        return tensor

    def text(self, position: Position, player: int) -> str:
        """The observation as text: the default type is our JSON observation; the others list their tensor's
        non-zero entries piece by piece (``name[i,j]=v``)."""
        if self.kind.default:
            return position.observation_text(player)
        return render(self.views(self.snapshot(position, player)))


def render(planes: dict[str, np.ndarray]) -> str:
    """Every non-zero entry of the named arrays, ``name[i,j]=v``, in order (an exact text of the tensor)."""
    parts = []
    for name, plane in planes.items():
        for index in zip(*np.nonzero(plane)):
            value = float(plane[index])
            shown = "1" if value == 1.0 else repr(value)
            parts.append(f"{name}[{','.join(str(int(i)) for i in index)}]={shown}")
    return " ".join(parts)


# -- perfect recall: the trail of steps and the records built from it ------------------------------------------
class Link:
    """A node of an immutable list, newest first (copies of a position share their common past).

    ``memo`` caches what was worked out at this node (the perfect-recall records up to this step), so
    that every copy of a position, and every position resampled from it, reuses it.
    """

    __slots__ = ("item", "parent", "length", "memo")

    def __init__(self, item: Any, parent: Link | None) -> None:
        self.item = item
        self.parent = parent
        self.length = 1 + (parent.length if parent is not None else 0)
        self.memo: dict[Any, Any] | None = None


def newest_first(link: Link | None, count: int | None = None) -> list[Any]:
    """The items of ``link``'s list, newest first (at most ``count``)."""
    out = []
    while link is not None and (count is None or len(out) < count):
        out.append(link.item)
        link = link.parent
    return out


@dataclass(frozen=True)
class Records:
    """The perfect-recall records of one observation type, per player, up to step ``upto`` of the trail.

    ``cursor`` is a copy of the position after step ``upto`` (never changed: advancing copies it);
    ``last`` the observation of each player there (a JSON object for the default string, else a
    snapshot), ``chains`` each player's records (:class:`Link` lists).
    """

    upto: int
    cursor: Position
    last: tuple[Any, ...]
    chains: tuple[Link, ...]


class Trail:
    """The steps since a position's history starts (the root, or the position a resample drew).

    ``base`` is None for the game's root, else a copy of the starting position; ``origin`` is, for
    a resampled position, the trail of the position it was drawn from and the player it was drawn
    for: that player's history so far is theirs. ``head`` is the newest step (a sentinel before
    the first): the records worked out at a step are kept on it (:attr:`Link.memo`).
    """

    __slots__ = ("base", "head", "origin")

    def __init__(self, base: Position | None = None, origin: tuple[Trail, int] | None = None) -> None:
        self.base = base
        self.head = Link(None, None)
        self.origin = origin

    @property
    def length(self) -> int:
        """Steps since the start."""
        return self.head.length - 1

    def copy(self) -> Trail:
        other = Trail(self.base, self.origin)
        other.head = self.head
        return other

    def add(self, actor: int, action: int) -> None:
        """Record one step: ``actor`` (a player, or OpenSpiel's chance id) applied OpenSpiel's ``action``."""
        self.head = Link((actor, action), self.head)

    def actions(self) -> list[tuple[int, int]]:
        """Every step since the start, oldest first."""
        return newest_first(self.head, self.length)[::-1]

    def records(self, history: History, start: Callable[[], Position]) -> Records:
        """The records of ``history``'s observation type up to the newest step (worked out on first use, from
        the nearest step that has them; ``start()`` is a fresh copy of the starting position)."""
        key = (history.kind, history.what)
        node, behind = self.head, []
        while node.memo is None or key not in node.memo:
            if node.parent is None:
                break
            behind.append(node.item)
            node = node.parent
        if node.memo is not None and key in node.memo:
            records = node.memo[key]
        else:   # the sentinel, without records yet
            first = start()
            first.trail = None
            records = history.start(self, first)
            node.memo = node.memo or {}
            node.memo[key] = records
        if behind:
            records = history.advance(records, behind[::-1])
            self.head.memo = self.head.memo or {}
            self.head.memo[key] = records
        return records


class History:
    """Builds the records of one perfect-recall observation type (``what`` is ``"string"`` or ``"tensor"``)."""

    def __init__(self, context: Context, kind: Kind, what: str) -> None:
        self.context = context
        self.kind = kind
        self.what = what
        self.layout = Layout(context, kind.now())
        self.players = context.num_players
        self.action_bits = bit_width(context.codec.num_distinct_actions) if kind.private != NONE else 0
        self.slot = 1 + (self.players + 1) + self.action_bits + self.layout.size
        self.slots = context.history_steps + 1
        self.size = self.slots * self.slot

    # -- what one record holds
    def observe(self, position: Position, player: int) -> Any:
        if self.what == "string" and self.kind.default:
            return position.observation(player)
        if self.what == "string":
            return self.layout.text(position, player)
        return self.layout.snapshot(position, player)

    def shows_action(self, actor: int, player: int) -> bool:
        if actor < 0:
            return False
        return self.kind.private == ALL or (self.kind.private == SINGLE and actor == player)

    def start_record(self, seen: Any, word: str) -> Any:
        if self.what == "tensor":
            return (None, None, seen)
        if isinstance(seen, dict):
            seen = json.dumps(seen, sort_keys=True, separators=(",", ":"))
        return f"{word} {seen}"

    def step_record(self, actor: int, action: int, move: str, before: Any, after: Any, player: int) -> Any:
        shown = self.shows_action(actor, player)
        if self.what == "tensor":
            return (actor, action if shown else None, after)
        who = "chance" if actor < 0 else f"p{actor}"
        if isinstance(after, dict):
            seen = json.dumps(changes(before, after), sort_keys=True, separators=(",", ":"))
        else:
            seen = after
        return f"{who} {move if shown else '-'} {seen}"

    # -- building and advancing
    def start(self, trail: Trail, position_at_base: Position) -> Records:
        """Records at the start of ``trail``: the first observation, or a resampling player's own history."""
        last, chains = [], []
        inherited = self.inherited(trail)
        for p in range(self.players):
            if inherited is not None and p == inherited[0]:
                last.append(inherited[1])
                chains.append(inherited[2])
                continue
            seen = self.observe(position_at_base, p)
            word = "start" if trail.origin is None else "resampled"
            last.append(seen)
            chains.append(Link(self.start_record(seen, word), None))
        return Records(0, position_at_base, tuple(last), tuple(chains))

    def inherited(self, trail: Trail) -> tuple[int, Any, Link] | None:
        """For a resampled position: the resampling player, their last observation and their records so far."""
        if trail.origin is None:
            return None
        origin, player = trail.origin
        records = origin.records(self, lambda: start_of(origin, self.context))
        return player, records.last[player], records.chains[player]

    def advance(self, records: Records, steps: list[tuple[int, int]]) -> Records:
        """``records`` moved on through ``steps`` (oldest first), on a copy of the cursor."""
        if not steps:
            return records
        cursor = records.cursor.copy()
        last, chains = list(records.last), list(records.chains)
        for actor, action in steps:
            move = cursor.action_to_string(actor, action) if actor >= 0 else ""
            cursor.apply(action)
            for p in range(self.players):
                seen = self.observe(cursor, p)
                chains[p] = Link(self.step_record(actor, action, move, last[p], seen, p), chains[p])
                last[p] = seen
        return Records(records.upto + len(steps), cursor, tuple(last), tuple(chains))

    # -- the information state
    def text(self, records: Records, player: int) -> str:
        return "\n".join(newest_first(records.chains[player])[::-1])

    def fill(self, records: Records, player: int, tensor: np.ndarray) -> None:
        chain = newest_first(records.chains[player])[::-1]
        if len(chain) > self.slots:
            raise AssertionError(f"{self.context.name}: {len(chain) - 1} steps, more than the {self.slots - 1} the "
                                 "information state tensor has room for (chance_steps in the game's openspiel.py "
                                 "is wrong)")
        tensor.fill(0)
        table = tensor.reshape(self.slots, self.slot)
        n = self.players
        for row, (actor, action, seen) in zip(table, chain):
            row[0] = 1
            if actor is not None:
                row[1 + (actor if actor >= 0 else n)] = 1
            if action is not None:
                row[2 + n:2 + n + self.action_bits] = bits(action, self.action_bits)
            row[2 + n + self.action_bits:] = seen


def start_of(trail: Trail, context: Context) -> Position:
    """A fresh copy of the position ``trail`` starts at."""
    return trail.base.copy_without_trail() if trail.base is not None else context.root()


def changes(before: Any, after: dict[str, Any]) -> dict[str, Any]:
    """What changed from one JSON observation to the next: new values of changed keys and the keys dropped."""
    if not isinstance(before, dict):
        return {"set": after, "drop": []}
    changed = {k: v for k, v in after.items() if k not in before or before[k] != v}
    dropped = sorted(k for k in before if k not in after)
    return {"set": changed, "drop": dropped}


# -- OpenSpiel's observer --------------------------------------------------------------------------------------
class Observer:
    """OpenSpiel's Python observer of one observation type: ``tensor``, ``dict``, ``set_from``, ``string_from``."""

    def __init__(self, context: Context, iig_obs_type: Any, params: dict[str, Any] | None) -> None:
        if params:
            raise InvalidInputError("params", params, "observation parameters are not supported")
        self.context = context
        self.kind = kind_of(iig_obs_type)
        if not self.kind.public and self.kind.private == NONE:
            raise InvalidInputError("iig_obs_type", str(iig_obs_type), "an observation of nothing (no public and no "
                                                                       "private information)")
        self.dict: dict[str, np.ndarray] = {}
        self.tensor: np.ndarray | None = None
        if self.kind.perfect_recall:
            self.strings = History(context, self.kind, "string")
            self.history = History(context, self.kind, "tensor")
            if self.history.size <= INFO_TENSOR_LIMIT:
                self.tensor = np.zeros(self.history.size, np.float32)
                self.dict = {"history": self.tensor.reshape(self.history.slots, self.history.slot)}
        else:
            self.layout = Layout(context, self.kind)
            self.tensor = np.zeros(self.layout.size, np.float32)
            self.dict = self.layout.views(self.tensor)

    def set_from(self, state: Any, player: int) -> None:
        position = state.position
        position.check_player(player)
        if self.kind.perfect_recall:
            if self.tensor is None:
                raise InvalidInputError("information_state_tensor", self.history.size,
                                        f"the information state tensor of {self.context.name} with max_moves="
                                        f"{self.context.max_moves} would hold more than {INFO_TENSOR_LIMIT:,} floats: "
                                        "lower max_moves, or use the observation tensor")
            self.history.fill(position.records(self.history), player, self.tensor)
        else:
            self.layout.fill(position, player, self.tensor)

    def string_from(self, state: Any, player: int) -> str:
        position = state.position
        position.check_player(player)
        if self.kind.perfect_recall:
            return self.strings.text(position.records(self.strings), player)
        return self.layout.text(position, player)
