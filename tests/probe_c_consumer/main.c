/* The C interface from C: opens the tables given on the command line, checks known values,
 * error codes and the best move, and exits 0 when everything matches. */
#include <stdio.h>
#include <string.h>

#include "dtb/dtb.h"

static int failures = 0;

#define EXPECT(cond)                                                                                  \
    do {                                                                                              \
        if (!(cond)) {                                                                                \
            fprintf(stderr, "%s:%d: failed: %s (%s)\n", __FILE__, __LINE__, #cond, dtb_last_error()); \
            ++failures;                                                                               \
        }                                                                                             \
    } while (0)

int main(int argc, char** argv) {
    dtb_tablebase* tb = NULL;
    int wdl = -1, dtw = -1, dtc = -1;
    char move[32];
    dtb_position pos;
    dtb_value value;

    if (argc != 2) {
        fprintf(stderr, "usage: %s TABLE_DIR (international, up to 3 pieces)\n", argv[0]);
        return 2;
    }
    EXPECT(dtb_version() == DTB_VERSION);
    EXPECT(strcmp(dtb_version_string(), DTB_VERSION_STRING) == 0);
    EXPECT(dtb_open("/no/such/folder", DTB_VARIANT_INTERNATIONAL, 16, DTB_ALL, &tb) == DTB_MISSING);
    EXPECT(strstr(dtb_last_error(), "/no/such/folder") != NULL);
    EXPECT(dtb_open(argv[1], 7, 16, DTB_ALL, &tb) == DTB_BAD_ARGUMENT);
    if (dtb_open(argv[1], DTB_VARIANT_INTERNATIONAL, 16, DTB_DISTANCES, &tb) != DTB_OK) {
        fprintf(stderr, "dtb_open: %s\n", dtb_last_error());
        return 1;
    }

    /* Known values (longest wins of their slices). */
    EXPECT(dtb_probe_dtw(tb, "W:WK2,6:BK50", &wdl, &dtw) == DTB_OK);
    EXPECT(wdl == DTB_WIN && dtw == 9);
    EXPECT(dtb_probe_dtw(tb, "W:W33:B2", &wdl, &dtw) == DTB_OK);
    EXPECT(wdl == DTB_WIN && dtw == 17);
    EXPECT(dtb_probe_wdl(tb, "B:W49:B18", &wdl) == DTB_OK); /* the same, turned round */
    EXPECT(wdl == DTB_WIN);
    EXPECT(dtb_probe_dtc(tb, "W:WK28:BK23", &wdl, &dtc) == DTB_OK); /* capture the last piece */
    EXPECT(wdl == DTB_WIN && dtc == 1);
    EXPECT(dtb_probe_wdl(tb, "W:WK1:BK50", &wdl) == DTB_OK);
    EXPECT(wdl == DTB_DRAW);

    /* Errors. */
    EXPECT(dtb_probe_wdl(tb, "W:W33:X2", &wdl) == DTB_BAD_ARGUMENT);
    EXPECT(dtb_probe_wdl(tb, "W:W33:B", &wdl) == DTB_ILLEGAL);
    EXPECT(dtb_probe_wdl(tb, "W:W31,32:B1,2", &wdl) == DTB_MISSING);
    EXPECT(strstr(dtb_last_error(), "MMvMM") != NULL);
    EXPECT(dtb_probe_wdl(NULL, "W:W33:B2", &wdl) == DTB_BAD_ARGUMENT);
    EXPECT(strcmp(dtb_result_string(DTB_CORRUPT), "corrupt") == 0);

    /* Bitboards: W:W33:B2 is bit 32 (square 33) against bit 1 (square 2). */
    pos.white = 1ULL << 32;
    pos.black = 1ULL << 1;
    pos.kings = 0;
    pos.side_to_move = 0;
    EXPECT(dtb_probe_position(tb, &pos, DTB_WDL | DTB_DTW | DTB_DTC, &value) == DTB_OK);
    EXPECT(value.wdl == DTB_WIN && value.dtw == 17 && value.dtc == 1);
    EXPECT(dtb_probe_position(tb, &pos, DTB_WDL | DTB_CACHE_ONLY, &value) == DTB_OK); /* cached now */
    pos.white = 1ULL << 50;                                                           /* no square 51 */
    EXPECT(dtb_probe_position(tb, &pos, DTB_WDL, &value) == DTB_ILLEGAL);

    /* Best move. */
    EXPECT(dtb_best_move(tb, "W:WK2,6:BK50", move, sizeof move, &wdl, &dtw, &dtc) == DTB_OK);
    EXPECT(strcmp(move, "2-11") == 0 && wdl == DTB_WIN && dtw == 9);
    EXPECT(dtb_best_move(tb, "W:WK2,6:BK50", move, 3, NULL, NULL, NULL) == DTB_BAD_ARGUMENT);
    EXPECT(dtb_best_move(tb, "W:W46:B41,37", move, sizeof move, &wdl, &dtw, NULL) == DTB_OK);
    EXPECT(move[0] == '\0' && wdl == DTB_LOSS && dtw == 0);
    {
        /* By WDL alone every winning move ties: a handle without DTW has no best move. */
        dtb_tablebase* wdl_tb = NULL;
        EXPECT(dtb_open(argv[1], DTB_VARIANT_INTERNATIONAL, 16, DTB_WDL, &wdl_tb) == DTB_OK);
        EXPECT(dtb_best_move(wdl_tb, "W:WK2,6:BK50", move, sizeof move, &wdl, &dtw, &dtc) == DTB_MISSING);
        dtb_close(wdl_tb);
    }

    /* Counting rules: K+M v K W:WK2,6:BK50 wins in 9, within the 5-move limit while small <= 1. */
    {
        dtb_tablebase* rules_tb = NULL;
        dtb_counters counters = {0, -1, 0};
        pos.white = (1ULL << 1) | (1ULL << 5);
        pos.black = 1ULL << 49;
        pos.kings = (1ULL << 1) | (1ULL << 49);
        pos.side_to_move = 0;
        EXPECT(dtb_probe_rule_wdl(tb, &pos, &counters, DTB_RULES_FMJD, 0, &wdl) == DTB_MISSING);
        /* DTB_ALL opens every table: the distances and the rule tables. */
        EXPECT(dtb_open(argv[1], DTB_VARIANT_INTERNATIONAL, 16, DTB_ALL, &rules_tb) == DTB_OK);
        if (rules_tb) {
            EXPECT(dtb_probe_rule_wdl(rules_tb, &pos, &counters, DTB_RULES_FMJD, 0, &wdl) == DTB_OK);
            EXPECT(wdl == DTB_WIN);
            counters.small = 2;
            EXPECT(dtb_probe_rule_wdl(rules_tb, &pos, &counters, DTB_RULES_FMJD, DTB_CACHE_ONLY, &wdl) == DTB_OK);
            EXPECT(wdl == DTB_DRAW);
            EXPECT(dtb_probe_rule_wdl(rules_tb, &pos, &counters, DTB_RULES_NONE, 0, &wdl) == DTB_OK);
            EXPECT(wdl == DTB_WIN);
            EXPECT(dtb_probe_rule_wdl(rules_tb, &pos, &counters, DTB_RULES_FFJD, 0, &wdl) == DTB_OK);
            EXPECT(wdl == DTB_DRAW); /* promoting would give 2K v K, drawn at once under ffjd */
            EXPECT(dtb_probe_rule_wdl(rules_tb, &pos, &counters, 9, 0, &wdl) == DTB_BAD_ARGUMENT);
            {
                /* W:WK1,K2,K3,K4:BK46,K47,K48, beyond the tables: the 25-move limit alone draws. */
                dtb_position kings;
                dtb_counters at_limit = {50, -1, -1};
                memset(&kings, 0, sizeof kings);
                kings.white = 0xFULL;
                kings.black = 0x7ULL << 45;
                kings.kings = kings.white | kings.black;
                kings.side_to_move = 0;
                EXPECT(dtb_probe_rule_wdl(rules_tb, &kings, &at_limit, DTB_RULES_FMJD, 0, &wdl) == DTB_OK);
                EXPECT(wdl == DTB_DRAW);
                at_limit.reversible = 49;
                EXPECT(dtb_probe_rule_wdl(rules_tb, &kings, &at_limit, DTB_RULES_FMJD, 0, &wdl) == DTB_MISSING);
            }
            counters.reversible = -3;
            EXPECT(dtb_probe_rule_wdl(rules_tb, &pos, &counters, DTB_RULES_FMJD, 0, &wdl) == DTB_BAD_ARGUMENT);
            dtb_close(rules_tb);
        }
    }

    dtb_close(tb);
    if (failures == 0) printf("probe_c_consumer: all checks passed\n");
    return failures == 0 ? 0 : 1;
}
