/* unokit._core: the rules core in C (issue 11).
 *
 * One match of one variant, as a plain struct (uk_game) that can be copied with
 * memcpy. Card data (decks, faces, kinds, match masks) is not written here: it
 * comes from unokit.engine.variants at construction (uk_tables), so the card tables
 * exist once, in Python. The rules are split by file:
 *
 *   rng.c       CPython's MT19937 (init_by_array from a Python int, random(),
 *               getrandbits/randrange): bit-identical to random.Random
 *   deal.c      dealer choice, shuffle, deal, first card (RULES.md 1.2-1.4, 2.4,
 *               3.7, 4.8, D59), next round
 *   turn.c      matching / playability (D58), draw (lazy reshuffle, 1.8), pass,
 *               choose colour, legal moves, move dispatch, blocked rounds
 *   effects.c   card effects per variant (Classic, Flip side flip, Flex flex side
 *               and Power Cards), last-card effects (1.12)
 *   challenge.c restricted wild draws: accept, challenge, stacked challenge (1.10)
 *   uno.c       UNO window: call, catch, vulnerable seat (1.11)
 *   score.c     round scoring, blocked round, match end, single_round (1.13, D61, D62)
 *   house.c     house rules of section 6: stacking, jump-in, 7-0, forcedPlay,
 *               drawUntilPlayable, noBluff
 *   playout.c   the random policy (unokit.engine.playout.random_move) and playouts
 *   policy.c    the search bots' sensible policy (a bot policy, not a rule)
 *   module.c    the CPython binding (no numpy C API)
 *
 * The state mirrors unokit.engine.game.Game field by field (see Game.state_tuple);
 * the same seed and commands give the same state after every command.
 * Move codes are those of Game.legal_moves / Game.apply_move / encode_play:
 *   op = code & 15; PLAY: card id << 4, (colour+1) << 16, flex 1 << 20,
 *   (target+1) << 21, (swap+1) << 25; COLOR: (colour+1) << 16; CATCH: (target+1) << 21.
 */
#ifndef UNOKIT_CORE_H
#define UNOKIT_CORE_H

#include <stdint.h>

/* Bumped whenever the module's Python-visible API changes, so that Python
 * code newer than a built core says so at import (unokit/engine/core.py). */
#define UK_ABI 8
#define UK_MAX_PLAYERS 10
#define UK_MAX_DECK 512    /* cards of one deck (classic 108, flip 112, flex 104) */
#define UK_MAX_CARDS 4096  /* card ids (12 bits of a move code; flip has 2,916) */
/* legal moves: per distinct card at most 9 regular (7-0 swaps) + 28 flex (4 colours x 7 targets) */
#define UK_MAX_MOVES (37 * UK_MAX_DECK + 8)

/* phases (unokit.engine.game.Phase) */
enum { UK_TURN = 0, UK_DRAWN, UK_COLOR, UK_CHALLENGE, UK_ROUND_OVER, UK_MATCH_OVER, UK_DEAL };
/* UNO states */
enum { UK_UNO_NONE = 0, UK_UNO_SAFE, UK_UNO_VULNERABLE };
/* colour_reason */
enum { UK_REASON_NONE = 0, UK_REASON_FIRST_CARD, UK_REASON_FLIP_EXPOSED_WILD };
/* card kinds (unokit.engine.cards.Kind) */
enum {
    UK_NUMBER = 0, UK_SKIP, UK_REVERSE, UK_DRAW_TWO, UK_DRAW_ONE, UK_DRAW_FIVE, UK_FLIP,
    UK_SKIP_EVERYONE, UK_FLEX_SKIP, UK_FLEX_REVERSE, UK_FLEX_DRAW_TWO, UK_WILD, UK_WD4, UK_WD2,
    UK_WDC, UK_WAF, UK_WAD, UK_WTD, UK_FW4
};
/* move ops */
enum {
    UK_OP_PLAY = 0, UK_OP_DRAW, UK_OP_PASS, UK_OP_COLOR, UK_OP_ACCEPT, UK_OP_CHALLENGE, UK_OP_UNO,
    UK_OP_CATCH, UK_OP_NEXT,
    /* multiPlay (6.9): first card id << 4, a 7-bit mask << 16 over the seat's other
     * number cards of that number (uk_multi_others), (swap+1) << 25 */
    UK_OP_MULTI
};
#define UK_MULTI_CAP 1024 /* multi-plays listed per position at most (all are accepted) */
#define UK_FLEX_BIT (1 << 20)
#define UK_WILD_BIT (1u << 30)

