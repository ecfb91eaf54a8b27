/* Deal and first card: dealer choice (RULES.md 1.2, D50), shuffle, deal (1.3),
 * the first card of each variant (2.4, 3.7, 4.8, D8, D29, D59), next round. */
#include <string.h>

#include "core.h"

void uk_init(uk_game *g, const uk_tables *t, const uk_options *o, int n, uint64_t seed48) {
    memset(g, 0, sizeof *g);
    g->t = t;
    g->o = *o;
    g->n = n;
    g->seed48 = seed48;
    g->color = -1;
    g->direction = 1;
    g->phase = UK_DEAL;
    g->drawn = -1;
    g->color_next = -1;
    uk_clear_challenge(g);
    g->uno_pre = -1;
    g->vulnerable = -1;
    for (int s = 0; s < n; s++) g->powers[s] = 1;
    g->winner = -1;
    g->reveal_seat = g->reveal_off = -1;
    for (int s = 0; s < n; s++) g->order[s] = (int8_t)s;
    if (o->shuffle_seats) {
        /* 6.16: Fisher-Yates of the seats with random.Random((1 << 64) + seed48)
         * (unokit.engine.options.seating), a generator no shuffle uses */
        uk_mt mt;
        uk_mt_seed(&mt, seed48, 1);
        for (int i = n - 1; i > 0; i--) {
            int j = (int)(uk_mt_random(&mt) * (i + 1));
            int8_t x = g->order[i];
            g->order[i] = g->order[j];
            g->order[j] = x;
        }
    }
    for (int k = 0; k < n; k++) g->pos[g->order[k]] = (int8_t)k;
}

/* Fisher-Yates with the generator of shuffle number g->shuffles (Game._shuffle). */
void uk_shuffle(uk_game *g, int16_t *cards, int len) {
    uk_mt mt;
    uk_mt_seed_shuffle(&mt, g);
    g->shuffles++;
    for (int i = len - 1; i > 0; i--) {
        int j = (int)(uk_mt_random(&mt) * (i + 1));
        int16_t x = cards[i];
        cards[i] = cards[j];
        cards[j] = x;
    }
}

static int randbelow(uk_game *g, int k) {
    uk_mt mt;
    uk_mt_seed_shuffle(&mt, g);
    g->shuffles++;
    return uk_mt_randbelow(&mt, k);
}

static int choose_dealer(uk_game *g) {
    const uk_tables *t = g->t;
    if (g->o.dealer_selection == 2) return g->o.dealer_fixed_seat;
    if (g->o.dealer_selection == 1) return randbelow(g, g->n);
    /* cut: everyone takes a random card of those left, highest deals, ties re-cut */
    uk_mt mt;
    uk_mt_seed_shuffle(&mt, g);
    g->shuffles++;
    int contenders[UK_MAX_PLAYERS], nc = g->n, cut[UK_MAX_PLAYERS];
    uint8_t taken[UK_MAX_DECK];
    int ntaken = 0, len = t->decklen;
    memset(taken, 0, sizeof taken);
    for (int s = 0; s < nc; s++) contenders[s] = s;
    while (nc > 1) {
        if (len - ntaken < nc) break;
        int best = -1;
        for (int k = 0; k < nc; k++) {
            int i = (int)(uk_mt_random(&mt) * len);
            while (taken[i]) i = (int)(uk_mt_random(&mt) * len);
            taken[i] = 1;
            ntaken++;
            cut[k] = t->cut_value[t->deck[i]];
            if (cut[k] > best) best = cut[k];
        }
        int m = 0;
        for (int k = 0; k < nc; k++)
            if (cut[k] == best) contenders[m++] = contenders[k];
        nc = m;
    }
    return contenders[0];
}

static int first_card_ok(const uk_game *g, int c) {
    const uk_tables *t = g->t;
    int k = t->kind[0][c];
    if (t->flex) return k == UK_NUMBER;
    if (k == UK_WD4 || k == UK_WD2) return 0;
    if (t->two_sided && k == UK_WILD && g->o.flip_first_wild_redraw) return 0;
    return !(t->two_sided && k == UK_FLIP && g->o.flip_first_flip_redraw);
}

/* CardTurned(card, reason): 0 start, 1 ignored, 2 returned */
static void turned(uk_game *g, int c, int reason) {
    if (g->ev) {
        int64_t p[2] = {c, reason};
        uk_emit(g, UK_EV_CARD_TURNED, 2, p);
    }
}

