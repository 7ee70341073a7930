/* The probe API in plain C, so that any language with a C foreign-function interface can read a
 * solved game (the C++ API is zermelo/probe.hpp; this is a thin layer over it).
 *
 * Every call returns a zermelo_status: ZERMELO_OK, or an error whose message
 * zermelo_last_error() gives (per thread, until this thread's next failing call). Nothing aborts
 * and no exception crosses this header. Calls on one zermelo_db may run on several threads at
 * once, except zermelo_close. States are keys; zermelo_key reads a state's text ("start" too). */
#ifndef ZERMELO_PROBE_H
#define ZERMELO_PROBE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum zermelo_status {
  ZERMELO_OK = 0,
  ZERMELO_ERR_OPEN = 1,      /* the work dir holds no finished, intact solve */
  ZERMELO_ERR_BAD_STATE = 2, /* a state's text the game cannot read */
  ZERMELO_ERR_NO_VALUE = 3,  /* a state the database holds no value for */
  ZERMELO_ERR_CLOSED = 4,
  ZERMELO_ERR_INTERNAL = 5, /* a damaged file, out of memory... */
  ZERMELO_ERR_ARGUMENT = 6, /* a null pointer */
  ZERMELO_ERR_TOO_SMALL = 7 /* a buffer too small: *count or the text's size says what fits */
} zermelo_status;

typedef enum zermelo_outcome {
  ZERMELO_UNKNOWN = 0,
  ZERMELO_WIN = 1,
  ZERMELO_LOSS = 2,
  ZERMELO_DRAW = 3
} zermelo_outcome;

/* For the player to move: a win or loss in `plies` plies with best play, or a draw. */
typedef struct zermelo_value {
  zermelo_outcome outcome;
  uint32_t plies;
} zermelo_value;

#define ZERMELO_NAME_MAX 64

typedef struct zermelo_move {
  char name[ZERMELO_NAME_MAX]; /* as the game names it */
  zermelo_value value;         /* of playing it, for the player who plays it */
  int ends_game;               /* 1: the move ends the game (key is then 0) */
  uint64_t key;                /* the state after it */
} zermelo_move;

typedef struct zermelo_step {
  uint64_t key;
  zermelo_value value;         /* of this state, for the player to move */
  char move[ZERMELO_NAME_MAX]; /* played from it: "" at the end, unless it ends the game */
} zermelo_step;

typedef struct zermelo_db zermelo_db;

const char* zermelo_last_error(void);

zermelo_status zermelo_open(const char* work_dir, zermelo_db** db);
void zermelo_close(zermelo_db* db); /* null is allowed */

/* The game's name and options, as given to solve: "onitama 3x4 boar". */
zermelo_status zermelo_game(const zermelo_db* db, char* text, size_t size);
zermelo_status zermelo_key(const zermelo_db* db, const char* state, uint64_t* key);

zermelo_status zermelo_value_of_key(const zermelo_db* db, uint64_t key, zermelo_value* value);
zermelo_status zermelo_value_of(const zermelo_db* db, const char* state, zermelo_value* value);
/* Every move in the game's order; *count is the number of moves (TOO_SMALL past capacity). */
zermelo_status zermelo_moves(const zermelo_db* db, uint64_t key, zermelo_move* moves,
                             size_t capacity, size_t* count);
/* What a perfect player plays; *found is 0 if the state has no move. */
zermelo_status zermelo_best_move(const zermelo_db* db, uint64_t key, zermelo_move* move,
                                 int* found);
/* Perfect play from the state, as Database::line in probe.hpp (until the game ends or a state
 * repeats): *count steps (TOO_SMALL if more than capacity). */
zermelo_status zermelo_line(const zermelo_db* db, uint64_t key, zermelo_step* steps,
                            size_t capacity, size_t* count);

/* "win in 5", "loss in 0", "draw" or "unknown", as `zermelo query` writes it. */
zermelo_status zermelo_value_text(zermelo_value value, char* text, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* ZERMELO_PROBE_H */
