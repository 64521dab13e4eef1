/* Aetherya kingdoms scored 32 at a time, one kingdom per 16-bit lane (the batch path of aetherya_score.pyx).
 *
 * The same rules as aetherya_board.pxd's tally() with no Objects (docs/rules/aetherya.md, AE-1 to AE-7, AE-12 and
 * the Legend conditions), computed on bit planes: a lane holds one kingdom's cell mask (bit c = cell c, row
 * c / 4, column c % 4). For each cell c the lanes get c's connections (orthogonal neighbours, plus every cell
 * around a Portal hub next to c, AE-2), the number of connected cards of each kind, and from those the points
 * of the card on c; Goblin-Swamp points and the Goblin Legends, which count orthogonal neighbours only, come
 * from four shifted planes. Twin: solver/twins/aetherya_score.py (the tests compare every path with it).
 *
 * GCC/Clang vector extensions, so one body serves every target: it is compiled three times on x86-64
 * (AVX-512 with BITALG's 16-bit popcount, AVX2, and the baseline SSE2) and the fastest the running CPU has is
 * chosen at run time (aetherya_lanes_score); elsewhere it is compiled once for the build's target.
 */
#ifndef AETHERYA_LANES_H
#define AETHERYA_LANES_H

#include <stdint.h>
#include <string.h>

#define AL_LANES 32
#define AL_COLUMNS 8

typedef uint16_t al_v __attribute__((vector_size(64)));   /* 32 lanes of 16 bits */
typedef int16_t al_sv __attribute__((vector_size(64)));

enum { AL_P = 0, AL_F, AL_M, AL_S, AL_H, AL_E, AL_D, AL_G, AL_R, AL_O, AL_CODES = 11 };

/* the cells orthogonally next to a cell of m (AE-1) */
#define AL_SPREAD(m) ((((m) << 1) & 0xEEEE) | (((m) >> 1) & 0x7777) | ((m) << 4) | ((m) >> 4))

/* any lane of *v not zero (a pointer: no vector passed by value between targets) */
static inline __attribute__((always_inline)) int al_any_words(const al_v* v) {
    uint64_t w[8];
    memcpy(w, v, sizeof w);
    return ((w[0] | w[1]) | (w[2] | w[3]) | (w[4] | w[5]) | (w[6] | w[7])) != 0;
}

/* masks[k][j] = the cells of kingdom j (16 codes at block + 16 j) holding code k, for 32 kingdoms */
#define AL_KIND_MASKS_SCALAR(block, masks) do {                       \
        memset(masks, 0, sizeof(masks));                              \
        for (int j_ = 0; j_ < AL_LANES; j_++)                         \
            for (int c_ = 0; c_ < 16; c_++)                           \
                masks[(block)[16 * j_ + c_]][j_] |= (uint16_t)(1u << c_); \
    } while (0)

/* The body, included once per target with AL_NAME, AL_TARGET, AL_POPCNT, AL_ANY and AL_KIND_MASKS defined. */
#define AL_BODY_FILE "aetherya_lanes_body.h"

/* popcount of every 16-bit lane without a popcount instruction (a statement expression: no vector is passed
 * by value to a function of another target) */
#define AL_POPCNT_SWAR(v) ({                                  \
        al_v al_x_ = (v);                                     \
        al_x_ = al_x_ - ((al_x_ >> 1) & 0x5555);              \
        al_x_ = (al_x_ & 0x3333) + ((al_x_ >> 2) & 0x3333);   \
        al_x_ = (al_x_ + (al_x_ >> 4)) & 0x0F0F;              \
        (al_x_ + (al_x_ >> 8)) & 0x001F; })

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define AL_HAVE_X86 1
/* masks[k][j..j + step) from one load of ``step`` kingdoms compared with each code at once: ``eq(v, k)`` is the
 * bit mask (one bit a byte) of the bytes of ``v`` equal to k */
