/* Card effects per variant (RULES.md 2.x Classic, 3.x Flip, 4.x Flex): the
 * play itself, UNO state after a play, Flip's side flip, Flex Power Cards and
 * flex sides, and the last card's effects (1.12). */
#include <string.h>

#include "core.h"

void uk_flip_piles(uk_game *g) {
    for (int i = 0, j = g->discard_len - 1; i < j; i++, j--) {
        int16_t x = g->discard[i];
        g->discard[i] = g->discard[j];
        g->discard[j] = x;
    }
    if (g->o.flip_reverse_draw)
        for (int i = 0, j = g->draw_len - 1; i < j; i++, j--) {
            int16_t x = g->draw[i];
            g->draw[i] = g->draw[j];
            g->draw[j] = x;
        }
    g->side ^= 1;
    g->wild_top = 0;
    if (g->ev) {
        int64_t p[2] = {g->side, g->discard[g->discard_len - 1]};
        uk_emit(g, UK_EV_FLIPPED, 2, p);
    }
}

/* Flex Power Card transitions (4.3), in order. */
static void powers_after(uk_game *g, int seat, int cid, int flex, int kind) {
    uint8_t *p = g->powers, before[UK_MAX_PLAYERS];
    int n = g->n;
    memcpy(before, p, (size_t)n);
    if (flex) p[seat] = 0;
    if (g->t->flip_icon[cid]) p[seat] = !p[seat];
    int waf = kind == UK_WAF;
    if (waf)
        for (int i = 0; i < n; i++) p[i] = !p[i];
    int any = 0;
    for (int i = 0; i < n; i++) any |= p[i];
    if (!any && !(waf && g->o.flex_reset_skip))
        for (int i = 0; i < n; i++) p[i] = 1;
    if (g->ev && memcmp(before, p, (size_t)n)) {
        int64_t e[1 + UK_MAX_PLAYERS];
        e[0] = n;
        for (int i = 0; i < n; i++) e[1 + i] = p[i];
        uk_emit(g, UK_EV_POWERS_CHANGED, 1 + n, e);
    }
}

static void everyone_else_draws(uk_game *g, int seat, int amount) {
    int others[UK_MAX_PLAYERS], m = uk_others(g, seat, others);
    for (int k = 0; k < m; k++) uk_give(g, others[k], amount);
}

static void draw_until(uk_game *g, int seat, int color, int extra, int reason) {
    int start = g->hand_len[seat], cap = g->o.flip_draw_color_cap, drawn = 0;
    if (uk_out(g, seat)) return; /* mercy (6.12) */
    const int8_t *colors = g->t->color[g->side];
    while ((cap < 0 || drawn < cap) && uk_room(g, seat)) { /* handLimit (6.11) */
        int c = uk_draw_one(g);
        if (c < 0) break;
        g->hands[seat][g->hand_len[seat]++] = (int16_t)c;
        drawn++;
        if (colors[c] == color) break;
    }
    for (int i = 0; i < extra && uk_room(g, seat); i++) {
        int c = uk_draw_one(g);
        if (c < 0) break;
        g->hands[seat][g->hand_len[seat]++] = (int16_t)c;
    }
    int got = g->hand_len[seat] - start;
    if (got) {
        if (g->uno[seat]) uk_uno_off(g, seat);
        uk_emit_drew(g, seat, reason, g->hands[seat] + start, got);
        uk_mercy_check(g, seat);
    }
}

void uk_penalty_for(uk_game *g, int seat, int kind, int extra, int reason) {
    if (kind == UK_WDC)
        draw_until(g, seat, g->color, extra, reason);
    else
        uk_give_for(g, seat, (kind == UK_WD4 || kind == UK_FW4 ? 4 : 2) + extra, reason);
}

void uk_penalty(uk_game *g, int seat, int kind, int extra) {
    uk_penalty_for(g, seat, kind, extra, UK_R_PENALTY);
}

