#pragma once
// Statement: one prepared SQLite statement, bound by position and read by column name, so that a
// reader names what it takes ("status", "sm_clock_hz") and a SELECT can change without shifting
// indexes. A step that finds the database busy outside a transaction waits and retries.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace roofline::detail {

class Statement {
 public:
  Statement(sqlite3* db, std::string_view sql);
  ~Statement();
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  Statement& reset();  // clears the bindings and rewinds
  Statement& bind(std::int64_t v);
  Statement& bind(std::uint64_t v);  // stored as its two's-complement int64 (SQLite has no unsigned)
  Statement& bind(int v) { return bind(static_cast<std::int64_t>(v)); }
  Statement& bind(bool v) { return bind(static_cast<std::int64_t>(v ? 1 : 0)); }
  Statement& bind(double v);
  Statement& bind(std::string_view v);
  Statement& bind(const std::string& v) { return bind(std::string_view(v)); }
  Statement& bind(const char* v) { return bind(std::string_view(v)); }
  Statement& bind_null();
  template <typename T>
  Statement& bind(const std::optional<T>& v) {
    return v ? bind(*v) : bind_null();
  }

  bool step();  // true while a row is available; throws Error on failure
  void run();   // steps to the end

  // The current row's columns, by the name the SELECT gives them.
  bool is_null(std::string_view column) const;
  std::int64_t i64(std::string_view column) const;
  std::uint64_t u64(std::string_view column) const;
  int i32(std::string_view column) const;
  double f64(std::string_view column) const;
  bool flag(std::string_view column) const { return i64(column) != 0; }
  std::string text(std::string_view column) const;
  std::optional<std::int64_t> optional_i64(std::string_view column) const;
  std::optional<double> optional_f64(std::string_view column) const;

  sqlite3_stmt* get() const { return stmt_; }

 private:
  int index(std::string_view column) const;
  Statement& check(int rc);

  sqlite3* db_;
  sqlite3_stmt* stmt_ = nullptr;
  std::vector<std::string> names_;
  int next_ = 1;
};

// A database error as an Error: what was being done and SQLite's message.
[[noreturn]] void fail(sqlite3* db, std::string_view what);

}  // namespace roofline::detail