int uk_start(uk_game *g) {
    const uk_tables *t = g->t;
    int first = uk_left_in(g, g->dealer), c, k;
    g->direction = 1;
    g->wild_top = 0;
    for (;;) {
        if (!g->draw_len) return UK_ERR_EMPTY;
        c = g->draw[--g->draw_len];
        if (first_card_ok(g, c)) {
            g->discard[g->discard_len++] = (int16_t)c;
            turned(g, c, 0);
            k = t->kind[0][c];
            break;
        }
        if (t->flex && !g->o.flex_first_return) {
            /* ignored cards stay in the discard pile; the next is turned on top (D29) */
            g->discard[g->discard_len++] = (int16_t)c;
            if (g->draw_len) {
                turned(g, c, 1);
                continue;
            }
        } else {
            int any = 0;
            for (int i = 0; i < g->draw_len && !any; i++) any = first_card_ok(g, g->draw[i]);
            if (any) { /* returned into the draw pile, which is shuffled (D8, D29) */
                turned(g, c, t->flex ? 1 : 2);
                g->draw[g->draw_len++] = (int16_t)c;
                uk_shuffle(g, g->draw, g->draw_len);
                continue;
            }
            g->discard[g->discard_len++] = (int16_t)c;
        }
        /* nothing left to turn that may stay: this card stays as a plain Wild (D59) */
        turned(g, c, 0);
        g->wild_top = 1;
        k = UK_WILD;
        break;
    }
    g->phase = UK_TURN;
    g->current = first;
    g->color = g->wild_top ? -1 : t->color[0][c];
    if (k == UK_SKIP) {
        uk_emit1(g, UK_EV_SKIPPED, first);
        g->current = uk_next(g, first, 1);
    } else if (k == UK_REVERSE) {
        g->direction = -1;
        g->current = g->dealer;
        uk_emit1(g, UK_EV_REVERSED, -1);
    } else if (k == UK_DRAW_TWO || k == UK_DRAW_ONE) {
        uk_give(g, first, t->draw_amount[0][c]);
        uk_emit1(g, UK_EV_SKIPPED, first);
        g->current = uk_next(g, first, 1);
    } else if (k == UK_WILD) {
        g->phase = UK_COLOR;
        g->color_reason = UK_REASON_FIRST_CARD;
        g->color_next = first;
    } else if (k == UK_FLIP) {
        uk_flip_piles(g);
        int top = g->discard[g->discard_len - 1];
        g->color = t->color[1][top];
        if (g->color < 0) {
            g->phase = UK_COLOR;
            g->color_reason = UK_REASON_FIRST_CARD;
            g->color_next = first;
        }
    }
    uk_mercy_settle(g); /* mercy (6.12): a first Draw Two may put the first player out */
    return UK_OK;
}

static int deal_round(uk_game *g, const int *in) {
    const uk_tables *t = g->t;
    int n = g->n, len = t->decklen, d = g->dealer;
    int16_t deck[UK_MAX_DECK];
    memcpy(deck, t->deck, sizeof(int16_t) * (size_t)len);
    uk_shuffle(g, deck, len);
    for (int s = 0; s < n; s++) g->hand_len[s] = 0;
    /* one card at a time, clockwise from the dealer's left, from the top */
    for (int r = 0; r < g->o.hand_size; r++)
        for (int k = 1; k <= n; k++) {
            int s = uk_left(g, d, k);
            if (!in[s]) continue; /* mercy (6.12): out of the match, dealt nothing */
            g->hands[s][g->hand_len[s]++] = deck[--len];
        }
    memcpy(g->draw, deck, sizeof(int16_t) * (size_t)len);
    g->draw_len = len;
    g->discard_len = 0;
    g->side = 0;
    g->color = -1;
    g->direction = 1;
    g->drawn = -1;
    g->pending = g->stack_class = g->stack_amount = 0;
    uk_clear_challenge(g);
    for (int s = 0; s < n; s++) g->uno[s] = UK_UNO_NONE;
    g->uno_pre = g->vulnerable = -1;
    if (t->flex)
        for (int s = 0; s < n; s++) g->powers[s] = 1;
    g->empty_draws = 0;
    g->wild_top = 0;
    g->winner = -1;
    g->round_points = 0;
    g->reveal_seat = g->reveal_off = -1;
    g->reveal_len = 0;
    g->round_no++;
    g->phase = UK_DEAL;
    if (g->ev) { /* a new round: the log starts again (Game._deal_round) */
        int64_t p[3 + UK_MAX_PLAYERS];
        g->ev->len = 0;
        p[0] = g->round_no;
        p[1] = d;
        p[2] = n;
        for (int s = 0; s < n; s++) p[3 + s] = g->hand_len[s];
        uk_emit(g, UK_EV_ROUND_STARTED, 3 + n, p);
    }
    return uk_start(g);
}

int uk_new_match(uk_game *g) {
    int in[UK_MAX_PLAYERS];
    for (int s = 0; s < g->n; s++) in[s] = 1;
    g->dealer = choose_dealer(g);
    return deal_round(g, in);
}

int uk_next_round(uk_game *g) {
    if (g->phase != UK_ROUND_OVER) return UK_ERR_PHASE;
    int rot = g->o.dealer_rotation, in[UK_MAX_PLAYERS], seats[UK_MAX_PLAYERS], m = 0;
    /* mercy (6.12): the seats still in the match (before the hands are cleared) */
    for (int s = 0; s < g->n; s++) {
        in[s] = !uk_out(g, s);
        if (in[s]) seats[m++] = s;
    }
    if (rot == 1 && g->winner >= 0)
        g->dealer = g->winner;
    else if (rot == 2)
        g->dealer = m < g->n ? seats[randbelow(g, m)] : randbelow(g, g->n);
    else
        g->dealer = uk_left_in(g, g->dealer);
    return deal_round(g, in);
}
