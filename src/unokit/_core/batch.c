/* unokit._core.Batch: many games of one variant stepped together, with the
 * observation vectors and action masks of the RL environments written into
 * caller-owned arrays (NumPy arrays through the buffer protocol; no NumPy C API).
 *
 * The rules are the core's (uk_legal_moves / uk_apply_move); what is here is
 * the environments' bookkeeping of unokit.envs (the reference is the engine
 * path of unokit/envs/vector.py, GameBatch, and the AEC environment in
 * unokit/envs/_base.py):
 *
 *   the action table     per seat: action index -> absolute move code (built in
 *                        Python by unokit.envs.actions; no move arithmetic here),
 *                        and a hash table of those codes -> index
 *   the observation      unokit.envs.observation.ObservationEncoder.encode_game,
 *                        with the segment offsets and card lookups built in Python
 *   catch windows        Game.catch_window: after a move that leaves the
 *                        vulnerable seat to act, the other seats in order of play
 *                        are offered CATCH or PASS first
 *   episodes             a round; max_steps truncation; automatic reset in the
 *                        same step with the next seed (Game.new(seed) = uk_init +
 *                        uk_new_match with seed48)
 *
 * Rewards are computed in Python (unokit.envs.rewards) from what step() writes
 * for the rounds that ended: the winner (-1: none) and each seat's hand value.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdlib.h>
#include <string.h>

#include "batch.h"
#include "core.h"

/* layout of the observation: segment offsets (ObservationEncoder.segments) */
enum {
    L_HAND, L_TOP, L_DISCARD, L_COLOR, L_PHASE, L_UNO, L_SIZES, L_DIRECTION, L_DRAW_SIZE,
    L_PENDING, L_SCORES, L_SIDE, L_BACKS, L_DRAW_TOP_BACK, L_POWERS, L_UNIVERSE, L_FACES, L_SIZE,
    L_COUNT
};

typedef struct {
    PyObject_HEAD
    PyObject **refs;   /* per game: the _core.Game whose tables it uses (kept alive) */
    uk_game *games;
    int B, n, A, auto_deal;
    long max_steps;    /* <= 0: none */
    int64_t *seeds, next_seed;
    int32_t *steps, *win_k, *win_of;
    int32_t *moves;    /* n * A: absolute move code of action a for seat s */
    int32_t *hkey;     /* n * H: open-addressing hash table per seat, move code -> */
    int32_t *hval;     /* n * H: action index (-1: empty slot) */
    int hbits;         /* H = 1 << hbits >= 2 A */
    int pass_index;    /* of OP_PASS (the same for every seat) */
    int8_t *last_mask; /* B * A: the masks last written (what step() checks actions against) */
    int lay[L_COUNT];
    int ncards;
    int32_t *uidx;     /* card id -> universe index */
    int32_t *back[2];  /* card id -> face index of its back, by side up */
    int32_t legal[UK_MAX_MOVES];
} BatchObject;

static int32_t *ints(PyObject *obj, Py_ssize_t want, const char *what) {
    PyObject *fast = PySequence_Fast(obj, what);
    if (!fast) return NULL;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(fast);
    if (len != want) {
        PyErr_Format(PyExc_ValueError, "%s: %zd values, expected %zd", what, len, want);
        Py_DECREF(fast);
        return NULL;
    }
    int32_t *out = malloc(sizeof(int32_t) * (want ? want : 1));
    if (!out) {
        Py_DECREF(fast);
        PyErr_NoMemory();
        return NULL;
    }
    for (Py_ssize_t i = 0; i < len; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) {
            free(out);
            Py_DECREF(fast);
            return NULL;
        }
        out[i] = (int32_t)v;
    }
    Py_DECREF(fast);
    return out;
}

