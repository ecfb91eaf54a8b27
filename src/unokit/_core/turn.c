/* A turn: matching and playability (RULES.md 1.5, D58), drawing with the lazy
 * reshuffle (1.6, 1.8), pass, colour choice, legality of a play, the legal
 * move list (Game.legal_moves order) and the move dispatch (Game.apply_move). */
#include <string.h>

#include "core.h"

int uk_next(const uk_game *g, int seat, int steps) {
    if (g->o.mercy && uk_alive(g) < g->n) { /* mercy (6.12): out seats are passed over */
        int n = g->n, d = steps < 0 ? -g->direction : g->direction, k = steps < 0 ? -steps : steps;
        int x = g->pos[seat];
        if (!uk_alive(g)) return seat;
        while (k > 0) {
            x = ((x + d) % n + n) % n;
            if (!uk_out(g, g->order[x])) k--;
        }
        return g->order[x];
    }
    int x = (g->pos[seat] + steps * g->direction) % g->n;
    return g->order[x < 0 ? x + g->n : x];
}

int uk_left(const uk_game *g, int seat, int steps) {
    int x = (g->pos[seat] + steps) % g->n;
    return g->order[x < 0 ? x + g->n : x];
}

int uk_partner(const uk_game *g, int seat) { return uk_left(g, seat, g->n / 2); }

static int side_color_ok(int side, int color) {
    return side ? (color >= 4 && color <= 7) : (color >= 0 && color <= 3);
}

uint32_t uk_accept_mask(const uk_game *g) {
    uint32_t col = g->color >= 0 ? (1u << g->color) : 0u;
    if (g->wild_top) return col | UK_WILD_BIT;
    int top = g->discard[g->discard_len - 1];
    return col | g->t->topkey[g->side][top] | UK_WILD_BIT;
}

/* Take the top card of the draw pile, reshuffling lazily; -1: nothing to draw. */
int uk_draw_one(uk_game *g) {
    if (!g->draw_len) {
        if (g->discard_len <= 1) return -1;
        int top = g->discard[g->discard_len - 1];
        memcpy(g->draw, g->discard, sizeof(int16_t) * (size_t)(g->discard_len - 1));
        g->draw_len = g->discard_len - 1;
        g->discard[0] = (int16_t)top;
        g->discard_len = 1;
        uk_shuffle(g, g->draw, g->draw_len);
        uk_emit1(g, UK_EV_RESHUFFLED, g->draw_len);
    }
    return g->draw[--g->draw_len];
}

/* seat draws count cards (fewer if the piles run out); returns how many */
int uk_give_for(uk_game *g, int seat, int count, int reason) {
    int got = 0, room = uk_room(g, seat);
    if (uk_out(g, seat)) return 0; /* mercy (6.12): an out seat draws nothing */
    if (count > room) count = room; /* handLimit (6.11): the rest stays in the pile */
    for (int i = 0; i < count; i++) {
        int c = uk_draw_one(g);
        if (c < 0) break;
        g->hands[seat][g->hand_len[seat]++] = (int16_t)c;
        got++;
    }
    if (got) {
        if (g->uno[seat]) uk_uno_off(g, seat);
        uk_emit_drew(g, seat, reason, g->hands[seat] + g->hand_len[seat] - got, got);
        uk_mercy_check(g, seat);
    }
    return got;
}

int uk_give(uk_game *g, int seat, int count) { return uk_give_for(g, seat, count, UK_R_PENALTY); }

void uk_turn_action(uk_game *g) {
    int v = g->vulnerable;
    if (v >= 0) {
        g->uno[v] = UK_UNO_NONE;
        g->vulnerable = -1;
    }
    g->reveal_seat = g->reveal_off = -1;
    g->reveal_len = 0;
}

int uk_turn_ended(uk_game *g, int drew) {
    if (drew) {
        g->empty_draws = 0;
        return 0;
    }
    g->empty_draws++;
    if (g->empty_draws >= uk_alive(g)) {
        uk_end_blocked(g);
        return 1;
    }
    return 0;
}

