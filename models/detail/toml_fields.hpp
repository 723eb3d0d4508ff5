#pragma once
// Typed field access on toml++ tables with errors that name the file, line and field.
// Shared by the GPU-file and kernel-spec parsers.
#include <toml++/toml.h>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "models/error.hpp"

namespace roofline::detail {

class TomlFields {
 public:
  // `context` prefixes field names in messages, e.g. "kernel 'add_f32'".
  TomlFields(const toml::table& table, std::string_view file, std::string context)
      : table_(table), file_(file), context_(std::move(context)) {}

  [[noreturn]] void fail(const toml::node* at, std::string_view field, std::string_view problem) const;
  [[noreturn]] void fail(std::string_view field, std::string_view problem) const { fail(&table_, field, problem); }

  std::optional<std::string> optional_string(std::string_view key) const;
  std::string required_string(std::string_view key) const;
  // Every number read has a range, [lo, hi], checked here as it is read: a value the model
  // cannot compute with fails with its file and line, not later in arithmetic or storage.
  std::optional<double> optional_number(std::string_view key, double lo, double hi) const;
  double required_number(std::string_view key, double lo, double hi) const;
  std::optional<std::int64_t> optional_int(std::string_view key, std::int64_t lo, std::int64_t hi) const;
  // Keys present in the table but not in `known` are errors (catches typos).
  void reject_unknown_keys(std::span<const std::string_view> known) const;
  void reject_unknown_keys(std::initializer_list<std::string_view> known) const {
    reject_unknown_keys(std::span<const std::string_view>(known.begin(), known.size()));
  }

  const toml::table& table() const { return table_; }
  std::string_view file() const { return file_; }
  const std::string& context() const { return context_; }

 private:
  const toml::table& table_;
  std::string_view file_;
  std::string context_;
};

// "file:line" for a node (line 0 when unknown).
std::string toml_location(std::string_view file, const toml::node* node);

// Parses TOML text, turning syntax errors into InputError "file:line:col: message".
toml::table parse_toml(std::string_view text, std::string_view file);

}  // namespace roofline::detail