static void Batch_dealloc(BatchObject *self) {
    if (self->refs)
        for (int i = 0; i < self->B; i++) Py_XDECREF(self->refs[i]);
    free(self->refs);
    free(self->games);
    free(self->seeds);
    free(self->steps);
    free(self->win_k);
    free(self->win_of);
    free(self->moves);
    free(self->hkey);
    free(self->hval);
    free(self->last_mask);
    free(self->uidx);
    free(self->back[0]);
    free(self->back[1]);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static inline uint32_t slot_of(int32_t code, int hbits) {
    return ((uint32_t)code * 2654435761u) >> (32 - hbits);
}

/* Batch(proto, num_envs, moves, layout, uidx, back_light_up, back_dark_up, max_steps, auto_deal)
 *   proto: a _core.Game of the variant, players and options (dealt or not)
 *   moves: n * A absolute move codes (seat-major), layout: L_COUNT ints */
static PyObject *Batch_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
    PyObject *proto, *moves, *layout, *uidx, *back0, *back1;
    int B, auto_deal;
    long max_steps;
    static char *names[] = {"proto", "num_envs", "moves", "layout", "uidx", "back0", "back1",
                            "max_steps", "auto_deal", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OiOOOOOlp", names, &proto, &B, &moves, &layout,
                                     &uidx, &back0, &back1, &max_steps, &auto_deal))
        return NULL;
    uk_game *pg = uk_py_game(proto);
    if (!pg) return NULL;
    if (B < 1) {
        PyErr_SetString(PyExc_ValueError, "num_envs must be >= 1");
        return NULL;
    }
    BatchObject *self = (BatchObject *)type->tp_alloc(type, 0);
    if (!self) return NULL;
    int n = pg->n, nc = pg->t->ncards;
    self->B = B;
    self->n = n;
    self->ncards = nc;
    self->max_steps = max_steps;
    self->auto_deal = auto_deal;
    Py_ssize_t total = PySequence_Size(moves);
    if (total < 0) goto fail;
    if (total == 0 || total % n) {
        PyErr_SetString(PyExc_ValueError, "moves: players x actions codes expected");
        goto fail;
    }
    self->A = (int)(total / n);
    int32_t *lay = ints(layout, L_COUNT, "layout");
    if (!lay) goto fail;
    memcpy(self->lay, lay, sizeof self->lay);
    free(lay);
    if (!(self->moves = ints(moves, total, "moves"))) goto fail;
    if (!(self->uidx = ints(uidx, nc, "uidx"))) goto fail;
    if (pg->t->two_sided) {
        if (!(self->back[0] = ints(back0, nc, "back0"))) goto fail;
        if (!(self->back[1] = ints(back1, nc, "back1"))) goto fail;
    }
    self->refs = calloc(B, sizeof(PyObject *));
    self->games = malloc(sizeof(uk_game) * B);
    self->seeds = calloc(B, sizeof(int64_t));
    self->steps = calloc(B, sizeof(int32_t));
    self->win_k = calloc(B, sizeof(int32_t));
    self->win_of = calloc(B, sizeof(int32_t));
    self->hbits = 4;
    while ((1 << self->hbits) < 2 * self->A) self->hbits++;
    size_t H = (size_t)1 << self->hbits;
    self->hkey = malloc(sizeof(int32_t) * H * n);
    self->hval = malloc(sizeof(int32_t) * H * n);
    self->last_mask = calloc((size_t)B * self->A, 1);
    if (!self->refs || !self->games || !self->seeds || !self->steps || !self->win_k ||
        !self->win_of || !self->hkey || !self->hval || !self->last_mask) {
        PyErr_NoMemory();
        goto fail;
    }
    self->pass_index = -1;
    for (size_t j = 0; j < H * n; j++) self->hval[j] = -1;
    for (int s = 0; s < n; s++) {
        int32_t *key = self->hkey + H * s, *val = self->hval + H * s;
        for (int a = 0; a < self->A; a++) {
            int32_t m = self->moves[s * self->A + a];
            if (m == UK_OP_PASS) self->pass_index = a;
            uint32_t h = slot_of(m, self->hbits);
            while (val[h] >= 0 && key[h] != m) h = (h + 1) & (H - 1);
            if (val[h] < 0) { /* the first action of a code wins (codes are distinct) */
                key[h] = m;
                val[h] = a;
            }
        }
    }
    for (int i = 0; i < B; i++) {
        memcpy(&self->games[i], pg, sizeof(uk_game));
        self->games[i].ev = NULL; /* the batch records no events */
        Py_INCREF(proto);
        self->refs[i] = proto;
    }
    return (PyObject *)self;
fail:
    Py_DECREF(self);
    return NULL;
}

/* ------------------------------------------------------------------ buffers */

