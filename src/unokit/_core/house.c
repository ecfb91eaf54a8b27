/* House rules (RULES.md section 6): stacking (6.1), jump-in (6.2, D64), 7-0
 * (6.3), forcedPlay (6.5); drawUntilPlayable and noBluff are read where the
 * draw (turn.c) and restricted plays (challenge.c) are decided. */
#include <string.h>

#include "core.h"

void uk_stack(uk_game *g, int cid, int amount) {
    if (!g->t->restricted[g->side][cid]) uk_clear_challenge(g); /* only the last card */
    g->pending += amount;
    g->stack_class = g->t->stack_class[g->side][cid];
    g->stack_amount = amount;
}

int uk_has_forced_play(const uk_game *g, int seat) {
    const int16_t *h = g->hands[seat];
    for (int i = 0, len = g->hand_len[seat]; i < len; i++)
        if (uk_playable(g, seat, h[i], 1)) return 1;
    return 0;
}

int uk_must_play_drawn(const uk_game *g, int seat) {
    /* forcedPlay (6.5) or mustPlayDrawn (6.15) */
    return (g->o.forced_play || g->o.must_play_drawn) && uk_playable(g, seat, g->drawn, 1);
}

/* finishRestriction (6.10): whether cid played on that side may not be a
 * player's last card. Action: neither a number nor a wild; wild: any wild face. */
int uk_finish_forbidden(const uk_game *g, int cid, int flex) {
    (void)flex; /* a Flex card's flex side has the kind of its regular side */
    int f = g->o.finish;
    if (!f) return 0;
    int kind = g->t->kind[g->side][cid];
    if (kind == UK_NUMBER) return 0;
    if (kind >= UK_WILD) return (f & 2) != 0;
    return (f & 1) != 0;
}

/* deflect (6.7): whether cid on that side passes a pending draw on (a Reverse
 * or a Skip of the regular / active side; Flip's Skip Everyone is a Skip) */
int uk_deflects(const uk_game *g, int cid, int flex) {
    int d = g->o.deflect;
    if (!d || flex) return 0;
    int kind = g->t->kind[g->side][cid];
    if (kind == UK_REVERSE || kind == UK_FLEX_REVERSE) return (d & 1) != 0;
    if (kind == UK_SKIP || kind == UK_SKIP_EVERYONE || kind == UK_FLEX_SKIP) return (d & 2) != 0;
    return 0;
}

/* handLimit (6.11): how many more cards seat may draw (a large number when off) */
int uk_room(const uk_game *g, int seat) {
    if (!g->o.hand_limit) return 1 << 30;
    int r = g->o.hand_limit - g->hand_len[seat];
    return r > 0 ? r : 0;
}

void uk_swap_hands(uk_game *g, int seat, int other) {
    int16_t tmp[UK_MAX_DECK];
    int la = g->hand_len[seat], lb = g->hand_len[other];
    memcpy(tmp, g->hands[seat], sizeof(int16_t) * (size_t)la);
    memcpy(g->hands[seat], g->hands[other], sizeof(int16_t) * (size_t)lb);
    memcpy(g->hands[other], tmp, sizeof(int16_t) * (size_t)la);
    g->hand_len[seat] = (int16_t)lb;
    g->hand_len[other] = (int16_t)la;
    g->uno[seat] = g->uno[other] = UK_UNO_NONE;
    g->vulnerable = -1;
    if (g->ev) { /* HandsSwapped(seats, sources) */
        int64_t p[5] = {2, seat, other, other, seat};
        uk_emit(g, UK_EV_HANDS_SWAPPED, 5, p);
    }
}

void uk_rotate_hands(uk_game *g) {
    static __thread int16_t old[UK_MAX_PLAYERS][UK_MAX_DECK];
    int16_t oldlen[UK_MAX_PLAYERS];
    int n = g->n;
    for (int s = 0; s < n; s++) {
        oldlen[s] = g->hand_len[s];
        memcpy(old[s], g->hands[s], sizeof(int16_t) * (size_t)oldlen[s]);
    }
    /* mercy (6.12): only the seats in pass and receive (computed before any hand moves) */
    int seats[UK_MAX_PLAYERS], from[UK_MAX_PLAYERS], m = 0;
    for (int s = 0; s < n; s++)
        if (!uk_out(g, s)) {
            seats[m] = s;
            from[m++] = uk_next(g, s, -1);
        }
    for (int i = 0; i < m; i++) {
        int s = seats[i], f = from[i];
        memcpy(g->hands[s], old[f], sizeof(int16_t) * (size_t)oldlen[f]);
        g->hand_len[s] = oldlen[f];
        g->uno[s] = UK_UNO_NONE;
    }
    g->vulnerable = -1;
    if (g->ev) {
        int64_t p[1 + 2 * UK_MAX_PLAYERS];
        p[0] = m;
        for (int i = 0; i < m; i++) {
            p[1 + i] = seats[i];
            p[1 + m + i] = from[i];
        }
        uk_emit(g, UK_EV_HANDS_SWAPPED, 1 + 2 * m, p);
    }
}

