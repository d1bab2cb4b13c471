/* Probes one known position through the installed C API: W:W33:B2 is a win in 17 plies. */
#include <dtb/dtb.h>
#include <stdio.h>

int main(int argc, char** argv) {
    dtb_tablebase* tb = NULL;
    int wdl = -1, dtw = -1;
    if (argc != 2 || dtb_version() != DTB_VERSION) return 2;
    if (dtb_open(argv[1], DTB_VARIANT_INTERNATIONAL, 4, DTB_WDL | DTB_DTW, &tb) != DTB_OK ||
        dtb_probe_dtw(tb, "W:W33:B2", &wdl, &dtw) != DTB_OK) {
        fprintf(stderr, "%s\n", dtb_last_error());
        return 1;
    }
    dtb_close(tb);
    printf("W:W33:B2 wdl %d dtw %d\n", wdl, dtw);
    return wdl == DTB_WIN && dtw == 17 ? 0 : 1;
}
