#include "reports/detail/store_query.hpp"

#include <sqlite3.h>

#include <memory>
#include <vector>

#include <fmt/format.h>

#include "models/error.hpp"
#include "reports/detail/busy_wait.hpp"

namespace roofline::detail {
namespace {

using StatementPtr = std::unique_ptr<sqlite3_stmt, int (*)(sqlite3_stmt*)>;

// The next statement of `sql` from `p` on (nullptr when only whitespace and comments remain);
// moves `p` past it.
StatementPtr prepare_next(const Connection& c, const char*& p, const char* end) {
  while (p < end) {
    sqlite3_stmt* raw = nullptr;
    const char* tail = nullptr;
    if (sqlite3_prepare_v2(c.db(), p, static_cast<int>(end - p), &raw, &tail) != SQLITE_OK)
      throw Error(fmt::format("query: {}", sqlite3_errmsg(c.db())));
    p = tail;
    if (raw) return {raw, sqlite3_finalize};
  }
  return {nullptr, sqlite3_finalize};
}

// Whether a statement follows; one that cannot be prepared yet (it may use a table an earlier
// statement creates) counts as one.
bool more_follows(const Connection& c, const char* p, const char* end) {
  try {
    return prepare_next(c, p, end) != nullptr;
  } catch (const Error&) {
    return true;
  }
}

std::vector<QueryValue> read_row(sqlite3_stmt* st, int ncol) {
  std::vector<QueryValue> row;
  row.reserve(static_cast<std::size_t>(ncol));
  for (int i = 0; i < ncol; ++i) {
    switch (sqlite3_column_type(st, i)) {
      case SQLITE_NULL: row.emplace_back(std::monostate{}); break;
      case SQLITE_INTEGER: row.emplace_back(static_cast<std::int64_t>(sqlite3_column_int64(st, i))); break;
      case SQLITE_FLOAT: row.emplace_back(sqlite3_column_double(st, i)); break;
      default: {
        const auto* t = static_cast<const char*>(sqlite3_column_blob(st, i));
        row.emplace_back(std::string(t ? t : "", static_cast<std::size_t>(sqlite3_column_bytes(st, i))));
      }
    }
  }
  return row;
}

[[noreturn]] void step_failed(const Connection& c) {
  const int code = sqlite3_extended_errcode(c.db());
  if (c.mode() == OpenMode::read_only && (code & 0xff) == SQLITE_READONLY)
    throw Error(fmt::format("query: the database is opened read-only; nothing was changed ({})",
                            sqlite3_errmsg(c.db())));
  throw Error(fmt::format("query: {}", sqlite3_errmsg(c.db())));
}

// Steps one statement to its end; rows go to `sink` when given. A statement that finds the file
// busy before it produced anything waits and starts again.
void run_statement(const Connection& c, sqlite3_stmt* st, QueryRowSink* sink) {
  const int ncol = sqlite3_column_count(st);
  if (sink) {
    std::vector<std::string> names;
    for (int i = 0; i < ncol; ++i) names.emplace_back(sqlite3_column_name(st, i));
    sink->columns(names);
  }
  const BusyWait wait;
  bool produced = false;
  for (int attempt = 0;;) {
    const int rc = sqlite3_step(st);
    if (rc == SQLITE_DONE) return;
    if (rc == SQLITE_ROW) {
      produced = true;
      if (sink) sink->row(read_row(st, ncol));
      continue;
    }
    if (!(is_busy(rc) && !produced && sqlite3_get_autocommit(c.db()) && wait.sleep(attempt++))) step_failed(c);
    sqlite3_reset(st);
  }
}

}  // namespace

void run_query(Connection& c, std::string_view sql, QueryRowSink& sink) {
  const char* p = sql.data();
  const char* const end = sql.data() + sql.size();
  bool any = false;
  while (auto st = prepare_next(c, p, end)) {
    if (c.mode() == OpenMode::read_only && !sqlite3_stmt_readonly(st.get()))
      throw Error(fmt::format("query: the database is opened read-only and `{}` would change it; nothing was "
                              "changed",
                              sqlite3_sql(st.get())));
    const bool last = !more_follows(c, p, end);
    run_statement(c, st.get(), last ? &sink : nullptr);
    any = any || last;
  }
  if (!any) sink.columns({});
}

}  // namespace roofline::detail
