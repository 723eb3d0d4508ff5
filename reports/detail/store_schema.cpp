#include "reports/detail/store_schema.hpp"

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "models/embedded_file.hpp"
#include "models/error.hpp"

namespace roofline {
std::vector<EmbeddedFile> store_migration_files();  // generated from reports/sql/*.sql
}

namespace roofline::detail {
namespace {

constexpr std::string_view kSqliteMagic{"SQLite format 3\0", 16};

// The first bytes of a file that is not SQLite, printable, to say what it is.
std::string opening_of(const std::string& head) {
  std::string shown;
  for (const char ch : head.substr(0, 40)) shown += (ch >= 32 && ch < 127) ? ch : '.';
  return shown;
}

void refuse_non_sqlite(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return;  // unreadable: the open that follows says why
  std::string head(kSqliteMagic.size(), '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(in.gcount()));
  if (head.empty() || head == kSqliteMagic) return;
  throw Error(fmt::format("{} is not a roofline results database: it is not an SQLite file at all (it begins "
                          "\"{}\"); nothing was written to it. Pass --db with another file name",
                          path.string(), opening_of(head)));
}

std::vector<std::string> table_names(Connection& c) {
  std::vector<std::string> names;
  Statement s(c.db(), "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name");
  while (s.step()) names.push_back(s.text("name"));
  return names;
}

void refuse_newer(const Connection& c, int v) {
  if (v > SqliteStore::kSchemaVersion)
    throw Error(fmt::format("{} has schema version {}, newer than version {} that this roofline understands; "
                            "use a newer roofline to read it",
                            c.where(), v, SqliteStore::kSchemaVersion));
}

// The migrations in version order: v1.sql, v2.sql, ...
std::vector<std::string_view> migrations() {
  auto files = store_migration_files();
  auto version_of = [](const EmbeddedFile& f) { return std::stoi(std::string(f.name.substr(1))); };
  std::sort(files.begin(), files.end(), [&](const auto& a, const auto& b) { return version_of(a) < version_of(b); });
  std::vector<std::string_view> sql;
  for (const auto& f : files) {
    if (version_of(f) != static_cast<int>(sql.size()) + 1) throw Error("internal: the schema migrations have a gap");
    sql.push_back(f.text);
  }
  if (sql.size() != static_cast<std::size_t>(SqliteStore::kSchemaVersion))
    throw Error("internal: the migrations do not reach SqliteStore::kSchemaVersion");
  return sql;
}

}  // namespace

void refuse_foreign_file(const std::filesystem::path& path, OpenMode mode) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec) || std::filesystem::file_size(path, ec) == 0) return;
  refuse_non_sqlite(path);
  // A rollback journal left by a killed writer must be rolled back before the file can be read:
  // SQLite does that on a writable connection, restoring what was last committed and nothing more.
  const bool hot_journal = mode == OpenMode::read_write && has_side_file(path, "-journal");
  Connection look(path, hot_journal ? OpenMode::read_write : OpenMode::read_only);
  const auto tables = table_names(look);
  if (tables.empty() || std::find(tables.begin(), tables.end(), "schema_version") != tables.end()) return;
  std::string list;
  for (std::size_t i = 0; i < tables.size() && i < 5; ++i) list += (i ? ", " : "") + tables[i];
  if (tables.size() > 5) list += ", ...";
  throw Error(fmt::format("{} is an SQLite database of another program (tables: {}), not a roofline results "
                          "database; nothing was written to it. Pass --db with another file name",
                          path.string(), list));
}

int read_version(Connection& c) {
  Statement t(c.db(), "SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'");
  t.step();
  if (t.i64("n") == 0) return 0;
  Statement v(c.db(), "SELECT coalesce(max(version), 0) AS version FROM schema_version");
  v.step();
  return v.i32("version");
}

void migrate(Connection& c) {
  c.version = read_version(c);
  refuse_newer(c, c.version);
  if (c.version == SqliteStore::kSchemaVersion) return;  // the usual case: no write lock needed
  const auto sql = migrations();
  Transaction tx(c);
  int v = read_version(c);  // again, under the write lock: another process may have upgraded
  refuse_newer(c, v);
  for (; v < SqliteStore::kSchemaVersion; ++v) {
    c.exec(sql[static_cast<std::size_t>(v)]);
    Statement ins(c.db(),
                  "INSERT INTO schema_version(version, applied_at) VALUES (?, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))");
    ins.bind(v + 1).run();
  }
  tx.commit();
  c.version = v;
}

bool read_as_current_version(Connection& c) {
  c.version = read_version(c);
  refuse_newer(c, c.version);
  if (c.version == 0) throw Error(fmt::format("{} is empty, not a roofline results database", c.where()));
  if (c.version == SqliteStore::kSchemaVersion) return false;
  c.copy_into_memory();
  migrate(c);
  c.exec("PRAGMA query_only = ON");
  return true;
}

}  // namespace roofline::detail
