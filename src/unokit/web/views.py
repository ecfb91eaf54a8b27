"""What each seat and each spectator of a room is sent: the room info, the
``state`` snapshots and the ``delta`` messages between versions (docs/protocol.md),
with their caches.

Each connection receives only ``game.observe(its seat)`` (``None`` for a
spectator) — built here from the engine's observation, with the round's history
serialised once per event and reused (the JSON is identical to
``json.dumps(game.observe(seat).to_dict())``). :class:`RoomViews` is the part of
:class:`~unokit.web.room.Room` that makes them.
"""

from __future__ import annotations

import itertools
import json
import operator
import time
from collections import deque
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any

import orjson

from unokit.engine.events import Event, redact
from unokit.engine.game import Game
from unokit.engine.observation import (
    JSON_KEYS,
    JSON_SOURCES,
    SEAT_KEYS,
    Observation,
    PublicView,
    SeatPart,
    SeatRaw,
    entries,
    event_to_dict,
    part_of_raw,
    public_view,
    seat_raw,
)
from unokit.web.parts import RoomParts

if TYPE_CHECKING:
    from unokit.web.conn import Conn

__all__ = ["DELTA_HISTORY", "DUMPS", "RoomViews"]

#: compact JSON of any message (what a client typed included)
DUMPS = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode


def _json(value: Any) -> str:
    """Compact JSON of what the engine made (observation entries, events, the
    last command): the same text as :data:`DUMPS` for these values, about
    five times faster. Anything a client typed (names, chat) goes through
    :data:`DUMPS`."""
    return orjson.dumps(value).decode()


@dataclass
class _Cache:
    """What is built once per change of the room (:attr:`Room.epoch`)."""

    epoch: int = -1
    info_key: tuple[Any, ...] | None = None  # what the info holds besides its version
    info: tuple[tuple[Any, ...], dict[str, Any], str, str] | None = None  # Room._info()
    info_json: str | None = None
    info_delta: str | None = None
    states: dict[int | None, str] = field(default_factory=dict)


@dataclass(slots=True)
class _View:
    """What one seat (None: spectators) sees at one version: the public view
    and the seat's own part of its observation as card ids and move codes
    (:func:`~unokit.engine.observation.seat_raw`; None in the lobby) with the game
    it was seen in, the history's length and first event, and the room info
    without its version. ``changed`` is the JSON object of the entries that
    differ from this seat's view at version ``base``."""

    version: int
    shared: _Shared | None
    own: SeatRaw | None
    game: Game | None
    history: int
    first: Event | None
    info_key: tuple[Any, ...]
    base: int | None = None
    changed: str = ""
    made: SeatPart | None = None

    @property
    def public(self) -> PublicView | None:
        return None if self.shared is None else self.shared.public

    @property
    def part(self) -> SeatPart | None:
        """The seat's own part with cards and typed actions (made on first use:
        deltas compare and convert the ids and codes)."""
        if self.made is None and self.own is not None and self.game is not None:
            self.made = part_of_raw(self.game, self.own)
        return self.made

    def obs(self) -> dict[str, Any]:
        """The observation without its history, JSON-ready (for snapshots): the
        public entries converted once per version for all seats, then this seat's."""
        sh, part = self.shared, self.part
        assert sh is not None and part is not None
        if sh.entries is None:
            sh.entries = entries(sh.public, _PUBLIC_KEYS)
        public = sh.entries
        own = entries(part, SEAT_KEYS)
        return {k: public[k] if k in public else own[k] for k in _NO_HISTORY}


@dataclass(slots=True)
class _Shared:
    """What every seat's view shares at one version: the public view, each
    seat's legal move codes, the public entries changed since the previous
    version (``keys``; None if that version was not viewed) and, once
    needed, their JSON (``text``: the members of the delta's "set")."""

    version: int
    public: PublicView
    legal: list[list[int]]
    keys: list[str] | None
    text: str | None = None
    entries: dict[str, Any] | None = None  # every public entry, JSON-ready (for snapshots)


