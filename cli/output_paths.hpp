#pragma once
// The files a command will write, checked before any work starts: a run that would fail on
// its last step, or overwrite one of its own outputs, fails at once instead.
#include <string>
#include <vector>

namespace roofline {

struct OutputFile {
  std::string what;  // as the user named it: "--html", "the chart of --md"
  std::string path;
};

// Throws InputError when a path to write is empty, is a directory or something other than a
// regular file, sits in a folder that does not exist or cannot be written, or names the same
// file as another path to write or a file the command reads (`read`: its database, spec).
void check_output_files(const std::vector<OutputFile>& written, const std::vector<OutputFile>& read = {});

// Why SQLite would keep no database at `path` ('', ':memory:', a "file:" URI: in-memory or
// temporary databases) or could not open one there (a directory, a device); "" when it could.
// A missing database is the store's to judge: commands that write create it, commands that
// read say it is missing.
std::string database_path_problem(const std::string& path);

}  // namespace roofline
