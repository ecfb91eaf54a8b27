/* Scoring and the match (RULES.md 1.13, 3.11): round points, blocked rounds
 * (1.8, D55, D60, D62), the match's end, lowest-score ties, single_round (D61). */
#include "core.h"

int uk_hand_value(const uk_game *g, int seat) {
    const int16_t *pts = g->t->points[g->side];
    int v = 0;
    for (int i = 0, len = g->hand_len[seat]; i < len; i++) v += pts[g->hands[seat][i]];
    return v;
}

static void emit_match_ended(uk_game *g) {
    if (!g->ev) return;
    int64_t p[2 + 2 * UK_MAX_PLAYERS];
    int k = 0, n = g->n;
    p[k++] = g->match_winners_n;
    for (int i = 0; i < g->match_winners_n; i++) p[k++] = g->match_winners[i];
    p[k++] = n;
    for (int s = 0; s < n; s++) p[k++] = g->scores[s];
    uk_emit(g, UK_EV_MATCH_ENDED, k, p);
}

static void after_round(uk_game *g, const int *values) {
    const uk_options *o = &g->o;
    int n = g->n;
    g->phase = UK_ROUND_OVER;
    for (int s = 0; s < n; s++) g->uno[s] = UK_UNO_NONE;
    g->vulnerable = g->uno_pre = -1;
    g->drawn = -1;
    g->pending = 0;
    int w = g->winner;
    if (g->ev) { /* RoundEnded(winner, points, hand_values, scores) */
        int64_t p[3 + 2 * UK_MAX_PLAYERS];
        p[0] = w;
        p[1] = g->round_points;
        p[2] = n;
        for (int s = 0; s < n; s++) {
            p[3 + s] = values[s];
            p[3 + n + s] = g->scores[s];
        }
        uk_emit(g, UK_EV_ROUND_ENDED, 3 + 2 * n, p);
    }
    if (o->single_round) {
        g->match_winners_n = 0;
        if (w >= 0 && o->teams) { /* both partners, in seat order (6.13) */
            int a = w, b = uk_partner(g, w);
            g->match_winners[g->match_winners_n++] = (int8_t)(a < b ? a : b);
            g->match_winners[g->match_winners_n++] = (int8_t)(a < b ? b : a);
        } else if (w >= 0) {
            g->match_winners[g->match_winners_n++] = (int8_t)w;
        }
        g->phase = UK_MATCH_OVER;
        emit_match_ended(g);
        return;
    }
    /* mercy (6.12): a seat out of the match cannot win it (with teams, while
     * the partner is in, the team can); fewer than two players (teams) in
     * ends the match whatever the scores */
    int can[UK_MAX_PLAYERS], units = 0;
    for (int s = 0; s < n; s++) {
        can[s] = !uk_out(g, s) || (o->teams && !uk_out(g, uk_partner(g, s)));
        if (can[s] && (!o->teams || s < uk_partner(g, s))) units++;
    }
    int64_t hi = 0, lo = 0;
    int first = 1;
    for (int s = 0; s < n; s++) {
        if (!can[s]) continue;
        if (first || g->scores[s] > hi) hi = g->scores[s];
        if (first || g->scores[s] < lo) lo = g->scores[s];
        first = 0;
    }
    int ended = o->mercy && units < 2;
    if (!ended) {
        int64_t top = g->scores[0];
        for (int s = 1; s < n; s++)
            if (g->scores[s] > top) top = g->scores[s];
        if (top < o->target_score) return;
    }
    int64_t best = o->scoring_lowest ? lo : hi;
    int m = 0;
    int8_t winners[UK_MAX_PLAYERS];
    for (int s = 0; s < n; s++)
        if (can[s] && (ended ? 1 : g->scores[s] == best)) winners[m++] = (int8_t)s;
    if (ended) {
        for (int i = 0; i < m; i++) g->match_winners[i] = winners[i];
        g->match_winners_n = m;
        g->phase = UK_MATCH_OVER;
        emit_match_ended(g);
        return;
    }
    /* teams: partners share a total, so a tie is between two teams or more */
    if (o->scoring_lowest && m > (o->teams ? 2 : 1) && o->lowest_tie_play_on) return;
    for (int i = 0; i < m; i++) g->match_winners[i] = winners[i];
    g->match_winners_n = m;
    g->phase = UK_MATCH_OVER;
    emit_match_ended(g);
}

void uk_end_round(uk_game *g, int winner) {
    int n = g->n, values[UK_MAX_PLAYERS];
    int64_t total = 0;
    for (int s = 0; s < n; s++) {
        values[s] = uk_hand_value(g, s);
        total += values[s];
    }
    g->winner = winner;
    if (g->o.teams) { /* 6.13: the team wins; partners keep one total (mirrored) */
        int mate = uk_partner(g, winner);
        if (!g->o.scoring_lowest) {
            int64_t pts = 0;
            for (int s = 0; s < n; s++)
                if (s != winner && s != mate) pts += values[s];
            g->round_points = pts;
            g->scores[winner] += pts;
            g->scores[mate] += pts;
        } else {
            g->round_points = 0;
            for (int s = 0; s < n; s++)
                if (s != winner && s != mate) g->scores[s] += values[s] + values[uk_partner(g, s)];
        }
        after_round(g, values);
        return;
    }
    if (!g->o.scoring_lowest) {
        int64_t pts = total - values[winner];
        g->round_points = pts;
        g->scores[winner] += pts;
    } else {
        g->round_points = 0;
        for (int s = 0; s < n; s++)
            if (s != winner) g->scores[s] += values[s];
    }
    after_round(g, values);
}

void uk_end_blocked(uk_game *g) {
    int n = g->n, values[UK_MAX_PLAYERS];
    for (int s = 0; s < n; s++) values[s] = uk_hand_value(g, s);
    if (g->o.blocked_lowest) {
        int bv = 0, bl = 0, count = 0, low = -1;
        int any = 0;
        for (int s = 0; s < n; s++) {
            int v = uk_hand_value(g, s), l = g->hand_len[s];
            if (uk_out(g, s)) continue; /* mercy (6.12) */
            if (!any++ || v < bv || (v == bv && l < bl)) {
                bv = v;
                bl = l;
                count = 1;
                low = s;
            } else if (v == bv && l == bl) {
                count++;
            }
        }
        if (count == 1) {
            uk_end_round(g, low);
            return;
        }
    }
    g->winner = -1;
    g->round_points = 0;
    after_round(g, values);
}
