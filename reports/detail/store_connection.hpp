#pragma once
// Connection: one open results database. Opening checks, before anything is written, that the
// file is a roofline database (or empty, or absent); sets the pragmas; waits for other writers
// (busy_wait.hpp); and reads a file that this user cannot write, or that sits in a folder this
// user cannot write, without creating its -wal/-shm files. Also: the statement cache, exec and
// Transaction.
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>

#include "reports/detail/busy_wait.hpp"
#include "reports/detail/store_statement.hpp"
#include "reports/sqlite_store.hpp"

namespace roofline::detail {

class Connection {
 public:
  // Opens without checking or changing the schema (store_schema.hpp does that).
  Connection(std::filesystem::path path, OpenMode mode);
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  sqlite3* db() const { return db_; }
  const std::filesystem::path& path() const { return path_; }
  OpenMode mode() const { return mode_; }
  std::string where() const { return path_.string(); }
  void require_writable() const;

  // A cached statement, reset and unbound; valid until the connection closes.
  Statement& stmt(std::string_view sql);
  // Rewinds every cached statement so that none keeps a read snapshot open after a call.
  void reset_all();
  void exec(std::string_view sql);

  // Replaces the connection by an in-memory copy of the file, which can then be upgraded without
  // touching the file (a read-only open of an older schema). Call before any statement is cached.
  void copy_into_memory();

  int version = 0;  // the schema version, once read

 private:
  void open(int flags, const std::string& name);
  void open_read_only();

  std::filesystem::path path_;
  OpenMode mode_;
  sqlite3* db_ = nullptr;
  BusyHandler busy_;
  std::unordered_map<std::string, std::unique_ptr<Statement>> cache_;
};

// Whether a non-empty side file (suffix "-wal", "-journal") lies next to the database.
bool has_side_file(const std::filesystem::path& db, std::string_view suffix);

// Rewinds the connection's statements when a store call returns or throws.
struct ResetOnExit {
  Connection& c;
  ~ResetOnExit() { c.reset_all(); }
};

// BEGIN IMMEDIATE ... COMMIT, rolled back when an exception leaves the scope. IMMEDIATE takes the
// write lock up front, so concurrent writers queue (and retry) at BEGIN instead of failing later;
// a COMMIT that finds the file busy is retried too (it keeps the transaction open).
class Transaction {
 public:
  explicit Transaction(Connection& c);
  ~Transaction();
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  void commit();

 private:
  Connection& c_;
  bool done_ = false;
};

// A read transaction, so that several SELECTs see one snapshot while writers go on.
class ReadSnapshot {
 public:
  explicit ReadSnapshot(Connection& c);
  ~ReadSnapshot();
  ReadSnapshot(const ReadSnapshot&) = delete;
  ReadSnapshot& operator=(const ReadSnapshot&) = delete;

 private:
  Connection& c_;
};

}  // namespace roofline::detail
