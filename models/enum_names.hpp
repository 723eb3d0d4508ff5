#pragma once
// One table of {value, name} per enum, and the lookups every to_string / *_from_string uses.
// The names are stored in databases and JSON files: a spelling never changes once released.
#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "models/error.hpp"

namespace roofline {

template <typename E>
struct EnumName {
  E value;
  std::string_view name;
};

template <typename E, std::size_t N>
using EnumNames = std::array<EnumName<E>, N>;

// The name of value; "?" for a value the table lacks (a table missing an enumerator).
template <typename E, std::size_t N>
constexpr std::string_view name_of(const EnumNames<E, N>& names, E value) {
  for (const auto& n : names)
    if (n.value == value) return n.name;
  return "?";
}

// The value spelled name; nullopt when none is.
template <typename E, std::size_t N>
constexpr std::optional<E> find_value(const EnumNames<E, N>& names, std::string_view name) {
  for (const auto& n : names)
    if (n.name == name) return n.value;
  return std::nullopt;
}

// "a, b or c": the names in table order, for messages.
template <typename E, std::size_t N>
std::string name_list(const EnumNames<E, N>& names) {
  std::string out;
  for (std::size_t i = 0; i < N; ++i) {
    if (i > 0) out += i + 1 == N ? " or " : ", ";
    out += names[i].name;
  }
  return out;
}

// The value spelled name; throws InputError "unknown <what> '<name>' (expected a, b or c)".
template <typename E, std::size_t N>
E value_of(const EnumNames<E, N>& names, std::string_view name, std::string_view what) {
  if (auto v = find_value(names, name)) return *v;
  throw InputError("unknown " + std::string(what) + " '" + std::string(name) + "' (expected " + name_list(names) +
                   ")");
}

}  // namespace roofline
