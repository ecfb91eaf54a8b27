/* Event records (unokit.engine.events) for callers that want them (g->ev set):
 * the emission points sit where Game emits, in the rule files. */
#include <stdlib.h>
#include <string.h>

#include "core.h"

void uk_emit(uk_game *g, int type, int n, const int64_t *payload) {
    uk_events *e = g->ev;
    if (!e || e->failed) return;
    if (e->len + n + 2 > e->cap) {
        int cap = e->cap ? e->cap : 256;
        while (cap < e->len + n + 2) cap *= 2;
        int64_t *b = realloc(e->buf, sizeof(int64_t) * (size_t)cap);
        if (!b) {
            e->failed = 1;
            return;
        }
        e->buf = b;
        e->cap = cap;
    }
    e->buf[e->len++] = type;
    e->buf[e->len++] = n;
    for (int i = 0; i < n; i++) e->buf[e->len++] = payload[i];
}

void uk_emit1(uk_game *g, int type, int64_t a) {
    if (g->ev) uk_emit(g, type, 1, &a);
}

/* Drew(seat, count, cards, backs, reason): backs are the faces of the other side */
void uk_emit_drew(uk_game *g, int seat, int reason, const int16_t *cards, int count) {
    if (!g->ev) return;
    int64_t p[4 + UK_MAX_DECK];
    p[0] = seat;
    p[1] = reason;
    p[2] = g->side;
    p[3] = count;
    for (int i = 0; i < count; i++) p[4 + i] = cards[i];
    uk_emit(g, UK_EV_DREW, 4 + count, p);
}
