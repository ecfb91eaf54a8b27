/* Restricted wild draws (RULES.md 1.10): who may play one legally, the
 * challenge window, ACCEPT, CHALLENGE, and challenging the last card of a stack. */
#include <string.h>

#include "core.h"

void uk_clear_challenge(uk_game *g) {
    g->ch_offender = g->ch_card = g->ch_after = g->ch_after_success = -1;
    g->ch_legal = 0;
}

/* Whether seat (without one copy of skip_card) holds a card that "matches the
 * current colour"; skip_restricted: other restricted wild draws do not count. */
int uk_holds_match(const uk_game *g, int seat, int color, int skip_card, int skip_restricted) {
    const uk_tables *t = g->t;
    const uint8_t *restricted = t->restricted[g->side];
    const int8_t *colors = t->color[g->side];
    int wilds, flexcols;
    if (t->flex) {
        wilds = g->o.flex_wilds_match;
        flexcols = g->o.flex_flexcolors_match;
    } else {
        wilds = g->o.wd_wilds_match;
        flexcols = 0;
    }
    int skipped = 0;
    const int16_t *h = g->hands[seat];
    for (int i = 0, len = g->hand_len[seat]; i < len; i++) {
        int c = h[i];
        if (c == skip_card && !skipped) {
            skipped = 1;
            continue;
        }
        if (skip_restricted && restricted[c]) continue;
        int col = colors[c];
        if (col == color) return 1;
        if (col < 0 && wilds) return 1;
        if (flexcols && t->flex_color[c] >= 0 && t->flex_color[c] == color) return 1;
    }
    return 0;
}

int uk_restricted_side(const uk_game *g, int cid, int flex) {
    if (!g->t->restricted[g->side][cid]) return 0;
    return !flex || g->o.flex_fw4_restricted;
}

int uk_restricted_legal(const uk_game *g, int seat, int cid) {
    return !uk_holds_match(g, seat, g->color, cid, g->o.no_bluff);
}

void uk_restricted_play(uk_game *g, int seat, int cid, int kind, int legal, int flex, int target) {
    const uk_options *o = &g->o;
    int victim = flex ? target : uk_next(g, seat, 1), after, after_success;
    if (flex) { /* flexFlexSideWD4Restricted: the target may challenge, nobody is skipped */
        after = after_success = uk_next(g, seat, 1);
    } else {
        after = uk_next(g, victim, 1);
        after_success = victim;
    }
    int stack = (o->stacking || o->deflect) && kind != UK_WDC && !flex;
    /* noBluff (6.6) or wildDrawChallenge=off (6.14): never challenged */
    int unchallenged = o->no_bluff || o->no_challenge;
    if (unchallenged && !stack) {
        uk_penalty(g, victim, kind, 0);
        if (!flex) uk_emit1(g, UK_EV_SKIPPED, victim);
        g->current = after;
        return;
    }
    if (!unchallenged) { /* with noBluff the play was legal: nothing to challenge */
        g->ch_offender = seat;
        g->ch_legal = legal;
        g->ch_card = cid;
        g->ch_after = after;
        g->ch_after_success = after_success;
    }
    if (stack) {
        if (unchallenged) uk_clear_challenge(g);
        uk_stack(g, cid, g->t->draw_amount[g->side][cid]);
        g->current = victim;
        return;
    }
    g->phase = UK_CHALLENGE;
    g->current = victim;
}

static int check_challenge_turn(const uk_game *g, int seat) {
    return uk_check_turn(g, seat, 1 << UK_CHALLENGE);
}

int uk_accept(uk_game *g, int seat) {
    int err = check_challenge_turn(g, seat);
    if (err) return err;
    uk_turn_action(g);
    int kind = g->t->kind[g->side][g->ch_card];
    uk_emit1(g, UK_EV_ACCEPTED, seat);
    int size = g->hand_len[seat];
    uk_penalty(g, seat, kind, 0);
    int after = g->ch_after;
    int loses_turn = after != g->ch_after_success; /* not a flex-side FW4 */
    if (loses_turn && uk_turn_ended(g, g->hand_len[seat] - size)) {
        uk_clear_challenge(g);
        return UK_OK;
    }
    if (after != seat) uk_emit1(g, UK_EV_SKIPPED, seat);
    uk_clear_challenge(g);
    g->phase = UK_TURN;
    g->current = after;
    return UK_OK;
}

static void set_reveal(uk_game *g, int seat, int off) {
    g->reveal_seat = seat;
    g->reveal_off = off;
    g->reveal_len = g->hand_len[off];
    memcpy(g->reveal, g->hands[off], sizeof(int16_t) * (size_t)g->reveal_len);
    if (g->ev) { /* Challenged(seat, offender, success, revealed) */
        int64_t p[4 + UK_MAX_DECK];
        p[0] = seat;
        p[1] = off;
        p[2] = !g->ch_legal;
        p[3] = g->reveal_len;
        for (int i = 0; i < g->reveal_len; i++) p[4 + i] = g->reveal[i];
        uk_emit(g, UK_EV_CHALLENGED, 4 + g->reveal_len, p);
    }
}

static void challenge_stack(uk_game *g, int seat) {
    uk_turn_action(g);
    int off = g->ch_offender;
    set_reveal(g, seat, off);
    int total = g->pending;
    g->pending = g->stack_class = g->stack_amount = 0;
    if (g->ch_legal) {
        int drew = uk_give_for(g, seat, total + 2, UK_R_CHALLENGE);
        uk_clear_challenge(g);
        if (uk_turn_ended(g, drew)) return;
        g->current = uk_next(g, seat, 1);
    } else {
        uk_give_for(g, off, total, UK_R_CHALLENGE);
        g->current = seat;
    }
    uk_clear_challenge(g);
}

int uk_challenge(uk_game *g, int seat) {
    if (g->pending && g->ch_offender >= 0 && g->phase == UK_TURN && seat == g->current) {
        challenge_stack(g, seat);
        return UK_OK;
    }
    int err = check_challenge_turn(g, seat);
    if (err == UK_ERR_PHASE && g->phase == UK_TURN && g->pending && seat == g->current)
        return UK_ERR_NO_CHALLENGE; /* a stacked card that is not a restricted wild draw */
    if (err) return err;
    uk_turn_action(g);
    int off = g->ch_offender;
    int kind = g->t->kind[g->side][g->ch_card];
    set_reveal(g, seat, off);
    if (g->ch_legal) {
        int size = g->hand_len[seat];
        uk_penalty_for(g, seat, kind, 2, UK_R_CHALLENGE);
        g->current = g->ch_after;
        int loses_turn = g->ch_after != g->ch_after_success;
        if (loses_turn && uk_turn_ended(g, g->hand_len[seat] - size)) {
            uk_clear_challenge(g);
            return UK_OK;
        }
    } else {
        uk_penalty_for(g, off, kind, 0, UK_R_CHALLENGE);
        g->current = g->ch_after_success;
    }
    uk_clear_challenge(g);
    g->phase = UK_TURN;
    return UK_OK;
}
