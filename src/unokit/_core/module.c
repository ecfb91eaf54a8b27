/* unokit._core: the CPython binding of the rules core (plain C API, no numpy).
 *
 *   Tables(...)                  card tables of a variant and its deck (from unokit.engine.variants)
 *   Game(tables, options, n, seed48)
 *   .new_match() .next_round() .start() -> error code (0: accepted)
 *   .legal_moves(seat=-1) .turn_moves() -> list[int]
 *   .apply_move(move, seat=-1, uno=False) -> error code (the reason of a refusal,
 *     unokit.engine.codes.ERRORS; unokit.engine.refusals words it)
 *   .version: moves when (and only when) a command changes the position;
 *   .changed: whether the last accepted command changed it
 *   .copy() .state() .set_state(raw)
 *   .playout(rnd, max_turns) .playout_mt(mt_state, max_turns)
 *   simulate(tables, options, n, seed, games, match) -> tally of random-bot games
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <stdlib.h>
#include <string.h>

#include "batch.h"
#include "core.h"

#define NOPTS 40

typedef struct {
    PyObject_HEAD
    uk_tables *t;
} TablesObject;

typedef struct {
    PyObject_HEAD
    PyObject *tables;
    uk_events events; /* the sink of g.ev once events are asked for */
    int changed;      /* whether the last accepted command changed the position */
    uint64_t version; /* bumped by every method that may change g (Python caches views); a
                         command moves it only when accepted with an effect */
    uk_game g;
} GameObject;

static PyTypeObject TablesType;
static PyTypeObject GameType;

/* ------------------------------------------------------------------ helpers */

static int seq_ints(PyObject *obj, long long *out, Py_ssize_t want, Py_ssize_t max, Py_ssize_t *got,
                    const char *what) {
    PyObject *fast = PySequence_Fast(obj, what);
    if (!fast) return -1;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(fast);
    if ((want >= 0 && len != want) || len > max) {
        PyErr_Format(PyExc_ValueError, "%s: %zd values", what, len);
        Py_DECREF(fast);
        return -1;
    }
    PyObject **items = PySequence_Fast_ITEMS(fast);
    for (Py_ssize_t i = 0; i < len; i++) {
        long long v = PyLong_AsLongLong(items[i]);
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        out[i] = v;
    }
    if (got) *got = len;
    Py_DECREF(fast);
    return 0;
}

static PyObject *tuple16(const int16_t *a, int len) {
    PyObject *t = PyTuple_New(len);
    if (!t) return NULL;
    for (int i = 0; i < len; i++) PyTuple_SET_ITEM(t, i, PyLong_FromLong(a[i]));
    return t;
}

static PyObject *list32(const int32_t *a, int len) {
    PyObject *l = PyList_New(len);
    if (!l) return NULL;
    for (int i = 0; i < len; i++) PyList_SET_ITEM(l, i, PyLong_FromLong(a[i]));
    return l;
}

/* ------------------------------------------------------------------ Tables */

static void Tables_dealloc(TablesObject *self) {
    free(self->t);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* per-card table: either one sequence (ncards) or a pair of them (light, dark) */
static int fill(PyObject *obj, int ncards, int sides, long long *buf, long long *out0,
                long long *out1, const char *what) {
    if (sides == 1) return seq_ints(obj, out0, ncards, UK_MAX_CARDS, NULL, what);
    PyObject *fast = PySequence_Fast(obj, what);
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != 2) {
        PyErr_Format(PyExc_ValueError, "%s: expected (light, dark)", what);
        Py_DECREF(fast);
        return -1;
    }
    int r = seq_ints(PySequence_Fast_GET_ITEM(fast, 0), out0, ncards, UK_MAX_CARDS, NULL, what);
    if (!r) r = seq_ints(PySequence_Fast_GET_ITEM(fast, 1), out1, ncards, UK_MAX_CARDS, NULL, what);
    (void)buf;
    Py_DECREF(fast);
    return r;
}

static PyObject *Tables_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
    int ncards, two_sided, flex;
    PyObject *deck, *color, *kind, *number, *mask, *topkey, *points, *draw_amount, *restricted,
        *stack_class, *ident, *flexmask, *cut_value, *flip_icon, *flex_color;
    static char *names[] = {"ncards", "two_sided", "flex", "deck", "color", "kind", "number",
                            "mask", "topkey", "points", "draw_amount", "restricted",
                            "stack_class", "ident", "flexmask", "cut_value", "flip_icon",
                            "flex_color", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kw, "iiiOOOOOOOOOOOOOOO", names, &ncards, &two_sided,
                                     &flex, &deck, &color, &kind, &number, &mask, &topkey, &points,
                                     &draw_amount, &restricted, &stack_class, &ident, &flexmask,
                                     &cut_value, &flip_icon, &flex_color))
        return NULL;
    if (ncards < 1 || ncards > UK_MAX_CARDS) {
        PyErr_Format(PyExc_ValueError, "the core holds 1 to %d card ids, not %d", UK_MAX_CARDS, ncards);
        return NULL;
    }
    uk_tables *t = calloc(1, sizeof *t);
    long long *a = malloc(sizeof(long long) * UK_MAX_CARDS * 2), *b = a + UK_MAX_CARDS;
    if (!t || !a) {
        free(t);
        free(a);
        return PyErr_NoMemory();
    }
    t->ncards = ncards;
    t->two_sided = two_sided != 0;
    t->flex = flex != 0;
    Py_ssize_t dl = 0;
#define FAIL goto fail
    if (seq_ints(deck, a, -1, UK_MAX_DECK, &dl, "deck")) FAIL;
    if (dl < 2) {
        PyErr_SetString(PyExc_ValueError, "deck: too few cards");
        FAIL;
    }
    t->decklen = (int)dl;
    for (Py_ssize_t i = 0; i < dl; i++) {
        if (a[i] < 0 || a[i] >= ncards) {
            PyErr_SetString(PyExc_ValueError, "deck: card id out of range");
            FAIL;
        }
        t->deck[i] = (int16_t)a[i];
    }
