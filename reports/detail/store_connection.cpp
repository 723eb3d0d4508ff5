#include "reports/detail/store_connection.hpp"

#include <sqlite3.h>

#include <fmt/format.h>

#include "models/error.hpp"

namespace roofline::detail {
namespace {

// A file name as an SQLite URI path: everything but unreserved characters and '/' percent-encoded.
std::string uri_path(const std::filesystem::path& p) {
  std::string out;
  for (const unsigned char ch : std::filesystem::absolute(p).string()) {
    if (std::isalnum(ch) || ch == '/' || ch == '-' || ch == '_' || ch == '.' || ch == '~')
      out += static_cast<char>(ch);
    else
      out += fmt::format("%{:02X}", ch);
  }
  return out;
}

// A read-only connection to a WAL file still needs its -shm index, which SQLite creates next to
// the file; where the folder (or the -shm left behind) cannot be written, reading fails with one
// of these codes.
bool needs_writable_folder(int rc) {
  return (rc & 0xff) == SQLITE_READONLY || (rc & 0xff) == SQLITE_CANTOPEN;
}

// Commits still in the write-ahead log, or a rollback journal left by a writer that was killed:
// reading the file alone (immutable) would miss them or see half a transaction.
bool has_pending_log(const std::filesystem::path& db) {
  return has_side_file(db, "-wal") || has_side_file(db, "-journal");
}

}  // namespace

bool has_side_file(const std::filesystem::path& db, std::string_view suffix) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(db.string() + std::string(suffix), ec);
  return !ec && size > 0;
}

Connection::Connection(std::filesystem::path path, OpenMode mode) : path_(std::move(path)), mode_(mode) {
  if (mode_ == OpenMode::read_only)
    open_read_only();
  else
    open(SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, path_.string());
  exec("PRAGMA foreign_keys = ON");
  if (mode_ == OpenMode::read_only) {
    exec("PRAGMA query_only = ON");
    sqlite3_limit(db_, SQLITE_LIMIT_ATTACHED, 0);
  }
}

Connection::~Connection() {
  cache_.clear();
  if (!db_) return;
  // The last writer to close leaves the file in rollback-journal mode, so that reading it needs no
  // -wal and -shm files beside it (a read-only open of a WAL file creates them and cannot remove
  // them). Another connection still open keeps the file in WAL mode: the switch fails at once,
  // without waiting, and the next writer's open switches back anyway.
  if (mode_ == OpenMode::read_write) {
    sqlite3_busy_handler(db_, nullptr, nullptr);
    sqlite3_exec(db_, "PRAGMA journal_mode = DELETE", nullptr, nullptr, nullptr);
  }
  sqlite3_close_v2(db_);
}

void Connection::open(int flags, const std::string& name) {
  if (db_) sqlite3_close_v2(db_);
  db_ = nullptr;
  if (sqlite3_open_v2(name.c_str(), &db_, flags | SQLITE_OPEN_NOMUTEX, nullptr) != SQLITE_OK) {
    const std::string why = db_ ? sqlite3_errmsg(db_) : "out of memory";
    throw Error(fmt::format("cannot open the results database {}: {}", where(), why));
  }
  sqlite3_extended_result_codes(db_, 1);
  busy_.install(db_);
}

// Tries the ordinary way first (it sees commits still in the write-ahead log); where that needs a
// -shm file this user cannot create, reads the file as immutable, which needs none.
void Connection::open_read_only() {
  open(SQLITE_OPEN_READONLY, path_.string());
  const int rc = sqlite3_exec(db_, "SELECT count(*) FROM sqlite_master", nullptr, nullptr, nullptr);
  if (!needs_writable_folder(rc)) return;
  if (has_pending_log(path_))
    throw Error(fmt::format("cannot read {}: changes not yet in the file wait in its -wal or -journal file, and "
                            "reading them needs files that this user cannot create next to it; open it once as a "
                            "user who can write there (e.g. with `roofline run`), or copy the files to a folder you "
                            "can write",
                            where()));
  open(SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, "file:" + uri_path(path_) + "?immutable=1");
}

void Connection::copy_into_memory() {
  sqlite3* memory = nullptr;
  if (sqlite3_open_v2(":memory:", &memory, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nullptr) != SQLITE_OK) {
    sqlite3_close_v2(memory);
    throw Error(fmt::format("cannot read {}: out of memory", where()));
  }
  sqlite3_backup* copy = sqlite3_backup_init(memory, "main", db_, "main");
  const int rc = copy ? sqlite3_backup_step(copy, -1) : sqlite3_errcode(memory);
  sqlite3_backup_finish(copy);
  if (rc != SQLITE_DONE) {
    const std::string why = sqlite3_errmsg(memory);
    sqlite3_close_v2(memory);
    throw Error(fmt::format("cannot read {}: {}", where(), why));
  }
  cache_.clear();
  sqlite3_close_v2(db_);
  db_ = memory;
  sqlite3_extended_result_codes(db_, 1);
  busy_.install(db_);
  sqlite3_limit(db_, SQLITE_LIMIT_ATTACHED, 0);  // as the read-only file connection had it
  exec("PRAGMA foreign_keys = ON");
}

void Connection::require_writable() const {
  if (mode_ != OpenMode::read_write) throw Error(fmt::format("{} was opened read-only", where()));
}

Statement& Connection::stmt(std::string_view sql) {
  auto& s = cache_[std::string(sql)];
  if (!s) s = std::make_unique<Statement>(db_, sql);
  return s->reset();
}

void Connection::reset_all() {
  for (auto& entry : cache_) sqlite3_reset(entry.second->get());
}

void Connection::exec(std::string_view sql) {
  const std::string text(sql);
  const BusyWait wait;
  for (int attempt = 0;; ++attempt) {
    char* err = nullptr;
    const int rc = sqlite3_exec(db_, text.c_str(), nullptr, nullptr, &err);
    std::string msg = err ? err : sqlite3_errmsg(db_);
    sqlite3_free(err);
    if (rc == SQLITE_OK) return;
    // Busy outside a transaction (BEGIN, pragmas) or at COMMIT (which keeps the transaction open)
    // means another writer holds the lock: wait and run it again.
    const bool retry = is_busy(rc) && (sqlite3_get_autocommit(db_) || text == "COMMIT") && wait.sleep(attempt);
    if (!retry) throw Error("database: " + msg);
  }
}

Transaction::Transaction(Connection& c) : c_(c) { c_.exec("BEGIN IMMEDIATE"); }

Transaction::~Transaction() {
  if (!done_) sqlite3_exec(c_.db(), "ROLLBACK", nullptr, nullptr, nullptr);
}

void Transaction::commit() {
  c_.exec("COMMIT");
  done_ = true;
}

ReadSnapshot::ReadSnapshot(Connection& c) : c_(c) { c_.exec("BEGIN"); }

ReadSnapshot::~ReadSnapshot() {
  c_.reset_all();
  sqlite3_exec(c_.db(), "COMMIT", nullptr, nullptr, nullptr);
}

}  // namespace roofline::detail
