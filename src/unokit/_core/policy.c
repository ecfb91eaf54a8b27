/* The "sensible" rollout policy of the search bots, in C.
 *
 * uk_sensible_move is unokit.bots.rollout._sensible_move move for move (the
 * same scores, computed in the same order, the first best move kept): a bot
 * policy, not a rule (the rules stay in the other files). Test:
 * tests/bots/test_rollout.py compares it with the Python policy on many random
 * positions of every variant and option set. uk_sensible_playout plays the
 * round out with it for every seat (every simulated player calls UNO). */
#include "core.h"

/* _ATTACK_KINDS of rollout.py: skips, reverses, draw cards */
static int attack_kind(int k) {
    return k == UK_SKIP || k == UK_REVERSE || k == UK_DRAW_TWO || k == UK_DRAW_ONE ||
           k == UK_DRAW_FIVE || k == UK_SKIP_EVERYONE || k == UK_FLEX_SKIP ||
           k == UK_FLEX_REVERSE || k == UK_FLEX_DRAW_TWO;
}

/* _FLEX_BONUS.get(k, -8.0) */
static double flex_bonus(int k) {
    if (k == UK_FLEX_SKIP || k == UK_FLEX_DRAW_TWO || k == UK_WAD) return 4.0;
    if (k == UK_WTD || k == UK_FW4) return 12.0;
    return -8.0;
}

/* Pieces shared by the sensible and the weighted policy (inlined into both). */

/* a move that plays a card among the k moves */
static inline int has_play(const int32_t *moves, int k) {
    for (int i = 0; i < k; i++)
        if ((moves[i] & 15) == UK_OP_PLAY) return 1;
    return 0;
}

/* the first move that does not play the drawn card (keeping it), or -1 */
static inline int32_t keep_move(const int32_t *moves, int k) {
    for (int i = 0; i < k; i++)
        if ((moves[i] & 15) != UK_OP_PLAY) return moves[i];
    return -1;
}

/* the smallest hand of the other players */
static inline int smallest_other_hand(const uk_game *g, int p) {
    int threat = 1 << 30;
    for (int s = 0; s < g->n; s++)
        if (s != p && g->hand_len[s] < threat) threat = g->hand_len[s];
    return threat;
}

/* cards of each colour in p's hand (wilds in none) */
static inline void count_held(const uk_game *g, int p, int side, int held[8]) {
    const int16_t *h = g->hands[p];
    for (int i = 0, len = g->hand_len[p]; i < len; i++) {
        int col = g->t->color[side][h[i]];
        if (col >= 0) held[col]++;
    }
}

/* s with what every play's score adds whatever the card: its flex side, the
 * hand sizes of a target and of a swap partner, a Flip card by the threat
 * (added one by one, in the Python policy's order, so the doubles match) */
static inline double play_adjust(double s, const uk_game *g, int32_t m, int kind, int flex,
                                 int threat) {
    if (flex) s += flex_bonus(kind);
    int tg = ((m >> 21) & 15) - 1;
    if (tg >= 0) s -= g->hand_len[tg];
    int sw = ((m >> 25) & 15) - 1;
    if (sw >= 0) s -= 2 * g->hand_len[sw];
    if (kind == UK_FLIP) s += threat <= 2 ? 10 : -2;
    return s;
}

/* _favourite_color: the colour held most, action cards (20 points or more)
 * counting double; ties go to the first colour of the side */
static int favourite_color(const uk_game *g, int p, int side) {
    const uk_tables *t = g->t;
    int counts[8] = {0};
    const int16_t *h = g->hands[p];
    for (int i = 0, len = g->hand_len[p]; i < len; i++) {
        int c = h[i], col = t->color[side][c];
        if (col >= 0) counts[col] += t->points[side][c] >= 20 ? 2 : 1;
    }
    int best = 4 * side;
    for (int col = best + 1; col < 4 * side + 4; col++)
        if (counts[col] > counts[best]) best = col;
    return best;
}