/* ---- playability (D58), written once */

static int side_playable(const uk_game *g, int seat, int cid, int flex, uint32_t acc, int strict) {
    const uk_tables *t = g->t;
    if (flex) {
        if (!(t->flex && g->powers[seat] && (t->flexmask[cid] & acc))) return 0;
    } else if (!(t->mask[g->side][cid] & acc)) {
        return 0;
    }
    if (g->o.finish && g->hand_len[seat] == 1 && uk_finish_forbidden(g, cid, flex)) return 0;
    if ((strict || g->o.no_bluff) && uk_restricted_side(g, cid, flex))
        return uk_restricted_legal(g, seat, cid);
    return 1;
}

int uk_playable(const uk_game *g, int seat, int cid, int strict) {
    uint32_t acc = uk_accept_mask(g);
    return side_playable(g, seat, cid, 0, acc, strict) || side_playable(g, seat, cid, 1, acc, strict);
}

/* ---- turn commands */

/* Whether seat may make a decision of one of phases (a bit set) now: UK_OK or why not */
int uk_check_turn(const uk_game *g, int seat, int phases) {
    int ph = g->phase;
    if (ph == UK_ROUND_OVER) return UK_ERR_ROUND_OVER;
    if (ph == UK_MATCH_OVER) return UK_ERR_MATCH_OVER;
    if (ph == UK_DEAL) return UK_ERR_NOT_STARTED;
    if (!(phases & (1 << ph))) return UK_ERR_PHASE;
    if (seat != g->current) return UK_ERR_NOT_YOUR_TURN;
    return UK_OK;
}

int uk_draw(uk_game *g, int seat) {
    int err = uk_check_turn(g, seat, 1 << UK_TURN);
    if (err) return err;
    if (g->pending) {
        uk_turn_action(g);
        int total = g->pending;
        g->pending = g->stack_class = g->stack_amount = 0;
        uk_clear_challenge(g);
        if (uk_turn_ended(g, uk_give_for(g, seat, total, UK_R_STACK))) return UK_OK;
        uk_emit1(g, UK_EV_SKIPPED, seat);
        g->current = uk_next(g, seat, 1);
        return UK_OK;
    }
    if (g->o.forced_play && uk_has_forced_play(g, seat)) return UK_ERR_FORCED;
    uk_turn_action(g);
    g->uno_pre = -1;
    /* handLimit (6.11): a full hand draws nothing, as from an empty pile */
    int c = uk_room(g, seat) ? uk_draw_one(g) : -1;
    if (c < 0) {
        uk_emit_drew(g, seat, UK_R_DRAW, NULL, 0);
        if (!uk_turn_ended(g, 0)) g->current = uk_next(g, seat, 1);
        return UK_OK;
    }
    g->empty_draws = 0;
    int start = g->hand_len[seat];
    g->hands[seat][g->hand_len[seat]++] = (int16_t)c;
    if (g->o.draw_until_playable) {
        while (!uk_playable(g, seat, c, 0) && uk_room(g, seat)) {
            int d = uk_draw_one(g);
            if (d < 0) break;
            g->hands[seat][g->hand_len[seat]++] = (int16_t)d;
            c = d;
        }
    }
    if (g->uno[seat]) uk_uno_off(g, seat);
    uk_emit_drew(g, seat, UK_R_DRAW, g->hands[seat] + start, g->hand_len[seat] - start);
    uk_mercy_check(g, seat);
    if (uk_out(g, seat)) {
        g->current = uk_next(g, seat, 1);
    } else if (uk_playable(g, seat, c, 0)) {
        g->phase = UK_DRAWN;
        g->drawn = c;
    } else {
        g->current = uk_next(g, seat, 1);
    }
    return UK_OK;
}

