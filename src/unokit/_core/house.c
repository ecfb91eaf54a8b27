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
    for (int s = 0; s < n; s++) {
        int from = uk_next(g, s, -1);
        memcpy(g->hands[s], old[from], sizeof(int16_t) * (size_t)oldlen[from]);
        g->hand_len[s] = oldlen[from];
        g->uno[s] = UK_UNO_NONE;
    }
    g->vulnerable = -1;
    if (g->ev) {
        int64_t p[1 + 2 * UK_MAX_PLAYERS];
        p[0] = n;
        for (int s = 0; s < n; s++) {
            p[1 + s] = s;
            p[1 + n + s] = uk_next(g, s, -1);
        }
        uk_emit(g, UK_EV_HANDS_SWAPPED, 1 + 2 * n, p);
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