/* The player went out: the last card's effects still resolve (1.12). */
static void final_card(uk_game *g, int seat, int cid, int kind, int flex, int target) {
    const uk_tables *t = g->t;
    int victim = uk_next(g, seat, 1);
    /* a deflecting Reverse going out: the pending draw passes on in the new direction (6.7) */
    if (g->pending && uk_deflects(g, cid, flex) && (kind == UK_REVERSE || kind == UK_FLEX_REVERSE))
        victim = uk_next(g, seat, -1);
    if (kind == UK_FLIP) {
        if (g->o.flip_last_flips) {
            uk_flip_piles(g);
            g->color = t->color[g->side][g->discard[g->discard_len - 1]];
        }
    } else if (kind == UK_WDC) {
        int extra = g->pending;
        draw_until(g, victim, g->color, 0, UK_R_PENALTY);
        if (extra) uk_give_for(g, victim, extra, UK_R_STACK);
    } else if (flex && (kind == UK_FLEX_DRAW_TWO || kind == UK_WAD)) {
        everyone_else_draws(g, seat, kind == UK_FLEX_DRAW_TWO ? 1 : 2);
    } else if (flex && (kind == UK_WTD || kind == UK_FW4)) {
        uk_give(g, target, kind == UK_WTD ? 2 : 4);
    } else {
        int amount = !flex ? t->draw_amount[g->side][cid] : 0;
        if (kind == UK_WAD || kind == UK_WTD) amount = 0;
        if (amount || g->pending) uk_give(g, victim, amount + g->pending);
    }
    g->pending = 0;
    uk_end_round(g, seat);
}

static void remove_card(uk_game *g, int seat, int cid) {
    int16_t *h = g->hands[seat];
    int len = g->hand_len[seat];
    for (int i = 0; i < len; i++)
        if (h[i] == cid) {
            memmove(h + i, h + i + 1, sizeof(int16_t) * (size_t)(len - i - 1));
            g->hand_len[seat] = (int16_t)(len - 1);
            return;
        }
}