int uk_pass(uk_game *g, int seat) {
    int err = uk_check_turn(g, seat, 1 << UK_DRAWN);
    if (err == UK_ERR_PHASE && g->phase == UK_TURN && seat == g->current) return UK_ERR_NOT_DRAWN;
    if (err) return err;
    if (uk_must_play_drawn(g, seat))
        return g->o.forced_play ? UK_ERR_FORCED_DRAWN : UK_ERR_MUST_PLAY_DRAWN;
    uk_turn_action(g);
    g->uno_pre = -1;
    g->drawn = -1;
    g->phase = UK_TURN;
    uk_emit1(g, UK_EV_PASSED, seat);
    g->current = uk_next(g, seat, 1);
    return UK_OK;
}

int uk_choose_color(uk_game *g, int seat, int color) {
    int err = uk_check_turn(g, seat, 1 << UK_COLOR);
    if (err) return err;
    if (!side_color_ok(g->side, color)) return UK_ERR_BAD_COLOR;
    g->color = color;
    g->phase = UK_TURN;
    g->current = g->color_next;
    g->color_reason = UK_REASON_NONE;
    g->color_next = -1;
    if (g->ev) {
        int64_t p[2] = {seat, color};
        uk_emit(g, UK_EV_COLOR_CHOSEN, 2, p);
    }
    return UK_OK;
}

static int holds(const uk_game *g, int seat, int cid) {
    const int16_t *h = g->hands[seat];
    for (int i = 0, len = g->hand_len[seat]; i < len; i++)
        if (h[i] == cid) return 1;
    return 0;
}

/* Why a play is illegal (Game._play_error); *misplay: a card that does not match. */
static int play_error(const uk_game *g, int seat, int cid, int color, int flex, int target,
                      int swap, int flip_color, int *misplay) {
    const uk_tables *t = g->t;
    const uk_options *o = &g->o;
    int n = g->n, side = g->side, ph = g->phase, jump = 0;
    *misplay = 0;
    if ((ph == UK_TURN || ph == UK_DRAWN || ph == UK_COLOR || ph == UK_CHALLENGE) &&
        seat != g->current && o->jump_in) {
        if (ph != UK_TURN || g->pending) return UK_ERR_JUMP_NOW;
        int ident = t->ident[side][cid];
        if (ident < 0 || ident != uk_top_ident(g) || flex) return UK_ERR_JUMP_CARD;
        jump = 1;
    } else {
        int err = uk_check_turn(g, seat, (1 << UK_TURN) | (1 << UK_DRAWN));
        if (err) return err;
    }
    if (!holds(g, seat, cid)) return UK_ERR_NOT_HELD;
    if (ph == UK_DRAWN && !jump && cid != g->drawn) return UK_ERR_ONLY_DRAWN;
    int kind = t->kind[side][cid];
    int wild = (t->mask[side][cid] & UK_WILD_BIT) != 0;
    int last = g->hand_len[seat] == 1;
    if (flex) {
        if (!t->flex) return UK_ERR_NO_FLEX;
        if (!t->flexmask[cid]) return UK_ERR_NO_FLEX_SIDE;
        if (!g->powers[seat]) return UK_ERR_POWER_RED;
    }
    if (g->pending) {
        int sc = t->stack_class[side][cid];
        if (uk_deflects(g, cid, flex)) {
            /* deflect (6.7): a Reverse / Skip of the current colour or on its own
             * symbol; any other card is refused, never a misplay */
            if (!(t->mask[side][cid] & uk_accept_mask(g))) return UK_ERR_STACK;
        } else {
            if (flex || !sc || !o->stacking) return UK_ERR_STACK;
            if (o->stacking == 1 && sc != g->stack_class) return UK_ERR_STACK_SAME;
            if (o->stacking == 2 && t->draw_amount[side][cid] < g->stack_amount)
                return UK_ERR_STACK_LESS;
        }
    }
    if (wild) {
        if (color < 0) {
            if (!last || kind == UK_WDC) return UK_ERR_NEED_COLOR;
        } else if (!side_color_ok(side, color)) {
            return UK_ERR_BAD_COLOR;
        }
    } else if (color >= 0) {
        return UK_ERR_NOT_WILD;
    }
    if (flex && (kind == UK_WTD || kind == UK_FW4)) {
        if (target < 0) return UK_ERR_NEED_TARGET;
        if (target >= n) return UK_ERR_BAD_TARGET;
        if (target == seat) return UK_ERR_TARGET_SELF;
        if (uk_out(g, target)) return UK_ERR_TARGET_OUT;
    } else if (target >= 0) {
        return UK_ERR_NO_TARGET;
    }
    int seven = o->seven_zero && kind == UK_NUMBER && t->number[side][cid] == 7;
    if (seven && !last) {
        if (swap < 0) return UK_ERR_NEED_SWAP;
        if (swap >= n || swap == seat || uk_out(g, swap)) return UK_ERR_BAD_SWAP;
    } else if (swap >= 0 && !seven) {
        return UK_ERR_NO_SWAP;
    }
    if (flip_color >= 0) {
        if (kind != UK_FLIP) return UK_ERR_NOT_FLIP;
        if (!side_color_ok(1 - side, flip_color)) return UK_ERR_FLIP_COLOR;
    }
    /* a card that does not match, after the command's form (D65) */
    uint32_t acc = uk_accept_mask(g);
    uint32_t ok = flex ? (t->flexmask[cid] & acc) : (t->mask[side][cid] & acc);
    if (!ok && !jump) {
        *misplay = 1;
        return UK_ERR_NO_MATCH;
    }
    if (o->no_bluff && uk_restricted_side(g, cid, flex) && g->color >= 0 &&
        !uk_restricted_legal(g, seat, cid))
        return UK_ERR_NO_BLUFF;
    if (o->finish && last && uk_finish_forbidden(g, cid, flex)) return UK_ERR_FINISH;
    return UK_OK;
}