/* results of commands: 0 accepted, else refused (state unchanged) with the
 * reason of the refusal. Python words each reason once (unokit.engine.refusals;
 * unokit.engine.codes.ERRORS names them in this order) */
enum {
    UK_OK = 0,
    UK_ERR_SEAT,           /* not a seat of this game */
    UK_ERR_PHASE,          /* the command does not answer the decision the game waits for */
    UK_ERR_NOT_YOUR_TURN,  /* another seat's decision */
    UK_ERR_CARD,           /* not a card id of this variant */
    UK_ERR_NOT_HELD,       /* the seat does not hold the card(s) */
    UK_ERR_FORM,           /* a malformed multi-play (fewer than two cards) */
    UK_ERR_NO_MATCH,       /* the card does not match the top card (a misplay) */
    UK_ERR_NO_BLUFF,       /* noBluff: a restricted wild draw while the colour is held */
    UK_ERR_STACK,          /* a pending draw: the card cannot answer it */
    UK_ERR_FORCED,         /* forcedPlay: DRAW while a card must be played */
    UK_ERR_MOVE,           /* not a move code */
    UK_ERR_EMPTY,          /* no first card to turn */
    UK_ERR_FINISH,         /* finishRestriction: not as the last card */
    UK_ERR_MUST_PLAY_DRAWN, /* mustPlayDrawn: PASS with a playable drawn card */
    UK_ERR_OUT,            /* mercy: the seat is out of the match */
    UK_ERR_MULTI,          /* multiPlay off, or cards of different numbers / kinds */
    UK_ERR_ROUND_OVER,     /* a round command after the round ended */
    UK_ERR_MATCH_OVER,     /* a round command after the match ended */
    UK_ERR_NOT_STARTED,    /* the first card is not turned yet (DEAL) */
    UK_ERR_NOT_IN_ROUND,   /* UNO / CATCH outside a round being played */
    UK_ERR_JUMP_NOW,       /* jumpIn: no jump-in in this phase or on a pending draw */
    UK_ERR_JUMP_CARD,      /* jumpIn: only a card identical to the top card jumps in */
    UK_ERR_ONLY_DRAWN,     /* after a draw only the drawn card may be played */
    UK_ERR_NO_FLEX,        /* a flex side outside UNO Flex */
    UK_ERR_NO_FLEX_SIDE,   /* the card has no flex side */
    UK_ERR_POWER_RED,      /* a flex side with a red Power Card */
    UK_ERR_STACK_SAME,     /* stacking=same_symbol: only the same draw card */
    UK_ERR_STACK_LESS,     /* stacking=escalate: a smaller draw */
    UK_ERR_NEED_COLOR,     /* a wild without its colour */
    UK_ERR_BAD_COLOR,      /* a colour that is not one of the side's */
    UK_ERR_NOT_WILD,       /* a colour declared with a card that is not wild */
    UK_ERR_NEED_TARGET,    /* a targeting flex side without its target */
    UK_ERR_BAD_TARGET,     /* a target that is not a seat */
    UK_ERR_TARGET_SELF,    /* a target that is the player */
    UK_ERR_TARGET_OUT,     /* mercy: a target out of the match */
    UK_ERR_NO_TARGET,      /* a target given to a card that takes none */
    UK_ERR_NEED_SWAP,      /* 7-0: a 7 without the player to swap with */
    UK_ERR_BAD_SWAP,       /* 7-0: the player itself, no seat, or a seat out of the match */
    UK_ERR_NO_SWAP,        /* a swap given to a card that swaps no hands */
    UK_ERR_NOT_FLIP,       /* flipcolor given to a card that is not a Flip card */
    UK_ERR_FLIP_COLOR,     /* flipcolor that is not a colour of the other side */
    UK_ERR_NOT_DRAWN,      /* PASS on one's turn before drawing a playable card */
    UK_ERR_FORCED_DRAWN,   /* forcedPlay: PASS with a playable drawn card */
    UK_ERR_NO_CHALLENGE,   /* CHALLENGE of a stacked card that is not a restricted wild draw */
    UK_ERR_CATCH_SELF,     /* a CATCH of oneself */
    UK_ERR_COUNT
};