static int buf(PyObject *obj, Py_buffer *view, Py_ssize_t itemsize, Py_ssize_t items,
               const char *what, int writable) {
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(obj, view, flags) < 0) return -1;
    if (view->itemsize != itemsize || view->len != itemsize * items) {
        PyErr_Format(PyExc_ValueError, "%s: a C-contiguous buffer of %zd items of %zd bytes",
                     what, items, itemsize);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

static int wbuf(PyObject *obj, Py_buffer *view, Py_ssize_t itemsize, Py_ssize_t items,
                const char *what) {
    return buf(obj, view, itemsize, items, what, 1);
}

/* ------------------------------------------------------------------ one game */

static int actor(const BatchObject *b, int i) {
    const uk_game *g = &b->games[i];
    int k = b->win_k[i];
    if (!k) return g->current;
    return uk_next(g, b->win_of[i], k); /* Game.catch_window (shuffleSeats: the seating) */
}

static int index_of(const BatchObject *b, int seat, int32_t move) {
    size_t H = (size_t)1 << b->hbits;
    const int32_t *key = b->hkey + H * seat, *val = b->hval + H * seat;
    uint32_t h = slot_of(move, b->hbits);
    while (val[h] >= 0) {
        if (key[h] == move) return val[h];
        h = (h + 1) & (H - 1);
    }
    return -1;
}

/* ObservationEncoder.encode_game(game, seat) into out (zeroed here) */
static void encode(const BatchObject *b, const uk_game *g, int seat, float *out) {
    const int *L = b->lay;
    int n = b->n;
    memset(out, 0, sizeof(float) * L[L_SIZE]);
    const int32_t *uidx = b->uidx;
    for (int j = 0, len = g->hand_len[seat]; j < len; j++)
        out[L[L_HAND] + uidx[g->hands[seat][j]]] += 1.0f;
    if (g->discard_len) out[L[L_TOP] + uidx[g->discard[g->discard_len - 1]]] = 1.0f;
    for (int j = 0; j < g->discard_len; j++) out[L[L_DISCARD] + uidx[g->discard[j]]] += 1.0f;
    if (g->color >= 0) out[L[L_COLOR] + g->color] = 1.0f;
    if (g->phase < 4) out[L[L_PHASE] + g->phase] = 1.0f;
    for (int k = 0; k < n; k++) {
        int s = (seat + k) % n;
        int u = g->uno[s];
        if (u) out[L[L_UNO] + (u - 1) * n + k] = 1.0f;
        out[L[L_SIZES] + k] = (float)g->hand_len[s];
        out[L[L_SCORES] + k] = (float)g->scores[s];
    }
    out[L[L_DIRECTION]] = g->direction == -1 ? 1.0f : 0.0f;
    out[L[L_DRAW_SIZE]] = (float)g->draw_len;
    out[L[L_PENDING]] = (float)g->pending;
    if (g->t->two_sided) {
        const int32_t *back = b->back[g->side];
        int nf = L[L_FACES];
        for (int k = 1; k < n; k++) {
            int s = (seat + k) % n;
            float *at = out + L[L_BACKS] + (k - 1) * nf;
            for (int j = 0, len = g->hand_len[s]; j < len; j++) at[back[g->hands[s][j]]] += 1.0f;
        }
        if (g->draw_len) out[L[L_DRAW_TOP_BACK] + back[g->draw[g->draw_len - 1]]] = 1.0f;
        if (g->side) out[L[L_SIDE]] = 1.0f;
    }
    if (g->t->flex)
        for (int k = 0; k < n; k++)
            if (g->powers[(seat + k) % n]) out[L[L_POWERS] + k] = 1.0f;
}

/* the mask of the seat to act (zeroed here); -1 with an exception if a legal
 * move is not in the action table */
static int mask_of(BatchObject *b, int i, int seat, int8_t *mask) {
    const uk_game *g = &b->games[i];
    memset(mask, 0, b->A);
    if (b->games[i].phase >= UK_ROUND_OVER) return 0;
    if (b->win_k[i]) {
        int c = index_of(b, seat, UK_OP_CATCH | ((b->win_of[i] + 1) << 21));
        if (c < 0 || b->pass_index < 0) {
            PyErr_SetString(PyExc_RuntimeError, "the action table has no CATCH/PASS entry");
            return -1;
        }
        mask[c] = mask[b->pass_index] = 1;
        return 0;
    }
    int k = uk_legal_moves(g, seat, b->legal);
    for (int j = 0; j < k; j++) {
        /* multiPlay (6.9): multi-plays have no entry in the table; the batch
         * plays one card at a time (docs/rl.md) */
        if ((b->legal[j] & 15) == UK_OP_MULTI) continue;
        int a = index_of(b, seat, b->legal[j]);
        if (a < 0) {
            PyErr_Format(PyExc_RuntimeError, "game %d: move code %d of P%d is not in the table", i,
                         (int)b->legal[j], seat);
            return -1;
        }
        mask[a] = 1;
    }
    return 0;
}

static void deal(BatchObject *b, int i, int64_t seed) {
    uk_game *g = &b->games[i];
    const uk_tables *t = g->t;
    uk_options o = g->o;
    int n = g->n;
    uk_init(g, t, &o, n, (uint64_t)seed & 0xFFFFFFFFFFFFULL);
    uk_new_match(g);
    b->seeds[i] = seed;
    b->steps[i] = 0;
    b->win_k[i] = 0;
    b->win_of[i] = -1;
}

/* ------------------------------------------------------------------ methods */

/* reset(seed): game i is dealt Game.new(seed=seed + i) */
static PyObject *Batch_reset(BatchObject *self, PyObject *arg) {
    long long seed = PyLong_AsLongLong(arg);
    if (seed == -1 && PyErr_Occurred()) return NULL;
    for (int i = 0; i < self->B; i++) deal(self, i, seed + i);
    self->next_seed = seed + self->B;
    Py_RETURN_NONE;
}

static PyObject *Batch_observe(BatchObject *self, PyObject *args) {
    PyObject *o_obs, *o_mask, *o_cur, *o_rows = Py_None;
    if (!PyArg_ParseTuple(args, "OOO|O", &o_obs, &o_mask, &o_cur, &o_rows)) return NULL;
    Py_buffer obs, mask, cur;
    int B = self->B;
    if (wbuf(o_obs, &obs, 4, (Py_ssize_t)B * self->lay[L_SIZE], "observation")) return NULL;
    if (wbuf(o_mask, &mask, 1, (Py_ssize_t)B * self->A, "action_mask")) {
        PyBuffer_Release(&obs);
        return NULL;
    }
    if (wbuf(o_cur, &cur, 8, B, "current_player")) {
        PyBuffer_Release(&obs);
        PyBuffer_Release(&mask);
        return NULL;
    }
    int err = 0;
    for (int i = 0; i < B && !err; i++) {
        int seat = actor(self, i);
        ((int64_t *)cur.buf)[i] = seat;
        encode(self, &self->games[i], seat, (float *)obs.buf + (size_t)i * self->lay[L_SIZE]);
        int8_t *row = (int8_t *)mask.buf + (size_t)i * self->A;
        err = mask_of(self, i, seat, row);
        memcpy(self->last_mask + (size_t)i * self->A, row, self->A);
    }
    PyBuffer_Release(&obs);
    PyBuffer_Release(&mask);
    PyBuffer_Release(&cur);
    (void)o_rows;
    if (err) return NULL;
    Py_RETURN_NONE;
}

/* step(actions, obs, mask, cur, ends, winner, values, check=True) -> number of rounds
 * that ended, or -1 (and nothing changed) if check and an action is not in the
 * mask last written for its game (observe() or step(); legal(i) lists it)
 *   actions int64 (B): action indices
 *   ends int8 (B): 1 terminated, 2 truncated, 0 else; winner int64 (B);
 *   values int64 (B, n): hand values at the end of the round (for rewards)
 * With auto_deal, a game whose round ended is dealt the next seed's round and
 * its row shows that round; without, it stays over and its row is not written. */
static PyObject *Batch_step(BatchObject *self, PyObject *args) {
    PyObject *o_act, *o_obs, *o_mask, *o_cur, *o_ends, *o_win, *o_val;
    int check = 1;
    if (!PyArg_ParseTuple(args, "OOOOOOO|p", &o_act, &o_obs, &o_mask, &o_cur, &o_ends, &o_win,
                          &o_val, &check))
        return NULL;
    int B = self->B, n = self->n, A = self->A;
    Py_buffer act, obs, mask, cur, ends, win, val;
    Py_buffer *views[7] = {&act, &obs, &mask, &cur, &ends, &win, &val};
    PyObject *objs[7] = {o_act, o_obs, o_mask, o_cur, o_ends, o_win, o_val};
    Py_ssize_t sizes[7] = {8, 4, 1, 8, 1, 8, 8};
    Py_ssize_t items[7] = {B, (Py_ssize_t)B * self->lay[L_SIZE], (Py_ssize_t)B * A, B, B, B,
                           (Py_ssize_t)B * n};
    const char *what[7] = {"actions", "observation", "action_mask", "current_player", "ends",
                           "winner", "values"};
    int got = 0;
    for (; got < 7; got++)
        if (buf(objs[got], views[got], sizes[got], items[got], what[got], got > 0)) break;
    if (got < 7) {
        for (int j = 0; j < got; j++) PyBuffer_Release(views[j]);
        return NULL;
    }
    const int64_t *actions = act.buf;
    int64_t *curp = cur.buf, *winp = win.buf, *valp = val.buf;
    int8_t *endp = ends.buf;
    long ended = 0;
    int err = 0;
    if (check)
        for (int i = 0; i < B; i++) {
            int64_t a = actions[i];
            if (a < 0 || a >= A || !self->last_mask[(size_t)i * A + a]) {
                for (int j = 0; j < 7; j++) PyBuffer_Release(views[j]);
                return PyLong_FromLong(-1);
            }
        }
    for (int i = 0; i < B && !err; i++) {
        uk_game *g = &self->games[i];
        int seat = actor(self, i);
        int64_t a = actions[i];
        if (a < 0 || a >= A) {
            PyErr_Format(PyExc_ValueError, "game %d: action %lld outside the table", i,
                         (long long)a);
            err = 1;
            break;
        }
        int32_t move = self->moves[(size_t)seat * A + a];
        int rc = 0;
        if (self->win_k[i]) {
            if (move == UK_OP_PASS) {
                if (++self->win_k[i] >= uk_alive(g)) self->win_k[i] = 0; /* mercy: the seats in */
            } else { /* the catch: the vulnerable seat draws, the window closes */
                rc = uk_apply_move(g, move, seat, 0);
                self->win_k[i] = 0;
            }
        } else {
            rc = uk_apply_move(g, move, seat, 0);
            if (!rc && g->vulnerable >= 0 && g->vulnerable == g->current &&
                g->phase < UK_ROUND_OVER && n > 1) {
                self->win_k[i] = 1;
                self->win_of[i] = g->vulnerable;
            }
        }
        if (rc) {
            PyErr_Format(PyExc_RuntimeError,
                         "game %d: the core refused move %d of P%d (reason %d, "
                         "unokit.engine.codes.ERRORS)", i, (int)move, seat, rc);
            err = 1;
            break;
        }
        self->steps[i]++;
        int end = 0;
        if (g->phase >= UK_ROUND_OVER)
            end = 1;
        else if (self->max_steps > 0 && self->steps[i] >= self->max_steps)
            end = 2;
        endp[i] = (int8_t)end;
        if (end) {
            ended++;
            winp[i] = end == 1 ? g->winner : -1;
            for (int s = 0; s < n; s++) valp[(size_t)i * n + s] = uk_hand_value(g, s);
            if (!self->auto_deal) {
                curp[i] = -1;
                memset(self->last_mask + (size_t)i * A, 0, A);
                continue;
            }
            deal(self, i, self->next_seed++);
        }
        seat = actor(self, i);
        curp[i] = seat;
        encode(self, g, seat, (float *)obs.buf + (size_t)i * self->lay[L_SIZE]);
        int8_t *row = (int8_t *)mask.buf + (size_t)i * A;
        err = mask_of(self, i, seat, row);
        memcpy(self->last_mask + (size_t)i * A, row, A);
    }
    for (int j = 0; j < 7; j++) PyBuffer_Release(views[j]);
    if (err) return NULL;
    return PyLong_FromLong(ended);
}

/* get(i, target): copy game i into the _core.Game target (its own tables kept) */
static PyObject *Batch_get(BatchObject *self, PyObject *args) {
    int i;
    PyObject *target;
    if (!PyArg_ParseTuple(args, "iO", &i, &target)) return NULL;
    if (i < 0 || i >= self->B) {
        PyErr_Format(PyExc_IndexError, "no game %d in a batch of %d", i, self->B);
        return NULL;
    }
    uk_game *t = uk_py_game(target);
    if (!t) return NULL;
    if (t->n != self->n || t->t->ncards != self->ncards) {
        PyErr_SetString(PyExc_ValueError, "the target game is of another variant or size");
        return NULL;
    }
    const uk_tables *keep = t->t;
    uk_events *sink = t->ev;
    memcpy(t, &self->games[i], sizeof(uk_game));
    t->t = keep;
    t->ev = sink;
    Py_RETURN_NONE;
}

/* set(i, source, seed): game i becomes a copy of the _core.Game source (whose tables
 * it keeps using), with no window and no decision counted; seed is recorded */
static PyObject *Batch_set(BatchObject *self, PyObject *args) {
    int i;
    PyObject *source;
    long long seed;
    if (!PyArg_ParseTuple(args, "iOL", &i, &source, &seed)) return NULL;
    if (i < 0 || i >= self->B) {
        PyErr_Format(PyExc_IndexError, "no game %d in a batch of %d", i, self->B);
        return NULL;
    }
    uk_game *s = uk_py_game(source);
    if (!s) return NULL;
    if (s->n != self->n || s->t->ncards != self->ncards) {
        PyErr_SetString(PyExc_ValueError, "the source game is of another variant or size");
        return NULL;
    }
    memcpy(&self->games[i], s, sizeof(uk_game));
    self->games[i].ev = NULL;
    Py_INCREF(source);
    Py_XSETREF(self->refs[i], source);
    self->seeds[i] = seed;
    self->steps[i] = 0;
    self->win_k[i] = 0;
    self->win_of[i] = -1;
    memset(self->last_mask + (size_t)i * self->A, 0, self->A); /* observe() again */
    Py_RETURN_NONE;
}

/* seeds(out int64 (B)); next_seed as the return value */
static PyObject *Batch_seeds(BatchObject *self, PyObject *arg) {
    Py_buffer v;
    if (wbuf(arg, &v, 8, self->B, "seeds")) return NULL;
    memcpy(v.buf, self->seeds, sizeof(int64_t) * self->B);
    PyBuffer_Release(&v);
    return PyLong_FromLongLong(self->next_seed);
}

static PyObject *Batch_set_next_seed(BatchObject *self, PyObject *arg) {
    long long s = PyLong_AsLongLong(arg);
    if (s == -1 && PyErr_Occurred()) return NULL;
    self->next_seed = s;
    Py_RETURN_NONE;
}


static int check_index(const BatchObject *self, int i) {
    if (i < 0 || i >= self->B) {
        PyErr_Format(PyExc_IndexError, "no game %d in a batch of %d", i, self->B);
        return -1;
    }
    return 0;
}

/* observe_seat(i, seat, obs float32 (size), mask int8 (A)): game i from seat's view;
 * the mask is the legal actions if seat is to act (and the round not over), else zeros */
static PyObject *Batch_observe_seat(BatchObject *self, PyObject *args) {
    int i, seat;
    PyObject *o_obs, *o_mask;
    if (!PyArg_ParseTuple(args, "iiOO", &i, &seat, &o_obs, &o_mask)) return NULL;
    if (check_index(self, i)) return NULL;
    if (seat < 0 || seat >= self->n) {
        PyErr_Format(PyExc_ValueError, "no seat %d", seat);
        return NULL;
    }
    Py_buffer obs, mask;
    if (wbuf(o_obs, &obs, 4, self->lay[L_SIZE], "observation")) return NULL;
    if (wbuf(o_mask, &mask, 1, self->A, "action_mask")) {
        PyBuffer_Release(&obs);
        return NULL;
    }
    const uk_game *g = &self->games[i];
    encode(self, g, seat, obs.buf);
    int err = 0;
    if (g->phase < UK_ROUND_OVER && actor(self, i) == seat)
        err = mask_of(self, i, seat, mask.buf);
    else
        memset(mask.buf, 0, self->A);
    PyBuffer_Release(&obs);
    PyBuffer_Release(&mask);
    if (err) return NULL;
    Py_RETURN_NONE;
}

/* status(i) -> (phase, seat to act (the window's seat in a catch window), window
 * (0: none, else the offered seat's rank 1..n-1), winner, decisions) */
static PyObject *Batch_status(BatchObject *self, PyObject *arg) {
    int i = (int)PyLong_AsLong(arg);
    if (i == -1 && PyErr_Occurred()) return NULL;
    if (check_index(self, i)) return NULL;
    const uk_game *g = &self->games[i];
    return Py_BuildValue("(iiiii)", g->phase, actor(self, i), self->win_k[i], g->winner,
                         self->steps[i]);
}

/* hand_values(i) -> each seat's hand value (round scoring, docs/rules.md) */
static PyObject *Batch_hand_values(BatchObject *self, PyObject *arg) {
    int i = (int)PyLong_AsLong(arg);
    if (i == -1 && PyErr_Occurred()) return NULL;
    if (check_index(self, i)) return NULL;
    PyObject *t = PyTuple_New(self->n);
    if (!t) return NULL;
    for (int s = 0; s < self->n; s++)
        PyTuple_SET_ITEM(t, s, PyLong_FromLong(uk_hand_value(&self->games[i], s)));
    return t;
}

/* next_round(i): deal the match's next round in game i (Game.next_round) -> error code */
static PyObject *Batch_next_round(BatchObject *self, PyObject *arg) {
    int i = (int)PyLong_AsLong(arg);
    if (i == -1 && PyErr_Occurred()) return NULL;
    if (check_index(self, i)) return NULL;
    int rc = uk_next_round(&self->games[i]);
    if (!rc) {
        self->steps[i] = 0;
        self->win_k[i] = 0;
        self->win_of[i] = -1;
    }
    return PyLong_FromLong(rc);
}

typedef struct {
    PyObject *fn;
    int err;
} py_rnd;

static double call_rnd(void *ctx) {
    py_rnd *c = ctx;
    if (c->err) return 0.0;
    PyObject *r = PyObject_CallNoArgs(c->fn);
    double v = r ? PyFloat_AsDouble(r) : -1.0;
    Py_XDECREF(r);
    if (PyErr_Occurred()) {
        c->err = 1;
        return 0.0;
    }
    if (!(v >= 0.0 && v < 1.0)) {
        PyErr_SetString(PyExc_ValueError, "rnd() must return a float in [0, 1)");
        c->err = 1;
        return 0.0;
    }
    return v;
}

/* play_random(i, agent, rnds, limit) -> decisions made: the other seats of game i
 * play unokit.engine.playout.random_move (seat s calling rnds[s]) with the UNO call
 * made, until agent is to act or the round is over; offered a catch window,
 * they let it go (the random policy never catches) */
static PyObject *Batch_play_random(BatchObject *self, PyObject *args) {
    int i, agent;
    long limit;
    PyObject *rnds;
    if (!PyArg_ParseTuple(args, "iiOl", &i, &agent, &rnds, &limit)) return NULL;
    if (check_index(self, i)) return NULL;
    int n = self->n;
    if (!PySequence_Check(rnds) || PySequence_Size(rnds) != n) {
        PyErr_Format(PyExc_ValueError, "rnds: one callable per seat (%d)", n);
        return NULL;
    }
    uk_game *g = &self->games[i];
    long made = 0;
    while (g->phase < UK_ROUND_OVER) {
        int s = actor(self, i);
        if (s == agent) break;
        if (made >= limit) {
            PyErr_Format(PyExc_RuntimeError, "the bots made %ld decisions in a row", limit);
            return NULL;
        }
        made++;
        if (self->win_k[i]) {
            if (++self->win_k[i] >= uk_alive(g)) self->win_k[i] = 0; /* mercy: the seats in */
            continue;
        }
        PyObject *fn = PySequence_GetItem(rnds, s);
        if (!fn) return NULL;
        py_rnd ctx = {fn, 0};
        int32_t m = uk_random_move(g, call_rnd, &ctx);
        Py_DECREF(fn);
        if (ctx.err) return NULL;
        int rc = uk_apply_move(g, m, s, 1);
        if (rc) {
            PyErr_Format(PyExc_RuntimeError,
                         "the core refused the random move %d (reason %d, unokit.engine.codes.ERRORS)",
                         (int)m, rc);
            return NULL;
        }
        if (g->vulnerable >= 0 && g->vulnerable == g->current && g->phase < UK_ROUND_OVER) {
            self->win_k[i] = 1;
            self->win_of[i] = g->vulnerable;
        }
    }
    return PyLong_FromLong(made);
}

/* is_legal(i, a) -> whether action a is in game i's mask */
static PyObject *Batch_is_legal(BatchObject *self, PyObject *args) {
    int i, a;
    if (!PyArg_ParseTuple(args, "ii", &i, &a)) return NULL;
    if (check_index(self, i)) return NULL;
    if (a < 0 || a >= self->A || self->games[i].phase >= UK_ROUND_OVER) Py_RETURN_FALSE;
    int8_t mask[UK_MAX_MOVES];
    if (self->A > UK_MAX_MOVES) {
        PyErr_SetString(PyExc_RuntimeError, "action table too large");
        return NULL;
    }
    if (mask_of(self, i, actor(self, i), mask)) return NULL;
    return PyBool_FromLong(mask[a]);
}

/* legal(i) -> the action indices of game i's mask last written */
static PyObject *Batch_legal(BatchObject *self, PyObject *arg) {
    int i = (int)PyLong_AsLong(arg);
    if (i == -1 && PyErr_Occurred()) return NULL;
    if (check_index(self, i)) return NULL;
    PyObject *out = PyList_New(0);
    if (!out) return NULL;
    const int8_t *row = self->last_mask + (size_t)i * self->A;
    for (int a = 0; a < self->A; a++)
        if (row[a]) {
            PyObject *v = PyLong_FromLong(a);
            if (!v || PyList_Append(out, v) < 0) {
                Py_XDECREF(v);
                Py_DECREF(out);
                return NULL;
            }
            Py_DECREF(v);
        }
    return out;
}

/* window(i) -> (window rank, vulnerable seat, decisions): the environment's
 * state of game i beyond the engine's (for copies and pickles) */
static PyObject *Batch_window(BatchObject *self, PyObject *arg) {
    int i = (int)PyLong_AsLong(arg);
    if (i == -1 && PyErr_Occurred()) return NULL;
    if (check_index(self, i)) return NULL;
    return Py_BuildValue("(iii)", self->win_k[i], self->win_of[i], self->steps[i]);
}

/* set_window(i, rank, vulnerable, decisions): restore what window(i) gave */
static PyObject *Batch_set_window(BatchObject *self, PyObject *args) {
    int i, k, of, steps;
    if (!PyArg_ParseTuple(args, "iiii", &i, &k, &of, &steps)) return NULL;
    if (check_index(self, i)) return NULL;
    if (k < 0 || k >= self->n || (k && (of < 0 || of >= self->n)) || steps < 0) {
        PyErr_SetString(PyExc_ValueError, "not a window of this game");
        return NULL;
    }
    self->win_k[i] = k;
    self->win_of[i] = k ? of : -1;
    self->steps[i] = steps;
    Py_RETURN_NONE;
}

static PyMethodDef Batch_methods[] = {
    {"window", (PyCFunction)Batch_window, METH_O, "window rank, vulnerable seat, decisions"},
    {"set_window", (PyCFunction)Batch_set_window, METH_VARARGS, "restore window(i)"},
    {"legal", (PyCFunction)Batch_legal, METH_O, "game i's legal actions (last mask)"},
    {"is_legal", (PyCFunction)Batch_is_legal, METH_VARARGS, "whether an action is legal"},
    {"observe_seat", (PyCFunction)Batch_observe_seat, METH_VARARGS, "game i from one seat"},
    {"status", (PyCFunction)Batch_status, METH_O, "phase, seat to act, window, winner, steps"},
    {"hand_values", (PyCFunction)Batch_hand_values, METH_O, "each seat's hand value"},
    {"next_round", (PyCFunction)Batch_next_round, METH_O, "deal the match's next round"},
    {"play_random", (PyCFunction)Batch_play_random, METH_VARARGS, "random bots play"},
    {"reset", (PyCFunction)Batch_reset, METH_O, "deal Game.new(seed=seed + i) in every game"},
    {"observe", (PyCFunction)Batch_observe, METH_VARARGS, "write observations, masks, seats"},
    {"step", (PyCFunction)Batch_step, METH_VARARGS, "one decision in every game"},
    {"get", (PyCFunction)Batch_get, METH_VARARGS, "copy game i into a _core.Game"},
    {"set", (PyCFunction)Batch_set, METH_VARARGS, "game i from a _core.Game"},
    {"seeds", (PyCFunction)Batch_seeds, METH_O, "write the seeds; return the next seed"},
    {"set_next_seed", (PyCFunction)Batch_set_next_seed, METH_O, "the seed of the next deal"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject BatchType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "unokit._core.Batch",
    .tp_basicsize = sizeof(BatchObject),
    .tp_dealloc = (destructor)Batch_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Games of one variant stepped together (unokit.envs.vector).",
    .tp_new = Batch_new,
    .tp_methods = Batch_methods,
};

int uk_batch_register(PyObject *module) {
    if (PyType_Ready(&BatchType) < 0) return -1;
    Py_INCREF(&BatchType);
    if (PyModule_AddObject(module, "Batch", (PyObject *)&BatchType) < 0) {
        Py_DECREF(&BatchType);
        return -1;
    }
    return PyModule_AddIntConstant(module, "BATCH_LAYOUT", L_COUNT);
}