static void misplay(uk_game *g, int seat, int cid) {
    uk_turn_action(g);
    if (g->ev) {
        int64_t p[2] = {seat, cid};
        uk_emit(g, UK_EV_MISPLAYED, 2, p);
    }
    int got = uk_give_for(g, seat, 2, UK_R_MISPLAY);
    g->uno_pre = -1;
    if (!uk_turn_ended(g, got)) g->current = uk_next(g, seat, 1);
}

static int play(uk_game *g, int seat, int cid, int color, int flex, int target, int swap, int uno,
                int flip_color);

int uk_play(uk_game *g, int seat, int cid, int color, int flex, int target, int swap, int uno,
            int flip_color) {
    int err = play(g, seat, cid, color, flex, target, swap, uno, flip_color);
    if (!err) uk_mercy_settle(g);
    return err;
}

static int play(uk_game *g, int seat, int cid, int color, int flex, int target, int swap, int uno,
                int flip_color) {
    if (cid < 0 || cid >= g->t->ncards) return UK_ERR_CARD;
    int mis;
    int err = play_error(g, seat, cid, color, flex, target, swap, flip_color, &mis);
    if (err) {
        if (mis && g->o.misplay_penalty && g->phase == UK_TURN) {
            misplay(g, seat, cid);
            return UK_OK;
        }
        return err;
    }
    uk_do_play(g, seat, cid, color, flex, target, swap, uno, flip_color);
    return UK_OK;
}

/* ---- legal moves (Game.legal_moves / turn_moves / _play_codes), same order */

/* the distinct cards of a hand, ascending (sorted(set(hand))) */
static int distinct_sorted(const uk_game *g, int seat, int16_t *out) {
    /* a bitmap of the card ids held, read back in order: the move generation
     * of every playout step starts here (only the words up to the highest id
     * held are cleared and read) */
    uint64_t bits[UK_MAX_CARDS / 64];
    const int16_t *h = g->hands[seat];
    int len = g->hand_len[seat], top = 0;
    if (len == 0) return 0;
    for (int i = 0; i < len; i++)
        if (h[i] > top) top = h[i];
    int words = (top >> 6) + 1;
    memset(bits, 0, sizeof(uint64_t) * (size_t)words);
    for (int i = 0; i < len; i++) bits[h[i] >> 6] |= 1ull << (h[i] & 63);
    int m = 0;
    for (int w = 0; w < words; w++)
        for (uint64_t b = bits[w]; b; b &= b - 1) out[m++] = (int16_t)((w << 6) + __builtin_ctzll(b));
    return m;
}