/* Events (unokit.engine.events), recorded only while g->ev is set: a flat list of
 * int64 records [type, length, payload...] that unokit.engine.core turns into the
 * event objects Game.apply returns (same events, same order). */
enum {
    UK_EV_ROUND_STARTED = 0, UK_EV_CARD_TURNED, UK_EV_PLAYED, UK_EV_DREW, UK_EV_PASSED,
    UK_EV_COLOR_CHOSEN, UK_EV_ACCEPTED, UK_EV_CHALLENGED, UK_EV_UNO_CALLED, UK_EV_CAUGHT,
    UK_EV_SKIPPED, UK_EV_REVERSED, UK_EV_FLIPPED, UK_EV_RESHUFFLED, UK_EV_POWERS_CHANGED,
    UK_EV_HANDS_SWAPPED, UK_EV_MISPLAYED, UK_EV_ROUND_ENDED, UK_EV_MATCH_ENDED,
    UK_EV_ELIMINATED /* mercy (6.12): seat, cards put under the draw pile */
};
/* why cards were drawn (Drew.reason) */
enum { UK_R_DRAW = 0, UK_R_PENALTY, UK_R_CHALLENGE, UK_R_CATCH, UK_R_STACK, UK_R_MISPLAY, UK_R_FALSE_CATCH };
typedef struct uk_events {
    int64_t *buf;
    int len, cap, failed; /* failed: out of memory, records were lost */
} uk_events;

/* Appendix C options, as integers (unokit.engine.core builds this from Options) */
typedef struct uk_options {
    int64_t target_score;
    int scoring_lowest;        /* scoringMode=lowest */
    int single_round;          /* matchMode=single_round */
    int lowest_tie_play_on;    /* lowestModeTie=play_on */
    int dealer_selection;      /* 0 cut, 1 random, 2 fixed */
    int dealer_fixed_seat;
    int dealer_rotation;       /* 0 left, 1 winner, 2 random */
    int hand_size;
    int uno_penalty;
    int false_catch_penalty;
    int misplay_penalty;       /* misplayPenalty=on */
    int blocked_lowest;        /* blockedRound=lowest_hand_wins */
    int wd_wilds_match;        /* wildDrawWildsCountAsMatch */
    int flip_first_wild_redraw;
    int flip_first_flip_redraw;
    int flip_exposed_next;     /* flipExposedWildChooser=next_player */
    int flip_reverse_draw;     /* flipReverseDrawPile */
    int flip_last_flips;       /* flipLastCardFlips */
    int flip_draw_color_cap;   /* -1: none */
    int flex_wilds_match;      /* flexWildsCountAsMatch */
    int flex_flexcolors_match; /* flexFlexColorsCountAsMatch */
    int flex_reset_skip;       /* flexWildAllFlipResetCheck=skip_after_wild_all_flip */
    int flex_fw4_restricted;   /* flexFlexSideWD4Restricted */
    int flex_first_return;     /* flexFirstCardIgnored=return_to_deck */
    int stacking;              /* 0 off, 1 same_symbol, 2 escalate */
    int jump_in;
    int seven_zero;            /* a 7 swaps hands: sevenZero or sevenSwap (6.3, 6.8) */
    int draw_until_playable;
    int forced_play;
    int no_bluff;
    /* RULES.md 6.7-6.15 (appended: the option tuple of unokit.engine.core.core_options) */
    int deflect;               /* 0 off, 1 reverse, 2 skip, 3 both (6.7) */
    int zero_rotate;           /* a 0 passes every hand on: sevenZero or zeroRotate (6.3, 6.8) */
    int finish;                /* finishRestriction: bit 1 no_action, bit 2 no_wild (6.10) */
    int hand_limit;            /* handLimit, 0 off (6.11) */
    int no_challenge;          /* wildDrawChallenge=off (6.14) */
    int must_play_drawn;       /* mustPlayDrawn (6.15; forcedPlay implies it) */
    int teams;                 /* teams=pairs: partners s and s + n/2 (6.13) */
    int shuffle_seats;         /* shuffleSeats (6.16) */
    int mercy;                 /* mercy, 0 off (6.12): out of the match at mercy cards */
    int multi;                 /* multiPlay=same_number (6.9) */
} uk_options;

