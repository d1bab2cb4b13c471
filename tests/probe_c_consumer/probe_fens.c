/* Reads FENs, one per line, from stdin and prints "wdl dtw" for each through the C interface
 * (DTB_LOSS 0, DTB_DRAW 1, DTB_WIN 2; dtw -1 for a draw), or "error CODE". Arguments: a table
 * folder and a variant (0 international, 1 Turkish). Python's tests compare its answers with
 * Python's and the CLI's JSON: one value convention per language, the same values. */
#include <dtb/dtb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char** argv) {
    dtb_tablebase* tb = NULL;
    char line[512];
    if (argc != 3) return 2;
    if (dtb_open(argv[1], atoi(argv[2]), 16, DTB_DISTANCES, &tb) != DTB_OK) {
        fprintf(stderr, "%s\n", dtb_last_error());
        return 3;
    }
    while (fgets(line, sizeof line, stdin)) {
        int wdl = -1, dtw = -1, rc = 0;
        line[strcspn(line, "\r\n")] = '\0';
        if (!line[0]) continue;
        rc = dtb_probe_dtw(tb, line, &wdl, &dtw);
        if (rc == DTB_OK)
            printf("%d %d\n", wdl, dtw);
        else
            printf("error %d\n", rc);
    }
    dtb_close(tb);
    return 0;
}
