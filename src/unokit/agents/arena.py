"""``unokit arena``: language-model players against our bots and each other.

In the style of Game Arena: each decision is one prompt (the variant's rules
summary, the seat's :meth:`~unokit.engine.observation.Observation.to_text`
observation and its legal moves, numbered), the model answers in free text,
:func:`parse_answer` reads the move (a command such as ``play R5 color=G``,
its number in the list, or the engine notation ``P0 PLAY R5``), an illegal
or unreadable answer is sent back with the reason and asked again, up to
``retries`` times, after which the player **forfeits** (see
:class:`ArenaPolicy`). With ``votes > 1`` every attempt asks the model
``votes`` times and plays the legal move named most often (ties: the one
named first). Every request has the time left of the decision's
``move_timeout`` as its timeout; a request that does not answer in time is a
failed attempt. Tokens, requests, illegal answers and the cost (from
per-million-token prices) are counted per player.

Games are dealt in duplicate and seat-rotated exactly like a tournament's
(:func:`unokit.bots.tournament.play_game`): bots and models play the same
deals from every seat, and the results go through the tournament's own tally
(win rates with Wilson intervals, Elo with bootstrap intervals).

Players, comma-separated (``--players``):

* a bot name with its options, as for ``unokit tournament`` (``heuristic``,
  ``hard:think_ms=50``...);
* ``scripted`` (options ``illegal``, ``garbage``, ``timeout``: the share of
  attempts answered with an illegal move, with text naming no move, or not at
  all; ``seed``): an offline stand-in for a model, answering in free text from
  the prompt alone; it exercises every path of the harness without a network;
* ``openai:MODEL`` (options ``url``, ``temperature``, ``max_tokens``): any
  OpenAI-compatible chat-completions endpoint; the URL comes from the option
  or ``UNOKIT_ARENA_BASE_URL`` (default ``https://api.openai.com/v1``), the key
  from ``UNOKIT_ARENA_API_KEY`` (or ``OPENAI_API_KEY``). See docs/arena.md.

>>> from unokit.agents.arena import run_arena, parse_players
>>> r = run_arena("classic", 2, parse_players("scripted,random"), games=4, seed=1)
>>> sorted(r.result.bots), r.result.games, r.usage["scripted"].decisions > 0
(['random', 'scripted'], 4, True)
"""

from __future__ import annotations

import os
import random
import re
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from unokit.bots import Bot
from unokit.bots.tournament import BotSpec, TournamentResult, parse_bots, parse_value, play_game
from unokit.engine.actions import Action, Draw, parse_action
from unokit.engine.errors import BotFailure, OptionError, UnoError
from unokit.engine.narration import Meta, move_commands, read_command
from unokit.engine.observation import Observation
from unokit.engine.options import Options
from unokit.engine.variants import get_variant

__all__ = [
    "ArenaPolicy",
    "ArenaResult",
    "ArenaSpec",
    "Message",
    "Model",
    "ModelPlayer",
    "ModelTimeout",
    "OpenAIModel",
    "Reply",
    "ScriptedModel",
    "Usage",
    "parse_answer",
    "parse_players",
    "prompt_messages",
    "run_arena",
    "FORFEITS",
]

Message = dict[str, str]
#: what a player that exhausts its retries does (:class:`ArenaPolicy`)
FORFEITS = ("loss", "fallback")
DEFAULT_BASE_URL = "https://api.openai.com/v1"


class ModelTimeout(Exception):
    """A model that did not answer within the time it was given."""


@dataclass(frozen=True)
class Reply:
    """One answer of a model: its text and the tokens it cost."""

    text: str
    prompt_tokens: int = 0
    completion_tokens: int = 0


class Model(Protocol):
    """A chat model: ``complete(messages, timeout)`` answers the conversation
    (``[{"role": "system"|"user"|"assistant", "content": ...}]``) or raises
    :class:`ModelTimeout` when ``timeout`` seconds pass without an answer."""

    name: str

    def complete(self, messages: Sequence[Message], timeout: float) -> Reply: ...


