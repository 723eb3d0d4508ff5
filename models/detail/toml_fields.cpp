#include "models/detail/toml_fields.hpp"

#include <fmt/format.h>


namespace roofline::detail {

std::string toml_location(std::string_view file, const toml::node* node) {
  const auto line = node ? node->source().begin.line : 0;
  return fmt::format("{}:{}", file, line);
}

toml::table parse_toml(std::string_view text, std::string_view file) {
  try {
    return toml::parse(text, file);
  } catch (const toml::parse_error& e) {
    throw InputError(fmt::format("{}:{}:{}: {}", file, e.source().begin.line, e.source().begin.column,
                                 e.description()));
  }
}

void TomlFields::fail(const toml::node* at, std::string_view field, std::string_view problem) const {
  throw InputError(fmt::format("{}: {}{}{}: {}", toml_location(file_, at), context_, context_.empty() ? "" : ": ",
                               field, problem));
}

std::optional<std::string> TomlFields::optional_string(std::string_view key) const {
  const toml::node* n = table_.get(key);
  if (!n) return std::nullopt;
  if (const auto* s = n->as_string()) return s->get();
  fail(n, key, "expected a string");
}

std::string TomlFields::required_string(std::string_view key) const {
  auto s = optional_string(key);
  if (!s) fail(key, "missing (required)");
  return *s;
}

std::optional<double> TomlFields::optional_number(std::string_view key, double lo, double hi) const {
  const toml::node* n = table_.get(key);
  if (!n) return std::nullopt;
  double v = 0;
  if (const auto* i = n->as_integer()) v = static_cast<double>(i->get());
  else if (const auto* f = n->as_floating_point()) v = f->get();
  else fail(n, key, "expected a number");
  if (!(v >= lo && v <= hi)) fail(n, key, fmt::format("must be between {} and {}, got {}", lo, hi, v));  // NaN too
  return v;
}

double TomlFields::required_number(std::string_view key, double lo, double hi) const {
  auto v = optional_number(key, lo, hi);
  if (!v) fail(key, "missing (required)");
  return *v;
}

std::optional<std::int64_t> TomlFields::optional_int(std::string_view key, std::int64_t lo, std::int64_t hi) const {
  const toml::node* n = table_.get(key);
  if (!n) return std::nullopt;
  const auto* i = n->as_integer();
  if (!i) fail(n, key, "expected an integer");
  if (i->get() < lo || i->get() > hi) fail(n, key, fmt::format("must be between {} and {}, got {}", lo, hi, i->get()));
  return i->get();
}

void TomlFields::reject_unknown_keys(std::span<const std::string_view> known) const {
  for (const auto& [k, v] : table_) {
    bool ok = false;
    for (auto name : known) ok = ok || name == k.str();
    if (!ok) fail(&v, k.str(), "unknown field");
  }
}

}  // namespace roofline::detail