#define AL_KIND_MASKS_WIDE(block, masks, step, vector_t, load, eq, mask_t) do {              \
        for (int j_ = 0; j_ < AL_LANES; j_ += (step)) {                                       \
            vector_t v_ = load((block) + 16 * j_);                                            \
            for (int k_ = 0; k_ < AL_CODES; k_++) {                                           \
                mask_t m_ = (mask_t)eq(v_, k_);                                               \
                memcpy(&masks[k_][j_], &m_, sizeof m_);                                       \
            }                                                                                 \
        }                                                                                     \
    } while (0)
#define AL_LOAD_128(p) _mm_loadu_si128((const __m128i*)(p))
#define AL_EQ_128(v, k) _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8((char)(k))))
#define AL_LOAD_256(p) _mm256_loadu_si256((const __m256i*)(p))
#define AL_EQ_256(v, k) _mm256_movemask_epi8(_mm256_cmpeq_epi8(v, _mm256_set1_epi8((char)(k))))
#define AL_LOAD_512(p) _mm512_loadu_si512((const void*)(p))
#define AL_EQ_512(v, k) _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8((char)(k)))
/* SSE2 (every x86-64): one kingdom's 16 codes compared with each code at once */
#define AL_KIND_MASKS(block, masks) AL_KIND_MASKS_WIDE(block, masks, 1, __m128i, AL_LOAD_128, AL_EQ_128, uint16_t)
#else
#define AL_HAVE_X86 0
#define AL_KIND_MASKS(block, masks) AL_KIND_MASKS_SCALAR(block, masks)
#endif

/* Each instantiation of the body defines its parameters; the body undefines them (AL_NAME, AL_TARGET, AL_POPCNT,
 * AL_ANY, AL_KIND_MASKS). */
#define AL_NAME al_score_generic
#define AL_TARGET
#define AL_POPCNT(x) AL_POPCNT_SWAR(x)
#define AL_ANY(p) al_any_words(p)
#include AL_BODY_FILE

#if AL_HAVE_X86
/* AVX2: two kingdoms a compare */
#define AL_KIND_MASKS(block, masks) AL_KIND_MASKS_WIDE(block, masks, 2, __m256i, AL_LOAD_256, AL_EQ_256, uint32_t)
#define AL_NAME al_score_avx2
#define AL_TARGET __attribute__((target("avx2")))
#define AL_POPCNT(x) AL_POPCNT_SWAR(x)
#define AL_ANY(p) al_any_words(p)
#include AL_BODY_FILE

/* AVX-512 BW: four kingdoms a compare, straight into a mask register */
#define AL_KIND_MASKS(block, masks) AL_KIND_MASKS_WIDE(block, masks, 4, __m512i, AL_LOAD_512, AL_EQ_512, uint64_t)
#define AL_NAME al_score_avx512
#define AL_TARGET __attribute__((target("avx512f,avx512bw,avx512bitalg")))
#define AL_POPCNT(x) ((al_v)_mm512_popcnt_epi16((__m512i)(x)))
#define AL_ANY(p) (_mm512_test_epi16_mask((__m512i)*(p), (__m512i)*(p)) != 0)
#include AL_BODY_FILE
#endif

/* 2: AVX-512 (BW and BITALG), 1: AVX2, 0: the baseline vector code. */
static int al_level_cache = -1;

static inline int aetherya_lanes_level(void) {
    if (al_level_cache < 0) {
        al_level_cache = 0;
#if AL_HAVE_X86
        __builtin_cpu_init();
        if (__builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512bitalg"))
            al_level_cache = 2;
        else if (__builtin_cpu_supports("avx2"))
            al_level_cache = 1;
#endif
    }
    return al_level_cache;
}

/* Score n kingdoms (n x 16 codes, each 0..10) into out (n x 8), with the path of ``level`` (capped at what the
 * CPU has): elves, dwarves, humans, goblins, dragons, conflicts, board total, Legend mask. */
static inline void aetherya_lanes_score(const uint8_t* kingdoms, int32_t* out, intptr_t n, int level) {
    int best = aetherya_lanes_level();
    if (level > best)
        level = best;
#if AL_HAVE_X86
    if (level == 2) {
        al_score_avx512(kingdoms, out, n);
        return;
    }
    if (level == 1) {
        al_score_avx2(kingdoms, out, n);
        return;
    }
#endif
    al_score_generic(kingdoms, out, n);
}

#endif
