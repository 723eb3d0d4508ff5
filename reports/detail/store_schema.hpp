#pragma once
// The schema: what kind of file a path holds, its version, and the forward migrations
// (reports/sql/v1.sql ... compiled into the binary; each upgrades version N-1 to N).
#include <filesystem>

#include "reports/detail/store_connection.hpp"

namespace roofline::detail {

// Throws Error naming the file when it exists, is not empty and is not a roofline database (not
// an SQLite file, or another program's SQLite file). Looks through a read-only connection, so
// nothing is written to a file it refuses (only a rollback journal a killed writer left is rolled
// back first, as any SQLite program would, when `mode` is read_write).
void refuse_foreign_file(const std::filesystem::path& path, OpenMode mode);

// The file's schema version; 0 for an empty database.
int read_version(Connection& c);

// Upgrades the file to SqliteStore::kSchemaVersion in one transaction; throws when it is newer.
void migrate(Connection& c);

// Read-only: a file of an older schema is read through an in-memory copy upgraded to
// SqliteStore::kSchemaVersion (the file is left as it is); throws for an empty or newer file.
// Returns whether the copy was made.
bool read_as_current_version(Connection& c);

}  // namespace roofline::detail