#define SIDED(obj, field, type)                                                   \
    if (fill(obj, ncards, 2, NULL, a, b, #field)) FAIL;                            \
    for (int i = 0; i < ncards; i++) {                                             \
        t->field[0][i] = (type)a[i];                                               \
        t->field[1][i] = (type)b[i];                                               \
    }
#define SINGLE(obj, field, type)                                                  \
    if (fill(obj, ncards, 1, NULL, a, NULL, #field)) FAIL;                         \
    for (int i = 0; i < ncards; i++) t->field[i] = (type)a[i];
    SIDED(color, color, int8_t)
    SIDED(kind, kind, uint8_t)
    SIDED(number, number, int8_t)
    SIDED(mask, mask, uint32_t)
    SIDED(topkey, topkey, uint32_t)
    SIDED(points, points, int16_t)
    SIDED(draw_amount, draw_amount, uint8_t)
    SIDED(restricted, restricted, uint8_t)
    SIDED(stack_class, stack_class, uint8_t)
    SIDED(ident, ident, int32_t)
    SINGLE(flexmask, flexmask, uint32_t)
    SINGLE(cut_value, cut_value, uint8_t)
    SINGLE(flip_icon, flip_icon, uint8_t)
    SINGLE(flex_color, flex_color, int8_t)
    for (int s = 0; s < 2; s++)
        for (int i = 0; i < ncards; i++)
            if (t->kind[s][i] > UK_FW4 || t->color[s][i] > 7) {
                PyErr_SetString(PyExc_ValueError, "card tables: kind or colour out of range");
                FAIL;
            }
    free(a);
    TablesObject *self = (TablesObject *)type->tp_alloc(type, 0);
    if (!self) {
        free(t);
        return NULL;
    }
    self->t = t;
    return (PyObject *)self;
fail:
    free(a);
    free(t);
    return NULL;
}

static PyObject *Tables_get_ncards(TablesObject *self, void *c) {
    (void)c;
    return PyLong_FromLong(self->t->ncards);
}

/* the same card tables with another deck (Flip's random_seeded pairing deals a deck per seed) */
static PyObject *Tables_with_deck(TablesObject *self, PyObject *deck) {
    long long v[UK_MAX_DECK];
    Py_ssize_t got;
    if (seq_ints(deck, v, -1, UK_MAX_DECK, &got, "deck")) return NULL;
    if (got < 2) {
        PyErr_SetString(PyExc_ValueError, "deck: too few cards");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < got; i++)
        if (v[i] < 0 || v[i] >= self->t->ncards) {
            PyErr_SetString(PyExc_ValueError, "deck: card id out of range");
            return NULL;
        }
    uk_tables *t = malloc(sizeof *t);
    if (!t) return PyErr_NoMemory();
    memcpy(t, self->t, sizeof *t);
    t->decklen = (int)got;
    for (Py_ssize_t i = 0; i < got; i++) t->deck[i] = (int16_t)v[i];
    TablesObject *o = (TablesObject *)TablesType.tp_alloc(&TablesType, 0);
    if (!o) {
        free(t);
        return NULL;
    }
    o->t = t;
    return (PyObject *)o;
}

static PyMethodDef Tables_methods[] = {
    {"with_deck", (PyCFunction)Tables_with_deck, METH_O, "the same card tables with another deck"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Tables_getset[] = {
    {"ncards", (getter)Tables_get_ncards, NULL, "number of card ids", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject TablesType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "unokit._core.Tables",
    .tp_basicsize = sizeof(TablesObject),
    .tp_dealloc = (destructor)Tables_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Card tables of one variant and its deck.",
    .tp_new = Tables_new,
    .tp_getset = Tables_getset,
    .tp_methods = Tables_methods,
};

/* ------------------------------------------------------------------ options */

static int parse_options(PyObject *obj, uk_options *o) {
    long long v[NOPTS];
    if (seq_ints(obj, v, NOPTS, NOPTS, NULL, "options")) return -1;
    int i = 0;
    o->target_score = v[i++];
    o->scoring_lowest = (int)v[i++];
    o->single_round = (int)v[i++];
    o->lowest_tie_play_on = (int)v[i++];
    o->dealer_selection = (int)v[i++];
    o->dealer_fixed_seat = (int)v[i++];
    o->dealer_rotation = (int)v[i++];
    o->hand_size = (int)v[i++];
    o->uno_penalty = (int)v[i++];
    o->false_catch_penalty = (int)v[i++];
    o->misplay_penalty = (int)v[i++];
    o->blocked_lowest = (int)v[i++];
    o->wd_wilds_match = (int)v[i++];
    o->flip_first_wild_redraw = (int)v[i++];
    o->flip_first_flip_redraw = (int)v[i++];
    o->flip_exposed_next = (int)v[i++];
    o->flip_reverse_draw = (int)v[i++];
    o->flip_last_flips = (int)v[i++];
    o->flip_draw_color_cap = (int)v[i++];
    o->flex_wilds_match = (int)v[i++];
    o->flex_flexcolors_match = (int)v[i++];
    o->flex_reset_skip = (int)v[i++];
    o->flex_fw4_restricted = (int)v[i++];
    o->flex_first_return = (int)v[i++];
    o->stacking = (int)v[i++];
    o->jump_in = (int)v[i++];
    o->seven_zero = (int)v[i++];
    o->draw_until_playable = (int)v[i++];
    o->forced_play = (int)v[i++];
    o->no_bluff = (int)v[i++];
    o->deflect = (int)v[i++];
    o->zero_rotate = (int)v[i++];
    o->finish = (int)v[i++];
    o->hand_limit = (int)v[i++];
    o->no_challenge = (int)v[i++];
    o->must_play_drawn = (int)v[i++];
    o->teams = (int)v[i++];
    o->shuffle_seats = (int)v[i++];
    o->mercy = (int)v[i++];
    o->multi = (int)v[i++];
    if (o->stacking < 0 || o->stacking > 2 || o->dealer_selection < 0 || o->dealer_selection > 2 ||
        o->dealer_rotation < 0 || o->dealer_rotation > 2 || o->hand_size < 1 ||
        o->uno_penalty < 0 || o->uno_penalty > 20 || o->false_catch_penalty < 0 ||
        o->false_catch_penalty > 20 || o->flip_draw_color_cap < -1 || o->flip_draw_color_cap == 0 ||
        o->deflect < 0 || o->deflect > 3 || o->finish < 0 || o->finish > 3 || o->hand_limit < 0 ||
        o->mercy < 0) {
        PyErr_SetString(PyExc_ValueError, "options: a value is out of range");
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------ Game */

static void Game_dealloc(GameObject *self) {
    free(self->events.buf);
    Py_XDECREF(self->tables);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Game_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
    PyObject *tables, *opts;
    int n;
    unsigned long long seed48;
    static char *names[] = {"tables", "options", "players", "seed48", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O!OiK", names, &TablesType, &tables, &opts, &n,
                                     &seed48))
        return NULL;
    uk_options o;
    if (parse_options(opts, &o)) return NULL;
    const uk_tables *t = ((TablesObject *)tables)->t;
    if (n < 2 || n > UK_MAX_PLAYERS) {
        PyErr_Format(PyExc_ValueError, "the core plays 2 to %d players, not %d", UK_MAX_PLAYERS, n);
        return NULL;
    }
    if ((long long)o.hand_size * n > t->decklen - 1) {
        PyErr_SetString(PyExc_ValueError, "handSize: the deck cannot deal that many cards");
        return NULL;
    }
    if (o.dealer_selection == 2 && (o.dealer_fixed_seat < 0 || o.dealer_fixed_seat >= n)) {
        PyErr_SetString(PyExc_ValueError, "dealerSelection: no such seat");
        return NULL;
    }
    GameObject *self = (GameObject *)type->tp_alloc(type, 0);
    if (!self) return NULL;
    Py_INCREF(tables);
    self->tables = tables;
    uk_init(&self->g, t, &o, n, seed48 & 0xFFFFFFFFFFFFULL);
    return (PyObject *)self;
}

static PyObject *Game_new_match(GameObject *self, PyObject *unused) {
    self->version++;
    (void)unused;
    return PyLong_FromLong(uk_new_match(&self->g));
}

/* after a command: an accepted one (err 0) with an effect moves the version;
 * a refusal changed nothing, except a deal that found no first card to turn
 * (UK_ERR_EMPTY: its cards have moved) */
static PyObject *command_done(GameObject *self, int err, int effect) {
    if (!err) {
        self->changed = effect;
        if (effect) self->version++;
    } else if (err == UK_ERR_EMPTY) {
        self->version++;
    }
    return PyLong_FromLong(err);
}

static PyObject *Game_next_round(GameObject *self, PyObject *unused) {
    (void)unused;
    int err = uk_next_round(&self->g);
    if (!err) self->g.commands++;
    return command_done(self, err, 1);
}

static PyObject *Game_start(GameObject *self, PyObject *unused) {
    (void)unused;
    if (self->g.phase != UK_DEAL) return PyLong_FromLong(UK_ERR_PHASE);
    return command_done(self, uk_start(&self->g), 1);
}

static int32_t *move_buffer(void) {
    static int32_t *buf = NULL; /* the GIL serialises the callers */
    if (!buf) buf = malloc(sizeof(int32_t) * UK_MAX_MOVES);
    return buf;
}

static PyObject *Game_legal_moves(GameObject *self, PyObject *args) {
    int seat = -1;
    if (!PyArg_ParseTuple(args, "|i", &seat)) return NULL;
    if (seat >= self->g.n) {
        PyErr_Format(PyExc_ValueError, "P%d is not a seat", seat);
        return NULL;
    }
    int32_t *buf = move_buffer();
    if (!buf) return PyErr_NoMemory();
    return list32(buf, uk_legal_moves(&self->g, seat, buf));
}

static PyObject *Game_turn_moves(GameObject *self, PyObject *unused) {
    (void)unused;
    int32_t *buf = move_buffer();
    if (!buf) return PyErr_NoMemory();
    return list32(buf, uk_turn_moves(&self->g, buf));
}

static PyObject *Game_apply_move(GameObject *self, PyObject *args, PyObject *kw) {
    long long move;
    int seat = -1, uno = 0, effect = 1;
    static char *names[] = {"move", "seat", "uno", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kw, "L|ip", names, &move, &seat, &uno)) return NULL;
    if (move < 0 || move > 0x7FFFFFFF) return PyLong_FromLong(UK_ERR_MOVE);
    /* an UNO call or a catch may be accepted without any effect (RULES.md D65):
     * the core says so (uno.c), and the version does not move */
    int err = uk_apply_move_fx(&self->g, (int32_t)move, seat, uno, &effect);
    return command_done(self, err, effect);
}

/* play_multi(seat, cids, swap, uno): a PLAY of several number cards (multiPlay, 6.9) */
static PyObject *Game_play_multi(GameObject *self, PyObject *args) {
    int seat, swap, uno;
    PyObject *seq;
    if (!PyArg_ParseTuple(args, "iOip", &seat, &seq, &swap, &uno)) return NULL;
    long long v[8];
    Py_ssize_t k = PyObject_Length(seq);
    if (k < 0) return NULL;
    if (k > 8) return PyLong_FromLong(UK_ERR_NOT_HELD); /* 8 copies of a number at most */
    if (seq_ints(seq, v, -1, 8, &k, "cids")) return NULL;
    int16_t cids[8];
    for (Py_ssize_t i = 0; i < k; i++) {
        if (v[i] < 0 || v[i] >= UK_MAX_CARDS) return PyLong_FromLong(UK_ERR_CARD);
        cids[i] = (int16_t)v[i];
    }
    if (swap < -1) return PyLong_FromLong(UK_ERR_BAD_SWAP);
    int err = uk_play_multi(&self->g, seat, cids, (int)k, swap, uno);
    if (!err) self->g.commands++;
    return command_done(self, err, 1);
}

/* play(seat, cid, color, flex, target, swap, uno, flip_color): a PLAY with every
 * field of unokit.engine.actions.Play (flip_color has no move code) */
static PyObject *Game_play(GameObject *self, PyObject *args) {
    int seat, cid, color, flex, target, swap, uno, flip_color;
    if (!PyArg_ParseTuple(args, "iiipiipi", &seat, &cid, &color, &flex, &target, &swap, &uno,
                          &flip_color))
        return NULL;
    if (seat < 0 || seat >= self->g.n) return PyLong_FromLong(UK_ERR_SEAT);
    if (color < -1) return PyLong_FromLong(UK_ERR_BAD_COLOR);
    if (target < -1) return PyLong_FromLong(UK_ERR_BAD_TARGET);
    if (swap < -1) return PyLong_FromLong(UK_ERR_BAD_SWAP);
    if (flip_color < -1) return PyLong_FromLong(UK_ERR_FLIP_COLOR);
    int err = uk_play(&self->g, seat, cid, color, flex, target, swap, uno, flip_color);
    if (!err) self->g.commands++;
    return command_done(self, err, 1);
}

static PyObject *Game_copy(GameObject *self, PyObject *unused) {
    (void)unused;
    GameObject *c = (GameObject *)GameType.tp_alloc(&GameType, 0);
    if (!c) return NULL;
    Py_INCREF(self->tables);
    c->tables = self->tables;
    memcpy(&c->g, &self->g, sizeof(uk_game));
    c->changed = self->changed;
    c->version = self->version;
    c->g.ev = NULL; /* a copy keeps no events until asked */
    return (PyObject *)c;
}

/* record_events(on): keep event records from now on (or stop) */
static PyObject *Game_record_events(GameObject *self, PyObject *arg) {
    int on = PyObject_IsTrue(arg);
    if (on < 0) return NULL;
    self->events.len = 0;
    self->events.failed = 0;
    self->g.ev = on ? &self->events : NULL;
    Py_RETURN_NONE;
}

/* take_events(): the records since the last call (flat ints: type, length, payload) */
static PyObject *Game_take_events(GameObject *self, PyObject *unused) {
    (void)unused;
    uk_events *e = &self->events;
    if (e->failed) {
        e->len = e->failed = 0;
        return PyErr_NoMemory();
    }
    PyObject *l = PyList_New(e->len);
    if (!l) return NULL;
    for (int i = 0; i < e->len; i++) PyList_SET_ITEM(l, i, PyLong_FromLongLong(e->buf[i]));
    e->len = 0;
    return l;
}

static PyObject *Game_state(GameObject *self, PyObject *unused) {
    (void)unused;
    const uk_game *g = &self->g;
    int n = g->n;
    PyObject *hands = PyTuple_New(n), *uno = PyTuple_New(n), *powers = PyTuple_New(n),
             *scores = PyTuple_New(n), *mw = PyTuple_New(g->match_winners_n);
    if (!hands || !uno || !powers || !scores || !mw) goto fail;
    for (int s = 0; s < n; s++) {
        PyObject *h = tuple16(g->hands[s], g->hand_len[s]);
        if (!h) goto fail;
        PyTuple_SET_ITEM(hands, s, h);
        PyTuple_SET_ITEM(uno, s, PyLong_FromLong(g->uno[s]));
        PyTuple_SET_ITEM(powers, s, PyBool_FromLong(g->powers[s]));
        PyTuple_SET_ITEM(scores, s, PyLong_FromLongLong(g->scores[s]));
    }
    for (int i = 0; i < g->match_winners_n; i++)
        PyTuple_SET_ITEM(mw, i, PyLong_FromLong(g->match_winners[i]));
    PyObject *reveal;
    if (g->reveal_seat >= 0) {
        reveal = Py_BuildValue("(iiN)", g->reveal_seat, g->reveal_off, tuple16(g->reveal, g->reveal_len));
    } else {
        reveal = Py_None;
        Py_INCREF(reveal);
    }
    if (!reveal) goto fail;
    return Py_BuildValue(
        "(LNNNiiiiiiiiiiiiiiiiiNiiNNiiLNiiN)", (long long)g->shuffles, hands,
        tuple16(g->draw, g->draw_len), tuple16(g->discard, g->discard_len), g->side, g->color,
        g->current, g->direction, g->dealer, g->phase, g->drawn, g->color_next, g->color_reason,
        g->ch_offender, g->ch_legal, g->ch_card, g->ch_after, g->ch_after_success, g->pending,
        g->stack_class, g->stack_amount, uno, g->uno_pre, g->vulnerable, powers, scores,
        g->round_no, g->winner, (long long)g->round_points, mw, g->empty_draws, g->wild_top, reveal);
fail:
    Py_XDECREF(hands);
    Py_XDECREF(uno);
    Py_XDECREF(powers);
    Py_XDECREF(scores);
    Py_XDECREF(mw);
    return NULL;
}

static int load_cards(PyObject *obj, int16_t *out, int *len, int ncards, const char *what) {
    long long v[UK_MAX_DECK];
    Py_ssize_t got;
    if (seq_ints(obj, v, -1, UK_MAX_DECK, &got, what)) return -1;
    for (Py_ssize_t i = 0; i < got; i++) {
        if (v[i] < 0 || v[i] >= ncards) {
            PyErr_Format(PyExc_ValueError, "%s: card id out of range", what);
            return -1;
        }
        out[i] = (int16_t)v[i];
    }
    *len = (int)got;
    return 0;
}

/* Load a position: the same fields, in the order of state(). */
static PyObject *Game_set_state(GameObject *self, PyObject *args) {
    self->version++;
    PyObject *st;
    if (!PyArg_ParseTuple(args, "O!", &PyTuple_Type, &st)) return NULL;
    if (PyTuple_GET_SIZE(st) != 33) {
        PyErr_SetString(PyExc_ValueError, "set_state: 33 fields expected");
        return NULL;
    }
    uk_game g;
    memcpy(&g, &self->g, sizeof g);
    int n = g.n, nc = g.t->ncards;
    long long v[UK_MAX_PLAYERS];
    int len;
#define INT(i) PyLong_AsLong(PyTuple_GET_ITEM(st, i))
    g.shuffles = PyLong_AsLongLong(PyTuple_GET_ITEM(st, 0));
    PyObject *hands = PySequence_Fast(PyTuple_GET_ITEM(st, 1), "set_state: hands");
    if (!hands) return NULL;
    if (PySequence_Fast_GET_SIZE(hands) != n) {
        Py_DECREF(hands);
        PyErr_SetString(PyExc_ValueError, "set_state: one hand per seat");
        return NULL;
    }
    for (int s = 0; s < n; s++) {
        if (load_cards(PySequence_Fast_GET_ITEM(hands, s), g.hands[s], &len, nc, "hand")) {
            Py_DECREF(hands);
            return NULL;
        }
        g.hand_len[s] = (int16_t)len;
    }
    Py_DECREF(hands);
    if (load_cards(PyTuple_GET_ITEM(st, 2), g.draw, &g.draw_len, nc, "draw")) return NULL;
    if (load_cards(PyTuple_GET_ITEM(st, 3), g.discard, &g.discard_len, nc, "discard")) return NULL;
    g.side = INT(4);
    g.color = INT(5);
    g.current = INT(6);
    g.direction = INT(7);
    g.dealer = INT(8);
    g.phase = INT(9);
    g.drawn = INT(10);
    g.color_next = INT(11);
    g.color_reason = INT(12);
    g.ch_offender = INT(13);
    g.ch_legal = INT(14);
    g.ch_card = INT(15);
    g.ch_after = INT(16);
    g.ch_after_success = INT(17);
    g.pending = INT(18);
    g.stack_class = INT(19);
    g.stack_amount = INT(20);
    if (seq_ints(PyTuple_GET_ITEM(st, 21), v, n, n, NULL, "uno")) return NULL;
    for (int s = 0; s < n; s++) {
        if (v[s] < 0 || v[s] > 2) {
            PyErr_SetString(PyExc_ValueError, "set_state: a UNO state is not 0, 1 or 2");
            return NULL;
        }
        g.uno[s] = (int8_t)v[s];
    }
    g.uno_pre = INT(22);
    g.vulnerable = INT(23);
    Py_ssize_t np;
    if (seq_ints(PyTuple_GET_ITEM(st, 24), v, -1, n, &np, "powers")) return NULL;
    for (int s = 0; s < n; s++) g.powers[s] = (uint8_t)(s < np ? v[s] != 0 : 1);
    if (seq_ints(PyTuple_GET_ITEM(st, 25), v, n, n, NULL, "scores")) return NULL;
    for (int s = 0; s < n; s++) g.scores[s] = v[s];
    g.round_no = INT(26);
    g.winner = INT(27);
    g.round_points = PyLong_AsLongLong(PyTuple_GET_ITEM(st, 28));
    Py_ssize_t nw;
    if (seq_ints(PyTuple_GET_ITEM(st, 29), v, -1, n, &nw, "match_winners")) return NULL;
    g.match_winners_n = (int)nw;
    for (int i = 0; i < nw; i++) {
        if (v[i] < 0 || v[i] >= n) {
            PyErr_SetString(PyExc_ValueError, "set_state: a match winner is not a seat");
            return NULL;
        }
        g.match_winners[i] = (int8_t)v[i];
    }
    g.empty_draws = INT(30);
    g.wild_top = INT(31);
    PyObject *rv = PyTuple_GET_ITEM(st, 32);
    if (rv == Py_None) {
        g.reveal_seat = g.reveal_off = -1;
        g.reveal_len = 0;
    } else {
        PyObject *cards;
        if (!PyArg_ParseTuple(rv, "iiO", &g.reveal_seat, &g.reveal_off, &cards)) return NULL;
        if (load_cards(cards, g.reveal, &g.reveal_len, nc, "reveal")) return NULL;
    }
#undef INT
    if (PyErr_Occurred()) return NULL;
    /* the indices the core follows must be in range (the rest is the caller's position) */
    if (g.phase < 0 || g.phase > UK_DEAL || g.side < 0 || g.side > 1 || g.current < 0 ||
        g.current >= n || g.dealer < 0 || g.dealer >= n || (g.direction != 1 && g.direction != -1) ||
        g.color < -1 || g.color > 7 || g.drawn < -1 || g.drawn >= nc || g.ch_card >= nc ||
        g.ch_offender >= n || g.ch_after >= n || g.ch_after_success >= n || g.color_next >= n ||
        g.vulnerable >= n || g.uno_pre >= n || g.reveal_off >= n || g.winner >= n ||
        (g.phase != UK_DEAL && g.phase < UK_ROUND_OVER && g.discard_len == 0) ||
        g.ch_card < -1 || g.ch_offender < -1 || g.ch_after < -1 || g.ch_after_success < -1 ||
        g.color_next < -1 || g.vulnerable < -1 || g.uno_pre < -1 || g.winner < -1 ||
        g.color_reason < 0 || g.color_reason > 2 || g.pending < 0 || g.stack_amount < 0 ||
        (g.phase == UK_DRAWN && g.drawn < 0) ||
        (g.phase == UK_COLOR && g.color_next < 0) ||
        (g.phase == UK_CHALLENGE && (g.ch_card < 0 || g.ch_offender < 0 || g.ch_after < 0 ||
                                     g.ch_after_success < 0)) ||
        (g.pending && g.ch_offender >= 0 && (g.ch_after < 0 || g.ch_card < 0))) {
        PyErr_SetString(PyExc_ValueError, "set_state: a field is out of range");
        return NULL;
    }
    int total = g.draw_len + g.discard_len;
    for (int s = 0; s < n; s++) total += g.hand_len[s];
    if (total > UK_MAX_DECK) {
        PyErr_SetString(PyExc_ValueError, "set_state: more cards than the core holds");
        return NULL;
    }
    memcpy(&self->g, &g, sizeof g);
    Py_RETURN_NONE;
}

/* set_deal(hands, draw, seed): the hidden part of a position replaced, for
 * the search bots' samplers: hands[s] (a list of card ids, or None to keep
 * seat s's hand), the draw pile (top last) and the seed of later reshuffles
 * (its low 48 bits; the shuffle count starts again at 0). Every other field
 * stays; the card total is checked against the core's capacity. */
static PyObject *Game_set_deal(GameObject *self, PyObject *args) {
    self->version++;
    PyObject *hands, *draw, *seed_obj;
    if (!PyArg_ParseTuple(args, "OOO", &hands, &draw, &seed_obj)) return NULL;
    uk_game *src = &self->g;
    int n = src->n, nc = src->t->ncards;
    uint64_t seed = PyLong_AsUnsignedLongLongMask(seed_obj);
    if (seed == (uint64_t)-1 && PyErr_Occurred()) return NULL;
    PyObject *hs = PySequence_Fast(hands, "set_deal: hands");
    if (!hs) return NULL;
    if (PySequence_Fast_GET_SIZE(hs) != n) {
        Py_DECREF(hs);
        PyErr_SetString(PyExc_ValueError, "set_deal: one entry per seat");
        return NULL;
    }
    static __thread int16_t cards[UK_MAX_PLAYERS][UK_MAX_DECK];
    static __thread int16_t pile[UK_MAX_DECK];
    int lens[UK_MAX_PLAYERS], draw_len, total = src->discard_len;
    for (int s = 0; s < n; s++) {
        PyObject *h = PySequence_Fast_GET_ITEM(hs, s);
        if (h == Py_None) {
            lens[s] = -1;
            total += src->hand_len[s];
        } else if (load_cards(h, cards[s], &lens[s], nc, "set_deal: hand")) {
            Py_DECREF(hs);
            return NULL;
        } else {
            total += lens[s];
        }
    }
    Py_DECREF(hs);
    if (load_cards(draw, pile, &draw_len, nc, "set_deal: draw")) return NULL;
    total += draw_len;
    if (total > UK_MAX_DECK) {
        PyErr_SetString(PyExc_ValueError, "set_deal: more cards than the core holds");
        return NULL;
    }
    for (int s = 0; s < n; s++)
        if (lens[s] >= 0) {
            memcpy(src->hands[s], cards[s], sizeof(int16_t) * (size_t)lens[s]);
            src->hand_len[s] = (int16_t)lens[s];
        }
    memcpy(src->draw, pile, sizeof(int16_t) * (size_t)draw_len);
    src->draw_len = draw_len;
    src->seed48 = seed & 0xFFFFFFFFFFFFull;
    src->shuffles = 0;
    Py_RETURN_NONE;
}

/* rnd as a Python callable */
typedef struct {
    PyObject *fn;
    int failed;
} py_rnd;

static double call_rnd(void *ctx) {
    py_rnd *r = ctx;
    if (r->failed) return 0.0;
    PyObject *x = PyObject_CallNoArgs(r->fn);
    if (!x) {
        r->failed = 1;
        return 0.0;
    }
    double d = PyFloat_AsDouble(x);
    Py_DECREF(x);
    if (d == -1.0 && PyErr_Occurred()) {
        r->failed = 1;
        return 0.0;
    }
    if (!(d >= 0.0 && d < 1.0)) {
        PyErr_SetString(PyExc_ValueError, "rnd() must return a float in [0, 1)");
        r->failed = 1;
        return 0.0;
    }
    return d;
}

static double mt_rnd(void *ctx) { return uk_mt_random((uk_mt *)ctx); }

static PyObject *Game_playout(GameObject *self, PyObject *args) {
    self->version++;
    PyObject *fn;
    long max_turns = 1000000;
    if (!PyArg_ParseTuple(args, "O|l", &fn, &max_turns)) return NULL;
    py_rnd r = {fn, 0};
    /* a failing rnd leaves the game where it was */
    uk_game *saved = malloc(sizeof(uk_game));
    if (!saved) return PyErr_NoMemory();
    memcpy(saved, &self->g, sizeof(uk_game));
    long turns = uk_playout(&self->g, call_rnd, &r, max_turns);
    if (r.failed || turns < 0) {
        memcpy(&self->g, saved, sizeof(uk_game));
        free(saved);
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_RuntimeError, "the core refused its own move");
        return NULL;
    }
    free(saved);
    return PyLong_FromLong(turns);
}

static int mt_from_tuple(PyObject *obj, uk_mt *mt) {
    long long v[625];
    if (seq_ints(obj, v, 625, 625, NULL, "Mersenne Twister state")) return -1;
    for (int i = 0; i < 624; i++) mt->state[i] = (uint32_t)v[i];
    if (v[624] < 0 || v[624] > 624) {
        PyErr_SetString(PyExc_ValueError, "Mersenne Twister state: bad index");
        return -1;
    }
    mt->index = (int)v[624];
    mt->ready = 624;
    return 0;
}

static PyObject *mt_to_tuple(uk_mt *mt) {
    uk_mt_finish(mt);
    PyObject *t = PyTuple_New(625);
    if (!t) return NULL;
    for (int i = 0; i < 624; i++) PyTuple_SET_ITEM(t, i, PyLong_FromUnsignedLong(mt->state[i]));
    PyTuple_SET_ITEM(t, 624, PyLong_FromLong(mt->index));
    return t;
}

/* playout_mt(state, max_turns): the random policy drawing from a Mersenne Twister
 * given as random.Random.getstate()[1]; returns (turns, new state). */
static PyObject *Game_playout_mt(GameObject *self, PyObject *args) {
    self->version++;
    PyObject *st;
    long max_turns = 1000000;
    if (!PyArg_ParseTuple(args, "O|l", &st, &max_turns)) return NULL;
    uk_mt mt;
    if (mt_from_tuple(st, &mt)) return NULL;
    long turns = uk_playout(&self->g, mt_rnd, &mt, max_turns);
    if (turns < 0) {
        PyErr_SetString(PyExc_RuntimeError, "the core refused its own move");
        return NULL;
    }
    return Py_BuildValue("(lN)", turns, mt_to_tuple(&mt));
}

/* sensible_move(): the move of unokit.bots.rollout.sensible_move for the seat
 * to act (-1 when the round is over); sensible_playout(max_turns): the round
 * played out with it by every seat, returns the decisions made. */
static PyObject *Game_sensible_move(GameObject *self, PyObject *unused) {
    (void)unused;
    if (self->g.phase >= UK_ROUND_OVER) return PyLong_FromLong(-1);
    return PyLong_FromLong(uk_sensible_move(&self->g));
}

static PyObject *Game_sensible_playout(GameObject *self, PyObject *args) {
    self->version++;
    long max_turns = 100000;
    if (!PyArg_ParseTuple(args, "|l", &max_turns)) return NULL;
    long turns = uk_sensible_playout(&self->g, max_turns);
    if (turns < 0) {
        PyErr_SetString(PyExc_RuntimeError, "the core refused its own move");
        return NULL;
    }
    return PyLong_FromLong(turns);
}

/* a weight vector of uk_weighted_move: a sequence of UK_W_COUNT numbers */
static int parse_weights(PyObject *obj, double *w) {
    PyObject *fast = PySequence_Fast(obj, "weights: expected a sequence of numbers");
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != UK_W_COUNT) {
        PyErr_Format(PyExc_ValueError, "weights: expected %d numbers, got %zd", UK_W_COUNT,
                     PySequence_Fast_GET_SIZE(fast));
        Py_DECREF(fast);
        return -1;
    }
    for (int i = 0; i < UK_W_COUNT; i++) {
        w[i] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(fast, i));
        if (w[i] == -1.0 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
    }
    Py_DECREF(fast);
    return 0;
}

/* weighted_move(weights): the move of the weighted sensible policy (policy.c)
 * for the seat to act (-1 when the round is over); mixed_playout(max_turns,
 * seat, weights): the round played out with it by `seat` and with the
 * sensible policy by every other seat, returns the decisions made. */
static PyObject *Game_weighted_move(GameObject *self, PyObject *arg) {
    double w[UK_W_COUNT];
    if (parse_weights(arg, w)) return NULL;
    if (self->g.phase >= UK_ROUND_OVER) return PyLong_FromLong(-1);
    return PyLong_FromLong(uk_weighted_move(&self->g, w));
}

static PyObject *Game_mixed_playout(GameObject *self, PyObject *args) {
    self->version++;
    long max_turns;
    int seat;
    PyObject *wo;
    double w[UK_W_COUNT];
    if (!PyArg_ParseTuple(args, "liO", &max_turns, &seat, &wo)) return NULL;
    if (parse_weights(wo, w)) return NULL;
    long turns = uk_mixed_playout(&self->g, max_turns, seat, w);
    if (turns < 0) {
        PyErr_SetString(PyExc_RuntimeError, "the core refused its own move");
        return NULL;
    }
    return PyLong_FromLong(turns);
}

/* Cheap readers for policies that step the core (unokit.bots.rollout): one
 * seat's hand, the hand sizes, a seat's Flex power; no rule lives here. */
static PyObject *Game_hand(GameObject *self, PyObject *arg) {
    long seat = PyLong_AsLong(arg);
    if (seat == -1 && PyErr_Occurred()) return NULL;
    if (seat < 0 || seat >= self->g.n) {
        PyErr_SetString(PyExc_IndexError, "no such seat");
        return NULL;
    }
    int len = self->g.hand_len[seat];
    PyObject *out = PyList_New(len);
    if (!out) return NULL;
    for (int i = 0; i < len; i++)
        PyList_SET_ITEM(out, i, PyLong_FromLong(self->g.hands[seat][i]));
    return out;
}

static PyObject *Game_hand_sizes(GameObject *self, PyObject *unused) {
    (void)unused;
    PyObject *out = PyList_New(self->g.n);
    if (!out) return NULL;
    for (int i = 0; i < self->g.n; i++)
        PyList_SET_ITEM(out, i, PyLong_FromLong(self->g.hand_len[i]));
    return out;
}

static PyObject *Game_power(GameObject *self, PyObject *arg) {
    long seat = PyLong_AsLong(arg);
    if (seat == -1 && PyErr_Occurred()) return NULL;
    if (seat < 0 || seat >= self->g.n) {
        PyErr_SetString(PyExc_IndexError, "no such seat");
        return NULL;
    }
    return PyBool_FromLong(self->g.t->flex && self->g.powers[seat]);
}

static PyObject *Game_get_version(GameObject *self, void *c) {
    (void)c;
    return PyLong_FromUnsignedLongLong(self->version);
}

static PyObject *Game_get_changed(GameObject *self, void *c) {
    (void)c;
    return PyBool_FromLong(self->changed);
}

static PyObject *Game_get_top(GameObject *self, void *c) {
    (void)c;
    return PyLong_FromLong(self->g.discard_len ? self->g.discard[self->g.discard_len - 1] : -1);
}

/* holds_match(seat, color, skip_card, skip_restricted): uk_holds_match (RULES.md 1.10) */
static PyObject *Game_holds_match(GameObject *self, PyObject *args) {
    int seat, color, skip, skip_restricted;
    if (!PyArg_ParseTuple(args, "iiip", &seat, &color, &skip, &skip_restricted)) return NULL;
    if (seat < 0 || seat >= self->g.n) {
        PyErr_Format(PyExc_ValueError, "P%d is not a seat", seat);
        return NULL;
    }
    return PyBool_FromLong(uk_holds_match(&self->g, seat, color, skip, skip_restricted));
}

/* playable(seat, cid, strict): uk_playable (RULES.md D58) */
static PyObject *Game_playable(GameObject *self, PyObject *args) {
    int seat, cid, strict;
    if (!PyArg_ParseTuple(args, "iip", &seat, &cid, &strict)) return NULL;
    if (seat < 0 || seat >= self->g.n || cid < 0 || cid >= self->g.t->ncards) {
        PyErr_Format(PyExc_ValueError, "P%d, card id %d: no such seat or card", seat, cid);
        return NULL;
    }
    return PyBool_FromLong(uk_playable(&self->g, seat, cid, strict));
}

static PyObject *Game_get_accept_mask(GameObject *self, void *c) {
    (void)c;
    return PyLong_FromUnsignedLong(uk_accept_mask(&self->g));
}

#define GETI(name)                                                                  \
    static PyObject *Game_get_##name(GameObject *self, void *c) {                   \
        (void)c;                                                                    \
        return PyLong_FromLongLong((long long)self->g.name);                        \
    }
GETI(phase)
GETI(current)
GETI(side)
GETI(color)
GETI(direction)
GETI(dealer)
GETI(drawn)
GETI(pending)
GETI(vulnerable)
GETI(winner)
GETI(round_no)
GETI(round_points)
GETI(n)
GETI(draw_len)
GETI(commands)
GETI(ch_offender)
GETI(reveal_seat)

static PyGetSetDef Game_getset[] = {
    {"phase", (getter)Game_get_phase, NULL, NULL, NULL},
    {"current", (getter)Game_get_current, NULL, NULL, NULL},
    {"side", (getter)Game_get_side, NULL, NULL, NULL},
    {"color", (getter)Game_get_color, NULL, NULL, NULL},
    {"direction", (getter)Game_get_direction, NULL, NULL, NULL},
    {"dealer", (getter)Game_get_dealer, NULL, NULL, NULL},
    {"drawn", (getter)Game_get_drawn, NULL, NULL, NULL},
    {"pending", (getter)Game_get_pending, NULL, NULL, NULL},
    {"vulnerable", (getter)Game_get_vulnerable, NULL, NULL, NULL},
    {"winner", (getter)Game_get_winner, NULL, NULL, NULL},
    {"round_no", (getter)Game_get_round_no, NULL, NULL, NULL},
    {"round_points", (getter)Game_get_round_points, NULL, NULL, NULL},
    {"players", (getter)Game_get_n, NULL, NULL, NULL},
    {"draw_count", (getter)Game_get_draw_len, NULL, NULL, NULL},
    {"commands", (getter)Game_get_commands, NULL, NULL, NULL},
    {"ch_offender", (getter)Game_get_ch_offender, NULL, NULL, NULL},
    {"reveal_seat", (getter)Game_get_reveal_seat, NULL, "seat whose hand is revealed, -1 none", NULL},
    {"accept_mask", (getter)Game_get_accept_mask, NULL, "what the top card accepts", NULL},
    {"changed", (getter)Game_get_changed, NULL, "whether the last accepted command changed it",
     NULL},
    {"version", (getter)Game_get_version, NULL,
     "moves whenever the position may have changed; a command moves it only when accepted "
     "with an effect", NULL},
    {"top", (getter)Game_get_top, NULL, "the top card id of the discard pile, -1 none", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

/* race(...): the hard bot's whole search of one decision (search.c) */
PyObject *uk_py_race(const uk_game *tpl, PyObject *args);
static PyObject *Game_race(GameObject *self, PyObject *args) { return uk_py_race(&self->g, args); }

static PyMethodDef Game_methods[] = {
    {"new_match", (PyCFunction)Game_new_match, METH_NOARGS, "choose the dealer, deal round 1"},
    {"next_round", (PyCFunction)Game_next_round, METH_NOARGS, "deal the next round"},
    {"start", (PyCFunction)Game_start, METH_NOARGS, "turn the first card"},
    {"legal_moves", (PyCFunction)Game_legal_moves, METH_VARARGS, "Game.legal_moves"},
    {"turn_moves", (PyCFunction)Game_turn_moves, METH_NOARGS, "Game.turn_moves"},
    {"hand", (PyCFunction)Game_hand, METH_O, "one seat's hand (card ids)"},
    {"hand_sizes", (PyCFunction)Game_hand_sizes, METH_NOARGS, "every seat's hand size"},
    {"power", (PyCFunction)Game_power, METH_O, "a seat's Flex power (False outside Flex)"},
    {"playable", (PyCFunction)Game_playable, METH_VARARGS,
     "whether a seat could play a card now (RULES.md D58)"},
    {"holds_match", (PyCFunction)Game_holds_match, METH_VARARGS,
     "whether a seat holds a card matching a colour (restricted wild draws)"},
    {"apply_move", (PyCFunction)(void (*)(void))Game_apply_move, METH_VARARGS | METH_KEYWORDS,
     "Game.apply_move; returns 0 or an error code"},
    {"play", (PyCFunction)Game_play, METH_VARARGS, "a PLAY with every field; error code"},
    {"play_multi", (PyCFunction)Game_play_multi, METH_VARARGS,
     "a PLAY of several number cards (multiPlay); error code"},
    {"copy", (PyCFunction)Game_copy, METH_NOARGS, "an independent copy"},
    {"record_events", (PyCFunction)Game_record_events, METH_O, "keep event records (or not)"},
    {"take_events", (PyCFunction)Game_take_events, METH_NOARGS, "event records since last"},
    {"state", (PyCFunction)Game_state, METH_NOARGS, "the raw state fields"},
    {"set_state", (PyCFunction)Game_set_state, METH_VARARGS, "load raw state fields"},
    {"set_deal", (PyCFunction)Game_set_deal, METH_VARARGS, "replace hands, draw pile and seed"},
    {"playout", (PyCFunction)Game_playout, METH_VARARGS, "random playout drawing from rnd()"},
    {"playout_mt", (PyCFunction)Game_playout_mt, METH_VARARGS, "random playout, MT state"},
    {"sensible_move", (PyCFunction)Game_sensible_move, METH_NOARGS, "the sensible policy's move"},
    {"sensible_playout", (PyCFunction)Game_sensible_playout, METH_VARARGS,
     "the round played out by the sensible policy"},
    {"weighted_move", (PyCFunction)Game_weighted_move, METH_O,
     "the weighted sensible policy's move"},
    {"mixed_playout", (PyCFunction)Game_mixed_playout, METH_VARARGS,
     "the round played out by the weighted policy for one seat, sensible for the others"},
    {"race", (PyCFunction)Game_race, METH_VARARGS, "the hard bot's search of one decision"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject GameType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "unokit._core.Game",
    .tp_basicsize = sizeof(GameObject),
    .tp_dealloc = (destructor)Game_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One match on the rules core.",
    .tp_new = Game_new,
    .tp_methods = Game_methods,
    .tp_getset = Game_getset,
};

/* ------------------------------------------------------------------ simulate */

/* simulate(tables, options, n, seed, games, match): game i is a match seeded
 * seed + i whose seats all play the random policy drawing from
 * random.Random(seed + i) (unokit.bots.sim's all-random path), to the end of the
 * match; returns (rounds, turns, blocked, wins, points). */
static PyObject *simulate(PyObject *mod, PyObject *args) {
    (void)mod;
    PyObject *tables, *opts;
    int n, match;
    long long seed, games;
    if (!PyArg_ParseTuple(args, "O!OiLLp", &TablesType, &tables, &opts, &n, &seed, &games, &match))
        return NULL;
    uk_options o;
    if (parse_options(opts, &o)) return NULL;
    const uk_tables *t = ((TablesObject *)tables)->t;
    if (n < 2 || n > UK_MAX_PLAYERS || (long long)o.hand_size * n > t->decklen - 1) {
        PyErr_SetString(PyExc_ValueError, "simulate: bad players or handSize");
        return NULL;
    }
    uk_game *g = malloc(sizeof(uk_game));
    if (!g) return PyErr_NoMemory();
    long long rounds = 0, turns = 0, blocked = 0, wins[UK_MAX_PLAYERS] = {0},
              points[UK_MAX_PLAYERS] = {0};
    int failed = 0;
    Py_BEGIN_ALLOW_THREADS
    for (long long i = 0; i < games && !failed; i++) {
        long long s = seed + i;
        uint64_t mag = s < 0 ? (uint64_t)(-(s + 1)) + 1 : (uint64_t)s;
        uk_mt mt;
        uk_mt_seed(&mt, mag, 0);
        uk_init(g, t, &o, n, (uint64_t)s & 0xFFFFFFFFFFFFULL);
        if (uk_new_match(g)) {
            failed = 1;
            break;
        }
        for (;;) {
            long k = uk_playout(g, mt_rnd, &mt, 1000000);
            if (k < 0) {
                failed = 1;
                break;
            }
            turns += k;
            rounds++;
            if (g->winner < 0) {
                blocked++;
            } else {
                points[g->winner] += g->round_points;
                if (!match) wins[g->winner]++;
            }
            if (g->phase == UK_MATCH_OVER) break;
            if (g->phase != UK_ROUND_OVER || uk_next_round(g)) {
                failed = 1;
                break;
            }
        }
        if (match)
            for (int w = 0; w < g->match_winners_n; w++) wins[g->match_winners[w]]++;
    }
    Py_END_ALLOW_THREADS
    free(g);
    if (failed) {
        PyErr_SetString(PyExc_RuntimeError, "simulate: the core refused its own move");
        return NULL;
    }
    PyObject *w = PyList_New(n), *p = PyList_New(n);
    if (!w || !p) {
        Py_XDECREF(w);
        Py_XDECREF(p);
        return NULL;
    }
    for (int s = 0; s < n; s++) {
        PyList_SET_ITEM(w, s, PyLong_FromLongLong(wins[s]));
        PyList_SET_ITEM(p, s, PyLong_FromLongLong(points[s]));
    }
    return Py_BuildValue("(LLLNN)", rounds, turns, blocked, w, p);
}


/* shuffle(list, seed): the list shuffled in place (Fisher-Yates, uniform),
 * drawing from splitmix64 seeded with seed (an int, its low 64 bits): for the
 * search bots' samplers, where random.shuffle's cost per element dominated. */
static uint64_t splitmix64(uint64_t *x) {
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* uniform in [0, k): Lemire's multiply-and-reject */
static uint64_t below(uint64_t *x, uint64_t k) {
    __uint128_t m = (__uint128_t)splitmix64(x) * k;
    uint64_t lo = (uint64_t)m;
    if (lo < k) {
        uint64_t t = -k % k;
        while (lo < t) {
            m = (__uint128_t)splitmix64(x) * k;
            lo = (uint64_t)m;
        }
    }
    return (uint64_t)(m >> 64);
}

static PyObject *shuffle(PyObject *mod, PyObject *args) {
    (void)mod;
    PyObject *list, *seed_obj;
    if (!PyArg_ParseTuple(args, "O!O", &PyList_Type, &list, &seed_obj)) return NULL;
    uint64_t x = PyLong_AsUnsignedLongLongMask(seed_obj);
    if (x == (uint64_t)-1 && PyErr_Occurred()) return NULL;
    Py_ssize_t n = PyList_GET_SIZE(list);
    PyObject **items = ((PyListObject *)list)->ob_item;
    for (Py_ssize_t i = n - 1; i > 0; i--) {
        Py_ssize_t j = (Py_ssize_t)below(&x, (uint64_t)i + 1);
        PyObject *t = items[i];
        items[i] = items[j];
        items[j] = t;
    }
    Py_RETURN_NONE;
}

/* weighted_duels(tables, options, seed0, count, weights, max_turns): for the
 * 2-player deals of seeds seed0 .. seed0+count-1, each played twice (the
 * weighted policy in seat 0, then in seat 1, the sensible policy in the other):
 * returns (rounds won by the weighted seat, rounds lost, rounds without a
 * winner). For tuning the weights (benchmarks/strength/tune_rollout.py). */
static PyObject *weighted_duels(PyObject *mod, PyObject *args) {
    (void)mod;
    PyObject *tables, *opts, *wo;
    unsigned long long seed0;
    long count, max_turns = 100000;
    if (!PyArg_ParseTuple(args, "O!OKlO|l", &TablesType, &tables, &opts, &seed0, &count, &wo,
                          &max_turns))
        return NULL;
    uk_options o;
    double w[UK_W_COUNT];
    if (parse_options(opts, &o) || parse_weights(wo, w)) return NULL;
    const uk_tables *t = ((TablesObject *)tables)->t;
    uk_game *g = malloc(2 * sizeof *g);
    if (!g) return PyErr_NoMemory();
    long won = 0, lost = 0, none = 0;
    int bad = 0;
    Py_BEGIN_ALLOW_THREADS
    for (long i = 0; i < count && !bad; i++) {
        uk_init(&g[0], t, &o, 2, (seed0 + (unsigned long long)i) & 0xFFFFFFFFFFFFULL);
        g[0].ev = NULL;
        if (uk_new_match(&g[0])) {
            bad = 1;
            break;
        }
        for (int seat = 0; seat < 2; seat++) {
            memcpy(&g[1], &g[0], sizeof *g);
            if (uk_mixed_playout(&g[1], max_turns, seat, w) < 0) {
                bad = 1;
                break;
            }
            if (g[1].winner == seat) won++;
            else if (g[1].winner < 0) none++;
            else lost++;
        }
    }
    Py_END_ALLOW_THREADS
    free(g);
    if (bad) {
        PyErr_SetString(PyExc_RuntimeError, "the core refused a deal or its own move");
        return NULL;
    }
    return Py_BuildValue("(lll)", won, lost, none);
}

/* new_slots(cls, members, values): an instance of ``cls`` whose slots ``members``
 * (its member descriptors, cls.__dict__[name]) hold ``values``, without calling
 * __init__: how unokit.engine.observation builds its frozen dataclasses (a
 * frozen dataclass's __init__ sets each field through object.__setattr__, which
 * costs more than the whole rest of an observation). Every member must be an
 * object slot of ``cls`` (or a base); the caller passes all of them. */
static PyObject *new_slots(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    (void)mod;
    if (nargs != 3 || !PyType_Check(args[0]) || !PyTuple_Check(args[1]) ||
        !PyTuple_Check(args[2])) {
        PyErr_SetString(PyExc_TypeError, "new_slots(cls, members: tuple, values: tuple)");
        return NULL;
    }
    PyTypeObject *cls = (PyTypeObject *)args[0];
    PyObject *members = args[1], *values = args[2];
    Py_ssize_t n = PyTuple_GET_SIZE(members);
    if (PyTuple_GET_SIZE(values) != n) {
        PyErr_Format(PyExc_ValueError, "new_slots: %zd members, %zd values", n,
                     PyTuple_GET_SIZE(values));
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *d = PyTuple_GET_ITEM(members, i);
        if (!PyObject_TypeCheck(d, &PyMemberDescr_Type) ||
            ((PyMemberDescrObject *)d)->d_member->type != T_OBJECT_EX ||
            !PyType_IsSubtype(cls, PyDescr_TYPE(d))) {
            PyErr_SetString(PyExc_TypeError, "new_slots: not an object slot of the class");
            return NULL;
        }
    }
    PyObject *obj = cls->tp_alloc(cls, 0);
    if (!obj) return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyMemberDef *m = ((PyMemberDescrObject *)PyTuple_GET_ITEM(members, i))->d_member;
        PyObject **addr = (PyObject **)((char *)obj + m->offset);
        PyObject *v = PyTuple_GET_ITEM(values, i);
        Py_INCREF(v);
        Py_XSETREF(*addr, v);
    }
    return obj;
}

static PyMethodDef module_methods[] = {
    {"new_slots", (PyCFunction)(void (*)(void))new_slots, METH_FASTCALL,
     "an instance of a slots class with its slots set, without __init__"},
    {"simulate", simulate, METH_VARARGS, "random-bot games on the core (unokit.bots.sim)"},
    {"shuffle", shuffle, METH_VARARGS, "shuffle a list in place from a 64-bit seed"},
    {"weighted_duels", weighted_duels, METH_VARARGS,
     "the weighted policy against the sensible one on 2-player duplicate deals"},
    {NULL, NULL, 0, NULL},
};

/* for batch.c (unokit.envs' batched environments) */
uk_game *uk_py_game(PyObject *obj) {
    if (!PyObject_TypeCheck(obj, &GameType)) {
        PyErr_SetString(PyExc_TypeError, "expected a unokit._core.Game");
        return NULL;
    }
    ((GameObject *)obj)->version++; /* the lender may write it */
    return &((GameObject *)obj)->g;
}

static struct PyModuleDef moduledef = {
    PyModuleDef_HEAD_INIT, "unokit._core", "The rules core of unokit, in C (see docs/core.md).",
    -1, module_methods, NULL, NULL, NULL, NULL,
};

/* W_DEFAULTS: the weights with which uk_weighted_move is uk_sensible_move */
static int add_weight_defaults(PyObject *m) {
    PyObject *t = PyTuple_New(UK_W_COUNT);
    if (!t) return -1;
    for (int i = 0; i < UK_W_COUNT; i++) PyTuple_SET_ITEM(t, i, PyFloat_FromDouble(uk_w_defaults[i]));
    if (PyModule_AddObject(m, "W_DEFAULTS", t) < 0) {
        Py_DECREF(t);
        return -1;
    }
    return 0;
}

PyMODINIT_FUNC PyInit__core(void) {
    uk_mt warm; /* computes the seeding's constant start once, before any thread */
    uk_mt_seed(&warm, 0, 0);
    if (PyType_Ready(&TablesType) < 0 || PyType_Ready(&GameType) < 0) return NULL;
    PyObject *m = PyModule_Create(&moduledef);
    if (!m) return NULL;
    Py_INCREF(&TablesType);
    Py_INCREF(&GameType);
    if (PyModule_AddObject(m, "Tables", (PyObject *)&TablesType) < 0 ||
        PyModule_AddObject(m, "Game", (PyObject *)&GameType) < 0 ||
        PyModule_AddIntConstant(m, "ABI", UK_ABI) < 0 ||
        PyModule_AddIntConstant(m, "MAX_PLAYERS", UK_MAX_PLAYERS) < 0 ||
        PyModule_AddIntConstant(m, "MAX_DECK", UK_MAX_DECK) < 0 ||
        PyModule_AddIntConstant(m, "MAX_MOVES", UK_MAX_MOVES) < 0 ||
        PyModule_AddIntConstant(m, "ERR_COUNT", UK_ERR_COUNT) < 0 || uk_batch_register(m) < 0 ||
        add_weight_defaults(m) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
