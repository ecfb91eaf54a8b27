/* CPython's Mersenne Twister (Modules/_randommodule.c), so that the core
 * shuffles exactly like random.Random: seed(int) = init_by_array over the
 * integer's 32-bit words (little end first), random() = 53-bit float from two
 * outputs, randrange(k) = getrandbits(k.bit_length()) until below k. */
#include <string.h>

#include "core.h"

#define N 624
#define M 397
#define MATRIX_A 0x9908b0dfU
#define UPPER_MASK 0x80000000U
#define LOWER_MASK 0x7fffffffU

static void init_genrand(uint32_t *m, uint32_t s) {
    m[0] = s;
    for (int i = 1; i < N; i++) m[i] = 1812433253U * (m[i - 1] ^ (m[i - 1] >> 30)) + (uint32_t)i;
}

/* init_genrand(19650218), the start of every seeding: computed once */
static uint32_t base_state[N];
static int base_ready = 0;

static void init_by_array(uk_mt *mt, const uint32_t *key, int len) {
    uint32_t *m = mt->state;
    if (!base_ready) {
        init_genrand(base_state, 19650218U);
        base_ready = 1;
    }
    memcpy(m, base_state, sizeof base_state);
    int i = 1, j = 0;
    for (int k = (N > len ? N : len); k; k--) {
        m[i] = (m[i] ^ ((m[i - 1] ^ (m[i - 1] >> 30)) * 1664525U)) + key[j] + (uint32_t)j;
        i++;
        j++;
        if (i >= N) {
            m[0] = m[N - 1];
            i = 1;
        }
        if (j >= len) j = 0;
    }
    for (int k = N - 1; k; k--) {
        m[i] = (m[i] ^ ((m[i - 1] ^ (m[i - 1] >> 30)) * 1566083941U)) - (uint32_t)i;
        i++;
        if (i >= N) {
            m[0] = m[N - 1];
            i = 1;
        }
    }
    m[0] = 0x80000000U;
    mt->index = N;
    mt->ready = N;
}

void uk_mt_seed(uk_mt *mt, uint64_t lo, uint64_t hi) {
    uint32_t key[4] = {(uint32_t)lo, (uint32_t)(lo >> 32), (uint32_t)hi, (uint32_t)(hi >> 32)};
    int len = 4;
    while (len > 1 && key[len - 1] == 0) len--;
    init_by_array(mt, key, len);
}

/* Twist words [ready, upto) of the next block. The twist updates the state in
 * place in index order, so doing it in pieces gives the same words as
 * CPython's whole-block loop; a shuffle of a 108-card deck needs 214 of 624. */
static void twist(uk_mt *mt, int upto) {
    uint32_t *m = mt->state, y;
    int kk = mt->ready;
    for (; kk < upto && kk < N - M; kk++) {
        y = (m[kk] & UPPER_MASK) | (m[kk + 1] & LOWER_MASK);
        m[kk] = m[kk + M] ^ (y >> 1) ^ ((y & 1U) ? MATRIX_A : 0U);
    }
    for (; kk < upto && kk < N - 1; kk++) {
        y = (m[kk] & UPPER_MASK) | (m[kk + 1] & LOWER_MASK);
        m[kk] = m[kk + (M - N)] ^ (y >> 1) ^ ((y & 1U) ? MATRIX_A : 0U);
    }
    if (kk < upto && kk == N - 1) {
        y = (m[N - 1] & UPPER_MASK) | (m[0] & LOWER_MASK);
        m[N - 1] = m[M - 1] ^ (y >> 1) ^ ((y & 1U) ? MATRIX_A : 0U);
        kk = N;
    }
    mt->ready = kk;
}

void uk_mt_finish(uk_mt *mt) {
    if (mt->index < N && mt->ready < N) twist(mt, N);
}

uint32_t uk_mt_u32(uk_mt *mt) {
    uint32_t y;
    if (mt->index >= N) { /* a new block */
        mt->index = 0;
        mt->ready = 0;
    }
    if (mt->index >= mt->ready) {
        int upto = mt->index + 64;
        twist(mt, upto > N ? N : upto);
    }
    y = mt->state[mt->index++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

double uk_mt_random(uk_mt *mt) {
    uint32_t a = uk_mt_u32(mt) >> 5, b = uk_mt_u32(mt) >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

int uk_mt_randbelow(uk_mt *mt, int k) {
    int bits = 0;
    while ((k >> bits) != 0) bits++; /* k.bit_length() */
    uint32_t r;
    do {
        r = uk_mt_u32(mt) >> (32 - bits);
    } while (r >= (uint32_t)k);
    return (int)r;
}

void uk_mt_seed_shuffle(uk_mt *mt, const uk_game *g) {
    /* Game._shuffle: seed((seed & 0xFFFFFFFFFFFF) * 1_000_003 + shuffles) */
    unsigned __int128 x = (unsigned __int128)g->seed48 * 1000003u + (unsigned __int128)(uint64_t)g->shuffles;
    uk_mt_seed(mt, (uint64_t)x, (uint64_t)(x >> 64));
}