@dataclass(frozen=True)
class ArenaPolicy:
    """How the harness treats a model's answers.

    ``retries``: illegal or unreadable answers (or timeouts) sent back with the
    reason before the player forfeits the decision. ``forfeit``: ``"loss"``
    (default) — the player loses the game, as an engine program that fails in
    a tournament does (the other seats share the win, nobody scores points);
    ``"fallback"`` — the harness plays a fixed legal move for it instead
    (DRAW when it is legal, else the first legal move in the listed order)
    and the game goes on. ``votes``: answers asked per attempt (majority
    vote). ``move_timeout``: seconds per decision, retries included.
    ``history``: events of the round narrated in the prompt."""

    retries: int = 2
    forfeit: str = "loss"
    votes: int = 1
    move_timeout: float = 60.0
    history: int = 12

    def __post_init__(self) -> None:
        if not isinstance(self.retries, int) or self.retries < 0:
            raise OptionError(f"retries must be an integer >= 0, not {self.retries!r}")
        if self.forfeit not in FORFEITS:
            raise OptionError(f"forfeit must be one of {', '.join(FORFEITS)}, not {self.forfeit!r}")
        if not isinstance(self.votes, int) or self.votes < 1:
            raise OptionError(f"votes must be an integer >= 1, not {self.votes!r}")
        if not self.move_timeout > 0:
            raise OptionError(f"move_timeout must be > 0 seconds, not {self.move_timeout!r}")
        if not isinstance(self.history, int) or self.history < 0:
            raise OptionError(f"history must be an integer >= 0, not {self.history!r}")


@dataclass
class Usage:
    """What one player's decisions cost, over all its games."""

    decisions: int = 0
    requests: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    illegal: int = 0  # answers that named no legal move
    timeouts: int = 0
    retries: int = 0  # decisions asked again after a failed attempt
    forfeits: int = 0
    fallbacks: int = 0
    seconds: float = 0.0
    price_in: float = 0.0  # per million prompt tokens
    price_out: float = 0.0  # per million completion tokens

    @property
    def cost(self) -> float:
        return (self.prompt_tokens * self.price_in + self.completion_tokens * self.price_out) / 1e6

    def to_dict(self) -> dict[str, Any]:
        return {
            "decisions": self.decisions,
            "requests": self.requests,
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "illegal_answers": self.illegal,
            "timeouts": self.timeouts,
            "retried_decisions": self.retries,
            "forfeits": self.forfeits,
            "fallback_moves": self.fallbacks,
            "cost": round(self.cost, 6),
            "seconds": round(self.seconds, 3),
        }


# ----------------------------------------------------------------- the prompt

_FORMAT = (
    "Answer with your reasoning if you like, then your move alone on the last "
    "line, written exactly like one of the legal moves listed (or its number), "
    "after 'Move:'. For example:\nMove: play R5"
)


def system_prompt(variant: str, options: Options) -> str:
    """The rules summary of ``variant`` with ``options`` and the answer format."""
    from unokit.tui.rules_text import rules_text

    rules = rules_text(variant, options).replace("**", "").replace("`", "")
    return (
        f"You are playing {get_variant(variant).name} UNO against other players, "
        "by the official rules summarised below. Each turn you see the table and "
        "your legal moves; choose one.\n\n" + rules + "\n\n" + _FORMAT
    )


def user_prompt(obs: Observation, history: int = 12) -> str:
    """The seat's observation (:meth:`Observation.to_text`) and its legal moves, numbered."""
    moves = move_commands(obs)
    listed = "\n".join(f"{i}. {m}" for i, m in enumerate(moves, 1))
    return (
        f"You are Player {obs.seat} (P{obs.seat}).\n"
        + obs.to_text(history=history)
        + "\n\nYour legal moves:\n"
        + listed
        + "\n\n"
        + _FORMAT
    )


def prompt_messages(obs: Observation, history: int = 12) -> list[Message]:
    """The conversation of one decision: the system prompt and the observation."""
    return [
        {"role": "system", "content": system_prompt(obs.variant, obs.options)},
        {"role": "user", "content": user_prompt(obs, history)},
    ]


# ----------------------------------------------------------------- the parser

