/*
 * dtb: C interface of the draughts endgame tablebase probe library.
 *
 *   dtb_tablebase* tb = NULL;
 *   if (dtb_open("data/tb/international", DTB_VARIANT_INTERNATIONAL, 64, DTB_ALL, &tb) != DTB_OK)
 *       fprintf(stderr, "%s\n", dtb_last_error());
 *   int wdl, dtw;
 *   if (dtb_probe_dtw(tb, "W:WK2,6:BK50", &wdl, &dtw) == DTB_OK) ...   // DTB_WIN, 9
 *   dtb_close(tb);
 *
 * Values are from the side to move's point of view (either side may be to move): WDL is
 * DTB_LOSS / DTB_DRAW / DTB_WIN; DTW is plies to the end of the game with best play, DTC plies to
 * the next capture or man move; both are 0 for a draw. When the side to move must capture, the
 * library works the value out from the captures (callers never resolve captures themselves).
 *
 * Every function returns a result code (DTB_OK or an error below) and writes its outputs only on
 * DTB_OK. On an error, dtb_last_error() returns a message for the calling thread's last failed
 * call (thread-local: threads do not see each other's messages).
 *
 * Thread safety: one handle may be used by any number of threads at once (every probe function);
 * dtb_close must not run while another thread uses the handle. Handles share nothing.
 * The library never prints and never exits.
 */
#ifndef DTB_DTB_H
#define DTB_DTB_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DTB_VERSION_MAJOR 0
#define DTB_VERSION_MINOR 1
#define DTB_VERSION_PATCH 0
/* One integer, comparable: (major << 16) | (minor << 8) | patch. */
#define DTB_VERSION ((DTB_VERSION_MAJOR << 16) | (DTB_VERSION_MINOR << 8) | DTB_VERSION_PATCH)
#define DTB_VERSION_STRING "0.1.0"

/* Result codes. */
enum {
    DTB_OK = 0,
    DTB_MISSING = 1,      /* a table needed is not available (or its metric not enabled) */
    DTB_CORRUPT = 2,      /* a table needed failed a check: never a wrong value */
    DTB_ILLEGAL = 3,      /* the position cannot be probed (man on its promotion row, ...) */
    DTB_NOT_CACHED = 4,   /* DTB_CACHE_ONLY probe: a block needed is not in memory */
    DTB_BAD_ARGUMENT = 5, /* NULL pointer, unknown variant, malformed FEN or move */
    DTB_NO_MEMORY = 6,
    DTB_INTERNAL = 7
};

/* Variants. */
enum { DTB_VARIANT_INTERNATIONAL = 0, DTB_VARIANT_TURKISH = 1 };

/* WDL values; DTB_UNRESOLVED: dtb_solve proved neither (see its lower and upper bounds). */
enum { DTB_LOSS = 0, DTB_DRAW = 1, DTB_WIN = 2, DTB_UNRESOLVED = -1 };

/* Flags: metrics to enable at open (DTB_WDL is always enabled); with dtb_probe_position also
 * which values to fill in, and DTB_CACHE_ONLY to answer from memory only (DTB_NOT_CACHED
 * instead of reading the disk: for engine search). */
enum {
    DTB_WDL = 1,
    DTB_DTW = 2,
    DTB_DTC = 4,
    DTB_DISTANCES = 7, /* WDL, DTW and DTC */
    DTB_CACHE_ONLY = 8,
    DTB_RULE_TABLES = 16, /* dtb_open: also the rule tables (.fmjd, .ffjd, .ffjd16; international) */
    DTB_ALL = 23          /* dtb_open: every table (DTB_DISTANCES | DTB_RULE_TABLES); as `what`, DTB_DISTANCES */
};

/* Rule sets of the counting rules (international draughts, RULES.md 1). */
enum { DTB_RULES_NONE = 0, DTB_RULES_FMJD = 1, DTB_RULES_FFJD = 2 };

/* The counters of a game, in plies (RULES.md 1): reversible since the last man move or capture
 * (0 or more; 0 at the start of a game); endgame since the 16-move class was entered, small since
 * the 5-move class was entered, each -1 when absent (a class position then takes 0, the class
 * being entered now). */
typedef struct dtb_counters {
    int reversible;
    int endgame;
    int small;
} dtb_counters;

typedef struct dtb_tablebase dtb_tablebase;

