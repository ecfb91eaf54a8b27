/* A bare C loop playing Classic UNO rounds with the random policy: the floor
 * the core is compared with (docs/core.md). It plays the same rounds as
 * `unokit sim` (108-card deck, 7 cards each, the first card rule, Skip,
 * Reverse, Draw Two, Wild, Wild Draw Four accepted, draw one and play it if
 * it matches, reshuffle of the discard pile) but nothing else: no options, no
 * challenges or UNO window, no state a caller could read, no event, no
 * legality checks, and a xorshift generator instead of CPython's Mersenne
 * Twister re-seeded per shuffle.
 *
 *   gcc -O2 -o bare_loop benchmarks/speed/bare_loop.c && ./bare_loop 2 1.0
 * prints: rounds/s turns/round
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { NUM, SKIP, REV, D2, WILD, WD4 };
typedef struct { int8_t color, kind, number; } card;

static uint64_t s = 88172645463325252ULL;
static inline uint64_t rnd64(void) {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return s;
}
static inline int below(int k) { return (int)(rnd64() % (uint64_t)k); }

static card deck[108];
static int ndeck;

static void build(void) {
    for (int c = 0; c < 4; c++) {
        deck[ndeck++] = (card){c, NUM, 0};
        for (int k = 0; k < 2; k++) {
            for (int x = 1; x <= 9; x++) deck[ndeck++] = (card){c, NUM, x};
            deck[ndeck++] = (card){c, SKIP, -1};
            deck[ndeck++] = (card){c, REV, -1};
            deck[ndeck++] = (card){c, D2, -1};
        }
    }
    for (int k = 0; k < 4; k++) {
        deck[ndeck++] = (card){-1, WILD, -1};
        deck[ndeck++] = (card){-1, WD4, -1};
    }
}

typedef struct {
    card hand[10][108];
    int len[10];
    card draw[108];
    int ndraw;
    card disc[108];
    int ndisc;
    int color, cur, dir, n;
} table;

static void shuffle(card *a, int len) {
    for (int i = len - 1; i > 0; i--) {
        int j = below(i + 1);
        card x = a[i];
        a[i] = a[j];
        a[j] = x;
    }
}

static int draw1(table *t, card *out) {
    if (!t->ndraw) {
        if (t->ndisc <= 1) return 0;
        card top = t->disc[t->ndisc - 1];
        for (int i = 0; i < t->ndisc - 1; i++) t->draw[i] = t->disc[i];
        t->ndraw = t->ndisc - 1;
        t->disc[0] = top;
        t->ndisc = 1;
        shuffle(t->draw, t->ndraw);
    }
    *out = t->draw[--t->ndraw];
    return 1;
}

static void give(table *t, int p, int k) {
    card c;
    while (k-- && draw1(t, &c)) t->hand[p][t->len[p]++] = c;
}

static inline int matches(const table *t, card c) {
    card top = t->disc[t->ndisc - 1];
    if (c.color < 0 || c.color == t->color) return 1;
    if (c.kind == NUM) return top.kind == NUM && c.number == top.number;
    return c.kind == top.kind && top.color >= 0;
}

static int nxt(const table *t, int p, int k) { return ((p + k * t->dir) % t->n + t->n) % t->n; }

static void play(table *t, int p, int i) {
    card c = t->hand[p][i];
    t->hand[p][i] = t->hand[p][--t->len[p]];
    t->disc[t->ndisc++] = c;
    t->color = c.color >= 0 ? c.color : below(4);
    if (!t->len[p]) return;
    switch (c.kind) {
    case SKIP: t->cur = nxt(t, p, 2); break;
    case REV:
        t->dir = -t->dir;
        t->cur = t->n == 2 ? p : nxt(t, p, 1);
        break;
    case D2: give(t, nxt(t, p, 1), 2); t->cur = nxt(t, p, 2); break;
    case WD4: give(t, nxt(t, p, 1), 4); t->cur = nxt(t, p, 2); break;
    default: t->cur = nxt(t, p, 1);
    }
}

static int round_(table *t, int n) {
    card d[108];
    for (int i = 0; i < 108; i++) d[i] = deck[i];
    shuffle(d, 108);
    int nd = 108;
    t->n = n;
    for (int p = 0; p < n; p++) t->len[p] = 0;
    for (int r = 0; r < 7; r++)
        for (int p = 0; p < n; p++) t->hand[p][t->len[p]++] = d[--nd];
    while (d[nd - 1].kind == WD4) shuffle(d, nd);
    t->ndisc = 0;
    t->disc[t->ndisc++] = d[--nd];
    for (int i = 0; i < nd; i++) t->draw[i] = d[i];
    t->ndraw = nd;
    t->dir = 1;
    t->cur = 1 % n;
    card f = t->disc[0];
    t->color = f.color >= 0 ? f.color : below(4);
    if (f.kind == SKIP) t->cur = nxt(t, t->cur, 1);
    if (f.kind == REV) { t->dir = -1; t->cur = 0; }
    if (f.kind == D2) { give(t, t->cur, 2); t->cur = nxt(t, t->cur, 1); }
    int turns = 0, idle = 0;
    for (;;) {
        int p = t->cur, ok[108], k = 0;
        turns++;
        for (int i = 0; i < t->len[p]; i++)
            if (matches(t, t->hand[p][i])) ok[k++] = i;
        if (k) {
            idle = 0;
            play(t, p, ok[below(k)]);
            if (!t->len[p]) return turns;
            continue;
        }
        card c;
        if (!draw1(t, &c)) {
            if (++idle >= n) return turns; /* blocked */
            t->cur = nxt(t, p, 1);
            continue;
        }
        idle = 0;
        t->hand[p][t->len[p]++] = c;
        if (matches(t, c) && below(2)) {
            play(t, p, t->len[p] - 1);
            if (!t->len[p]) return turns;
        } else {
            t->cur = nxt(t, p, 1);
        }
    }
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 2;
    double seconds = argc > 2 ? atof(argv[2]) : 1.0;
    if (n < 2 || n > 10) return 2;
    build();
    static table t;
    long rounds = 0, turns = 0;
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    double dt = 0;
    do {
        for (int i = 0; i < 1000; i++) turns += round_(&t, n), rounds++;
        clock_gettime(CLOCK_MONOTONIC, &b);
        dt = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) * 1e-9;
    } while (dt < seconds);
    printf("%.1f %.2f\n", rounds / dt, (double)turns / (double)rounds);
    return 0;
}
