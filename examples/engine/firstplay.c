/* firstplay: a tiny engine for the unokit engine protocol (docs/engine-protocol.md).
 *
 * Build:  gcc -O2 -o firstplay examples/engine/firstplay.c
 * Use:    unokit tournament --bots heuristic --engine ./firstplay
 *
 * Its play: catch a player who forgot UNO; otherwise the first legal card
 * that is not a wild; otherwise a wild, naming the colour it holds most;
 * otherwise the first other legal move (draw, pass, accept...). It calls UNO
 * when a play leaves it one card. Unknown lines are ignored, as the
 * protocol asks. */
#include <stdio.h>
#include <string.h>

#define MAXMOVES 512
#define MAXLINE 70000

static char line[MAXLINE];
static char moves[MAXMOVES][256];
static int nmoves, expecting, handsize;
static int held[256]; /* cards held per colour letter */

static int starts(const char *s, const char *prefix) {
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static const char *choose(void) {
    int i, best = -1, bestcount = -1;
    for (i = 0; i < nmoves; i++)
        if (strstr(moves[i], " CATCH ")) return moves[i];
    for (i = 0; i < nmoves; i++)
        if (strstr(moves[i], " PLAY ") && !strstr(moves[i], "color=")) return moves[i];
    for (i = 0; i < nmoves; i++) {
        const char *c = strstr(moves[i], "color=");
        if (strstr(moves[i], " PLAY ") && c && held[(unsigned char)c[6]] > bestcount) {
            best = i;
            bestcount = held[(unsigned char)c[6]];
        }
    }
    if (best >= 0) return moves[best];
    for (i = 0; i < nmoves; i++) {
        const char *c = strstr(moves[i], " COLOR ");
        if (c && held[(unsigned char)c[7]] > bestcount) {
            best = i;
            bestcount = held[(unsigned char)c[7]];
        }
    }
    if (best >= 0) return moves[best];
    for (i = 0; i < nmoves; i++)
        if (!strstr(moves[i], " UNO")) return moves[i];
    return nmoves ? moves[0] : "";
}

int main(void) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\r\n")] = 0;
        if (expecting > 0) { /* the lines after "legal N" are the moves */
            if (nmoves < MAXMOVES) {
                size_t n = strlen(line) < 255 ? strlen(line) : 255;
                memcpy(moves[nmoves], line, n);
                moves[nmoves][n] = 0;
                nmoves++;
            }
            expecting--;
        } else if (strcmp(line, "uep") == 0) {
            printf("id name firstplay\nid author unokit examples\nuepok\n");
        } else if (strcmp(line, "isready") == 0) {
            printf("readyok\n");
        } else if (strcmp(line, "position") == 0) {
            nmoves = 0;
            handsize = 0;
            memset(held, 0, sizeof held);
        } else if (starts(line, "hand ")) {
            char *p = line + 5;
            while (*p) { /* count the cards, and their colours by first letter */
                while (*p == ' ') p++;
                if (!*p || *p == '-') break;
                handsize++;
                held[(unsigned char)*p]++;
                while (*p && *p != ' ') p++;
            }
        } else if (starts(line, "legal ")) {
            sscanf(line + 6, "%d", &expecting);
        } else if (starts(line, "go")) {
            const char *m = choose();
            int uno = handsize == 2 && strstr(m, " PLAY ") && !strstr(m, "uno=");
            printf("move %s%s\n", m, uno ? " uno=true" : "");
        } else if (strcmp(line, "quit") == 0) {
            return 0;
        }
    }
    return 0;
}