/* A position as bitboards, independent of the library's internal layout:
 *   international: bit n-1 stands for square n (1..50);
 *   turkish:       bit 8*rank + file, a1 = bit 0, h1 = bit 7, a8 = bit 56.
 * white and black hold each side's pieces (men and kings), kings the kings of both colours. */
typedef struct dtb_position {
    uint64_t white;
    uint64_t black;
    uint64_t kings;
    int side_to_move; /* 0 White, 1 Black */
} dtb_position;

/* Values filled in by dtb_probe_position; a distance not asked for, or of a draw, is -1. */
typedef struct dtb_value {
    int wdl;
    int dtw;
    int dtc;
} dtb_value;

/* DTB_VERSION of the library actually linked (compare with the header's DTB_VERSION). */
int dtb_version(void);
const char* dtb_version_string(void);

/* A short constant text for a result code ("ok", "missing", ...). */
const char* dtb_result_string(int code);

/* The message of the calling thread's last failed call ("" if none). Valid until the thread's
 * next call into the library. */
const char* dtb_last_error(void);

/* Opens a tablebase. directories: one or more folders separated by ':' (searched in order).
 * cache_mb: budget of the decompressed-block cache. flags: DTB_WDL, DTB_DTW, DTB_DTC,
 * DTB_RULE_TABLES (tables of other metrics are never opened). Table files are opened on first use. */
int dtb_open(const char* directories, int variant, unsigned cache_mb, unsigned flags, dtb_tablebase** out);
void dtb_close(dtb_tablebase* tb);

/* FEN forms, e.g. "W:WK2,6:BK50" or "B:Wd4:Bd6" (turkish). wdl: DTB_LOSS, DTB_DRAW or DTB_WIN for the
 * side to move; dtw, dtc: plies, -1 for a draw. */
int dtb_probe_wdl(const dtb_tablebase* tb, const char* fen, int* wdl);
int dtb_probe_dtw(const dtb_tablebase* tb, const char* fen, int* wdl, int* dtw);
int dtb_probe_dtc(const dtb_tablebase* tb, const char* fen, int* wdl, int* dtc);

/* Bitboard form. what: DTB_WDL / DTB_DTW / DTB_DTC flags, optionally | DTB_CACHE_ONLY. */
int dtb_probe_position(const dtb_tablebase* tb, const dtb_position* pos, unsigned what, dtb_value* out);

/* The result for the side to move under the counting rules of `rules` with these counters
 * (DTB_LOSS / DTB_DRAW / DTB_WIN): exact for every counter value. Needs a handle opened with
 * DTB_RULE_TABLES on international tables. flags: 0 or DTB_CACHE_ONLY. A position with more
 * pieces than the tables hold is answered from the tables when its captures lead into them,
 * else when the rules alone decide it (no move: a loss; a limit already reached: a draw), else
 * DTB_MISSING. */
int dtb_probe_rule_wdl(const dtb_tablebase* tb, const dtb_position* pos, const dtb_counters* counters, int rules,
                       unsigned flags, int* wdl);

/* The best move as text ("32-28", "28x19x10"), NUL-terminated in move[0..size): the quickest win,
 * the longest loss; "" when the side to move has no move (it has lost). wdl, dtw, dtc (may be
 * NULL): the position's values (dtc -1 when the handle has no DTC). Needs a handle opened with
 * DTB_DTW (without it, DTB_MISSING: by WDL alone a winning move need not make progress).
 * DTB_BAD_ARGUMENT when the text does not fit. */
int dtb_best_move(const dtb_tablebase* tb, const char* fen, char* move, size_t size, int* wdl, int* dtw, int* dtc);

/* Proves the value of a position with more pieces than the tables hold (`dtb solve`,
 * docs/SOLVE.md): a proof search whose leaves are table probes, without counting rules. A
 * position inside the tables is answered from them. max_seconds, max_nodes: the limits (0: none;
 * give at least one); memory_mb: the search's table (1 or more). answer: DTB_WIN, DTB_DRAW,
 * DTB_LOSS or DTB_UNRESOLVED; lower, upper (may be NULL): what is proven (DTB_LOSS..DTB_WIN);
 * move (may be NULL when size is 0): the best move's text, "" when none is fixed. */
int dtb_solve(const dtb_tablebase* tb, const char* fen, double max_seconds, unsigned long long max_nodes,
              unsigned memory_mb, int* answer, int* lower, int* upper, char* move, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* DTB_DTB_H */
