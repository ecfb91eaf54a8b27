/* The random policy of unokit.engine.playout.random_move, calling rnd() exactly as it
 * does (so a playout on the core equals one on Game with the same stream), and
 * playouts of the round in progress. */
#include <stdlib.h>

#include "core.h"

int32_t uk_random_move(uk_game *g, uk_rnd_fn rnd, void *ctx) {
    static __thread int32_t moves[UK_MAX_MOVES];
    if (g->phase == UK_TURN && !g->pending) {
        /* a uniformly random playable card of the hand (each copy counts)... The
         * order of the cards does not matter here, only the order of each card's
         * codes, so the hand is read as it is (no sorted move list). */
        int p = g->current, len = g->hand_len[p], ncards = 0, playable = 0;
        const int16_t *h = g->hands[p];
        int16_t cards[UK_MAX_DECK];
        uint32_t acc = uk_accept_mask(g);
        int flex = g->t->flex && g->powers[p], last = len == 1;
        for (int i = 0; i < len; i++)
            if (uk_card_plays(g, p, h[i], last, acc, flex, &playable, moves)) cards[ncards++] = h[i];
        if (!ncards) return UK_OP_DRAW;
        int c = cards[(int)(rnd(ctx) * ncards)];
        /* ...then a uniformly random way to play it (colour, side, target) */
        int count = uk_card_plays(g, p, c, last, acc, flex, &playable, moves);
        if (count == 1) return moves[0];
        return moves[(int)(rnd(ctx) * count)];
    }
    int k = uk_turn_moves(g, moves);
    return moves[(int)(rnd(ctx) * k)];
}

long uk_playout(uk_game *g, uk_rnd_fn rnd, void *ctx, long max_turns) {
    long turns = 0;
    while (g->phase < UK_ROUND_OVER && turns < max_turns) {
        turns++;
        int32_t m = uk_random_move(g, rnd, ctx);
        if (uk_apply_move(g, m, g->current, 1)) return -turns; /* cannot happen: legal moves */
    }
    return turns;
}