/* Card tables of one variant (unokit.engine.variants.Variant) and the deck in force. */
typedef struct uk_tables {
    int ncards;
    int two_sided; /* Flip */
    int flex;      /* Flex */
    int decklen;
    int16_t deck[UK_MAX_DECK];
    int8_t color[2][UK_MAX_CARDS];
    uint8_t kind[2][UK_MAX_CARDS];
    int8_t number[2][UK_MAX_CARDS];
    uint32_t mask[2][UK_MAX_CARDS];
    uint32_t topkey[2][UK_MAX_CARDS];
    int16_t points[2][UK_MAX_CARDS];
    uint8_t draw_amount[2][UK_MAX_CARDS];
    uint8_t restricted[2][UK_MAX_CARDS];
    uint8_t stack_class[2][UK_MAX_CARDS];
    int32_t ident[2][UK_MAX_CARDS];
    uint32_t flexmask[UK_MAX_CARDS];
    uint8_t cut_value[UK_MAX_CARDS];
    uint8_t flip_icon[UK_MAX_CARDS];
    int8_t flex_color[UK_MAX_CARDS]; /* light face's flex colour, -1 none */
} uk_tables;

/* One match: every field of Game.state_tuple (piles: top of the draw pile is
 * the END of the array; discard bottom -> top). Copy with memcpy (uk_copy). */
typedef struct uk_game {
    const uk_tables *t;
    uk_options o;
    int n;
    uint64_t seed48;  /* seed & 0xFFFFFFFFFFFF (what the shuffles use) */
    int64_t shuffles;
    int16_t hand_len[UK_MAX_PLAYERS];
    int16_t hands[UK_MAX_PLAYERS][UK_MAX_DECK];
    int draw_len;
    int16_t draw[UK_MAX_DECK];
    int discard_len;
    int16_t discard[UK_MAX_DECK];
    int side, color, current, direction, dealer, phase, drawn;
    int color_next, color_reason;
    int ch_offender, ch_legal, ch_card, ch_after, ch_after_success;
    int pending, stack_class, stack_amount;
    int8_t uno[UK_MAX_PLAYERS];
    int uno_pre, vulnerable;
    uint8_t powers[UK_MAX_PLAYERS]; /* Flex only (n entries), else unused */
    int64_t scores[UK_MAX_PLAYERS];
    int round_no, winner;
    int64_t round_points;
    int match_winners_n;
    int8_t match_winners[UK_MAX_PLAYERS];
    int empty_draws;
    int wild_top;
    int reveal_seat, reveal_off, reveal_len; /* reveal_seat < 0: none */
    int16_t reveal[UK_MAX_DECK];
    /* the seating (6.16): seat order[k] sits at place k, pos[order[k]] == k;
     * the identity unless shuffleSeats. A function of the seed (uk_init), not
     * of the commands: not part of the state */
    int8_t order[UK_MAX_PLAYERS], pos[UK_MAX_PLAYERS];
    int64_t commands; /* accepted commands (not part of the state) */
    uk_events *ev;    /* NULL: no events. Not part of the state: whoever copies a
                         uk_game (memcpy) sets the copy's ev to NULL or its own sink */
} uk_game;

/* random policy source for playouts: returns a float in [0, 1) */
typedef double (*uk_rnd_fn)(void *ctx);

/* rng.c: CPython's Mersenne Twister */
typedef struct uk_mt {
    uint32_t state[624];
    int index;
    int ready; /* words [0, ready) of the current block are twisted (lazy twist) */
} uk_mt;
void uk_mt_seed(uk_mt *mt, uint64_t lo, uint64_t hi); /* random.seed(hi << 64 | lo) */
uint32_t uk_mt_u32(uk_mt *mt);
void uk_mt_finish(uk_mt *mt); /* complete a lazy twist (before reading mt->state) */
double uk_mt_random(uk_mt *mt);                        /* random.random() */
int uk_mt_randbelow(uk_mt *mt, int k);                 /* random.randrange(k), k >= 1 */
void uk_mt_seed_shuffle(uk_mt *mt, const uk_game *g);  /* the generator of shuffle g->shuffles */