_MOVE_LINE = re.compile(r"(?:^|\b)(?:final\s+)?(?:move|answer)\s*[:=]\s*(.+)$", re.I)
_STRIP = " \t`'\"_.[](){}<>"  # not '*': Flex cards end in it (G4*)


def parse_answer(text: str, obs: Observation) -> Action | str:
    """The legal action a free-text answer names, or the reason it names none.

    The move is read from the last line that starts with ``Move:`` (or
    ``Answer:``), else from the last non-empty line; brackets, quotes, bold
    and a final full stop around it are ignored. It may be a plain-mode
    command (``play R5``, ``play W4 color=G``, ``draw``...), its number in the
    listed legal moves, or the engine notation (``P0 PLAY R5``)."""
    lines = [ln.strip() for ln in text.strip().splitlines() if ln.strip()]
    if not lines:
        return "the answer was empty"
    chosen = None
    for line in reversed(lines):
        m = _MOVE_LINE.search(line)
        if m:
            chosen = m.group(1)
            break
    if chosen is None:
        chosen = lines[-1]
    move = chosen.strip(_STRIP)
    while move.startswith("**") or move.endswith("**"):  # Markdown bold around it
        move = move.removeprefix("**").removesuffix("**").strip(_STRIP)
    if not move:
        return "no move after 'Move:'"
    legal = obs.legal
    if move.isdigit():
        k = int(move)
        if 1 <= k <= len(legal):
            return legal[k - 1]
        return f"there is no move number {k} (the list has 1 to {len(legal)})"
    words = move.split()
    action: Action | Meta | UnoError
    if re.fullmatch(r"[Pp]\d+", words[0]):
        try:
            action = parse_action(move, get_variant(obs.variant).cards)
        except UnoError as e:
            return f"{move!r} cannot be read: {e}"
    else:
        action = read_command(move, obs)
    if isinstance(action, UnoError):
        return f"{move!r} cannot be read: {action}"
    if isinstance(action, Meta):
        return f"{move!r} is not a move"
    if action not in legal:
        return f"{move!r} is not one of your legal moves now"
    return action


# ----------------------------------------------------------------- the players