int32_t uk_sensible_move(const uk_game *g) {
    static __thread int32_t moves[UK_MAX_MOVES];
    const uk_tables *t = g->t;
    int k = uk_turn_moves(g, moves);
    if (k <= 0) return -1; /* nothing to do (cannot happen in a live round) */
    if (k == 1) return moves[0];
    int ph = g->phase, p = g->current, side = g->side, n = g->n;
    if (ph == UK_COLOR) return UK_OP_COLOR | ((favourite_color(g, p, side) + 1) << 16);
    if (ph == UK_CHALLENGE) return g->hand_len[g->ch_offender] >= 2 ? moves[1] : moves[0];
    if (ph != UK_TURN && ph != UK_DRAWN) return moves[0];
    if (!has_play(moves, k)) return moves[0];
    int len = g->hand_len[p];
    if (ph == UK_DRAWN && (t->mask[side][g->drawn] & UK_WILD_BIT) && len > 3) {
        int32_t keep = keep_move(moves, k); /* keep a drawn wild, when the rules allow */
        if (keep >= 0) return keep;
    }
    int nxt = ((p + g->direction) % n + n) % n;
    int next_size = g->hand_len[nxt];
    int threat = smallest_other_hand(g, p);
    int held[8] = {0};
    count_held(g, p, side, held);
    int best_col = favourite_color(g, p, side);
    int color = g->color;
    int holds_current = color >= 0 ? held[color] > 0 : 0;
    int32_t best_m = 0;
    double best_s = -1e9;
    int first = 1;
    for (int i = 0; i < k; i++) {
        int32_t m = moves[i];
        if ((m & 15) != UK_OP_PLAY) continue;
        if (first) {
            best_m = m; /* plays[0] */
            first = 0;
        }
        int c = (m >> 4) & 0xFFF, kind = t->kind[side][c];
        int flex = (m & UK_FLEX_BIT) != 0;
        double s;
        if (t->mask[side][c] & UK_WILD_BIT) {
            /* _wild_score */
            s = -30.0;
            if (t->restricted[side][c] && !flex) {
                if (holds_current && next_size > 2)
                    s -= 100;
                else if (next_size <= 2)
                    s += 45;
            }
            if (((m >> 16) & 15) - 1 != best_col) s -= 5;
        } else {
            /* _plain_score */
            int col = t->color[side][c];
            s = 2.0 * held[col >= 0 ? col : 7] + t->points[side][c] / 10.0; /* held[-1] in Python */
            if (attack_kind(kind) && next_size <= 2) s += 25;
        }
        s = play_adjust(s, g, m, kind, flex, threat);
        if (s > best_s) {
            best_s = s;
            best_m = m;
        }
    }
    return best_m;
}

long uk_sensible_playout(uk_game *g, long max_turns) {
    long turns = 0;
    while (g->phase < UK_ROUND_OVER && turns < max_turns) {
        turns++;
        int32_t m = uk_sensible_move(g);
        if (m < 0 || uk_apply_move(g, m, g->current, 1)) return -turns; /* cannot happen: legal moves */
    }
    return turns;
}

/* ------------------------------------------------------------------ the
 * weighted sensible policy (issue 16): uk_sensible_move's structure with its
 * constants read from a weight vector w[UK_W_COUNT] (see core.h for the
 * entries). With UK_W_DEFAULTS it picks uk_sensible_move's move at every
 * decision (tests/bots/test_rollout.py); the extra features (entries
 * UK_W_ACTION and up) weigh 0 there. A bot policy, not a rule.
 *
 * It repeats uk_sensible_move's structure instead of replacing it on purpose:
 * routing the sensible policy through this function with its default weights
 * (inlined, the weights a static const array) made a sensible rollout about
 * 8% slower (Classic 10.4 against 9.6 us per 2-player round, Flip 12.2
 * against 11.1, Flex 8.7 against 8.1; alternating builds, 2026-11-28), and
 * sensible is the search's hot path. The test that keeps the two in step:
 * default weights pick sensible's move everywhere (tests/bots/test_rollout.py). */
const double uk_w_defaults[UK_W_COUNT] = {UK_W_DEFAULTS};

/* _favourite_color with the weight of an action card a parameter (2 in sensible) */
static int favourite_color_w(const uk_game *g, int p, int side, double action) {
    const uk_tables *t = g->t;
    double counts[8] = {0};
    const int16_t *h = g->hands[p];
    for (int i = 0, len = g->hand_len[p]; i < len; i++) {
        int c = h[i], col = t->color[side][c];
        if (col >= 0) counts[col] += t->points[side][c] >= 20 ? action : 1.0;
    }
    int best = 4 * side;
    for (int col = best + 1; col < 4 * side + 4; col++)
        if (counts[col] > counts[best]) best = col;
    return best;
}