int uk_play_codes(const uk_game *g, int seat, int c, int flex, int last, int32_t *out) {
    const uk_tables *t = g->t;
    int side = g->side, kind = t->kind[side][c], n = g->n, k = 0;
    int32_t base = (c << 4) | (flex ? UK_FLEX_BIT : 0);
    if (last && g->o.finish && uk_finish_forbidden(g, c, flex)) return 0;
    if (t->mask[side][c] & UK_WILD_BIT) {
        if (g->o.no_bluff && uk_restricted_side(g, c, flex) && !uk_restricted_legal(g, seat, c))
            return 0;
        int c0 = side ? 4 : 0;
        if (flex && (kind == UK_WTD || kind == UK_FW4)) {
            for (int col = c0; col < c0 + 4; col++)
                for (int tg = 0; tg < n; tg++)
                    if (tg != seat && !uk_out(g, tg))
                        out[k++] = base | ((col + 1) << 16) | ((tg + 1) << 21);
            return k;
        }
        for (int col = c0; col < c0 + 4; col++) out[k++] = base | ((col + 1) << 16);
        return k;
    }
    if (g->o.seven_zero && kind == UK_NUMBER && t->number[side][c] == 7 && !last) {
        for (int tg = 0; tg < n; tg++)
            if (tg != seat && !uk_out(g, tg)) out[k++] = base | ((tg + 1) << 25);
        return k;
    }
    out[0] = base;
    return 1;
}

/* The plays of card c on a plain turn, in turn_moves order (regular side, then
 * flex side); *playable is set as Game.turn_moves counts it (a flex side
 * counts even without codes). acc: the accept mask; flex: the Power Card is green. */
int uk_card_plays(const uk_game *g, int p, int c, int last, uint32_t acc, int flex,
                  int *playable, int32_t *out) {
    const uk_tables *t = g->t;
    int k = 0;
    uint32_t mk = t->mask[g->side][c];
    if (mk & acc) {
        if (!g->o.seven_zero && !(mk & UK_WILD_BIT) && !(last && g->o.finish)) {
            out[k++] = c << 4;
            *playable = 1;
        } else {
            int got = uk_play_codes(g, p, c, 0, last, out + k);
            if (got) *playable = 1;
            k += got;
        }
    }
    if (flex && (t->flexmask[c] & acc)) {
        k += uk_play_codes(g, p, c, 1, last, out + k);
        *playable = 1;
    }
    return k;
}

int uk_turn_plays(const uk_game *g, int32_t *out, int16_t *cards, int *start, int *playable) {
    int p = g->current, k = 0, segs = 0;
    int16_t hand[UK_MAX_DECK];
    int m = distinct_sorted(g, p, hand);
    int last = g->hand_len[p] == 1;
    uint32_t acc = uk_accept_mask(g);
    int flex = g->t->flex && g->powers[p];
    *playable = 0;
    for (int i = 0; i < m; i++) {
        int got = uk_card_plays(g, p, hand[i], last, acc, flex, playable, out + k);
        if (got) {
            cards[segs] = hand[i];
            start[segs++] = k;
            k += got;
        }
    }
    start[segs] = k;
    return segs;
}

