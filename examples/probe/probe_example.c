/* Probing a solved game from C (zermelo/probe.h): the same output as probe_example.cpp.
 * Build: cc probe_example.c $(pkg-config --cflags --libs zermelo)
 * Usage: probe_example_c WORK_DIR [STATE] (default start). */
#include <stdio.h>
#include <zermelo/probe.h>

#define MAX_MOVES 256
#define MAX_STEPS 1024

static int fail(const char* what) {
  fprintf(stderr, "probe_example_c: %s: %s\n", what, zermelo_last_error());
  return 1;
}

static int print_moves(const zermelo_db* db, uint64_t key) {
  static zermelo_move moves[MAX_MOVES];
  size_t count = 0;
  char text[32];
  if (zermelo_moves(db, key, moves, MAX_MOVES, &count) != ZERMELO_OK) return fail("moves");
  for (size_t i = 0; i < count; ++i) {
    zermelo_value_text(moves[i].value, text, sizeof text);
    printf("move %s: %s\n", moves[i].name, text);
  }
  return 0;
}

static int print_best_and_line(const zermelo_db* db, uint64_t key) {
  static zermelo_step steps[MAX_STEPS];
  zermelo_move best;
  int found = 0;
  size_t count = 0;
  if (zermelo_best_move(db, key, &best, &found) != ZERMELO_OK) return fail("best move");
  if (found) printf("best: %s\n", best.name);
  if (zermelo_line(db, key, steps, MAX_STEPS, &count) != ZERMELO_OK) return fail("line");
  printf("line:");
  for (size_t i = 0; i < count; ++i)
    if (steps[i].move[0]) printf(" %s", steps[i].move);
  printf("\n");
  return 0;
}

int main(int argc, char** argv) {
  zermelo_db* db = NULL;
  char game[128], text[32];
  uint64_t key = 0;
  zermelo_value value;
  int status = 1;
  if (argc < 2) {
    fprintf(stderr, "usage: probe_example_c WORK_DIR [STATE]\n");
    return 2;
  }
  if (zermelo_open(argv[1], &db) != ZERMELO_OK) return fail("open");
  if (zermelo_game(db, game, sizeof game) != ZERMELO_OK)
    fail("game");
  else if (zermelo_key(db, argc > 2 ? argv[2] : "start", &key) != ZERMELO_OK)
    fail("state");
  else if (zermelo_value_of_key(db, key, &value) != ZERMELO_OK)
    fail("value");
  else {
    zermelo_value_text(value, text, sizeof text);
    printf("game: %s\nvalue: %s\n", game, text);
    status = print_moves(db, key) || print_best_and_line(db, key);
  }
  zermelo_close(db);
  return status;
}