int32_t uk_weighted_move(const uk_game *g, const double *w) {
    static __thread int32_t moves[UK_MAX_MOVES];
    const uk_tables *t = g->t;
    int k = uk_turn_moves(g, moves);
    if (k <= 0) return -1;
    if (k == 1) return moves[0];
    int ph = g->phase, p = g->current, side = g->side, n = g->n;
    if (ph == UK_COLOR)
        return UK_OP_COLOR | ((favourite_color_w(g, p, side, w[UK_W_FAV_ACTION]) + 1) << 16);
    if (ph == UK_CHALLENGE)
        return g->hand_len[g->ch_offender] >= w[UK_W_CHALLENGE] ? moves[1] : moves[0];
    if (ph != UK_TURN && ph != UK_DRAWN) return moves[0];
    if (!has_play(moves, k)) return moves[0];
    int len = g->hand_len[p];
    if (ph == UK_DRAWN && (t->mask[side][g->drawn] & UK_WILD_BIT) && len > w[UK_W_KEEP_WILD]) {
        int32_t keep = keep_move(moves, k);
        if (keep >= 0) return keep;
    }
    int nxt = ((p + g->direction) % n + n) % n;
    int next_size = g->hand_len[nxt];
    int low = next_size <= w[UK_W_LOW]; /* the next player is about to go out */
    int threat = smallest_other_hand(g, p);
    int held[8] = {0};
    count_held(g, p, side, held);
    int best_col = favourite_color_w(g, p, side, w[UK_W_FAV_ACTION]);
    int color = g->color;
    int holds_current = color >= 0 ? held[color] > 0 : 0;
    double follow_w = w[UK_W_FOLLOW];
    const int16_t *h = g->hands[p];
    int32_t best_m = 0;
    double best_s = -1e9;
    int first = 1;
    for (int i = 0; i < k; i++) {
        int32_t m = moves[i];
        if ((m & 15) != UK_OP_PLAY) continue;
        if (first) {
            best_m = m;
            first = 0;
        }
        int c = (m >> 4) & 0xFFF, kind = t->kind[side][c];
        int flex = (m & UK_FLEX_BIT) != 0;
        double s;
        if (t->mask[side][c] & UK_WILD_BIT) {
            s = w[UK_W_WILD];
            if (t->restricted[side][c] && !flex) {
                if (holds_current && !low)
                    s += w[UK_W_BLUFF];
                else if (low)
                    s += w[UK_W_WILD_ATTACK];
                else
                    s += w[UK_W_WILD_LEGAL];
            }
            if (((m >> 16) & 15) - 1 != best_col) s += w[UK_W_OFF_COLOR];
            if (len <= 2) s += w[UK_W_WILD_SHORT];
        } else {
            int col = t->color[side][c];
            s = w[UK_W_HELD] * held[col >= 0 ? col : 7] + w[UK_W_POINTS] * t->points[side][c] / 10.0;
            if (attack_kind(kind)) {
                if (low) s += w[UK_W_ATTACK];
                s += kind == UK_DRAW_TWO || kind == UK_DRAW_ONE || kind == UK_DRAW_FIVE ||
                             kind == UK_FLEX_DRAW_TWO
                         ? w[UK_W_DRAW]
                         : w[UK_W_ACTION];
            }
            if (follow_w != 0.0) {
                /* the other cards of the hand that could follow this one: its
                 * colour, or its number (its kind for an action card) */
                int f = 0, num = t->number[side][c], skipped = 0;
                for (int j = 0; j < len; j++) {
                    int d = h[j];
                    if (d == c && !skipped) {
                        skipped = 1;
                        continue;
                    }
                    if (t->mask[side][d] & UK_WILD_BIT) continue;
                    if (t->color[side][d] == col ||
                        (num >= 0 ? t->number[side][d] == num : t->kind[side][d] == kind))
                        f++;
                }
                s += follow_w * f;
            }
        }
        s = play_adjust(s, g, m, kind, flex, threat);
        if (s > best_s) {
            best_s = s;
            best_m = m;
        }
    }
    return best_m;
}

/* The round played out with the weighted policy for seat `seat` and the
 * sensible policy for every other seat (every simulated player calls UNO). */
long uk_mixed_playout(uk_game *g, long max_turns, int seat, const double *w) {
    long turns = 0;
    while (g->phase < UK_ROUND_OVER && turns < max_turns) {
        turns++;
        int32_t m = g->current == seat ? uk_weighted_move(g, w) : uk_sensible_move(g);
        if (m < 0 || uk_apply_move(g, m, g->current, 1)) return -turns;
    }
    return turns;
}
