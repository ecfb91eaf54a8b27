/* The search of the `hard` bot in one C call per decision (issue 25).
 *
 * unokit.bots.ismcts.ISMCTSBot._race, with the samples dealt here instead of
 * by unokit.bots.determinize.Determinizer._sample_deal (Python): the
 * determinizer computes once per decision WHAT a sample must respect (the
 * unseen cards, the hands' sizes and known cards, the draw inferences' plans,
 * the named colours, Flip's back faces, the last plays to check), and this
 * file deals the samples from it the way _deal does (same steps, same
 * probabilities) with its own generator (splitmix64, seeded from the bot's
 * random.Random: deterministic for a seed, and no CPython Mersenne Twister
 * to re-seed per sample), plays each candidate move on each sample with the
 * rules core (uk_apply_move) and the round out with the sensible policy
 * (uk_sensible_playout, policy.c), and races the candidates (successive
 * elimination on paired samples). No rule is written here: every move goes
 * through the core. The reshuffles inside a rollout use the core's own
 * generator, seeded per sample. */
#include <Python.h>
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "core.h"

/* ------------------------------------------------------------ generator */

typedef struct {
    uint64_t s;
} sm64;

static inline uint64_t sm_next(sm64 *r) {
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static inline double sm_random(sm64 *r) { return (double)(sm_next(r) >> 11) * (1.0 / 9007199254740992.0); }

static inline int sm_below(sm64 *r, int k) { return (int)(sm_random(r) * k); }

static void sm_shuffle(sm64 *r, int16_t *a, int n) {
    for (int i = n - 1; i > 0; i--) {
        int j = sm_below(r, i + 1);
        int16_t t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

/* ------------------------------------------------------------ the deal spec */

#define MAXG 64 /* back-face groups (Flip: at most a few dozen faces) */

typedef struct {
    int len;
    int16_t *pos; /* pool positions */
} cands;

typedef struct {
    int seat, card, side, color, next_size, threat;
    uint32_t acc;
} check;

typedef struct {
    int n, me, pool_len, draw_size, top_group, ngroups, flip;
    int16_t pool[UK_MAX_DECK];
    int16_t back[UK_MAX_DECK]; /* group of each pool position (Flip) */
    int known_len[UK_MAX_PLAYERS];
    int16_t known[UK_MAX_PLAYERS][UK_MAX_DECK];
    int fill[UK_MAX_PLAYERS];
    int need[UK_MAX_PLAYERS][MAXG];
    double trust[UK_MAX_PLAYERS];
    int full_len[UK_MAX_PLAYERS], sure_len[UK_MAX_PLAYERS];
    cands *full[UK_MAX_PLAYERS], *sure[UK_MAX_PLAYERS];
    cands named[UK_MAX_PLAYERS];
    double named_trust, off_policy;
    int nchecks;
    check checks[UK_MAX_PLAYERS];
} spec;

static void spec_free(spec *sp) {
    for (int s = 0; s < UK_MAX_PLAYERS; s++) {
        for (int i = 0; i < sp->full_len[s]; i++) PyMem_Free(sp->full[s][i].pos);
        for (int i = 0; i < sp->sure_len[s]; i++) PyMem_Free(sp->sure[s][i].pos);
        PyMem_Free(sp->full[s]);
        PyMem_Free(sp->sure[s]);
        PyMem_Free(sp->named[s].pos);
    }
}

/* a sequence of ints into out (at most max), or -1 with an exception */
static int ints(PyObject *obj, int16_t *out, int max, int lo, int hi, const char *what) {
    PyObject *f = PySequence_Fast(obj, what);
    if (!f) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(f);
    if (n > max) {
        PyErr_Format(PyExc_ValueError, "race: %s: too many values", what);
        Py_DECREF(f);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(f, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(f);
            return -1;
        }
        if (v < lo || v >= hi) {
            PyErr_Format(PyExc_ValueError, "race: %s: %ld out of range", what, v);
            Py_DECREF(f);
            return -1;
        }
        out[i] = (int16_t)v;
    }
    Py_DECREF(f);
    return (int)n;
}

static int cands_of(PyObject *obj, cands *c, int pool_len, const char *what) {
    PyObject *f = PySequence_Fast(obj, what);
    if (!f) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(f);
    Py_DECREF(f);
    c->pos = PyMem_Malloc(sizeof(int16_t) * (size_t)(n ? n : 1));
    if (!c->pos) {
        PyErr_NoMemory();
        return -1;
    }
    c->len = ints(obj, c->pos, (int)n, 0, pool_len, what);
    return c->len < 0 ? -1 : 0;
}

static int plan_of(PyObject *obj, cands **out, int *len, int pool_len) {
    PyObject *f = PySequence_Fast(obj, "race: plan");
    if (!f) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(f);
    *out = PyMem_Calloc((size_t)(n ? n : 1), sizeof(cands));
    if (!*out) {
        Py_DECREF(f);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (cands_of(PySequence_Fast_GET_ITEM(f, i), &(*out)[i], pool_len, "plan")) {
            *len = (int)i + 1;
            Py_DECREF(f);
            return -1;
        }
    }
    *len = (int)n;
    Py_DECREF(f);
    return 0;
}

/* spec = (me, pool, back, ngroups, known, fill, need, plans, named, named_trust,
 *         draw_size, top_group, checks, off_policy) */
static int spec_parse(spec *sp, PyObject *o, int n, int ncards) {
    PyObject *pool, *back, *known, *fill, *need, *plans, *named, *checks;
    memset(sp, 0, sizeof *sp);
    sp->n = n;
    if (!PyArg_ParseTuple(o, "iOOiOOOOOdiiOd", &sp->me, &pool, &back, &sp->ngroups, &known, &fill,
                          &need, &plans, &named, &sp->named_trust, &sp->draw_size, &sp->top_group,
                          &checks, &sp->off_policy))
        return -1;
    if (sp->me < 0 || sp->me >= n || sp->ngroups < 0 || sp->ngroups > MAXG) {
        PyErr_SetString(PyExc_ValueError, "race: bad seat or back groups");
        return -1;
    }
    sp->flip = sp->ngroups > 0;
    if ((sp->pool_len = ints(pool, sp->pool, UK_MAX_DECK, 0, ncards, "pool")) < 0) return -1;
    if (sp->flip) {
        int m = ints(back, sp->back, UK_MAX_DECK, 0, sp->ngroups, "back");
        if (m < 0) return -1;
        if (m != sp->pool_len) {
            PyErr_SetString(PyExc_ValueError, "race: one back group per pool card");
            return -1;
        }
    }
    if (sp->draw_size < 0 || sp->top_group >= sp->ngroups || (sp->top_group >= 0 && !sp->flip)) {
        PyErr_SetString(PyExc_ValueError, "race: bad draw pile");
        return -1;
    }
    PyObject *lists[5] = {known, fill, need, plans, named};
    for (int k = 0; k < 5; k++) {
        if (!PySequence_Check(lists[k]) || PySequence_Size(lists[k]) != n) {
            PyErr_SetString(PyExc_ValueError, "race: one entry per seat");
            return -1;
        }
    }
    int total = sp->draw_size;
    for (int s = 0; s < n; s++) {
        PyObject *x = PySequence_GetItem(known, s);
        if (!x) return -1;
        sp->known_len[s] = ints(x, sp->known[s], UK_MAX_DECK, 0, ncards, "known");
        Py_DECREF(x);
        if (sp->known_len[s] < 0) return -1;
        x = PySequence_GetItem(fill, s);
        if (!x) return -1;
        sp->fill[s] = (int)PyLong_AsLong(x);
        Py_DECREF(x);
        if (sp->fill[s] == -1 && PyErr_Occurred()) return -1;
        if (sp->fill[s] < 0 || sp->fill[s] + sp->known_len[s] > UK_MAX_DECK) {
            PyErr_SetString(PyExc_ValueError, "race: bad hand size");
            return -1;
        }
        total += sp->fill[s];
        if (sp->flip) {
            int16_t tmp[MAXG];
            x = PySequence_GetItem(need, s);
            if (!x) return -1;
            int m = ints(x, tmp, MAXG, 0, UK_MAX_DECK + 1, "need");
            Py_DECREF(x);
            if (m < 0) return -1;
            if (m != sp->ngroups) {
                PyErr_SetString(PyExc_ValueError, "race: one need per back group");
                return -1;
            }
            int sum = 0;
            for (int g = 0; g < m; g++) sum += (sp->need[s][g] = tmp[g]);
            if (sum != sp->fill[s]) {
                PyErr_SetString(PyExc_ValueError, "race: back faces do not match the hand size");
                return -1;
            }
        }
        x = PySequence_GetItem(plans, s);
        if (!x) return -1;
        PyObject *full, *sure;
        double trust;
        int ok = PyArg_ParseTuple(x, "OOd", &full, &sure, &trust);
        if (ok) {
            sp->trust[s] = trust;
            ok = !plan_of(full, &sp->full[s], &sp->full_len[s], sp->pool_len) &&
                 !plan_of(sure, &sp->sure[s], &sp->sure_len[s], sp->pool_len);
        }
        Py_DECREF(x);
        if (!ok) return -1;
        x = PySequence_GetItem(named, s);
        if (!x) return -1;
        ok = !cands_of(x, &sp->named[s], sp->pool_len, "named");
        Py_DECREF(x);
        if (!ok) return -1;
    }
    if (total > sp->pool_len) {
        PyErr_SetString(PyExc_ValueError, "race: more hidden places than unseen cards");
        return -1;
    }
    PyObject *cf = PySequence_Fast(checks, "race: checks");
    if (!cf) return -1;
    Py_ssize_t nc = PySequence_Fast_GET_SIZE(cf);
    if (nc > UK_MAX_PLAYERS) {
        Py_DECREF(cf);
        PyErr_SetString(PyExc_ValueError, "race: too many checks");
        return -1;
    }
    for (Py_ssize_t i = 0; i < nc; i++) {
        check *c = &sp->checks[i];
        unsigned long acc;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(cf, i), "iiiikii", &c->seat, &c->card,
                              &c->side, &c->color, &acc, &c->next_size, &c->threat)) {
            Py_DECREF(cf);
            return -1;
        }
        c->acc = (uint32_t)acc;
        if (c->seat < 0 || c->seat >= n || c->card < 0 || c->card >= ncards || c->side < 0 ||
            c->side > 1 || c->color < -8 || c->color > 7) {
            Py_DECREF(cf);
            PyErr_SetString(PyExc_ValueError, "race: bad check");
            return -1;
        }
    }
    sp->nchecks = (int)nc;
    Py_DECREF(cf);
    return 0;
}

/* ------------------------------------------------------------ dealing */

typedef struct {
    int16_t hands[UK_MAX_PLAYERS][UK_MAX_DECK];
    int hand_len[UK_MAX_PLAYERS];
    int16_t draw[UK_MAX_DECK];
    int draw_len;
} deal;

/* Determinizer._take: one untaken card of the candidate positions, from a
 * random start, with a back face the hand still needs (Flip) */
static void take(const spec *sp, const cands *c, uint8_t *taken, int *need, deal *d, int s,
                 sm64 *r) {
    int size = c->len;
    if (!size) return;
    int start = sm_below(r, size);
    for (int k = 0; k < size; k++) {
        int pos = c->pos[(start + k) % size];
        if (taken[pos]) continue;
        if (need) {
            int b = sp->back[pos];
            if (need[b] <= 0) continue;
            need[b]--;
        }
        taken[pos] = 1;
        d->hands[s][d->hand_len[s]++] = sp->pool[pos];
        return;
    }
}

/* Determinizer._deal (not Flip's random pairing, which stays in Python) */
static void deal_once(const spec *sp, sm64 *r, deal *d) {
    int n = sp->n;
    uint8_t taken[UK_MAX_DECK];
    int need[UK_MAX_PLAYERS][MAXG];
    memset(taken, 0, (size_t)sp->pool_len);
    if (sp->flip) memcpy(need, sp->need, sizeof need);
    for (int s = 0; s < n; s++) {
        memcpy(d->hands[s], sp->known[s], sizeof(int16_t) * (size_t)sp->known_len[s]);
        d->hand_len[s] = sp->known_len[s];
    }
    /* 1. the cards the draw inferences constrain */
    for (int s = 0; s < n; s++) {
        int *backs = sp->flip ? need[s] : NULL;
        int use_full = sp->trust[s] >= 1.0 || sm_random(r) < sp->trust[s];
        const cands *plan = use_full ? sp->full[s] : sp->sure[s];
        int plan_len = use_full ? sp->full_len[s] : sp->sure_len[s], skip = 0;
        if (sp->named[s].len && sm_random(r) < sp->named_trust) {
            int before = d->hand_len[s];
            take(sp, &sp->named[s], taken, backs, d, s, r);
            skip = d->hand_len[s] - before;
        }
        for (int i = skip; i < plan_len; i++) take(sp, &plan[i], taken, backs, d, s, r);
    }
    /* 2. the rest, uniformly */
    if (!sp->flip) {
        int16_t order[UK_MAX_DECK];
        int m = 0;
        for (int k = 0; k < sp->pool_len; k++)
            if (!taken[k]) order[m++] = sp->pool[k];
        sm_shuffle(r, order, m);
        int i = 0;
        for (int s = 0; s < n; s++) {
            int k = sp->fill[s] + sp->known_len[s] - d->hand_len[s];
            for (; k > 0 && i < m; k--) d->hands[s][d->hand_len[s]++] = order[i++];
        }
        int dl = m - i < sp->draw_size ? m - i : sp->draw_size;
        /* order[i:i+draw_size], top last */
        memcpy(d->draw, order + i, sizeof(int16_t) * (size_t)dl);
        d->draw_len = dl;
        return;
    }
    /* Flip: each back face's untaken cards; hands take theirs at random */
    int16_t groups[MAXG][UK_MAX_DECK];
    int glen[MAXG];
    memset(glen, 0, sizeof(int) * (size_t)sp->ngroups);
    for (int k = 0; k < sp->pool_len; k++)
        if (!taken[k]) {
            int b = sp->back[k];
            groups[b][glen[b]++] = (int16_t)k;
        }
    for (int s = 0; s < n; s++)
        for (int b = 0; b < sp->ngroups; b++)
            for (int k = need[s][b]; k > 0 && glen[b] > 0; k--) {
                int j = sm_below(r, glen[b]);
                d->hands[s][d->hand_len[s]++] = sp->pool[groups[b][j]];
                groups[b][j] = groups[b][--glen[b]];
            }
    int top = -1;
    if (sp->top_group >= 0 && glen[sp->top_group] > 0) {
        int b = sp->top_group, j = sm_below(r, glen[b]);
        top = sp->pool[groups[b][j]];
        groups[b][j] = groups[b][--glen[b]];
    }
    int16_t rest[UK_MAX_DECK];
    int m = 0;
    for (int b = 0; b < sp->ngroups; b++)
        for (int k = 0; k < glen[b]; k++) rest[m++] = sp->pool[groups[b][k]];
    sm_shuffle(r, rest, m);
    int keep = sp->draw_size - (top >= 0);
    if (keep > m) keep = m;
    if (keep < 0) keep = 0;
    memcpy(d->draw, rest, sizeof(int16_t) * (size_t)keep);
    d->draw_len = keep;
    if (top >= 0) d->draw[d->draw_len++] = (int16_t)top;
}

static int attack_kind(int k) {
    return k == UK_SKIP || k == UK_REVERSE || k == UK_DRAW_TWO || k == UK_DRAW_ONE ||
           k == UK_DRAW_FIVE || k == UK_SKIP_EVERYONE || k == UK_FLEX_SKIP ||
           k == UK_FLEX_REVERSE || k == UK_FLEX_DRAW_TWO;
}

/* unokit.bots.inference.LastPlay.agrees: whether the hand (the player's hand
 * now) plus the card it played makes that play the heuristic rules' choice */
static int agrees(const uk_tables *t, const check *c, const int16_t *hand, int len) {
    int side = c->side, held[8] = {0};
    for (int i = 0; i < len; i++)
        if (t->color[side][hand[i]] >= 0) held[t->color[side][hand[i]]]++;
    if (t->color[side][c->card] >= 0) held[t->color[side][c->card]]++;
    int attack = c->next_size <= 2;
    double best = -1e9, chosen = -1e9;
    for (int i = 0; i <= len; i++) {
        int card = i < len ? hand[i] : c->card;
        if (!(t->mask[side][card] & c->acc)) continue;
        double sc;
        int kind = t->kind[side][card];
        if (t->mask[side][card] & UK_WILD_BIT) {
            sc = -30.0;
            if (t->restricted[side][card]) {
                /* held[color] as Python reads it: -1 is the last colour */
                if (held[(c->color + 8) % 8] > 0 && !attack)
                    sc -= 100;
                else if (attack)
                    sc += 45;
            }
        } else {
            sc = 2.0 * held[t->color[side][card]] + t->points[side][card] / 10.0;
            if (attack && attack_kind(kind)) sc += 25;
        }
        if (kind == UK_FLIP) sc += c->threat <= 2 ? 10 : -2;
        if (sc > best) best = sc;
        if (card == c->card) chosen = sc;
    }
    return chosen >= best - 1e-9;
}

/* Determinizer._sample_deal: a deal, redealt (at most three times) while
 * another player's last play is not the rules' choice with its sampled hand,
 * each kept with probability off_policy ** (plays off) */
static void sample_deal(const spec *sp, const uk_tables *t, sm64 *r, deal *d) {
    deal_once(sp, r, d);
    if (!sp->nchecks) return;
    for (int tries = 0; tries < 3; tries++) {
        int off = 0;
        for (int i = 0; i < sp->nchecks; i++) {
            const check *c = &sp->checks[i];
            off += !agrees(t, c, d->hands[c->seat], d->hand_len[c->seat]);
        }
        if (!off || sm_random(r) < pow(sp->off_policy, off)) return;
        deal_once(sp, r, d);
    }
}

/* ------------------------------------------------------------ the race */

/* *dst = *src, copying only the cards in the piles (a uk_game holds room for
 * 512 cards per hand and pile: a whole memcpy is 13 kB, most of a rollout's
 * copying); every field the rules read is copied */
static void copy_game(uk_game *dst, const uk_game *src) {
    memcpy(dst, src, offsetof(uk_game, hands));
    for (int s = 0; s < src->n; s++)
        memcpy(dst->hands[s], src->hands[s], sizeof(int16_t) * (size_t)src->hand_len[s]);
    dst->draw_len = src->draw_len;
    memcpy(dst->draw, src->draw, sizeof(int16_t) * (size_t)src->draw_len);
    dst->discard_len = src->discard_len;
    memcpy(dst->discard, src->discard, sizeof(int16_t) * (size_t)src->discard_len);
    memcpy(&dst->side, &src->side, offsetof(uk_game, reveal) - offsetof(uk_game, side));
    if (src->reveal_len > 0)
        memcpy(dst->reveal, src->reveal, sizeof(int16_t) * (size_t)src->reveal_len);
    memcpy(dst->order, src->order, sizeof src->order); /* the seating (6.16) */
    memcpy(dst->pos, src->pos, sizeof src->pos);
    dst->commands = src->commands;
    dst->ev = NULL;
}

/* race(spec, codes, default, cap, seed, block, min_samples, z, delta) on the
 * position (the observer's hand and every public fact; the hidden cards are
 * dealt per sample): (best index, samples, rollouts, wins per candidate) */
PyObject *uk_py_race(const uk_game *tpl, PyObject *args) {
    PyObject *spec_obj, *codes_obj;
    int def, cap, block, min_samples;
    unsigned long long seed;
    double z, delta;
    if (!PyArg_ParseTuple(args, "OOiiKiidd", &spec_obj, &codes_obj, &def, &cap, &seed, &block,
                          &min_samples, &z, &delta))
        return NULL;
    static spec sp; /* large: not on the stack (the GIL is held throughout) */
    if (spec_parse(&sp, spec_obj, tpl->n, tpl->t->ncards)) {
        spec_free(&sp);
        return NULL;
    }
    long long codes_ll[64];
    int32_t codes[64];
    PyObject *cf = PySequence_Fast(codes_obj, "race: codes");
    if (!cf) {
        spec_free(&sp);
        return NULL;
    }
    Py_ssize_t k = PySequence_Fast_GET_SIZE(cf);
    int bad = k < 1 || k > 64;
    for (Py_ssize_t i = 0; !bad && i < k; i++) {
        codes_ll[i] = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(cf, i));
        if (codes_ll[i] == -1 && PyErr_Occurred()) bad = 2;
        else if (codes_ll[i] < 0 || codes_ll[i] > 0x7FFFFFFF) bad = 1;
        else codes[i] = (int32_t)codes_ll[i];
    }
    Py_DECREF(cf);
    if (bad || def < 0 || def >= k || cap < 1 || block < 1 || min_samples < 0) {
        spec_free(&sp);
        if (bad != 2) PyErr_SetString(PyExc_ValueError, "race: bad candidates or budget");
        return NULL;
    }
    /* every candidate must be legal in the position (checked once, on a deal) */
    static deal d;
    static uk_game g, r;
    sm64 rng = {seed};
    int me = sp.me, alive[64], nalive = (int)k;
    long wins[64] = {0};
    static long beat[64][64];
    memset(beat, 0, sizeof beat);
    for (int i = 0; i < k; i++) alive[i] = i;
    long samples = 0, spent = 0;
    int err = 0;
    while (nalive > 1 && spent < cap) {
        for (int b = 0; b < block; b++) {
            sample_deal(&sp, tpl->t, &rng, &d);
            copy_game(&g, tpl);
            for (int s = 0; s < sp.n; s++)
                if (s != me) {
                    memcpy(g.hands[s], d.hands[s], sizeof(int16_t) * (size_t)d.hand_len[s]);
                    g.hand_len[s] = (int16_t)d.hand_len[s];
                }
            memcpy(g.draw, d.draw, sizeof(int16_t) * (size_t)d.draw_len);
            g.draw_len = d.draw_len;
            g.seed48 = sm_next(&rng) & 0xFFFFFFFFFFFFull;
            g.shuffles = 0;
            int won[64], nwon = 0, lost[64], nlost = 0;
            for (int a = 0; a < nalive; a++) {
                int i = alive[a];
                copy_game(&r, &g);
                if ((err = uk_apply_move(&r, codes[i], -1, 1)) != 0) break;
                if (r.phase < UK_ROUND_OVER && uk_sensible_playout(&r, 100000) < 0) {
                    err = -1;
                    break;
                }
                if (r.winner == me)
                    won[nwon++] = i;
                else
                    lost[nlost++] = i;
            }
            if (err) break;
            for (int a = 0; a < nwon; a++) {
                wins[won[a]]++;
                for (int c = 0; c < nlost; c++) beat[won[a]][lost[c]]++;
            }
            samples++;
            spent += nalive;
            if (spent >= cap) break;
        }
        if (err) break;
        if (samples < min_samples) continue;
        int lead = alive[0];
        for (int a = 1; a < nalive; a++) {
            int i = alive[a];
            if (wins[i] > wins[lead] || (wins[i] == wins[lead] && i == def)) lead = i;
        }
        int keep = 0, close = 1;
        for (int a = 0; a < nalive; a++) {
            int j = alive[a];
            if (j != lead) {
                double x = (double)beat[lead][j], y = (double)beat[j][lead];
                double bound = z * sqrt(x + y);
                if (x - y > bound) continue;
                if (fabs(x - y) + bound >= delta * (double)samples) close = 0;
            }
            alive[keep++] = j;
        }
        nalive = keep;
        if (close) break;
    }
    spec_free(&sp);
    if (err) {
        PyErr_Format(PyExc_RuntimeError, "race: the core refused a move (%d)", err);
        return NULL;
    }
    int best = alive[0];
    for (int a = 1; a < nalive; a++) {
        int i = alive[a];
        if (wins[i] > wins[best] || (wins[i] == wins[best] && i == def)) best = i;
    }
    PyObject *w = PyList_New(k);
    if (!w) return NULL;
    for (int i = 0; i < k; i++) PyList_SET_ITEM(w, i, PyLong_FromLong(wins[i]));
    return Py_BuildValue("(illN)", best, samples, spent, w);
}