#: the observation's fields compared from one version to the next (the history apart)
_FIELDS = tuple(f.name for f in fields(Observation) if f.name != "history")
#: the to_dict keys made from each field, in the order of _FIELDS
_KEYS_OF = tuple(tuple(k for k in JSON_KEYS if f in JSON_SOURCES[k]) for f in _FIELDS)
_NO_HISTORY = tuple(k for k in JSON_KEYS if k != "history")
_PUBLIC_KEYS = tuple(k for k in _NO_HISTORY if k not in SEAT_KEYS)
#: the fields every seat sees alike (compared once per version), the keys made
#: from each, and the seat's own part (SeatPart's fields are its keys)
_PUBLIC_FIELDS = tuple(f for f in _FIELDS if f in PublicView.__dataclass_fields__)
_PUBLIC_VALUES = operator.attrgetter(*_PUBLIC_FIELDS)
_PUBLIC_KEYS_OF = tuple(_KEYS_OF[_FIELDS.index(f)] for f in _PUBLIC_FIELDS)
#: the order _View compares a seat's own part in (observation.seat_raw's)
assert SEAT_KEYS == ("seat", "hand", "backs", "drawn", "revealed", "legal")
assert set(_PUBLIC_FIELDS) | set(SEAT_KEYS) == set(_FIELDS)


DELTA_HISTORY = 64
"""Deltas kept per view: a client at most this many versions behind catches
up with deltas, one further behind gets a snapshot."""