/* deal.c */
void uk_init(uk_game *g, const uk_tables *t, const uk_options *o, int n, uint64_t seed48);
int uk_new_match(uk_game *g); /* choose the dealer, deal round 1 */
int uk_next_round(uk_game *g);
int uk_start(uk_game *g);     /* turn the first card (phase DEAL) */
void uk_shuffle(uk_game *g, int16_t *cards, int len);

/* turn.c */
int uk_legal_moves(const uk_game *g, int seat, int32_t *out); /* seat < 0: the seat to act */
int uk_turn_moves(const uk_game *g, int32_t *out);
/* the plays of a plain turn (phase TURN, no stack), by card: the codes of card
 * cards[i] are out[start[i] .. start[i+1]); returns the number of cards with codes */
int uk_turn_plays(const uk_game *g, int32_t *out, int16_t *cards, int *start, int *playable);
int uk_card_plays(const uk_game *g, int p, int c, int last, uint32_t acc, int flex,
                  int *playable, int32_t *out);
int uk_apply_move(uk_game *g, int32_t move, int seat, int uno); /* UK_OK or UK_ERR_* */
/* uk_apply_move; *effect: whether an accepted command changed the position */
int uk_apply_move_fx(uk_game *g, int32_t move, int seat, int uno, int *effect);
/* UK_OK when seat may decide now in one of phases (a bit set of UK_TURN ..), else why not */
int uk_check_turn(const uk_game *g, int seat, int phases);
int uk_playable(const uk_game *g, int seat, int cid, int strict);
uint32_t uk_accept_mask(const uk_game *g);
int uk_draw_one(uk_game *g);
int uk_give(uk_game *g, int seat, int count);
int uk_next(const uk_game *g, int seat, int steps);
int uk_left(const uk_game *g, int seat, int steps); /* clockwise, whatever the direction */
int uk_partner(const uk_game *g, int seat);         /* teams (6.13): the seat opposite */
int uk_turn_ended(uk_game *g, int drew);
void uk_turn_action(uk_game *g);
int uk_draw(uk_game *g, int seat);
int uk_pass(uk_game *g, int seat);
int uk_choose_color(uk_game *g, int seat, int color);
int uk_play(uk_game *g, int seat, int cid, int color, int flex, int target, int swap, int uno,
            int flip_color);
int uk_play_codes(const uk_game *g, int seat, int cid, int flex, int last, int32_t *out);
/* multiPlay (6.9): a PLAY of k >= 2 number cards of one number, in order */
int uk_play_multi(uk_game *g, int seat, const int16_t *cids, int k, int swap, int uno);
int uk_multi_others(const uk_game *g, int seat, int first, int *pos);
int uk_multi_decode(const uk_game *g, int seat, int32_t move, int16_t *cids, int *swap);
int uk_multi_moves(const uk_game *g, int32_t *out);

/* events.c */
void uk_emit(uk_game *g, int type, int n, const int64_t *payload);
void uk_emit1(uk_game *g, int type, int64_t a);
void uk_emit_drew(uk_game *g, int seat, int reason, const int16_t *cards, int count);
int uk_give_for(uk_game *g, int seat, int count, int reason);
void uk_penalty_for(uk_game *g, int seat, int kind, int extra, int reason);

/* effects.c */
void uk_do_play(uk_game *g, int seat, int cid, int color, int flex, int target, int swap, int uno,
                int flip_color);
void uk_flip_piles(uk_game *g);
void uk_penalty(uk_game *g, int seat, int kind, int extra);

/* challenge.c */
int uk_accept(uk_game *g, int seat);
int uk_challenge(uk_game *g, int seat);
void uk_clear_challenge(uk_game *g);
int uk_holds_match(const uk_game *g, int seat, int color, int skip_card, int skip_restricted);
int uk_restricted_side(const uk_game *g, int cid, int flex);
int uk_restricted_legal(const uk_game *g, int seat, int cid);
void uk_restricted_play(uk_game *g, int seat, int cid, int kind, int legal, int flex, int target);

/* uno.c */
int uk_call_uno(uk_game *g, int seat, int *effect);
int uk_catch(uk_game *g, int seat, int target, int *effect);
void uk_uno_off(uk_game *g, int seat);

