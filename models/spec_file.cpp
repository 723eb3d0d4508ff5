#include "models/spec_file.hpp"

#include <fmt/format.h>

#include <array>
#include <cctype>
#include <fstream>
#include <initializer_list>
#include <span>
#include <sstream>
#include <unordered_map>
#include <vector>

#include "models/detail/toml_fields.hpp"
#include "models/error.hpp"

namespace roofline {
namespace {
using detail::TomlFields;

// The range of every numeric field (docs/kernel-spec.md lists them). They keep every count the
// model derives from a launch finite and exact: flops and instructions per element or thread,
// times at most 2^62 elements, stay far below a double's range.
constexpr double kMaxFlopsPerElement = 1e6;
constexpr double kMaxInstructions = 1e9;  // per thread, and per loop iteration

bool valid_name(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.')) return false;
  return true;
}

DType parse_dtype(const TomlFields& f, const toml::node* at, std::string_view field, std::string_view text) {
  if (auto t = dtype_from_string(text)) return *t;
  f.fail(at, field, fmt::format("unknown type \"{}\" (known: f32, f16, bf16, fp8_e4m3, f64, i32, u8)", text));
}

// Iterates an array of inline tables, giving each a TomlFields with an indexed field name.
template <typename Fn>
void for_each_table(const TomlFields& f, std::string_view key, bool required, Fn&& fn) {
  const toml::node* n = f.table().get(key);
  if (!n) {
    if (required) f.fail(key, "missing (required)");
    return;
  }
  const auto* arr = n->as_array();
  if (!arr) f.fail(n, key, "expected an array of tables");
  if (required && arr->empty()) f.fail(n, key, "must not be empty");
  for (std::size_t i = 0; i < arr->size(); ++i) {
    const auto* t = (*arr)[i].as_table();
    const std::string field = fmt::format("{}[{}]", key, i);
    if (!t) f.fail(&(*arr)[i], field, "expected a table");
    fn(TomlFields(*t, f.file(), f.context() + ": " + field), i);
  }
}

// BEGIN spec-v2 interim (patterns suite): the keys of the extended format the patterns specs
// already use (shape, shared, atomics, per-array per_element, ...) are accepted and ignored
// until the parser reads them; replace this block then. Until then grid = "per-row" reads as
// one-shot, the same grid when elements_per_thread x block = cols.
constexpr std::array<std::string_view, 4> kV2KernelKeys = {"held_out", "shape", "cols", "sizes"};
constexpr std::array<std::string_view, 5> kV2PassKeys = {"grid_blocks", "inst_per_block", "barriers_per_block",
                                                         "shared", "atomics"};
constexpr std::array<std::string_view, 6> kV2ArrayKeys = {"per_element", "times", "elements",
                                                          "pattern", "reuse", "depends_on"};
constexpr std::array<std::string_view, 1> kV2FlopKeys = {"times"};

std::vector<std::string_view> with_v2(std::initializer_list<std::string_view> known,
                                      std::span<const std::string_view> v2) {
  std::vector<std::string_view> all(known);
  all.insert(all.end(), v2.begin(), v2.end());
  return all;
}
// END spec-v2 interim

ArrayAccess parse_array(const TomlFields& f) {
  f.reject_unknown_keys(with_v2({"name", "op", "type", "vector", "stride", "hint"}, kV2ArrayKeys));
  ArrayAccess a;
  a.name = f.required_string("name");
  const auto op = f.required_string("op");
  if (op == "load") a.op = AccessOp::load;
  else if (op == "store") a.op = AccessOp::store;
  else f.fail(f.table().get("op"), "op", fmt::format("expected \"load\" or \"store\", got \"{}\"", op));
  if (auto t = f.optional_string("type")) a.type = parse_dtype(f, f.table().get("type"), "type", *t);
  a.vector = static_cast<int>(f.optional_int("vector", 1, 64).value_or(1));
  a.stride = static_cast<int>(f.optional_int("stride", 1, 1 << 20).value_or(0));
  const auto hint = f.optional_string("hint").value_or("normal");
  if (hint == "normal") a.hint = CacheHint::normal;
  else if (hint == "streaming") a.hint = CacheHint::streaming;
  else if (hint == "last-use") a.hint = CacheHint::last_use;
  else f.fail(f.table().get("hint"), "hint", fmt::format("expected normal, streaming or last-use, got \"{}\"", hint));
  return a;
}

FlopCount parse_flop(const TomlFields& f) {
  f.reject_unknown_keys(with_v2({"type", "op", "per_element", "packed"}, kV2FlopKeys));
  FlopCount c;
  c.type = parse_dtype(f, f.table().get("type"), "type", f.required_string("type"));
  const auto op = f.required_string("op");
  if (op == "add") c.op = FlopOp::add;
  else if (op == "mul") c.op = FlopOp::mul;
  else if (op == "fma") c.op = FlopOp::fma;
  else f.fail(f.table().get("op"), "op", fmt::format("expected add, mul or fma, got \"{}\"", op));
  c.per_element = f.required_number("per_element", 0, kMaxFlopsPerElement);
  c.packed = static_cast<int>(f.optional_int("packed", 1, 16).value_or(1));
  return c;
}

constexpr std::array<std::string_view, 10> kPassKeys = {
    "symbol", "elements_per_thread", "ilp", "grid", "inst_per_thread", "inst_per_iteration",
    "registers", "shared_bytes", "arrays", "flops"};

KernelPass parse_pass(const TomlFields& f) {
  KernelPass p;
  p.symbol = f.optional_string("symbol").value_or("");
  p.elements_per_thread = static_cast<int>(f.optional_int("elements_per_thread", 1, 1024).value_or(1));
  p.ilp = static_cast<int>(f.optional_int("ilp", 1, 64).value_or(1));
  const auto grid = f.optional_string("grid").value_or("one-shot");
  if (grid == "one-shot" || grid == "per-row") p.grid = GridPolicy::one_shot;  // per-row: spec-v2 interim
  else if (grid == "grid-stride") p.grid = GridPolicy::grid_stride;
  else f.fail(f.table().get("grid"), "grid", fmt::format("expected one-shot or grid-stride, got \"{}\"", grid));
  for (auto key : {"inst_per_thread", "inst_per_iteration"}) {
    const double v = f.optional_number(key, 0, kMaxInstructions).value_or(0.0);
    (std::string_view(key) == "inst_per_thread" ? p.inst_per_thread : p.inst_per_iteration) = v;
  }
  p.registers = static_cast<int>(f.optional_int("registers", 0, 255).value_or(0));
  if (p.registers > 0) p.registers_source = Source::spec_file;
  p.static_shared_bytes = static_cast<int>(f.optional_int("shared_bytes", 0, 1 << 20).value_or(0));
  for_each_table(f, "arrays", true, [&](const TomlFields& a, std::size_t) { p.arrays.push_back(parse_array(a)); });
  for_each_table(f, "flops", false, [&](const TomlFields& c, std::size_t) { p.flops.push_back(parse_flop(c)); });
  const toml::node* arrays = f.table().get("arrays");
  for (std::size_t i = 0; i < p.arrays.size(); ++i) {
    const auto& a = p.arrays[i];
    const toml::node* at = (*arrays->as_array())[i].as_table();
    if (p.elements_per_thread % a.vector != 0)
      f.fail(at, fmt::format("arrays[{}].vector", i),
             fmt::format("elements_per_thread ({}) must be a multiple of vector ({})", p.elements_per_thread, a.vector));
    if (thread_stride(a, p) < p.elements_per_thread)
      f.fail(at, fmt::format("arrays[{}].stride", i),
             fmt::format("must be at least elements_per_thread ({}): neighbouring threads' elements would overlap",
                         p.elements_per_thread));
  }
  return p;
}

KernelSpec parse_kernel(const toml::table& t, std::string_view file, std::size_t index) {
  const std::string name = t["name"].value<std::string>().value_or("");
  TomlFields f(t, file, name.empty() ? fmt::format("kernel[{}]", index) : fmt::format("kernel '{}'", name));
  KernelSpec k;
  k.name = f.required_string("name");
  if (!valid_name(k.name)) f.fail(t.get("name"), "name", "use letters, digits, '_', '-' or '.'");
  k.description = f.optional_string("description").value_or("");
  k.category = f.optional_string("category").value_or("user");
  k.origin = f.optional_string("origin").value_or(fmt::format("spec file {}", file));
  k.default_block = static_cast<int>(f.optional_int("block", 32, 1024).value_or(256));
  if (k.default_block % 32) f.fail(t.get("block"), "block", fmt::format("must be a multiple of 32, got {}", k.default_block));

  const toml::node* dt = t.get("dtypes");
  if (!dt) f.fail("dtypes", "missing (required)");
  const auto* arr = dt->as_array();
  if (!arr || arr->empty()) f.fail(dt, "dtypes", "expected a non-empty array of type names");
  for (const auto& e : *arr) {
    const auto s = e.value<std::string>();
    if (!s) f.fail(&e, "dtypes", "expected type names (strings)");
    k.dtypes.push_back(parse_dtype(f, &e, "dtypes", *s));
  }

  if (const toml::node* passes = t.get("pass")) {
    for (auto key : kPassKeys)
      if (t.contains(key)) f.fail(t.get(key), key, "belongs in each [[kernel.pass]] when passes are listed");
    f.reject_unknown_keys(with_v2({"name", "description", "category", "origin", "block", "dtypes", "pass"},
                                  kV2KernelKeys));
    const auto* list = passes->as_array();
    if (!list || list->empty()) f.fail(passes, "pass", "expected [[kernel.pass]] tables");
    for (std::size_t i = 0; i < list->size(); ++i) {
      const auto* pt = (*list)[i].as_table();
      if (!pt) f.fail(&(*list)[i], fmt::format("pass[{}]", i), "expected a table");
      TomlFields pf(*pt, file, fmt::format("{}: pass[{}]", f.context(), i));
      std::vector<std::string_view> pass_keys(kPassKeys.begin(), kPassKeys.end());
      pass_keys.insert(pass_keys.end(), kV2PassKeys.begin(), kV2PassKeys.end());  // spec-v2 interim
      pf.reject_unknown_keys(pass_keys);
      k.passes.push_back(parse_pass(pf));
    }
  } else {
    std::vector<std::string_view> known = {"name", "description", "category", "origin", "block", "dtypes"};
    known.insert(known.end(), kPassKeys.begin(), kPassKeys.end());
    known.insert(known.end(), kV2KernelKeys.begin(), kV2KernelKeys.end());  // spec-v2 interim
    known.insert(known.end(), kV2PassKeys.begin(), kV2PassKeys.end());      // spec-v2 interim
    f.reject_unknown_keys(known);
    k.passes.push_back(parse_pass(f));
  }
  return k;
}
}  // namespace

std::vector<KernelSpec> parse_kernel_specs(std::string_view text, std::string_view file_name) {
  const toml::table root = detail::parse_toml(text, file_name);
  for (const auto& [key, v] : root)
    if (key.str() != "kernel")
      throw InputError(fmt::format("{}: {}: unknown top-level field (expected [[kernel]] tables)",
                                   detail::toml_location(file_name, &v), key.str()));
  const auto* list = root["kernel"].as_array();
  if (!list || list->empty())
    throw InputError(fmt::format("{}:1: no [[kernel]] table found", file_name));
  std::vector<KernelSpec> out;
  std::unordered_map<std::string, const toml::table*> defined;  // name -> its first table: one look-up per kernel
  for (std::size_t i = 0; i < list->size(); ++i) {
    const auto* t = (*list)[i].as_table();
    if (!t) throw InputError(fmt::format("{}: kernel[{}]: expected a table", detail::toml_location(file_name, &(*list)[i]), i));
    out.push_back(parse_kernel(*t, file_name, i));
    if (const auto [first, added] = defined.emplace(out.back().name, t); !added)
      throw InputError(fmt::format("{}: kernel '{}': name: defined twice (first at line {})",
                                   detail::toml_location(file_name, t), out.back().name,
                                   first->second->source().begin.line));
  }
  return out;
}

std::vector<KernelSpec> load_kernel_spec_file(const std::filesystem::path& path) {
  // Only a regular file: a directory reads as empty and a device such as /dev/zero never ends.
  std::error_code ec;
  const auto type = std::filesystem::status(path, ec).type();
  if (type == std::filesystem::file_type::not_found)
    throw InputError(fmt::format("spec file '{}' does not exist", path.string()));
  if (type == std::filesystem::file_type::directory)
    throw InputError(fmt::format("spec file '{}' is a directory, not a TOML file", path.string()));
  if (!ec && type != std::filesystem::file_type::regular)
    throw InputError(fmt::format("spec file '{}' is not a regular file", path.string()));
  std::ifstream in(path);
  if (!in) throw InputError(fmt::format("cannot open spec file '{}'", path.string()));
  std::ostringstream text;
  text << in.rdbuf();
  return parse_kernel_specs(text.str(), path.string());
}

}  // namespace roofline
