"""Type stub of the C rules core (src/unokit/_core/, docs/core.md)."""

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

_T = TypeVar("_T")

ABI: int
MAX_PLAYERS: int
MAX_DECK: int
MAX_MOVES: int
ERR_COUNT: int
#: the weights with which weighted_move is sensible_move (policy.c, UK_W_* in core.h)
W_DEFAULTS: tuple[float, ...]

class Tables:
    def __init__(
        self,
        ncards: int,
        two_sided: bool,
        flex: bool,
        deck: Sequence[int],
        color: Sequence[Sequence[int]],
        kind: Sequence[Sequence[int]],
        number: Sequence[Sequence[int]],
        mask: Sequence[Sequence[int]],
        topkey: Sequence[Sequence[int]],
        points: Sequence[Sequence[int]],
        draw_amount: Sequence[Sequence[int]],
        restricted: Sequence[Sequence[int]],
        stack_class: Sequence[Sequence[int]],
        ident: Sequence[Sequence[int]],
        flexmask: Sequence[int],
        cut_value: Sequence[int],
        flip_icon: Sequence[int],
        flex_color: Sequence[int],
    ) -> None: ...
    @property
    def ncards(self) -> int: ...
    def with_deck(self, deck: Sequence[int]) -> Tables: ...

class Game:
    def __init__(
        self, tables: Tables, options: Sequence[int], players: int, seed48: int
    ) -> None: ...
    def new_match(self) -> int: ...
    def next_round(self) -> int: ...
    def start(self) -> int: ...
    def legal_moves(self, seat: int = -1) -> list[int]: ...
    def turn_moves(self) -> list[int]: ...
    def hand(self, seat: int) -> list[int]: ...
    def hand_sizes(self) -> list[int]: ...
    def power(self, seat: int) -> bool: ...
    def holds_match(self, seat: int, color: int, skip_card: int, skip_restricted: bool) -> bool: ...
    def playable(self, seat: int, cid: int, strict: bool) -> bool: ...
    def apply_move(self, move: int, seat: int = -1, uno: bool = False) -> int: ...
    def play(
        self,
        seat: int,
        cid: int,
        color: int,
        flex: bool,
        target: int,
        swap: int,
        uno: bool,
        flip_color: int,
    ) -> int: ...
    def play_multi(self, seat: int, cids: list[int], swap: int, uno: bool) -> int: ...
    def copy(self) -> Game: ...
    def record_events(self, on: bool) -> None: ...
    def take_events(self) -> list[int]: ...
    def state(self) -> tuple[Any, ...]: ...
    def set_state(self, state: tuple[Any, ...]) -> None: ...
    def set_deal(
        self, hands: Sequence[Sequence[int] | None], draw: Sequence[int], seed: int
    ) -> None: ...
    def playout(self, rnd: Callable[[], float], max_turns: int = 1000000) -> int: ...
    def playout_mt(
        self, state: Sequence[int], max_turns: int = 1000000
    ) -> tuple[int, tuple[int, ...]]: ...
    def sensible_move(self) -> int: ...
    def sensible_playout(self, max_turns: int = 100000) -> int: ...
    def weighted_move(self, weights: Sequence[float]) -> int: ...
    def mixed_playout(self, max_turns: int, seat: int, weights: Sequence[float]) -> int: ...
    def race(
        self,
        spec: tuple[Any, ...],
        codes: Sequence[int],
        default: int,
        cap: int,
        seed: int,
        block: int,
        min_samples: int,
        z: float,
        delta: float,
    ) -> tuple[int, int, int, list[int]]: ...
    phase: int
    current: int
    side: int
    color: int
    direction: int
    dealer: int
    drawn: int
    pending: int
    vulnerable: int
    winner: int
    round_no: int
    round_points: int
    players: int
    draw_count: int
    commands: int
    ch_offender: int
    reveal_seat: int
    accept_mask: int
    changed: bool
    version: int
    top: int

def simulate(
    tables: Tables, options: Sequence[int], players: int, seed: int, games: int, match: bool
) -> tuple[int, int, int, list[int], list[int]]: ...
def new_slots(cls: type[_T], members: tuple[Any, ...], values: tuple[Any, ...]) -> _T: ...
def weighted_duels(
    tables: Tables,
    options: Sequence[int],
    seed0: int,
    count: int,
    weights: Sequence[float],
    max_turns: int = 100000,
) -> tuple[int, int, int]: ...
def shuffle(items: list[Any], seed: int) -> None: ...

# batch.c: the batched environments (unokit.envs.vector)
BATCH_LAYOUT: int

class Batch:
    def __init__(
        self,
        proto: Game,
        num_envs: int,
        moves: Sequence[int],
        layout: Sequence[int],
        uidx: Sequence[int],
        back0: Sequence[int],
        back1: Sequence[int],
        max_steps: int,
        auto_deal: bool,
    ) -> None: ...
    def reset(self, seed: int) -> None: ...
    def observe(self, obs: Any, mask: Any, cur: Any) -> None: ...
    def step(
        self,
        actions: Any,
        obs: Any,
        mask: Any,
        cur: Any,
        ends: Any,
        winner: Any,
        values: Any,
        check: bool = True,
    ) -> int: ...
    def legal(self, i: int) -> list[int]: ...
    def get(self, i: int, target: Game) -> None: ...
    def set(self, i: int, source: Game, seed: int) -> None: ...
    def seeds(self, out: Any) -> int: ...
    def set_next_seed(self, seed: int) -> None: ...
    def observe_seat(self, i: int, seat: int, obs: Any, mask: Any) -> None: ...
    def status(self, i: int) -> tuple[int, int, int, int, int]: ...
    def hand_values(self, i: int) -> tuple[int, ...]: ...
    def next_round(self, i: int) -> int: ...
    def play_random(
        self, i: int, agent: int, rnds: Sequence[Callable[[], float] | None], limit: int
    ) -> int: ...
    def is_legal(self, i: int, action: int) -> bool: ...
    def window(self, i: int) -> tuple[int, int, int]: ...
    def set_window(self, i: int, rank: int, vulnerable: int, decisions: int) -> None: ...
