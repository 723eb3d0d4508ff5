#include "models/spec_file.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <fstream>
#include <sstream>
#include <unordered_map>

#include "models/detail/spec_enum_names.hpp"
#include "models/detail/toml_fields.hpp"
#include "models/error.hpp"

namespace roofline {
namespace {
using namespace detail;

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

// An optional enum-valued string field, spelled as in the enum's name table.
template <typename E, std::size_t N>
E enum_field(const TomlFields& f, std::string_view key, const EnumNames<E, N>& names, E fallback) {
  const auto text = f.optional_string(key);
  if (!text) return fallback;
  if (auto v = find_value(names, *text)) return *v;
  f.fail(f.table().get(key), key, fmt::format("expected {}, got \"{}\"", name_list(names), *text));
}

// The same field, required.
template <typename E, std::size_t N>
E required_enum_field(const TomlFields& f, std::string_view key, const EnumNames<E, N>& names) {
  f.required_string(key);
  return enum_field(f, key, names, names.front().value);
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

std::optional<double> dimension_factor(std::string_view text, std::string_view dim, double hi, bool times);

// Accesses per logical element (a stencil's 5, an SGEMM's per-K counts): finite and bounded.
constexpr double kMaxAccessesPerElement = 1e6;
// Accesses a thread or a warp makes outside the element loop (its results, a row's offsets).
constexpr double kMaxAccessesOutsideLoop = 1024;
// Requests one L1 sector serves: a block's 32 warps, each walking along a sector of 1-byte
// elements, 32 x 32.
constexpr double kMaxL1Reuse = 1024;

// per_thread / per_warp: accesses outside the element loop, which replace per_element. They are
// counted whatever n, on consecutive elements (lanes, or warps, one after another), so the keys
// that shape an element's accesses do not apply.
void parse_outside_loop(const TomlFields& f, ArrayAccess& a) {
  auto count = [&](std::string_view key) {
    const std::optional<double> v = f.optional_number(key, 0, kMaxAccessesOutsideLoop);
    if (v && *v <= 0) f.fail(f.table().get(key), key, "must be more than 0");
    return v.value_or(0.0);
  };
  a.per_thread = count("per_thread");
  a.per_warp = count("per_warp");
  if (!a.outside_loop()) return;
  const std::string_view key = a.per_thread ? "per_thread" : "per_warp";
  if (a.op != AccessOp::store)
    f.fail(f.table().get(key), key,
           "is for stores (a result stored after a loop, lane 0's store); a load once per thread is "
           "per_element = 1 / elements_per_thread");
  if (a.per_thread && a.per_warp) f.fail(f.table().get("per_warp"), "per_warp", "give per_thread or per_warp, not both");
  for (std::string_view other : {"per_element", "times", "stride", "offset", "lanes_per_row", "pattern", "reuse"})
    if (f.table().get(other))
      f.fail(f.table().get(other), other,
             fmt::format("does not apply with {}: an access outside the element loop is counted per {}, on "
                         "consecutive elements", key, a.per_thread ? "thread" : "warp"));
  a.per_element = 0;
}

ArrayAccess parse_array(const TomlFields& f) {
  f.reject_unknown_keys({"name", "op", "type", "vector", "stride", "offset", "lanes_per_row", "hint", "per_element",
                         "per_thread", "per_warp", "times", "elements", "pattern", "reuse", "depends_on", "l1_reuse",
                         "indices", "fields"});
  ArrayAccess a;
  a.name = f.required_string("name");
  a.op = required_enum_field(f, "op", kAccessOpNames);
  if (auto t = f.optional_string("type")) a.type = parse_dtype(f, f.table().get("type"), "type", *t);
  a.vector = static_cast<int>(f.optional_int("vector", 1, 64).value_or(1));
  a.stride = static_cast<int>(f.optional_int("stride", 1, 1 << 20).value_or(0));
  a.offset = static_cast<int>(f.optional_int("offset", -1024, 1024).value_or(0));
  a.lanes_per_row = static_cast<int>(f.optional_int("lanes_per_row", 1, 32).value_or(32));
  a.hint = enum_field(f, "hint", kCacheHintNames, CacheHint::normal);
  a.per_element = f.optional_number("per_element", 0, kMaxAccessesPerElement).value_or(1.0);
  a.times = enum_field(f, "times", kScaleNames, Scale::one);
  a.pattern = enum_field(f, "pattern", kAccessPatternNames, AccessPattern::contiguous);
  a.reuse = enum_field(f, "reuse", kReuseNames, Reuse::none);
  a.depends_on = f.optional_string("depends_on").value_or("");
  a.l1_reuse = f.optional_number("l1_reuse", 1, kMaxL1Reuse).value_or(1.0);
  a.fields = static_cast<int>(f.optional_int("fields", 1, 64).value_or(1));
  parse_outside_loop(f, a);
  if (a.fields > 1) {
    const toml::node* at = f.table().get("fields");
    if (a.op != AccessOp::store)
      f.fail(at, "fields", "is for stores (a load of further fields is an entry with reuse = \"l1\")");
    if (a.pattern != AccessPattern::contiguous || a.outside_loop() || a.per_element != 1 || a.times != Scale::one)
      f.fail(at, "fields",
             "applies to a contiguous store made once per element (one structure per element, its fields one "
             "instruction each)");
    if (a.stride < a.fields * a.vector)
      f.fail(at, "fields",
             fmt::format("needs stride: the elements of each element's structure, at least fields x vector ({})",
                         a.fields * a.vector));
  }
  if (a.offset != 0 && a.pattern != AccessPattern::contiguous)
    f.fail(f.table().get("offset"), "offset", "applies to contiguous accesses (lanes on consecutive elements)");
  if (a.lanes_per_row != 32 && a.pattern != AccessPattern::contiguous)
    f.fail(f.table().get("lanes_per_row"), "lanes_per_row", "applies to contiguous accesses (lanes on consecutive elements)");
  if (32 % a.lanes_per_row != 0)
    f.fail(f.table().get("lanes_per_row"), "lanes_per_row",
           fmt::format("must divide the warp's 32 lanes (1, 2, 4, 8, 16 or 32), got {}", a.lanes_per_row));
  if (const toml::node* e = f.table().get("elements")) {
    if (auto count = e->value<std::int64_t>()) {
      if (*count < 1) f.fail(e, "elements", fmt::format("must be at least 1, got {}", *count));
      a.elements = ArrayExtent{ArrayExtent::Of::count, *count};
    } else if (auto dim = e->value<std::string>(); dim && find_value(kArrayExtentNames, *dim)) {
      a.elements = ArrayExtent{*find_value(kArrayExtentNames, *dim), 0};
    } else if (auto share = dim ? dimension_factor(*dim, "n", 1e15, true) : std::nullopt) {
      a.elements = ArrayExtent{ArrayExtent::Of::n, 0, *share};
    } else {
      f.fail(e, "elements",
             "expected \"n\", \"n / K\", \"K * n\", \"rows\", \"cols\" or a whole number of elements");
    }
  }
  if (const auto indices = f.optional_string("indices")) {
    if (*indices != "uniform")
      f.fail(f.table().get("indices"), "indices", fmt::format("expected \"uniform\", got \"{}\"", *indices));
    if (a.depends_on.empty())
      f.fail(f.table().get("indices"), "indices",
             "describes the index values a load's address comes from: give depends_on");
    if (!a.elements)
      f.fail(f.table().get("indices"), "indices", "needs elements: the table whose rows the indices are drawn from");
    a.uniform_indices = true;
  }
  return a;
}

// "cols / 32", "2 * cols", "cols" or a plain number.
// `dim`, "dim / K" or, where `times` allows it, "K * dim" (spaces ignored), K a number in
// (0, hi]: the factor on the launch dimension `dim`; nullopt for any other text.
std::optional<double> dimension_factor(std::string_view text, std::string_view dim, double hi, bool times) {
  std::string t;
  for (char c : text)
    if (c != ' ') t += c;
  auto number = [&](std::string_view s) -> std::optional<double> {
    try {
      std::size_t used = 0;
      const double v = std::stod(std::string(s), &used);
      if (used == s.size() && v > 0 && v <= hi) return v;
    } catch (const std::exception&) {
    }
    return std::nullopt;
  };
  const std::string over = fmt::format("{}/", dim), by = fmt::format("*{}", dim);
  if (t == dim) return 1.0;
  if (t.starts_with(over))
    if (auto k = number(std::string_view(t).substr(over.size()))) return 1 / *k;
  if (times && t.ends_with(by)) return number(std::string_view(t).substr(0, t.size() - by.size()));
  return std::nullopt;
}

std::optional<ScaledCount> parse_scaled_count(const TomlFields& f, std::string_view key, double hi) {
  const toml::node* n = f.table().get(key);
  if (!n) return std::nullopt;
  if (n->is_number()) return ScaledCount{f.required_number(key, 0, hi), Scale::one};
  const auto text = n->value<std::string>();
  const auto factor = text ? dimension_factor(*text, "cols", hi, true) : std::nullopt;
  if (!factor) f.fail(n, key, "expected a number, \"cols\", \"cols / K\" or \"K * cols\"");
  return ScaledCount{*factor, Scale::cols};
}

SharedAccess parse_shared(const TomlFields& f) {
  f.reject_unknown_keys({"op", "per_element", "per_block", "times", "vector", "ways", "type", "pattern"});
  SharedAccess s;
  const auto op = f.required_string("op");
  if (op == "atomic") s.atomic = true;
  else s.op = enum_field(f, "op", kAccessOpNames, AccessOp::load);
  s.per_element = f.optional_number("per_element", 0, kMaxAccessesPerElement).value_or(0.0);
  s.per_block = f.optional_number("per_block", 0, kMaxInstructions).value_or(0.0);
  if (s.per_element == 0 && s.per_block == 0) f.fail("per_element", "give per_element or per_block (accesses per thread's element or per block)");
  s.vector = static_cast<int>(f.optional_int("vector", 1, 4).value_or(1));
  s.times = enum_field(f, "times", kScaleNames, Scale::one);
  s.ways = f.optional_number("ways", 1, 32).value_or(1.0);
  if (const auto pattern = f.optional_string("pattern")) {
    if (*pattern != "broadcast")
      f.fail(f.table().get("pattern"), "pattern", fmt::format("a shared access may only say broadcast, got \"{}\"", *pattern));
    s.broadcast = true;
  }
  if (auto t = f.optional_string("type")) s.type = parse_dtype(f, f.table().get("type"), "type", *t);
  return s;
}

AtomicAccess parse_atomic(const TomlFields& f) {
  f.reject_unknown_keys({"space", "op", "type", "per_element", "per_block", "addresses", "pattern", "ways"});
  AtomicAccess a;
  a.space = enum_field(f, "space", kMemorySpaceNames, MemorySpace::global);
  if (auto op = f.optional_string("op"); op && *op != "add")
    f.fail(f.table().get("op"), "op", fmt::format("only \"add\" atomics are modelled, got \"{}\"", *op));
  if (auto t = f.optional_string("type")) a.type = parse_dtype(f, f.table().get("type"), "type", *t);
  a.per_element = f.optional_number("per_element", 0, kMaxAccessesPerElement).value_or(0.0);
  a.per_block = f.optional_number("per_block", 0, kMaxInstructions).value_or(0.0);
  if (a.per_element == 0 && a.per_block == 0) f.fail("per_element", "give per_element or per_block (atomics per element or per block)");
  if (const toml::node* at = f.table().get("addresses"); at && at->is_string()) {
    // "n" or "n / K" (K >= 1): a scatter's targets, a fraction of the launch's elements.
    const std::string text = at->value<std::string>().value_or("");
    const auto factor = dimension_factor(text, "n", 1e15, false);
    if (!factor || *factor > 1)
      f.fail(at, "addresses", fmt::format("expected a count, \"n\" or \"n / K\", got \"{}\"", text));
    a.addresses_per_n = *factor;
  } else {
    a.addresses = f.optional_number("addresses", 1, 1e15).value_or(1.0);
  }
  a.pattern = enum_field(f, "pattern", kAccessPatternNames, AccessPattern::random);
  if (a.pattern != AccessPattern::random && a.pattern != AccessPattern::contiguous)
    f.fail(f.table().get("pattern"), "pattern",
           fmt::format("atomics are \"random\" or \"contiguous\", got \"{}\"", to_string(a.pattern)));
  a.ways = f.optional_number("ways", 1, 32).value_or(1.0);
  return a;
}

FlopCount parse_flop(const TomlFields& f) {
  f.reject_unknown_keys({"type", "op", "per_element", "packed", "times"});
  FlopCount c;
  c.type = parse_dtype(f, f.table().get("type"), "type", f.required_string("type"));
  c.op = required_enum_field(f, "op", kFlopOpNames);
  c.per_element = f.required_number("per_element", 0, kMaxFlopsPerElement);
  c.packed = static_cast<int>(f.optional_int("packed", 1, 16).value_or(1));
  if (on_side_pipe(c.op) && c.packed != 1)
    f.fail(f.table().get("packed"), "packed",
           fmt::format("an {} entry counts operations, one a lane: leave packed out", to_string(c.op)));
  if (on_tensor_cores(c.op) && c.packed != 1)
    f.fail(f.table().get("packed"), "packed", "a tensor-core entry counts multiply-adds, not instructions: leave packed out");
  if (on_tensor_cores(c.op) && c.type != DType::f16 && c.type != DType::bf16)
    f.fail(f.table().get("type"), "type",
           fmt::format("the tensor-core rates are for f16 and bf16 sources, got {}", to_string(c.type)));
  c.times = enum_field(f, "times", kScaleNames, Scale::one);
  return c;
}

constexpr std::array<std::string_view, 20> kPassKeys = {
    "symbol", "elements_per_thread", "element_order", "ilp", "grid", "grid_blocks", "inst_per_thread", "inst_per_iteration",
    "inst_per_block", "barriers_per_block", "block_reductions", "iterations", "barriers_per_iteration", "registers",
    "shared_bytes", "arrays", "flops", "shared", "atomics", "dependent_cycles"};

KernelPass parse_pass(const TomlFields& f) {
  KernelPass p;
  p.symbol = f.optional_string("symbol").value_or("");
  p.elements_per_thread = static_cast<int>(f.optional_int("elements_per_thread", 1, 1024).value_or(1));
  p.ilp = static_cast<int>(f.optional_int("ilp", 1, 64).value_or(1));
  p.interleaved = enum_field(f, "element_order", kElementOrderNames, false);
  p.grid = enum_field(f, "grid", kGridPolicyNames, GridPolicy::one_shot);
  p.grid_blocks = f.optional_int("grid_blocks", 1, std::int64_t{1} << 31).value_or(0);
  if (p.grid_blocks > 0 && p.grid != GridPolicy::grid_stride)
    f.fail(f.table().get("grid_blocks"), "grid_blocks", "only a grid-stride pass chooses its own grid");
  p.inst_per_thread = f.optional_number("inst_per_thread", 0, kMaxInstructions);
  p.inst_per_iteration = f.optional_number("inst_per_iteration", 0, kMaxInstructions);
  p.inst_per_block = f.optional_number("inst_per_block", 0, kMaxInstructions).value_or(0.0);
  p.barriers_per_block = f.optional_number("barriers_per_block", 0, kMaxInstructions).value_or(0.0);
  p.block_reductions = f.optional_number("block_reductions", 0, kMaxInstructions).value_or(0.0);
  if (2 * p.block_reductions > p.barriers_per_block)
    f.fail(f.table().get("block_reductions"), "block_reductions",
           "each block reduction has two barriers, which barriers_per_block counts");
  p.iterations = parse_scaled_count(f, "iterations", kMaxInstructions);
  p.dependent_cycles = f.optional_number("dependent_cycles", 0, kMaxInstructions).value_or(0.0);
  p.barriers_per_iteration = f.optional_number("barriers_per_iteration", 0, kMaxInstructions).value_or(0.0);
  if (p.barriers_per_iteration > 0 && !p.iterations)
    f.fail(f.table().get("barriers_per_iteration"), "barriers_per_iteration", "needs iterations (the loop's trip count)");
  p.registers = static_cast<int>(f.optional_int("registers", 0, 255).value_or(0));
  if (p.registers > 0) p.registers_source = Source::spec_file;
  p.static_shared_bytes = static_cast<int>(f.optional_int("shared_bytes", 0, 1 << 20).value_or(0));
  for_each_table(f, "arrays", true, [&](const TomlFields& a, std::size_t) { p.arrays.push_back(parse_array(a)); });
  for_each_table(f, "flops", false, [&](const TomlFields& c, std::size_t) { p.flops.push_back(parse_flop(c)); });
  for_each_table(f, "shared", false, [&](const TomlFields& c, std::size_t) { p.shared.push_back(parse_shared(c)); });
  for_each_table(f, "atomics", false, [&](const TomlFields& c, std::size_t) { p.atomics.push_back(parse_atomic(c)); });
  const toml::node* arrays = f.table().get("arrays");
  for (std::size_t i = 0; i < p.arrays.size(); ++i) {
    const auto& a = p.arrays[i];
    const toml::node* at = (*arrays->as_array())[i].as_table();
    if (a.fields > 1 && p.elements_per_thread != a.vector)
      f.fail(at, fmt::format("arrays[{}].fields", i),
             fmt::format("needs one structure per thread and iteration: elements_per_thread ({}) equal to vector ({})",
                         p.elements_per_thread, a.vector));
    if (!a.outside_loop() && p.elements_per_thread % a.vector != 0)
      f.fail(at, fmt::format("arrays[{}].vector", i),
             fmt::format("elements_per_thread ({}) must be a multiple of vector ({})", p.elements_per_thread, a.vector));
    if (thread_stride(a, p) < p.elements_per_thread)
      f.fail(at, fmt::format("arrays[{}].stride", i),
             fmt::format("must be at least elements_per_thread ({}): neighbouring threads' elements would overlap",
                         p.elements_per_thread));
    if (!a.depends_on.empty() &&
        std::none_of(p.arrays.begin(), p.arrays.begin() + static_cast<std::ptrdiff_t>(i),
                     [&](const ArrayAccess& e) { return e.op == AccessOp::load && e.name == a.depends_on; }))
      f.fail(at, fmt::format("arrays[{}].depends_on", i),
             fmt::format("'{}' is not a load listed before this array", a.depends_on));
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
  k.shape = enum_field(f, "shape", kShapeNames, Shape::vector);
  k.cols = f.optional_int("cols", 1, std::int64_t{1} << 40).value_or(0);
  if ((k.shape == Shape::rows) != (k.cols > 0))
    f.fail(k.cols > 0 ? t.get("cols") : t.get("shape"), k.cols > 0 ? "cols" : "shape",
           "shape = \"rows\" and cols (the elements of a row) go together");
  if (const toml::node* h = t.get("held_out")) {
    const auto v = h->value<bool>();
    if (!v) f.fail(h, "held_out", "expected true or false");
    k.held_out = *v;
  }
  if (const toml::node* sz = t.get("sizes")) {
    const auto* list = sz->as_array();
    if (!list || list->empty()) f.fail(sz, "sizes", "expected a non-empty array of element counts");
    for (const auto& e : *list) {
      const auto v = e.value<std::int64_t>();
      if (!v || *v < 1) f.fail(&e, "sizes", "expected positive whole numbers of elements");
      k.sizes.push_back(*v);
    }
  }

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
    f.reject_unknown_keys({"name", "description", "category", "origin", "block", "dtypes", "shape", "cols", "held_out",
                           "sizes", "pass"});
    const auto* list = passes->as_array();
    if (!list || list->empty()) f.fail(passes, "pass", "expected [[kernel.pass]] tables");
    for (std::size_t i = 0; i < list->size(); ++i) {
      const auto* pt = (*list)[i].as_table();
      if (!pt) f.fail(&(*list)[i], fmt::format("pass[{}]", i), "expected a table");
      TomlFields pf(*pt, file, fmt::format("{}: pass[{}]", f.context(), i));
      pf.reject_unknown_keys(kPassKeys);
      k.passes.push_back(parse_pass(pf));
    }
  } else {
    std::vector<std::string_view> known = {"name", "description", "category", "origin", "block", "dtypes", "shape",
                                           "cols", "held_out", "sizes"};
    known.insert(known.end(), kPassKeys.begin(), kPassKeys.end());
    f.reject_unknown_keys(known);
    k.passes.push_back(parse_pass(f));
  }
  const toml::node* shape_at = t.get("shape") ? t.get("shape") : t.get("arrays") ? t.get("arrays") : &t;
  for (const auto& p : k.passes)
    for (std::size_t i = 0; i < p.arrays.size(); ++i)
      if (p.arrays[i].uniform_indices && k.shape != Shape::rows)
        f.fail(shape_at, fmt::format("arrays[{}].indices", i),
               "needs shape = \"rows\": each index draws one row of cols elements");
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
