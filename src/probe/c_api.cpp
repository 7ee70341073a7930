// The C probe API (zermelo/probe.h) over the C++ one: every call catches, records the message
// for zermelo_last_error and returns the error's code.
#include <cstring>
#include <string>

#include "zermelo/probe.h"
#include "zermelo/probe.hpp"

using zermelo::probe::Database;
using zermelo::probe::Error;
using zermelo::probe::ErrorCode;

struct zermelo_db {
  Database db;
};

namespace {

thread_local std::string last_error;

struct CError {
  zermelo_status status;
  std::string message;
};

template <class Fn>
zermelo_status call(Fn&& fn) {
  try {
    fn();
    return ZERMELO_OK;
  } catch (const CError& e) {
    last_error = e.message;
    return e.status;
  } catch (const Error& e) {
    last_error = e.what();
    return static_cast<zermelo_status>(e.code());
  } catch (const std::exception& e) {
    last_error = e.what();
  } catch (...) {
    last_error = "an unknown error";
  }
  return ZERMELO_ERR_INTERNAL;
}

void need(const void* p, const char* what) {
  if (!p) throw CError{ZERMELO_ERR_ARGUMENT, std::string(what) + " is null"};
}

void copy_text(const std::string& from, char* to, std::size_t size) {
  if (from.size() >= size)
    throw CError{ZERMELO_ERR_TOO_SMALL,
                 "'" + from + "' needs " + std::to_string(from.size() + 1) + " bytes"};
  std::memcpy(to, from.c_str(), from.size() + 1);
}

zermelo_value c_value(const zermelo::probe::Value& v) {
  return zermelo_value{static_cast<zermelo_outcome>(v.outcome), v.plies};
}

void c_move(const zermelo::probe::Move& m, zermelo_move* out) {
  copy_text(m.name, out->name, sizeof out->name);
  out->value = c_value(m.value), out->ends_game = m.ends_game, out->key = m.key;
}

void check_capacity(std::size_t needed, std::size_t capacity) {
  if (needed > capacity)
    throw CError{ZERMELO_ERR_TOO_SMALL,
                 std::to_string(needed) + " entries, room for " + std::to_string(capacity)};
}

const Database& database(const zermelo_db* db) {
  need(db, "the database");
  return db->db;
}

}  // namespace

extern "C" {

const char* zermelo_last_error(void) { return last_error.c_str(); }

zermelo_status zermelo_open(const char* work_dir, zermelo_db** db) {
  return call([&] {
    need(work_dir, "the work dir"), need(db, "the result");
    *db = nullptr;
    *db = new zermelo_db{Database(work_dir)};
  });
}

void zermelo_close(zermelo_db* db) { delete db; }

zermelo_status zermelo_game(const zermelo_db* db, char* text, size_t size) {
  return call([&] {
    need(text, "the text");
    std::string s = database(db).game();
    for (auto& o : database(db).options()) s += " " + o;
    copy_text(s, text, size);
  });
}

zermelo_status zermelo_key(const zermelo_db* db, const char* state, uint64_t* key) {
  return call([&] {
    need(state, "the state"), need(key, "the key");
    *key = database(db).key(state);
  });
}

zermelo_status zermelo_value_of_key(const zermelo_db* db, uint64_t key, zermelo_value* value) {
  return call([&] {
    need(value, "the value");
    *value = c_value(database(db).value(key));
  });
}

zermelo_status zermelo_value_of(const zermelo_db* db, const char* state, zermelo_value* value) {
  return call([&] {
    need(state, "the state"), need(value, "the value");
    *value = c_value(database(db).value(std::string(state)));
  });
}

zermelo_status zermelo_moves(const zermelo_db* db, uint64_t key, zermelo_move* moves,
                             size_t capacity, size_t* count) {
  return call([&] {
    need(count, "the count");
    const auto all = database(db).moves(key);
    *count = all.size();
    check_capacity(all.size(), capacity);
    if (!all.empty()) need(moves, "the moves");
    for (std::size_t i = 0; i < all.size(); ++i) c_move(all[i], &moves[i]);
  });
}

zermelo_status zermelo_best_move(const zermelo_db* db, uint64_t key, zermelo_move* move,
                                 int* found) {
  return call([&] {
    need(move, "the move"), need(found, "found");
    const auto best = database(db).best_move(key);
    *found = best.has_value();
    if (best) c_move(*best, move);
  });
}

zermelo_status zermelo_line(const zermelo_db* db, uint64_t key, zermelo_step* steps,
                            size_t capacity, size_t* count) {
  return call([&] {
    need(count, "the count"), need(steps, "the steps");
    const auto line = database(db).line(key);
    *count = line.size();
    check_capacity(line.size(), capacity);
    for (std::size_t i = 0; i < line.size(); ++i) {
      steps[i].key = line[i].key, steps[i].value = c_value(line[i].value);
      copy_text(line[i].move, steps[i].move, sizeof steps[i].move);
    }
  });
}

zermelo_status zermelo_value_text(zermelo_value value, char* text, size_t size) {
  return call([&] {
    need(text, "the text");
    const zermelo::probe::Value v{static_cast<zermelo::probe::Outcome>(value.outcome), value.plies};
    copy_text(v.text(), text, size);
  });
}

}  // extern "C"