int uk_turn_moves(const uk_game *g, int32_t *out) {
    const uk_tables *t = g->t;
    int ph = g->phase, p = g->current, side = g->side, k = 0;
    if (ph == UK_TURN) {
        if (g->pending) {
            int16_t cards[UK_MAX_DECK];
            int m = distinct_sorted(g, p, cards);
            int last = g->hand_len[p] == 1;
            int mode = g->o.stacking;
            uint32_t acc = uk_accept_mask(g);
            for (int i = 0; i < m; i++) {
                int c = cards[i], sc = t->stack_class[side][c];
                if (uk_deflects(g, c, 0)) { /* deflect (6.7) */
                    if (t->mask[side][c] & acc) k += uk_play_codes(g, p, c, 0, last, out + k);
                    continue;
                }
                /* a stacked card is played on the top card as any card (after
                 * a deflection the top is a Reverse or a Skip) */
                if (!sc || !mode || !(t->mask[side][c] & acc)) continue;
                if (mode == 1 && sc != g->stack_class) continue;
                if (mode == 2 && t->draw_amount[side][c] < g->stack_amount) continue;
                k += uk_play_codes(g, p, c, 0, last, out + k);
            }
            out[k++] = UK_OP_DRAW;
            if (g->ch_offender >= 0) out[k++] = UK_OP_CHALLENGE;
            return k;
        }
        int playable;
        int16_t segcards[UK_MAX_DECK];
        int start[UK_MAX_DECK + 1];
        int segs = uk_turn_plays(g, out, segcards, start, &playable);
        k = start[segs];
        k += uk_multi_moves(g, out + k); /* multiPlay (6.9) */
        if (!(playable && g->o.forced_play && uk_has_forced_play(g, p))) out[k++] = UK_OP_DRAW;
        return k;
    }
    if (ph == UK_DRAWN) {
        int c = g->drawn, last = g->hand_len[p] == 1;
        uint32_t acc = uk_accept_mask(g);
        if (t->mask[side][c] & acc) k += uk_play_codes(g, p, c, 0, last, out + k);
        if (t->flex && g->powers[p] && (t->flexmask[c] & acc))
            k += uk_play_codes(g, p, c, 1, last, out + k);
        if (!uk_must_play_drawn(g, p)) out[k++] = UK_OP_PASS;
        return k;
    }
    if (ph == UK_COLOR) {
        int c0 = side ? 4 : 0;
        for (int col = c0; col < c0 + 4; col++) out[k++] = UK_OP_COLOR | ((col + 1) << 16);
        return k;
    }
    if (ph == UK_CHALLENGE) {
        out[k++] = UK_OP_ACCEPT;
        out[k++] = UK_OP_CHALLENGE;
    }
    return k;
}

int uk_legal_moves(const uk_game *g, int seat, int32_t *out) {
    int ph = g->phase, k = 0;
    if (ph == UK_ROUND_OVER || ph == UK_MATCH_OVER || ph == UK_DEAL) return 0;
    int s = seat < 0 ? g->current : seat;
    if (uk_out(g, s)) return 0; /* mercy (6.12): an out seat has no command */
    if (s == g->current) k = uk_turn_moves(g, out);
    if (s != g->current && g->o.jump_in && ph == UK_TURN && !g->pending)
        k += uk_jump_moves(g, s, out + k);
    int size = g->hand_len[s];
    if ((size == 1 && g->uno[s] != UK_UNO_SAFE) ||
        (size == 2 && s == g->current && (ph == UK_TURN || ph == UK_DRAWN) && g->uno_pre != s))
        out[k++] = UK_OP_UNO;
    int v = g->vulnerable;
    if (v >= 0 && v != s) out[k++] = UK_OP_CATCH | ((v + 1) << 21);
    return k;
}

int uk_apply_move(uk_game *g, int32_t move, int seat, int uno) {
    int effect;
    return uk_apply_move_fx(g, move, seat, uno, &effect);
}

/* uk_apply_move; *effect: whether an accepted command changed the position
 * (only an UNO call or a catch can be accepted without effect, D65) */