/* score.c */
int uk_hand_value(const uk_game *g, int seat);
void uk_end_round(uk_game *g, int winner);
void uk_end_blocked(uk_game *g);

/* house.c */
void uk_stack(uk_game *g, int cid, int amount);
int uk_has_forced_play(const uk_game *g, int seat);
int uk_must_play_drawn(const uk_game *g, int seat);
void uk_swap_hands(uk_game *g, int seat, int other);
void uk_rotate_hands(uk_game *g);
int uk_jump_moves(const uk_game *g, int seat, int32_t *out);
int uk_top_ident(const uk_game *g);
int uk_finish_forbidden(const uk_game *g, int cid, int flex);
int uk_deflects(const uk_game *g, int cid, int flex);
int uk_room(const uk_game *g, int seat);
/* mercy (6.12, house.c). A seat is out of the match when mercy is on and it
 * holds no card while the round is being played (its hand went under the
 * draw pile; in ROUND_OVER / MATCH_OVER: no card and not the round's winner);
 * derived from the state, so it needs no field of its own */
int uk_out(const uk_game *g, int seat);
int uk_alive(const uk_game *g);   /* seats in the match (g->n when mercy is off) */
int uk_others(const uk_game *g, int seat, int *out); /* the other seats in, in turn order */
void uk_mercy_check(uk_game *g, int seat);  /* after a draw: out at mercy cards or more */
void uk_mercy_settle(uk_game *g); /* after a command: one left wins; an out actor is passed */
int uk_left_in(const uk_game *g, int seat); /* the next seat in, clockwise */

/* playout.c: the random policy of unokit.engine.playout (same calls of rnd, same moves) */
int32_t uk_random_move(uk_game *g, uk_rnd_fn rnd, void *ctx);
long uk_playout(uk_game *g, uk_rnd_fn rnd, void *ctx, long max_turns);

/* policy.c: the search bots' "sensible" policy (unokit.bots.rollout.sensible_move) */
int32_t uk_sensible_move(const uk_game *g);
long uk_sensible_playout(uk_game *g, long max_turns);

/* policy.c: the weighted sensible policy (issue 16). Entries of its weight
 * vector, and their values in uk_sensible_move (UK_W_DEFAULTS, same order):
 * score of a coloured card = HELD x (cards held of its colour) + POINTS x
 * points / 10, + ATTACK for a skip, reverse or draw card when the next player
 * holds LOW cards or fewer, + DRAW (draw cards) or ACTION (skips, reverses)
 * always, + FOLLOW x (other non-wild cards of the hand of its colour or
 * number); score of a wild = WILD, + BLUFF (a restricted wild draw while the
 * current colour is held and the next player is not low), + WILD_ATTACK
 * (restricted, next player low), + WILD_LEGAL (restricted, legal, not low),
 * + OFF_COLOR (naming another colour than the favourite), + WILD_SHORT (with
 * two cards or fewer). The favourite colour counts action cards FAV_ACTION
 * times; a wild draw is challenged when the offender holds CHALLENGE cards or
 * more; a drawn wild is kept with more than KEEP_WILD cards. */
enum {
    UK_W_HELD = 0, UK_W_POINTS, UK_W_ATTACK, UK_W_WILD, UK_W_BLUFF, UK_W_WILD_ATTACK,
    UK_W_OFF_COLOR, UK_W_FAV_ACTION, UK_W_CHALLENGE, UK_W_KEEP_WILD, UK_W_LOW,
    UK_W_ACTION, UK_W_DRAW, UK_W_FOLLOW, UK_W_WILD_LEGAL, UK_W_WILD_SHORT, UK_W_COUNT
};
#define UK_W_DEFAULTS 2.0, 1.0, 25.0, -30.0, -100.0, 45.0, -5.0, 2.0, 2.0, 3.0, 2.0, 0, 0, 0, 0, 0
extern const double uk_w_defaults[UK_W_COUNT];
int32_t uk_weighted_move(const uk_game *g, const double *w);
/* seat plays uk_weighted_move with w, every other seat uk_sensible_move */
long uk_mixed_playout(uk_game *g, long max_turns, int seat, const double *w);

#endif