int uk_top_ident(const uk_game *g) {
    if (g->wild_top) return -1;
    return g->t->ident[g->side][g->discard[g->discard_len - 1]];
}

int uk_jump_moves(const uk_game *g, int seat, int32_t *out) {
    int ident = uk_top_ident(g), k = 0;
    if (ident < 0) return 0;
    const int16_t *h = g->hands[seat];
    int len = g->hand_len[seat];
    /* sorted(set(hand)) restricted to identical cards */
    int16_t cards[UK_MAX_DECK];
    int m = 0;
    for (int i = 0; i < len; i++) {
        int c = h[i];
        if (g->t->ident[g->side][c] != ident) continue;
        int j = m;
        while (j > 0 && cards[j - 1] > c) j--;
        if (j > 0 && cards[j - 1] == c) continue;
        memmove(cards + j + 1, cards + j, sizeof(int16_t) * (size_t)(m - j));
        cards[j] = (int16_t)c;
        m++;
    }
    for (int i = 0; i < m; i++) k += uk_play_codes(g, seat, cards[i], 0, len == 1, out + k);
    return k;
}

/* ---- mercy (6.12): out of the match at `mercy` cards or more after a draw */

int uk_out(const uk_game *g, int seat) {
    if (!g->o.mercy || g->hand_len[seat]) return 0;
    int ph = g->phase;
    if (ph == UK_ROUND_OVER || ph == UK_MATCH_OVER) return seat != g->winner;
    return 1;
}

int uk_alive(const uk_game *g) {
    if (!g->o.mercy) return g->n;
    int k = 0;
    for (int s = 0; s < g->n; s++) k += !uk_out(g, s);
    return k;
}

int uk_others(const uk_game *g, int seat, int *out) {
    int n = g->n, m = 0;
    for (int k = 1; k < n; k++) {
        int x = (g->pos[seat] + k * g->direction) % n;
        int s = g->order[x < 0 ? x + n : x];
        if (!uk_out(g, s)) out[m++] = s;
    }
    return m;
}

int uk_left_in(const uk_game *g, int seat) {
    for (int k = 1; k <= g->n; k++) {
        int s = uk_left(g, seat, k);
        if (!uk_out(g, s)) return s;
    }
    return uk_left(g, seat, 1);
}

/* seat's hand goes under the draw pile, in the order held (hand[0] lowest) */
void uk_mercy_check(uk_game *g, int seat) {
    int len = g->hand_len[seat];
    if (!g->o.mercy || len < g->o.mercy) return;
    memmove(g->draw + len, g->draw, sizeof(int16_t) * (size_t)g->draw_len);
    memcpy(g->draw, g->hands[seat], sizeof(int16_t) * (size_t)len);
    g->draw_len += len;
    g->hand_len[seat] = 0;
    g->uno[seat] = UK_UNO_NONE;
    if (g->vulnerable == seat) g->vulnerable = -1;
    if (g->uno_pre == seat) g->uno_pre = -1;
    if (g->ev) {
        int64_t p[2] = {seat, len};
        uk_emit(g, UK_EV_ELIMINATED, 2, p);
    }
}

/* the teams (6.13) or players still in */
static int units_alive(const uk_game *g, int *last) {
    int k = 0, seen[UK_MAX_PLAYERS] = {0};
    *last = -1;
    for (int k2 = 0; k2 < g->n; k2++) {
        int s = g->order[k2];
        if (uk_out(g, s)) continue;
        int unit = g->o.teams ? (s < uk_partner(g, s) ? s : uk_partner(g, s)) : s;
        if (!seen[unit]) {
            seen[unit] = 1;
            k++;
        }
        if (*last < 0) *last = s;
    }
    return k;
}

void uk_mercy_settle(uk_game *g) {
    if (!g->o.mercy) return;
    int ph = g->phase;
    if (ph != UK_TURN && ph != UK_DRAWN && ph != UK_COLOR && ph != UK_CHALLENGE) return;
    int any;
    if (units_alive(g, &any) <= 1) {
        /* one player (one team) left: wins the round at once; the winner is the
         * seat to act, or the next one in */
        int w = uk_out(g, g->current) ? uk_next(g, g->current, 1) : g->current;
        uk_clear_challenge(g);
        g->pending = g->stack_class = g->stack_amount = 0;
        g->color_next = -1;
        g->color_reason = UK_REASON_NONE;
        uk_end_round(g, w);
        return;
    }
    if (g->color_next >= 0 && uk_out(g, g->color_next)) g->color_next = uk_next(g, g->color_next, 1);
    if (!uk_out(g, g->current)) return;
    /* the seat to act is out: its decision lapses and the next seat in plays */
    int from = g->current;
    if (ph == UK_CHALLENGE) {
        from = g->ch_after;
        uk_clear_challenge(g);
        if (!uk_out(g, from)) {
            g->phase = UK_TURN;
            g->current = from;
            return;
        }
    } else if (ph == UK_COLOR) {
        g->current = uk_next(g, from, 1);
        return;
    }
    g->phase = UK_TURN;
    g->drawn = -1;
    g->pending = g->stack_class = g->stack_amount = 0;
    uk_clear_challenge(g);
    g->current = uk_next(g, from, 1);
}