int uk_apply_move_fx(uk_game *g, int32_t move, int seat, int uno, int *effect) {
    int s = seat < 0 ? g->current : seat;
    int op = move & 15;
    *effect = 1;
    if (op == UK_OP_NEXT) {
        int err = uk_next_round(g);
        if (!err) g->commands++;
        return err;
    }
    if (s >= g->n) return UK_ERR_SEAT;
    int err;
    switch (op) {
    case UK_OP_PLAY:
        err = uk_play(g, s, (move >> 4) & 0xFFF, ((move >> 16) & 15) - 1, (move & UK_FLEX_BIT) != 0,
                      ((move >> 21) & 15) - 1, ((move >> 25) & 15) - 1, uno, -1);
        break;
    case UK_OP_DRAW: err = uk_draw(g, s); break;
    case UK_OP_PASS: err = uk_pass(g, s); break;
    case UK_OP_COLOR: err = uk_choose_color(g, s, ((move >> 16) & 15) - 1); break;
    case UK_OP_ACCEPT: err = uk_accept(g, s); break;
    case UK_OP_CHALLENGE: err = uk_challenge(g, s); break;
    case UK_OP_UNO: err = uk_call_uno(g, s, effect); break;
    case UK_OP_CATCH: err = uk_catch(g, s, ((move >> 21) & 15) - 1, effect); break;
    case UK_OP_MULTI: {
        int16_t cids[8];
        int swap, k = uk_multi_decode(g, s, move, cids, &swap);
        if (k < 0) return UK_ERR_MOVE;
        err = uk_play_multi(g, s, cids, k, swap, uno);
        break;
    }
    default: return UK_ERR_MOVE;
    }
    if (!err) {
        uk_mercy_settle(g);
        g->commands++;
    }
    return err;
}

/* ---- multiPlay (6.9): several number cards of one number in one PLAY */

/* The hand positions of seat's other number cards with the number of card
 * first, in hand order, without the first copy of first (at most 7): what the
 * mask of a UK_OP_MULTI code names. */
int uk_multi_others(const uk_game *g, int seat, int first, int *pos) {
    const uk_tables *t = g->t;
    int side = g->side, num = t->number[side][first], m = 0, skipped = 0;
    const int16_t *h = g->hands[seat];
    for (int i = 0, len = g->hand_len[seat]; i < len && m < 7; i++) {
        int c = h[i];
        if (c == first && !skipped) {
            skipped = 1;
            continue;
        }
        if (t->kind[side][c] == UK_NUMBER && t->number[side][c] == num) pos[m++] = i;
    }
    return m;
}

/* the cards of a UK_OP_MULTI code (first, then the masked ones in hand order): k, or -1 */
int uk_multi_decode(const uk_game *g, int seat, int32_t move, int16_t *cids, int *swap) {
    int first = (move >> 4) & 0xFFF, mask = (move >> 16) & 0x7F, pos[7];
    if (first >= g->t->ncards || (move & (3 << 23)) || !mask) return -1;
    int m = uk_multi_others(g, seat, first, pos), k = 0;
    if (mask >> m) return -1;
    cids[k++] = (int16_t)first;
    for (int j = 0; j < m; j++)
        if (mask & (1 << j)) cids[k++] = g->hands[seat][pos[j]];
    *swap = ((move >> 25) & 15) - 1;
    return k;
}

static int multi_error(const uk_game *g, int seat, const int16_t *cids, int k, int swap,
                       int *misplay) {
    const uk_tables *t = g->t;
    int side = g->side;
    *misplay = 0;
    if (!g->o.multi) return UK_ERR_MULTI;
    int err = uk_check_turn(g, seat, 1 << UK_TURN);
    if (err) return err;
    if (k < 2) return UK_ERR_FORM;
    for (int i = 0; i < k; i++)
        if (cids[i] < 0 || cids[i] >= t->ncards) return UK_ERR_CARD;
    if (k > g->hand_len[seat]) return UK_ERR_NOT_HELD;
    for (int i = 0; i < k; i++) { /* held, as a multiset */
        int need = 0, have = 0;
        for (int j = 0; j < k; j++) need += cids[j] == cids[i];
        for (int j = 0; j < g->hand_len[seat]; j++) have += g->hands[seat][j] == cids[i];
        if (have < need) return UK_ERR_NOT_HELD;
    }
    if (g->pending) return UK_ERR_STACK;
    int num = t->number[side][cids[0]];
    for (int i = 0; i < k; i++)
        if (t->kind[side][cids[i]] != UK_NUMBER || t->number[side][cids[i]] != num)
            return UK_ERR_MULTI;
    int seven = g->o.seven_zero && num == 7 && k < g->hand_len[seat];
    if (seven) {
        if (swap < 0) return UK_ERR_NEED_SWAP;
        if (swap >= g->n || swap == seat || uk_out(g, swap)) return UK_ERR_BAD_SWAP;
    } else if (swap >= 0) {
        return UK_ERR_NO_SWAP;
    }
    if (!(t->mask[side][cids[0]] & uk_accept_mask(g))) {
        *misplay = 1;
        return UK_ERR_NO_MATCH;
    }
    return UK_OK;
}

