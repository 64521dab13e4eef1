/* One target's batch scorer: included by aetherya_lanes.h with AL_NAME, AL_TARGET, AL_POPCNT, AL_ANY and
 * AL_KIND_MASKS defined, which it undefines at its end. */

/* cell c's orthogonal neighbours (AE-1) */
#ifndef AL_ORTHO_DEFINED
#define AL_ORTHO_DEFINED
static const uint16_t al_ortho[16] = {
    0x0012, 0x0025, 0x004A, 0x0084, 0x0121, 0x0252, 0x04A4, 0x0848,
    0x1210, 0x2520, 0x4A40, 0x8480, 0x2100, 0x5200, 0xA400, 0x4800};
#endif

AL_TARGET static void AL_NAME(const uint8_t* kingdoms, int32_t* out, intptr_t n) {
    uint16_t masks[AL_CODES][AL_LANES] __attribute__((aligned(64)));
    int16_t columns[AL_COLUMNS][AL_LANES] __attribute__((aligned(64)));
    uint8_t padded[AL_LANES * 16] __attribute__((aligned(64)));
    for (intptr_t start = 0; start < n; start += AL_LANES) {
        intptr_t lanes = n - start < AL_LANES ? n - start : AL_LANES;
        const uint8_t* block = kingdoms + start * 16;
        if (lanes < AL_LANES) {            /* the last block: empty lanes hold unexplored cells (no card) */
            memset(padded, 10, sizeof padded);
            memcpy(padded, block, (size_t)lanes * 16);
            block = padded;
        }
        /* kind masks: masks[k][j] = the cells of kingdom j holding code k */
        AL_KIND_MASKS(block, masks);
        al_v K[AL_CODES];
        for (int k = 0; k < AL_CODES; k++)
            memcpy(&K[k], masks[k], sizeof(al_v));
        const al_v P = K[AL_P], F = K[AL_F], M = K[AL_M], S = K[AL_S], H = K[AL_H], E = K[AL_E],
                   D = K[AL_D], G = K[AL_G], R = K[AL_R], O = K[AL_O];
        const al_v zero = {0}, one = zero + 1;
        al_v elves = zero, dwarves = zero, humans = zero, pairs = zero, tamed = zero;
        al_v n1h = zero, n1e = zero, n1d = zero;
        al_v n2g = zero, n2d = zero, n2e = zero, n2h = zero, n2p = zero, n2s = zero, n2m = zero, n2f = zero;
        for (int c = 0; c < 16; c++) {
            const uint16_t bit = (uint16_t)(1u << c);
            al_v conn = zero + al_ortho[c];
            al_v hub = O & al_ortho[c];    /* Portals next to c, grown to their whole hubs (AE-2) */
            if (AL_ANY(&hub)) {
                for (;;) {
                    al_v grown = hub | (AL_SPREAD(hub) & O);
                    al_v changed = grown ^ hub;
                    if (!AL_ANY(&changed))
                        break;
                    hub = grown;
                }
                conn |= AL_SPREAD(hub) & ~O & (uint16_t)~bit;
            }
            const al_v cF = AL_POPCNT(conn & F), cS = AL_POPCNT(conn & S), cM = AL_POPCNT(conn & M),
                       cP = AL_POPCNT(conn & P), cH = AL_POPCNT(conn & H), cE = AL_POPCNT(conn & E),
                       cD = AL_POPCNT(conn & D), cG = AL_POPCNT(conn & G);
            /* 0xFFFF in the lanes whose cell c holds that kind */
            const al_v isE = zero - ((E >> c) & 1), isD = zero - ((D >> c) & 1), isH = zero - ((H >> c) & 1),
                       isG = zero - ((G >> c) & 1), isR = zero - ((R >> c) & 1);
            elves += isE & (cF + cF - cS);                         /* AE-4 */
            dwarves += isD & (cM + cM);
            humans += isH & (cP + cP + cF + cM - cS);
            pairs += (isE & cD) + (isG & (cH + cE + cD));          /* AE-6 */
            const al_v two_h = (al_v)(cH >= 2), two_e = (al_v)(cE >= 2), two_d = (al_v)(cD >= 2);
            tamed += isR & (two_h | two_e | two_d) & one;          /* AE-7 */
            n1h |= (al_v)(cH != 0) & bit;
            n1e |= (al_v)(cE != 0) & bit;
            n1d |= (al_v)(cD != 0) & bit;
            n2h |= two_h & bit;
            n2e |= two_e & bit;
            n2d |= two_d & bit;
            n2g |= (al_v)(cG >= 2) & bit;
            n2p |= (al_v)(cP >= 2) & bit;
            n2s |= (al_v)(cS >= 2) & bit;
            n2m |= (al_v)(cM >= 2) & bit;
            n2f |= (al_v)(cF >= 2) & bit;
        }
        /* Goblins count orthogonal neighbours only (AE-5): the planes of S, H, E, D moved by one cell */
        const al_v goblins = 3 * (AL_POPCNT(G & ((S << 1) & 0xEEEE)) + AL_POPCNT(G & ((S >> 1) & 0x7777))
                                  + AL_POPCNT(G & (S << 4)) + AL_POPCNT(G & (S >> 4)));
        al_v two_o[3];
        const al_v tribes[3] = {H, E, D};
        for (int t = 0; t < 3; t++) {
            al_v a = (tribes[t] << 1) & 0xEEEE, b = (tribes[t] >> 1) & 0x7777;
            al_v x = tribes[t] << 4, y = tribes[t] >> 4;
            two_o[t] = (a & b) | (x & y) | ((a | b) & (x | y));    /* two or more orthogonal neighbours */
        }
        const al_v n_r = AL_POPCNT(R);
        const al_v value = ((al_v)(n_r >= 1) & 3) + ((al_v)(n_r >= 2) & 2) + ((al_v)(n_r >= 3) & 1);
        const al_v few = (al_v)(tamed < 3);
        const al_v counted = (tamed & few) | (3 & ~few);          /* at most 3 tamed Dragons count */
        const al_v dragons = value * (counted + counted - n_r);
        const al_v conflicts = zero - (pairs + pairs);
        al_v legends = zero;
        legends |= (al_v)((E & n1h) != 0) & (1 << 0);
        legends |= (al_v)((D & n1h) != 0) & (1 << 1);
        legends |= (al_v)((G & AL_SPREAD(G)) != 0) & (1 << 2);
        legends |= (al_v)((H & n1h) != 0) & (1 << 3);
        legends |= (al_v)((E & n1e) != 0) & (1 << 4);
        legends |= (al_v)((D & n1d) != 0) & (1 << 5);
        legends |= (al_v)(H != 0) & (al_v)(E != 0) & (al_v)(D != 0) & (al_v)(G != 0) & (1 << 6);
        legends |= (al_v)(((H & n2g) | (G & two_o[0])) != 0) & (1 << 7);
        legends |= (al_v)(((E & n2g) | (G & two_o[1])) != 0) & (1 << 8);
        legends |= (al_v)(((D & n2g) | (G & two_o[2])) != 0) & (1 << 9);
        legends |= (al_v)(((E & n2d) | (D & n2e)) != 0) & (1 << 10);
        legends |= (al_v)((P & n2p) != 0) & (1 << 11);
        legends |= (al_v)((S & n2s) != 0) & (1 << 12);
        legends |= (al_v)((M & n2m) != 0) & (1 << 13);
        legends |= (al_v)((F & n2f) != 0) & (1 << 14);
        const al_v total = elves + dwarves + humans + goblins + dragons + conflicts;
        const al_v results[AL_COLUMNS] = {elves, dwarves, humans, goblins, dragons, conflicts, total, legends};
        for (int col = 0; col < AL_COLUMNS; col++)
            memcpy(columns[col], &results[col], sizeof(al_v));
        int32_t* row = out + start * AL_COLUMNS;
        for (intptr_t j = 0; j < lanes; j++)
            for (int col = 0; col < AL_COLUMNS; col++)
                row[j * AL_COLUMNS + col] = columns[col][j];
    }
}

#undef AL_NAME
#undef AL_TARGET
#undef AL_POPCNT
#undef AL_ANY
#undef AL_KIND_MASKS