class RoomViews(RoomParts):
    """The views of a room's seats and spectators, their deltas and caches
    (a part of :class:`~unokit.web.room.Room`)."""

    def _init_views(self) -> None:
        """The caches, empty (at the room's creation)."""
        self._cache = _Cache()
        # (version, the game without its log, its public view shared by all seats)
        self._shared_view: _Shared | None = None  # what all seats' views share, per version
        self._views: dict[int | None, _View] = {}  # per viewer, its latest view
        # the JSON string of each card (by id) and of each legal action (by code and seat)
        # (made for this card tuple, its strings); the cards are the game's
        self._cards_json: tuple[tuple[Any, ...], list[str]] = ((), [])
        self._move_json: dict[int, str] = {}
        self._info_base: tuple[tuple[Any, ...], dict[str, Any], str, str] | None = None
        self._prev: dict[int | None, _View] = {}  # per viewer, the last view deltas start from
        self._deltas: dict[int | None, deque[tuple[int, str]]] = {}  # (from version, text)
        # serialised events (id -> (event, redacted JSON, full JSON, owner seat))
        self._fragments: dict[int, tuple[Event, str, str, int | None]] = {}
        # per viewer: (first event, events serialised, last of them, their JSON)
        self._histories: dict[int | None, tuple[Event, int, Event, str]] = {}
        # the events of the current version's deltas: (the game's log, (start,
        # its length), their fragment entries, their text if the same for all seats)
        self._new_made: tuple[list[Event], tuple[int, int], list[Any], str | None] | None = None

    def info(self) -> dict[str, Any]:
        """The room info (docs/protocol.md), as REST replies and states carry it."""
        _, base, _, _ = self._info()
        return {**base, "version": self.version}

    def _info(self) -> tuple[tuple[Any, ...], dict[str, Any], str, str]:
        """(key, info without its version, the info's JSON before and after the
        version). Rebuilt only when the key (everything but the version) changes,
        not at every move."""
        c = self._fresh_cache()
        if c.info is not None:
            return c.info
        key = c.info_key
        if key is None:
            seats = tuple(
                (s.kind, s.level, s.name, s.claimed, s.kind == "bot" or s.conns > 0, self.auto(s))
                for s in self.seats
            )
            spectators = sum(1 for c in self.conns if c.spectator)
            key = c.info_key = (self.status, self.host, self.match, spectators, self.public,
                                self.turn_timer, seats, tuple(sorted(self.ready)))  # fmt: skip
        cached = self._info_base
        if cached is not None and cached[0] == key:
            c.info = cached
            return cached
        status, host, match, spectators, public, turn_timer, seats, ready = key
        base: dict[str, Any] = {
            "room": self.code,
            "invite": f"/r/{self.code}",
            "variant": self.variant,
            "players": self.players,
            "options": self.options.to_dict(),
            "turn_timer": turn_timer,
            "status": status,
            "host": host,
            "match": match,
            "version": None,
            "spectators": spectators,
            "public": public,
            "ready": list(ready),
            "seats": [
                {
                    "seat": i,
                    "kind": kind,
                    "level": level,
                    "name": name,
                    "claimed": claimed,
                    "connected": connected,
                    "auto": auto,
                }
                for i, (kind, level, name, claimed, connected, auto) in enumerate(seats)
            ],
        }
        head, tail = DUMPS(base).split('"version":null', 1)
        self._info_base = c.info = (key, base, head + '"version":', tail)
        return c.info

    def _info_json(self) -> str:
        c = self._fresh_cache()
        if c.info_json is None:
            _, _, head, tail = self._info()
            c.info_json = f"{head}{self.version}{tail}"
        return c.info_json

    def _fresh_cache(self) -> _Cache:
        c = self._cache
        if c.epoch != self.epoch:
            c = self._cache = _Cache(epoch=self.epoch)
        return c

    def _shared(self) -> _Shared:
        """What every seat's view shares at the current version (made once per
        version): the public view, every seat's legal actions (one load of the
        position into the core for all seats), and which public entries
        changed since the previous version."""
        version = self.version
        sh = self._shared_view
        g = self.game
        assert g is not None
        if sh is not None and sh.version == version and sh.public.game_id == id(g):
            return sh
        public = public_view(g)
        keys: list[str] | None = None
        if sh is not None and sh.version == version - 1:
            keys = [
                k
                for a, b, ks in zip(
                    _PUBLIC_VALUES(sh.public), _PUBLIC_VALUES(public), _PUBLIC_KEYS_OF, strict=True
                )
                if a is not b and a != b
                for k in ks
            ]
        sh = _Shared(version, public, g.legal_moves_by_seat(), keys)
        self._shared_view = sh
        return sh

    def _view(self, seat: int | None) -> _View:
        """The view of ``seat`` at the current version (computed once per version).

        The public part is compared with the previous version's once for all
        seats (:meth:`_shared`); per seat only its own part (hand, legal
        actions, drawn and revealed cards, Flip backs) is made and compared
        with its previous view. Only the entries that changed are converted
        to JSON: the public ones once per version, the seat's own once per
        version for all the seats that see the same value."""
        version = self.version
        old = self._views.get(seat)
        if old is not None and old.version == version:
            return old
        g = self.game
        sh: _Shared | None = None
        own: SeatRaw | None = None
        history, first = 0, None
        base: int | None = None
        changed = ""
        if g is not None and self.status == "playing":
            sh = self._shared()
            public = sh.public
            own = seat_raw(g, seat, public, () if seat is None else sh.legal[seat])
            if old is not None and old.shared is not None and old.own is not None:
                if sh.keys is not None and old.version == version - 1:
                    if sh.text is None:
                        sh.text = self._members(public, sh.keys)
                    pieces = [sh.text] if sh.text else []
                else:  # a gap: compare the public part too
                    keys = [
                        k
                        for a, b, ks in zip(
                            _PUBLIC_VALUES(old.shared.public),
                            _PUBLIC_VALUES(public),
                            _PUBLIC_KEYS_OF,
                            strict=True,
                        )  # fmt: skip
                        if a is not b and a != b
                        for k in ks
                    ]
                    pieces = [self._members(public, keys)] if keys else []
                was = old.own
                # in the order of SEAT_KEYS: seat (the same for one viewer), hand,
                # backs, drawn, revealed, legal
                backs_changed = was[2] is not own[2] and was[2] != own[2]
                if backs_changed or was[4] != own[4]:
                    part = part_of_raw(g, own)
                if was[1] != own[1]:
                    cj = self._card_json(g)
                    pieces.append('"hand":[' + ",".join([cj[c] for c in own[1]]) + "]")
                if backs_changed:
                    pieces.append(f'"backs":{_json(entries(part, ("backs",))["backs"])}')
                if was[3] != own[3]:
                    d = own[3]
                    pieces.append('"drawn":' + ("null" if d < 0 else self._card_json(g)[d]))
                if was[4] != own[4]:
                    pieces.append(f'"revealed":{_json(entries(part, ("revealed",))["revealed"])}')
                if was[5] != own[5]:
                    legal = "" if seat is None else self._legal_json(g, seat, own[5])
                    pieces.append('"legal":[' + legal + "]")
                changed = "{" + ",".join(pieces) + "}"
                base = old.version
            events = g.log or []
            history, first = len(events), (events[0] if events else None)
        view = _View(version, sh, own, g, history, first, self._info()[0], base, changed)
        self._views[seat] = view
        return view

    def _card_json(self, g: Game) -> list[str]:
        """The JSON string of each card of ``g``, by id."""
        cards = g.variant.cards.cards
        made, texts = self._cards_json
        if made is not cards:
            texts = [_json(str(c)) for c in cards]
            self._cards_json = (cards, texts)
            self._move_json = {}
        return texts

    def _legal_json(self, g: Game, seat: int, codes: tuple[int, ...]) -> str:
        """The JSON strings of ``seat``'s legal move codes, comma-separated
        (each action's text made once per room: it depends on the code, the
        seat and the cards only)."""
        self._card_json(g)  # the cards of g: the texts are theirs
        texts = self._move_json
        out = []
        for m in codes:
            key = m * 64 + seat
            t = texts.get(key)
            if t is None:
                t = texts[key] = _json(str(g.decode(seat, m)))
            out.append(t)
        return ",".join(out)

    @staticmethod
    def _members(source: PublicView | SeatPart, keys: list[str]) -> str:
        """``"key":JSON`` members of the entries ``keys`` of ``source``, comma-separated."""
        return ",".join(f'"{k}":{_json(v)}' for k, v in entries(source, keys).items())

    def state_text(self, seat: int | None) -> str:
        """The ``state`` message for ``seat`` (None: spectator), as JSON text.

        Built by hand from JSON pieces: the room info once per change, the
        observation without its history, and the history from fragments
        serialised once per event (the result parses to exactly
        ``game.observe(seat).to_dict()``)."""
        c = self._fresh_cache()
        text = c.states.get(seat)
        if text is not None:
            return text
        obs_json = "null"
        g = self.game
        view = self._view(seat)
        if g is not None and view.public is not None:
            obs_json = _json(view.obs())[:-1] + ',"history":' + self._history_json(g, seat) + "}"
        text = (
            f'{{"type":"state","version":{self.version},"seat":{DUMPS(seat)},'
            f'"info":{self._info_json()},"observation":{obs_json},{self._tail_json()}}}'
        )
        c.states[seat] = text
        return text

    def _tail_json(self) -> str:
        remaining = (
            None if self.deadline is None else round(max(0.0, self.deadline - time.time()), 2)
        )
        return (
            f'"last":{_json(self.last)},"deadline":{_json(self.deadline)},'
            f'"remaining":{_json(remaining)}'
        )

    # ------------------------------------------------------------ incremental updates

    def update_texts(self, conn: Conn) -> list[str]:
        """What brings ``conn`` up to date: a snapshot, or (a client that asked
        for deltas and holds a recent version) the shared delta texts from its
        version to the current one, then the room info if only that changed.

        A delta client's own commands are acknowledged inside the delta of
        their version (``"ack": id``: one message per command, not two); an
        ack no delta carries (a snapshot was due) goes first, on its own."""
        version = self.version
        seat = conn.seat
        if not conn.deltas:
            return [self.state_text(seat)]
        since = conn.sent_version
        chain: list[str] | None = []
        if since is not None and since != version:
            chain = self._chain(seat, since)
            if chain is None:
                since = conn.sent_version = None
        key = self._info()[0]
        acks = conn.acks
        if since is None:
            texts = [self.state_text(seat)]  # it carries the info too
            view = self._view(seat)
            if self._prev.get(seat) is not view:
                self._prev[seat] = view
                self._deltas.pop(seat, None)  # deltas start again from here
        else:
            texts = list(chain or ())
            if acks:
                for v in [v for v in acks if since < v <= version]:
                    i = v - since - 1
                    texts[i] = f'{texts[i][:-1]},"ack":{acks.pop(v)}}}'
            if conn.sent_info != key:
                texts.append(self._info_delta())
        if acks:
            texts[:0] = [
                DUMPS({"type": "ack", "id": i, "version": v}) for v, i in sorted(acks.items())
            ]
            acks.clear()
        conn.sent_version = version
        conn.sent_info = key
        return texts

    def _chain(self, seat: int | None, since: int) -> list[str] | None:
        """The deltas of ``seat``'s view from version ``since`` to now, or None."""
        version = self.version
        kept = self._deltas.get(seat)
        n = version - since
        if not kept or not 0 < n <= len(kept) or kept[-1][0] != version - 1:
            return None
        if n == 1:  # the usual case: the client holds the previous version
            return [kept[-1][1]]
        start = len(kept) - n
        if kept[start][0] != since:
            return None
        return [text for _, text in itertools.islice(kept, start, None)]

    def _info_delta(self) -> str:
        c = self._fresh_cache()
        if c.info_delta is None:
            c.info_delta = (
                f'{{"type":"delta","from":{self.version},"version":{self.version},'
                f'"info":{self._info_json()}}}'
            )
        return c.info_delta

    def _record_deltas(self) -> None:
        """After a change of the game: for every view a client follows with
        deltas, the delta from its previous view, serialised once and shared by
        all its watchers."""
        watched = {c.seat for c in self.conns if c.deltas and c.bound}
        for seat in list(self._prev):
            if seat not in watched:
                del self._prev[seat]
                self._deltas.pop(seat, None)
        tail: str | None = None
        for seat in watched:
            prev = self._prev.get(seat)
            if prev is None:
                continue  # its clients get a snapshot first
            view = self._view(seat)
            if view is prev:
                continue  # the same version (automation or presence changed): no delta
            if tail is None:
                tail = self._tail_json()
            text = self._delta_text(seat, prev, view, tail)
            self._prev[seat] = view
            if text is None:
                self._deltas.pop(seat, None)
                continue
            kept = self._deltas.get(seat)
            if kept is None:
                kept = self._deltas[seat] = deque(maxlen=DELTA_HISTORY)
            kept.append((prev.version, text))

    def _delta_text(self, seat: int | None, prev: _View, view: _View, tail: str) -> str | None:
        if prev.public is None or view.public is None or view.version != prev.version + 1:
            return None  # the lobby, or a gap: a snapshot
        g = self.game
        assert g is not None
        if view.base == prev.version:
            changed = view.changed
        else:
            before = prev.obs()
            changed = _json({k: v for k, v in view.obs().items() if before.get(k) != v})
        start = prev.history if view.first is prev.first and prev.history <= view.history else 0
        history = self._new_events(g, start, seat)
        info = f',"info":{self._info_json()}' if view.info_key != prev.info_key else ""
        return (
            f'{{"type":"delta","from":{prev.version},"version":{view.version},'
            f'"seat":{"null" if seat is None else seat},"set":{changed},"history_from":{start},'
            f'"history":[{history}]{info},{tail}}}'
        )

    def _new_events(self, g: Game, start: int, seat: int | None) -> str:
        """The round's events from ``start`` on, as ``seat`` sees them,
        comma-separated. The fragments are looked up once per version and
        start for all seats; when none is redacted for anybody, all seats
        share the joined text."""
        events = g.log or []
        made = self._new_made
        if made is None or made[0] is not events or made[1] != (start, len(events)):
            if start == 0:
                self._fragments.clear()  # a new round: the old events are gone
            entries = [self._fragment_entry(e) for e in events[start:]]
            shared = None
            if all(owner is None for _, _, _, owner in entries):
                shared = ",".join(full for _, _, full, _ in entries)
            made = self._new_made = (events, (start, len(events)), entries, shared)
        _, _, entries, shared = made
        if shared is not None:
            return shared
        return ",".join(
            full if owner is None or owner == seat else public for _, public, full, owner in entries
        )

    def _history_json(self, g: Game, seat: int | None) -> str:
        """``[...]``: the round's events redacted for ``seat``, serialised
        incrementally (a round's log only grows; a new round has a new first event)."""
        events = g.log or []
        if not events:
            return "[]"
        cached = self._histories.get(seat)
        start, inner = 0, ""
        if (
            cached is not None
            and cached[0] is events[0]
            and cached[1] <= len(events)
            and events[cached[1] - 1] is cached[2]
        ):
            start, inner = cached[1], cached[3]
        elif cached is not None and cached[0] is not events[0]:
            self._fragments.clear()  # a new round: old events are gone
        if start < len(events):
            parts = [self._fragment(e, seat) for e in events[start:]]
            inner = (inner + "," if inner else "") + ",".join(parts)
            self._histories[seat] = (events[0], len(events), events[-1], inner)
        return "[" + inner + "]"

    def _fragment(self, e: Event, seat: int | None) -> str:
        entry = self._fragment_entry(e)
        return entry[2] if entry[3] is None or entry[3] == seat else entry[1]

    def _fragment_entry(self, e: Event) -> tuple[Event, str, str, int | None]:
        """(the event, its JSON redacted for the other seats, its full JSON,
        the seat that sees it in full or None if every seat does), made once
        per event."""
        entry = self._fragments.get(id(e))
        if entry is None or entry[0] is not e:
            public = redact(e, None)
            full = _json(event_to_dict(e))
            if public is e:
                entry = (e, full, full, None)
            else:
                owner: int = e.seat  # type: ignore[union-attr]  # Drew / Challenged
                entry = (e, _json(event_to_dict(public)), full, owner)
            self._fragments[id(e)] = entry
        return entry

    def release_views(self) -> None:
        """Nobody watches the room: drop what was built for its viewers (views,
        deltas, serialised histories and states). They are caches, rebuilt for
        the next viewer (who starts with a snapshot); a room left between its
        last viewer and its unloading (``idle_unload``) keeps only its game and log."""
        self._cache = _Cache()
        self._nolog = None
        self._views.clear()
        self._prev.clear()
        self._deltas.clear()
        self._fragments.clear()
        self._histories.clear()
        self._new_made = None
