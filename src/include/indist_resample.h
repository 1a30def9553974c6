/* NumPy's PCG64 state layout and the segment bootstrap's own SeedSequence hash and
   PCG64 (declared in src/_resample.pyx). */
#ifndef INDIST_FAST_RESAMPLE_H
#define INDIST_FAST_RESAMPLE_H

#include <stdint.h>

/* NumPy's PCG64 state (numpy/random/src/pcg64/pcg64.h): its pcg_state is a
   128-bit state and increment, the layout of indist_pcg64_t below. */
typedef struct { void *pcg_state; int has_uint32; uint32_t uinteger; }
    indist_np_pcg64_state;

#include <stdint.h>
typedef struct { __uint128_t state, inc; } indist_pcg64_t;

static inline uint32_t indist_hashmix(uint32_t value, uint32_t *hash_const) {
    value ^= *hash_const;
    *hash_const *= 0x931e8875u;
    value *= *hash_const;
    return value ^ (value >> 16);
}

static inline uint32_t indist_mix(uint32_t x, uint32_t y) {
    uint32_t r = 0xca01f9ddu * x - 0x4973f715u * y;
    return r ^ (r >> 16);
}

#define INDIST_PCG_MULT (((__uint128_t)2549297995355413924ULL << 64) \
                         | 4865540595714422341ULL)

static uint64_t indist_pcg64_next(void *st) {
    indist_pcg64_t *r = (indist_pcg64_t *)st;
    r->state = r->state * INDIST_PCG_MULT + r->inc;
    uint64_t v = (uint64_t)(r->state >> 64) ^ (uint64_t)r->state;
    unsigned rot = (unsigned)(r->state >> 122);
    return (v >> rot) | (v << ((-rot) & 63));
}

/* n draws among n slots from NumPy's PCG64 state `st`, counted in `hits`: the
   draws of `_draw_class` (two 32-bit candidates per raw output, low half first;
   Lemire's multiply-shift, rejecting low parts below `reject`; a fresh raw output
   to start), with the state in registers. Stepped through its pointer, as
   indist_pcg64_next does, the 128-bit state went through memory after every count
   (the compiler cannot tell the two apart), a store and a reload on the chain
   that every draw waits on. */
static void indist_pcg64_hits(void *st, Py_ssize_t n, uint32_t reject,
                              uint32_t *hits) {
    indist_pcg64_t r = *(indist_pcg64_t *)st;
    Py_ssize_t left = n;
    while (left > 0) {
        r.state = r.state * INDIST_PCG_MULT + r.inc;
        uint64_t v = (uint64_t)(r.state >> 64) ^ (uint64_t)r.state;
        unsigned rot = (unsigned)(r.state >> 122);
        uint64_t raw = (v >> rot) | (v << ((-rot) & 63));
        uint64_t m = (uint64_t)(uint32_t)raw * (uint64_t)n;
        if ((uint32_t)m >= reject) { hits[m >> 32]++; left--; }
        if (left == 0) break;            /* the high half is not used */
        m = (raw >> 32) * (uint64_t)n;
        if ((uint32_t)m >= reject) { hits[m >> 32]++; left--; }
    }
    *(indist_pcg64_t *)st = r;
}

/* SeedSequence of the words prefix[0..n) + [g, k] (n >= 4: the entropy padded to
   the pool size, then the spawn key's words), generate_state(4, uint64), then
   PCG64's seeding from those four words. */
static void indist_pcg64_seed(indist_pcg64_t *r, const uint32_t *prefix, Py_ssize_t n,
                              uint32_t g, uint32_t k) {
    uint32_t pool[4], hc = 0x43b0d7e5u, words[8];
    Py_ssize_t i, j;
    for (i = 0; i < 4; i++) pool[i] = indist_hashmix(prefix[i], &hc);
    for (i = 0; i < 4; i++)
        for (j = 0; j < 4; j++)
            if (i != j) pool[j] = indist_mix(pool[j], indist_hashmix(pool[i], &hc));
    for (i = 4; i < n + 2; i++) {
        uint32_t w = i < n ? prefix[i] : (i == n ? g : k);
        for (j = 0; j < 4; j++) pool[j] = indist_mix(pool[j], indist_hashmix(w, &hc));
    }
    hc = 0x8b51f9ddu;
    for (i = 0; i < 8; i++) {
        uint32_t v = pool[i % 4] ^ hc;
        hc *= 0x58f38dedu;
        v *= hc;
        words[i] = v ^ (v >> 16);
    }
    __uint128_t seed = ((__uint128_t)(((uint64_t)words[1] << 32) | words[0]) << 64)
                       | (((uint64_t)words[3] << 32) | words[2]);
    __uint128_t seq = ((__uint128_t)(((uint64_t)words[5] << 32) | words[4]) << 64)
                      | (((uint64_t)words[7] << 32) | words[6]);
    r->state = 0;
    r->inc = (seq << 1) | 1;
    r->state = r->state * INDIST_PCG_MULT + r->inc;
    r->state += seed;
    r->state = r->state * INDIST_PCG_MULT + r->inc;
}

#endif /* INDIST_FAST_RESAMPLE_H */