void uk_do_play(uk_game *g, int seat, int cid, int color, int flex, int target, int swap, int uno,
                int flip_color) {
    const uk_tables *t = g->t;
    const uk_options *o = &g->o;
    int side = g->side, n = uk_alive(g); /* mercy (6.12): the players still in */
    if (g->vulnerable >= 0 || g->reveal_seat >= 0) uk_turn_action(g);
    int kind = t->kind[side][cid];
    int legal = 1;
    int restricted = uk_restricted_side(g, cid, flex);
    if (restricted) legal = uk_restricted_legal(g, seat, cid);
    remove_card(g, seat, cid);
    g->discard[g->discard_len++] = (int16_t)cid;
    g->wild_top = 0;
    g->drawn = -1;
    g->empty_draws = 0;
    if (g->ev) {
        int64_t p[6] = {seat, cid, color, flex, target, seat != g->current};
        uk_emit(g, UK_EV_PLAYED, 6, p);
    }
    int left = g->hand_len[seat];
    if (left == 1) {
        if (uno || g->uno_pre == seat) {
            g->uno[seat] = UK_UNO_SAFE;
            /* a call made with the play is a call like any other (a pre-announced one was
             * emitted when it was made) */
            if (g->uno_pre != seat) uk_emit1(g, UK_EV_UNO_CALLED, seat);
        } else {
            g->uno[seat] = UK_UNO_VULNERABLE;
            g->vulnerable = seat;
        }
    } else if (left == 0 || g->uno[seat]) {
        g->uno[seat] = UK_UNO_NONE;
    }
    g->uno_pre = -1;
    if (color >= 0) {
        g->color = color;
    } else {
        int col = t->color[side][cid];
        if (col >= 0) g->color = col;
    }
    g->phase = UK_TURN;
    if (t->flex) powers_after(g, seat, cid, flex, kind);
    if (left == 0) {
        final_card(g, seat, cid, kind, flex, target);
        return;
    }
    if (kind == UK_NUMBER && !o->seven_zero && !o->zero_rotate) {
        g->current = uk_next(g, seat, 1);
        return;
    }
    g->current = seat;
    if (g->pending && uk_deflects(g, cid, flex)) {
        /* deflect (6.7): the whole pending draw passes to the next player (after
         * a Reverse, in the new direction); nobody is skipped, and the new
         * victim may no longer challenge */
        if (kind == UK_REVERSE || kind == UK_FLEX_REVERSE) {
            g->direction = -g->direction;
            uk_emit1(g, UK_EV_REVERSED, g->direction);
        }
        uk_clear_challenge(g);
        g->current = uk_next(g, seat, 1);
    } else if (kind == UK_NUMBER) {
        int num = t->number[side][cid];
        if (num == 7 && swap >= 0)
            uk_swap_hands(g, seat, swap);
        else if (num == 0 && o->zero_rotate)
            uk_rotate_hands(g);
        g->current = uk_next(g, seat, 1);
    } else if (kind == UK_SKIP || (kind == UK_FLEX_SKIP && !flex)) {
        uk_emit1(g, UK_EV_SKIPPED, uk_next(g, seat, 1));
        g->current = uk_next(g, seat, 2);
    } else if (kind == UK_REVERSE || (kind == UK_FLEX_REVERSE && !flex)) {
        g->direction = -g->direction;
        uk_emit1(g, UK_EV_REVERSED, g->direction);
        g->current = n == 2 ? seat : uk_next(g, seat, 1);
    } else if (kind == UK_WILD || kind == UK_WAF || (!flex && (kind == UK_WAD || kind == UK_WTD))) {
        g->current = uk_next(g, seat, 1);
    } else if (kind == UK_FLIP) {
        uk_flip_piles(g);
        int tc = t->color[g->side][g->discard[g->discard_len - 1]];
        int nxt = uk_next(g, seat, 1);
        if (tc >= 0) {
            g->color = tc;
            g->current = nxt;
        } else if (flip_color >= 0 && !o->flip_exposed_next) {
            g->color = flip_color;
            g->current = nxt;
        } else {
            g->phase = UK_COLOR;
            g->color_reason = UK_REASON_FLIP_EXPOSED_WILD;
            g->color = -1;
            g->color_next = nxt;
            if (o->flip_exposed_next) g->current = nxt;
        }
    } else if (kind == UK_SKIP_EVERYONE || kind == UK_FLEX_SKIP) { /* flex side: Skip All */
        for (int k = 1; k < n; k++) uk_emit1(g, UK_EV_SKIPPED, uk_next(g, seat, k));
        /* (n: the seats in, mercy 6.12) */
        g->current = seat;
    } else if (kind == UK_FLEX_REVERSE) { /* flex side: reverse then skip */
        g->direction = -g->direction;
        uk_emit1(g, UK_EV_REVERSED, g->direction);
        uk_emit1(g, UK_EV_SKIPPED, uk_next(g, seat, 1));
        g->current = n == 2 ? seat : uk_next(g, seat, 2);
    } else if (flex && (kind == UK_FLEX_DRAW_TWO || kind == UK_WAD)) { /* everyone else draws */
        everyone_else_draws(g, seat, kind == UK_FLEX_DRAW_TWO ? 1 : 2);
        g->current = uk_next(g, seat, 1);
    } else if (kind == UK_WTD || (kind == UK_FW4 && flex && !restricted)) {
        uk_give(g, target, kind == UK_WTD ? 2 : 4);
        g->current = uk_next(g, seat, 1);
    } else if (restricted) {
        uk_restricted_play(g, seat, cid, kind, legal, flex, target);
    } else { /* Draw Two / Draw One / Draw Five */
        int amount = t->draw_amount[side][cid];
        int victim = uk_next(g, seat, 1);
        if (o->stacking || o->deflect) { /* a pending draw (6.1, 6.7) */
            uk_stack(g, cid, amount);
            g->current = victim;
        } else {
            uk_give(g, victim, amount);
            uk_emit1(g, UK_EV_SKIPPED, victim);
            g->current = uk_next(g, victim, 1);
        }
    }
}
