#include "reports/detail/store_statement.hpp"

#include <sqlite3.h>

#include <fmt/format.h>

#include "models/error.hpp"
#include "reports/detail/busy_wait.hpp"

namespace roofline::detail {

void fail(sqlite3* db, std::string_view what) {
  throw Error(fmt::format("database: {}: {}", what, db ? sqlite3_errmsg(db) : "out of memory"));
}

Statement::Statement(sqlite3* db, std::string_view sql) : db_(db) {
  if (sqlite3_prepare_v2(db, sql.data(), static_cast<int>(sql.size()), &stmt_, nullptr) != SQLITE_OK)
    fail(db, fmt::format("preparing `{}`", sql));
  for (int i = 0, n = sqlite3_column_count(stmt_); i < n; ++i) names_.emplace_back(sqlite3_column_name(stmt_, i));
}

Statement::~Statement() { sqlite3_finalize(stmt_); }

Statement& Statement::reset() {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
  next_ = 1;
  return *this;
}

Statement& Statement::check(int rc) {
  if (rc != SQLITE_OK) fail(db_, "binding a value");
  return *this;
}

Statement& Statement::bind(std::int64_t v) { return check(sqlite3_bind_int64(stmt_, next_++, v)); }
Statement& Statement::bind(std::uint64_t v) { return bind(static_cast<std::int64_t>(v)); }
Statement& Statement::bind(double v) { return check(sqlite3_bind_double(stmt_, next_++, v)); }
Statement& Statement::bind(std::string_view v) {
  // An empty view may have no data pointer, which SQLite would bind as NULL; text stays text.
  const char* text = v.data() ? v.data() : "";
  return check(sqlite3_bind_text(stmt_, next_++, text, static_cast<int>(v.size()), SQLITE_TRANSIENT));
}
Statement& Statement::bind_null() { return check(sqlite3_bind_null(stmt_, next_++)); }

bool Statement::step() {
  const BusyWait wait;
  for (int attempt = 0;; ++attempt) {
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    // Outside a transaction a busy statement can simply run again; inside one the transaction
    // holds the write lock (BEGIN IMMEDIATE), so a busy answer there is a real failure.
    const bool retry = is_busy(rc) && sqlite3_get_autocommit(db_) && wait.sleep(attempt);
    if (!retry) fail(db_, fmt::format("running `{}`", sqlite3_sql(stmt_)));
    sqlite3_reset(stmt_);
  }
}

void Statement::run() {
  while (step()) {
  }
}

int Statement::index(std::string_view column) const {
  for (std::size_t i = 0; i < names_.size(); ++i)
    if (names_[i] == column) return static_cast<int>(i);
  throw Error(fmt::format("internal: `{}` has no column '{}'", sqlite3_sql(stmt_), column));
}

bool Statement::is_null(std::string_view column) const {
  return sqlite3_column_type(stmt_, index(column)) == SQLITE_NULL;
}
std::int64_t Statement::i64(std::string_view column) const { return sqlite3_column_int64(stmt_, index(column)); }
std::uint64_t Statement::u64(std::string_view column) const { return static_cast<std::uint64_t>(i64(column)); }
int Statement::i32(std::string_view column) const { return sqlite3_column_int(stmt_, index(column)); }
double Statement::f64(std::string_view column) const { return sqlite3_column_double(stmt_, index(column)); }

std::string Statement::text(std::string_view column) const {
  const int i = index(column);
  const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, i));
  return p ? std::string(p, static_cast<std::size_t>(sqlite3_column_bytes(stmt_, i))) : std::string();
}

std::optional<std::int64_t> Statement::optional_i64(std::string_view column) const {
  if (is_null(column)) return std::nullopt;
  return i64(column);
}

std::optional<double> Statement::optional_f64(std::string_view column) const {
  if (is_null(column)) return std::nullopt;
  return f64(column);
}

}  // namespace roofline::detail