int uk_play_multi(uk_game *g, int seat, const int16_t *cids, int k, int swap, int uno) {
    if (seat < 0 || seat >= g->n) return UK_ERR_SEAT;
    if (k > 8 || k < 0) return k > 8 ? UK_ERR_NOT_HELD : UK_ERR_FORM;
    int mis, err = multi_error(g, seat, cids, k, swap, &mis);
    if (err) {
        if (mis && g->o.misplay_penalty) {
            misplay(g, seat, cids[0]); /* the first card's misplay */
            uk_mercy_settle(g);
            return UK_OK;
        }
        return err;
    }
    if (g->vulnerable >= 0 || g->reveal_seat >= 0) uk_turn_action(g);
    for (int i = 0; i < k - 1; i++) { /* all but the last go down in order */
        int16_t *h = g->hands[seat];
        int len = g->hand_len[seat];
        for (int j = 0; j < len; j++)
            if (h[j] == cids[i]) {
                memmove(h + j, h + j + 1, sizeof(int16_t) * (size_t)(len - j - 1));
                g->hand_len[seat] = (int16_t)(len - 1);
                break;
            }
        g->discard[g->discard_len++] = cids[i];
        if (g->ev) {
            int64_t p[6] = {seat, cids[i], -1, 0, -1, 0};
            uk_emit(g, UK_EV_PLAYED, 6, p);
        }
    }
    /* the last card is played as one card: UNO, colour, the number's effect once */
    uk_do_play(g, seat, cids[k - 1], -1, 0, -1, swap, uno, -1);
    uk_mercy_settle(g);
    return UK_OK;
}

int uk_multi_moves(const uk_game *g, int32_t *out) {
    const uk_tables *t = g->t;
    if (!g->o.multi || g->pending || g->phase != UK_TURN) return 0;
    int p = g->current, side = g->side, k = 0, len = g->hand_len[p];
    int16_t cards[UK_MAX_DECK];
    int m = distinct_sorted(g, p, cards);
    uint32_t acc = uk_accept_mask(g);
    const int16_t *h = g->hands[p];
    for (int i = 0; i < m; i++) {
        int c = cards[i], pos[7];
        if (t->kind[side][c] != UK_NUMBER || !(t->mask[side][c] & acc)) continue;
        int o = uk_multi_others(g, p, c, pos);
        for (int mask = 1; mask < (1 << o); mask++) {
            int ok = 1, count = 1;
            /* one code per set of cards: of identical cards, the first ones in hand order */
            for (int j = 0; j < o && ok; j++) {
                if (!(mask & (1 << j))) continue;
                count++;
                for (int e = 0; e < j; e++)
                    if (h[pos[e]] == h[pos[j]] && !(mask & (1 << e))) ok = 0;
            }
            if (!ok) continue;
            int32_t code = UK_OP_MULTI | (c << 4) | (mask << 16);
            if (g->o.seven_zero && t->number[side][c] == 7 && count < len) {
                for (int tg = 0; tg < g->n; tg++)
                    if (tg != p && !uk_out(g, tg) && k < UK_MULTI_CAP)
                        out[k++] = code | ((tg + 1) << 25);
            } else if (k < UK_MULTI_CAP) {
                out[k++] = code;
            }
        }
    }
    return k;
}