class ModelPlayer:
    """A :class:`~unokit.bots.Bot` that asks a :class:`Model` for every decision
    (see the module documentation); its costs add up in ``usage``.

    Out-of-turn UNO catches are not offered to it (``catches`` is false): a
    model is asked only when the game waits for its decision."""

    catches = False

    def __init__(
        self,
        model: Model,
        policy: ArenaPolicy,
        usage: Usage,
        transcript: list[dict[str, Any]] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.model = model
        self.name = model.name
        self.policy = policy
        self.usage = usage
        self.transcript = transcript
        self.clock = clock

    def act(self, obs: Observation) -> Action:
        p = self.policy
        u = self.usage
        u.decisions += 1
        start = self.clock()
        deadline = start + p.move_timeout
        messages = prompt_messages(obs, p.history)
        reasons: list[str] = []
        try:
            for attempt in range(p.retries + 1):
                if attempt == 1:
                    u.retries += 1
                votes: list[Action] = []
                failures: list[tuple[str, str]] = []
                for _ in range(p.votes):
                    left = deadline - self.clock()
                    if left <= 0:
                        failures.append(("", f"no answer within {p.move_timeout:g} s"))
                        u.timeouts += 1
                        break
                    u.requests += 1
                    try:
                        reply = self.model.complete(messages, left)
                    except ModelTimeout:
                        u.timeouts += 1
                        failures.append(("", f"no answer within {p.move_timeout:g} s"))
                        continue
                    u.prompt_tokens += reply.prompt_tokens
                    u.completion_tokens += reply.completion_tokens
                    got = parse_answer(reply.text, obs)
                    self._log(obs, attempt, reply.text, got)
                    if isinstance(got, str):
                        u.illegal += 1
                        failures.append((reply.text, got))
                    else:
                        votes.append(got)
                if votes:
                    counts = Counter(votes)
                    best = max(counts.values())
                    return next(a for a in votes if counts[a] == best)
                answer, reason = failures[-1] if failures else ("", "no answer")
                reasons.append(reason)
                if answer:
                    messages = messages + [{"role": "assistant", "content": answer}]
                messages = messages + [
                    {
                        "role": "user",
                        "content": f"That move is not accepted: {reason}. Choose one of "
                        f"the legal moves listed above. {_FORMAT}",
                    }
                ]
                if attempt < p.retries and deadline - self.clock() <= 0:
                    reasons.append(
                        f"no time left for another attempt ({p.move_timeout:g} s a move)"
                    )
                    break
        finally:
            u.seconds += self.clock() - start
        u.forfeits += 1
        why = "; ".join(reasons)
        if p.forfeit == "fallback":
            u.fallbacks += 1
            return fallback_move(obs)
        tries = len(reasons) - reasons[-1].startswith("no time left")
        raise BotFailure(
            f"{self.name} named no legal move after {tries} attempt(s): {why}", obs.seat
        )

    def _log(self, obs: Observation, attempt: int, text: str, got: Action | str) -> None:
        if self.transcript is not None:
            self.transcript.append(
                {"seat": obs.seat, "attempt": attempt, "answer": text,
                 "move": got if isinstance(got, str) else str(got),
                 "legal": not isinstance(got, str)}
            )  # fmt: skip

    def close(self) -> None:
        close = getattr(self.model, "close", None)
        if close is not None:
            close()


def fallback_move(obs: Observation) -> Action:
    """The move played for a player that forfeits with ``forfeit="fallback"``:
    DRAW when it is legal, else the first legal move."""
    for a in obs.legal:
        if isinstance(a, Draw):
            return a
    return obs.legal[0]


class ScriptedModel:
    """An offline stand-in for a language model: it reads the legal moves
    from the prompt like a model would and answers in free text.

    It plays the first listed move that is a play (saying UNO with it when
    that is listed too; else the first move), except that a share ``illegal`` of its answers name a card it does not
    hold, ``garbage`` name no move at all and ``timeout`` never come
    (:class:`ModelTimeout`), drawn from ``seed``. ``script``: answers given
    first, in order (``"<timeout>"`` for no answer), before any of that.
    Its token counts are the prompt's and answer's words."""

    def __init__(
        self,
        seed: int = 0,
        illegal: float = 0.0,
        garbage: float = 0.0,
        timeout: float = 0.0,
        script: Sequence[str] = (),
    ) -> None:
        for key, share in (("illegal", illegal), ("garbage", garbage), ("timeout", timeout)):
            if not 0.0 <= share <= 1.0:
                raise OptionError(f"scripted: {key} must be a share in 0..1, not {share!r}")
        self.name = "scripted"
        self.rng = random.Random(seed)
        self.shares = (illegal, garbage, timeout)
        self.script = list(script)

    def complete(self, messages: Sequence[Message], timeout: float) -> Reply:
        prompt_words = sum(len(m["content"].split()) for m in messages)
        if self.script:
            text = self.script.pop(0)
        else:
            r = self.rng.random()
            illegal, garbage, late = self.shares
            if r < illegal:
                text = "I will play the Purple 11.\nMove: play X11"
            elif r < illegal + garbage:
                text = "Hmm, hard to say. Let me think about the colours."
            elif r < illegal + garbage + late:
                text = "<timeout>"
            else:
                text = self._choose(messages)
        if text == "<timeout>":
            raise ModelTimeout(f"no answer within {timeout:g} s")
        return Reply(text, prompt_words, len(text.split()))

    @staticmethod
    def _choose(messages: Sequence[Message]) -> str:
        prompt = next(m["content"] for m in messages if m["role"] == "user")
        listed = re.findall(r"^\d+\. (.+)$", prompt, re.M)
        if not listed:
            return "I see no move.\nMove: draw"
        pick = next((m for m in listed if m.startswith("play ")), listed[0])
        if pick + " uno" in listed:  # it says UNO when the play leaves one card
            pick += " uno"
        return f"The best option looks like {pick}.\nMove: {pick}"


class OpenAIModel:
    """A model behind an OpenAI-compatible ``/chat/completions`` endpoint
    (OpenAI, vLLM, llama.cpp's server, Ollama, OpenRouter...), with ``httpx``."""

    def __init__(
        self,
        model: str,
        base_url: str | None = None,
        api_key: str | None = None,
        temperature: float = 0.0,
        max_tokens: int = 1024,
        transport: Any = None,
    ) -> None:
        import httpx

        if not model:
            raise OptionError("openai: name the model, e.g. openai:gpt-4o-mini")
        url = base_url or os.environ.get("UNOKIT_ARENA_BASE_URL") or DEFAULT_BASE_URL
        key = api_key or os.environ.get("UNOKIT_ARENA_API_KEY") or os.environ.get("OPENAI_API_KEY")
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        self.name = f"openai:{model}"
        self.model = model
        self.temperature = temperature
        self.max_tokens = max_tokens
        self._client = httpx.Client(base_url=url.rstrip("/"), headers=headers, transport=transport)

    def complete(self, messages: Sequence[Message], timeout: float) -> Reply:
        import httpx

        body = {
            "model": self.model,
            "messages": list(messages),
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
        }
        try:
            r = self._client.post("/chat/completions", json=body, timeout=timeout)
        except httpx.TimeoutException as e:
            raise ModelTimeout(str(e)) from None
        except httpx.HTTPError as e:
            raise BotFailure(f"{self.name}: request failed: {e}") from None
        if r.status_code != 200:
            raise BotFailure(f"{self.name}: HTTP {r.status_code}: {r.text[:200]}")
        data = r.json()
        try:
            text = data["choices"][0]["message"]["content"] or ""
        except (KeyError, IndexError, TypeError):
            raise BotFailure(f"{self.name}: unexpected answer {str(data)[:200]}") from None
        usage = data.get("usage") or {}
        return Reply(
            str(text), int(usage.get("prompt_tokens", 0)), int(usage.get("completion_tokens", 0))
        )

    def close(self) -> None:
        self._client.close()


# ----------------------------------------------------------------- entrants


@dataclass(frozen=True)
class ArenaSpec(BotSpec):
    """An entrant played by a model (``name``: ``scripted`` or ``openai``);
    :meth:`make` builds its :class:`ModelPlayer`, whose costs add up in the
    arena's :class:`Usage` for its label."""

    policy: ArenaPolicy = field(default_factory=ArenaPolicy)
    ledger: dict[str, Usage] = field(default_factory=dict, compare=False, hash=False)
    transcript: list[dict[str, Any]] | None = field(default=None, compare=False, hash=False)
    transport: Any = field(default=None, compare=False, hash=False)

    def make(self, seed: int) -> Bot:
        opts = dict(self.options)
        usage = self.ledger[self.label]
        model: Model
        if self.name == "scripted":
            model = ScriptedModel(seed=int(opts.pop("seed", 0)) * 1_000_003 + seed, **opts)
        else:
            model = OpenAIModel(transport=self.transport, **opts)
        return ModelPlayer(model, self.policy, usage, self.transcript)


_MODEL_OPTIONS = {
    "scripted": {"illegal", "garbage", "timeout", "seed"},
    "openai": {"url", "temperature", "max_tokens"},
}


def parse_players(
    text: str,
    policy: ArenaPolicy | None = None,
    *,
    price_in: float = 0.0,
    price_out: float = 0.0,
    transcript: list[dict[str, Any]] | None = None,
    transport: Any = None,
) -> list[BotSpec]:
    """``--players``: bots as for :func:`~unokit.bots.tournament.parse_bots`,
    ``scripted[:opt=v...]`` and ``openai:MODEL[:opt=v...]`` (module doc).
    ``transport``: an ``httpx`` transport for the ``openai`` players (tests)."""
    pol = policy or ArenaPolicy()
    ledger: dict[str, Usage] = {}
    specs: list[BotSpec] = []
    seen: dict[str, int] = {}
    entries = [e.strip() for e in text.split(",") if e.strip()]
    if not entries:
        raise OptionError("name at least two players, e.g. --players scripted,heuristic")
    for entry in entries:
        name, _, tail = entry.partition(":")
        key = name.strip().lower()
        # options are split at a ':' that starts "key=", so that a URL or a
        # model name (llama3:8b) may hold colons
        rest = [p.strip() for p in re.split(r":(?=\s*[A-Za-z_][\w-]*=)", tail)] if tail else []
        if key not in _MODEL_OPTIONS:
            spec = parse_bots(entry)[0]
            label = spec.label
        else:
            options: dict[str, Any] = {}
            if key == "openai":
                if not rest or "=" in rest[0] or not rest[0]:
                    raise OptionError(f"{entry!r}: name the model, e.g. openai:gpt-4o-mini")
                options["model"] = rest.pop(0)
            for o in rest:
                k, sep, v = o.partition("=")
                k = k.strip().replace("-", "_")
                if not sep or k not in _MODEL_OPTIONS[key]:
                    raise OptionError(
                        f"bad option {o!r} in {entry!r}: expected key=value with key one of "
                        + ", ".join(sorted(_MODEL_OPTIONS[key]))
                    )
                options["base_url" if k == "url" else k] = parse_value(v)
            label = entry.lower()
            spec = ArenaSpec(label, key, tuple(sorted(options.items())))
        seen[label] = seen.get(label, 0) + 1
        if seen[label] > 1:
            label = f"{label}#{seen[label]}"
        if isinstance(spec, ArenaSpec):
            spec = ArenaSpec(label, spec.name, spec.options, pol, ledger, transcript, transport)
            ledger[label] = Usage(price_in=price_in, price_out=price_out)
            player = spec.make(0)  # bad options fail here
            assert isinstance(player, ModelPlayer)
            player.close()
        else:
            spec = BotSpec(label, spec.name, spec.options)
        specs.append(spec)
    return specs


# ----------------------------------------------------------------- the arena


@dataclass
class ArenaResult:
    """The tournament's result (Elo, win rates, forfeits) and each model's costs."""

    result: TournamentResult
    usage: dict[str, Usage]
    policy: ArenaPolicy

    def to_dict(self) -> dict[str, Any]:
        return {
            **self.result.to_dict(),
            "usage": {k: u.to_dict() for k, u in self.usage.items()},
            "policy": {
                "retries": self.policy.retries,
                "forfeit": self.policy.forfeit,
                "votes": self.policy.votes,
                "move_timeout": self.policy.move_timeout,
            },
        }


def run_arena(
    variant: str,
    players: int,
    specs: Sequence[BotSpec],
    games: int,
    seed: int = 0,
    options: dict[str, Any] | Options | None = None,
    progress: Callable[[int], None] | None = None,
) -> ArenaResult:
    """Play ``games`` single rounds between ``specs`` (:func:`parse_players`),
    seat-rotated on duplicate deals (:func:`~unokit.bots.tournament.play_game`),
    one after the other in this process, and tally them like a tournament."""
    if games < 1:
        raise OptionError("an arena needs at least one game")
    if len(specs) < 2:
        raise OptionError("an arena needs at least two players")
    opts = options if isinstance(options, Options) else Options.from_dict(options)
    opts = opts.replace(matchMode="single_round")
    from unokit.engine.game import Game

    Game.new(variant, players, opts, seed=seed, events=False)  # validate first
    name = get_variant(variant).name
    from unokit.bots.levels import bot_variants

    for s in specs:
        if not isinstance(s, ArenaSpec):
            allowed = bot_variants(s.name)
            if allowed is not None and name not in allowed:
                raise OptionError(f"{s.label} plays {', '.join(allowed)} only, not {name}")
    result = TournamentResult(name, players, games, seed, list(specs))
    start = time.perf_counter()
    for i in range(games):
        result.results.append(play_game(name, players, opts, specs, seed, i))
        if progress is not None:
            progress(i + 1)
    result.seconds = time.perf_counter() - start
    result.tally()
    usage: dict[str, Usage] = {}
    policy = ArenaPolicy()
    for s in specs:
        if isinstance(s, ArenaSpec):
            usage[s.label] = s.ledger[s.label]
            policy = s.policy
    return ArenaResult(result, usage, policy)
