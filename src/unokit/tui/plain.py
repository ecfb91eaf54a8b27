"""``unokit play --plain``: the game as lines of text, for screen readers and pipes.

After every change it prints what happened in plain words; before each of your
decisions it prints the table, your hand and what you can do, then reads one
command (docs/scenario-format.md notation without the seat prefix: ``play R5``,
``play W4 color=G``, ``draw``, ``pass``, ``uno``, ``catch P2``, ``challenge``,
``accept``, ``color G``, ``help``, ``quit``). A wrong command prints why and
asks again; the end of the input ends the game cleanly.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TextIO

from unokit.engine.actions import Action, CallUno, Catch, Play
from unokit.engine.errors import UnoError
from unokit.engine.narration import (
    Meta,
    Narrator,
    legal_summary,
    observation_text,
    points,
    read_command,
    seat_label,
)
from unokit.engine.observation import Observation
from unokit.tui.rules_text import commands_help, rules_line, rules_text, team_lines
from unokit.tui.session import Session

__all__ = ["run_plain"]


class _Plain:
    def __init__(self, session: Session, inp: TextIO, out: TextIO, clear: bool) -> None:
        self.s = session
        self.inp = inp
        self.out = out
        self.clear = clear
        isatty = getattr(inp, "isatty", None)
        self.echo = not (isatty() if callable(isatty) else False)
        # One person: the log speaks to them ("You drew Red 5"). Several people
        # share the screen: the log says only what everyone may know.
        self.log_viewer: int | None = 0 if session.humans == 1 else None
        self.narrator = Narrator(session.names, self.log_viewer)
        self.shown = 0  # events of this round already printed
        self.round = session.game.round_no
        self.viewer: int | None = None  # hotseat: whose hand was printed last

    def say(self, *lines: str) -> None:
        for line in lines:
            self.out.write(line + "\n")
        self.out.flush()

    def ask(self, prompt: str) -> str | None:
        self.out.write(prompt)
        self.out.flush()
        line = self.inp.readline()
        if not line:
            return None
        if self.echo:
            # input from a pipe is not shown by a terminal: echo it for the transcript
            self.out.write(line if line.endswith("\n") else line + "\n")
        return line.strip()

    def commitment_line(self) -> list[str]:
        """The deal commitment of the round (docs/record-format.md), if any."""
        c = self.s.commitment
        if c is None:
            return []
        return [f"Round {self.s.game.round_no} deal commitment (SHA-256): {c}"]

    def flush_events(self) -> None:
        """Print this round's events that were not printed yet."""
        obs = self.s.observe(self.log_viewer)
        if obs.round != self.round:
            self.round = obs.round
            self.shown = 0
            self.say(*self.commitment_line())
        history = obs.history
        new = history[self.shown :]
        self.shown = len(history)
        self.say(*self.narrator.lines(new))

    def run(self) -> int:
        s = self.s
        self.say(
            f"unokit: {s.variant}, {s.players} players (seed {s.seed}). "
            "Type help for the commands and rules.",
            rules_line(s.game.options),
            *self.commitment_line(),
        )
        while True:
            while s.bot_to_act() is not None:
                s.bot_step()
                self.flush_events()
            self.flush_events()
            if s.match_over:
                self.say(*self.scoreboard(), "The match is over. Goodbye.")
                return 0
            if s.round_over:
                self.say(*self.round_table())
                line = self.ask("Round over. Press Enter for the next round, or type quit: ")
                if line is None:
                    self.say("", "End of input: the game stops here.")
                    return 0
                if line.lower() in ("quit", "exit", "q"):
                    self.say("Goodbye.")
                    return 0
                s.next_round()
                continue
            seat = s.human_to_act()
            assert seat is not None
            if not self.turn(seat):
                return 0

    def turn(self, seat: int) -> bool:
        """Ask ``seat`` for commands until one changes the game; False to stop."""
        s = self.s
        if s.humans > 1 and self.viewer != seat:
            if self.clear:
                self.out.write("\033[2J\033[H")
            line = self.ask(
                f"--- {s.names[seat]}'s turn. {s.names[seat]}, press Enter when ready: "
            )
            if line is None:
                self.say("", "End of input: the game stops here.")
                return False
            self.viewer = seat
        obs = s.observe(seat)
        self.say("", *self.table(obs))
        self.say("You can: " + ", ".join(legal_summary(obs)) + ".")
        while True:
            line = self.ask("> ")
            if line is None:
                self.say("", "End of input: the game stops here.")
                return False
            if not line:
                continue
            obs = s.observe(seat)
            cmd = read_command(line, obs, s.names)
            if isinstance(cmd, UnoError):
                self.say(f"Not understood: {cmd}")
                continue
            if isinstance(cmd, Meta):
                if cmd.name == "quit":
                    self.say("Goodbye.")
                    return False
                if cmd.name == "help":
                    rules = rules_text(obs.variant, obs.options).replace("**", "").replace("`", "")
                    self.say(*commands_help().splitlines(), "", *rules.splitlines())
                elif cmd.name == "show":
                    self.say(*self.table(obs))
                    self.say("You can: " + ", ".join(legal_summary(obs)) + ".")
                elif cmd.name == "scores":
                    self.say(*self.scoreboard())
                else:
                    self.say("Not now: 'next' deals the next round once this one is over.")
                continue
            if not self.act(seat, cmd):
                continue
            self.flush_events()
            # UNO calls and catches do not end the decision: ask again.
            if isinstance(cmd, CallUno | Catch) and s.human_to_act() == seat:
                continue
            return True

    def table(self, obs: Observation) -> list[str]:
        """The table and what the game waits for (``Observation.to_text``
        without the events: the log above has printed them already)."""
        return observation_text(obs, self.s.names, self.s.bot_flags, history=0).splitlines()

    def act(self, seat: int, action: Action) -> bool:
        s = self.s
        if isinstance(action, CallUno | Catch) and action not in s.observe(seat).legal:
            what = "UNO can be called" if isinstance(action, CallUno) else "a catch works"
            hint = (
                "with one card left, or with two on your turn before playing"
                if isinstance(action, CallUno)
                else "only on a player who has one card and did not call UNO"
            )
            self.say(f"No effect: {what} {hint}.")
            return False
        try:
            s.apply(action)
        except UnoError as e:
            self.say(f"Not allowed: {_you(str(e), seat)}")
            return False
        if s.save_error:
            self.say(f"Warning: {s.save_error}")
        if isinstance(action, Play) and len(s.game.hands[seat]) == 1 and not action.uno:
            if s.game.uno_state(seat).name == "VULNERABLE":
                self.say(
                    "You have one card left and did not call UNO: type uno before you are caught!"
                )
        return True

    def round_table(self) -> list[str]:
        obs = self.s.observe(self.log_viewer)
        side = obs.side
        out = ["Round over. Cards left in each hand:"]
        hands = obs.final_hands or ()
        for seat, cards in enumerate(hands):
            pts = sum(c.face(side).points for c in cards)
            shown = " ".join(str(c.face(side)) for c in cards) or "none"
            out.append(f"  {seat_label(seat, self.s.names)}: {shown} ({points(pts)})")
        out += self.scoreboard()
        return out

    def scoreboard(self) -> list[str]:
        s = self.s
        opts = s.game.options
        out = [f"Scores (target {opts.targetScore}):"]
        for seat in range(s.players):
            out.append(f"  {s.names[seat]}: {s.game.scores[seat]}")
        out += team_lines(s.observe(self.log_viewer), s.names)
        for rnd, winner, pts, _ in s.round_history:
            who = "nobody (blocked)" if winner is None else s.names[winner]
            out.append(f"  round {rnd}: won by {who}, {points(pts)}")
        if s.match_over:
            winners = " and ".join(s.names[w] for w in s.game.match_winners)
            out.append(f"Winner: {winners}.")
        return out


def _you(message: str, seat: int) -> str:
    """Engine messages name seats (P0); in plain mode, P0 is 'you'."""
    return message.replace(f"P{seat} ", "you ").replace(f"P{seat}'s", "your")


def run_plain(
    session: Session,
    inp: TextIO,
    out: TextIO,
    *,
    clear: bool = False,
    on_exit: Callable[[], None] | None = None,
) -> int:
    """Play ``session`` reading commands from ``inp`` and writing to ``out``."""
    try:
        return _Plain(session, inp, out, clear).run()
    except KeyboardInterrupt:
        out.write("\nInterrupted: the game stops here.\n")
        return 130
    finally:
        if on_exit is not None:
            on_exit()
