/* The UNO window (RULES.md 1.11, D65): calling UNO, the pre-announcement with
 * two cards, catching a vulnerable seat, false catches. */
#include "core.h"

void uk_uno_off(uk_game *g, int seat) {
    if (g->hand_len[seat] != 1) {
        g->uno[seat] = UK_UNO_NONE;
        if (g->vulnerable == seat) g->vulnerable = -1;
    }
}

static int in_round(const uk_game *g) {
    return !(g->phase == UK_ROUND_OVER || g->phase == UK_MATCH_OVER || g->phase == UK_DEAL);
}

/* *effect: whether the call changed anything (a call without effect is accepted) */
int uk_call_uno(uk_game *g, int seat, int *effect) {
    *effect = 0;
    if (!in_round(g)) return UK_ERR_NOT_IN_ROUND;
    int size = g->hand_len[seat];
    if (size == 1 && g->uno[seat] != UK_UNO_SAFE) {
        g->uno[seat] = UK_UNO_SAFE;
        if (g->vulnerable == seat) g->vulnerable = -1;
    } else if (size == 2 && seat == g->current && (g->phase == UK_TURN || g->phase == UK_DRAWN) &&
               g->uno_pre != seat) {
        g->uno_pre = seat;
    } else {
        return UK_OK;
    }
    *effect = 1;
    uk_emit1(g, UK_EV_UNO_CALLED, seat);
    return UK_OK;
}

int uk_catch(uk_game *g, int seat, int target, int *effect) {
    *effect = 0;
    if (target < 0 || target >= g->n) return UK_ERR_SEAT;
    if (!in_round(g)) return UK_ERR_NOT_IN_ROUND;
    if (seat == target) return UK_ERR_CATCH_SELF;
    if (uk_out(g, seat)) return UK_ERR_OUT; /* mercy (6.12): out of the match */
    int64_t p[3] = {seat, target, 1};
    if (g->uno[target] == UK_UNO_VULNERABLE) {
        g->uno[target] = UK_UNO_NONE;
        g->vulnerable = -1;
        if (g->ev) uk_emit(g, UK_EV_CAUGHT, 3, p);
        uk_give_for(g, target, g->o.uno_penalty, UK_R_CATCH);
        *effect = 1;
        return UK_OK;
    }
    if (!g->o.false_catch_penalty) return UK_OK;
    p[2] = 0;
    if (g->ev) uk_emit(g, UK_EV_CAUGHT, 3, p);
    uk_give_for(g, seat, g->o.false_catch_penalty, UK_R_FALSE_CATCH);
    *effect = 1;
    return UK_OK;
}
