/* The random policy of unokit.playout.random_move, calling rnd() exactly as it
 * does (so a playout on the core equals one on Game with the same stream), and
 * playouts of the round in progress. */
#include <stdlib.h>

#include "core.h"

int32_t uk_random_move(uk_game *g, uk_rnd_fn rnd, void *ctx) {
    static __thread int32_t moves[UK_MAX_MOVES];
    int k = uk_turn_moves(g, moves);
    if (g->phase == UK_TURN && !g->pending) {
        /* a uniformly random playable card of the hand (each copy counts)... */
        const int16_t *h = g->hands[g->current];
        int len = g->hand_len[g->current], ncards = 0;
        int16_t cards[UK_MAX_DECK];
        int nplay = 0;
        for (int i = 0; i < k; i++)
            if ((moves[i] & 15) == UK_OP_PLAY) nplay++;
        if (!nplay) return UK_OP_DRAW;
        for (int i = 0; i < len; i++) {
            int c = h[i];
            for (int j = 0; j < k; j++)
                if ((moves[j] & 15) == UK_OP_PLAY && ((moves[j] >> 4) & 0xFFF) == c) {
                    cards[ncards++] = (int16_t)c;
                    break;
                }
        }
        int c = cards[(int)(rnd(ctx) * ncards)];
        /* ...then a uniformly random way to play it (colour, side, target) */
        int first = -1, count = 0;
        for (int j = 0; j < k; j++)
            if ((moves[j] & 15) == UK_OP_PLAY && ((moves[j] >> 4) & 0xFFF) == c) {
                if (first < 0) first = j;
                count++;
            }
        if (count == 1) return moves[first];
        int pick = (int)(rnd(ctx) * count);
        for (int j = 0; j < k; j++)
            if ((moves[j] & 15) == UK_OP_PLAY && ((moves[j] >> 4) & 0xFFF) == c && pick-- == 0)
                return moves[j];
        return moves[first]; /* not reached */
    }
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
