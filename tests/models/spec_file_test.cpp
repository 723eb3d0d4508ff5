// Kernel spec files: a round trip through a real file, and errors that name file, line, field.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "models/error.hpp"
#include "models/spec_file.hpp"

namespace roofline {
namespace {

std::string error_of(std::string_view text) {
  try {
    parse_kernel_specs(text, "my.toml");
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(SpecFile, RoundTripThroughAFile) {
  const auto dir = std::filesystem::temp_directory_path() / "roofline-spec-test";
  std::filesystem::create_directories(dir);
  const auto path = dir / "mine.toml";
  std::ofstream(path) << R"(
[[kernel]]
name = "saxpy"
description = "y = a*x + y"
dtypes = ["f32"]
block = 128
symbol = "saxpy_kernel"
elements_per_thread = 4
grid = "grid-stride"
ilp = 2
inst_per_thread = 10
inst_per_iteration = 7.5
registers = 24
arrays = [
  { name = "x", op = "load", vector = 4 },
  { name = "y", op = "load", vector = 4, hint = "last-use" },
  { name = "y", op = "store", vector = 4, hint = "streaming" },
]
flops = [ { type = "f32", op = "fma", per_element = 1 } ]
)";
  const auto specs = load_kernel_spec_file(path);
  ASSERT_EQ(specs.size(), 1u);
  const KernelSpec& k = specs[0];
  EXPECT_EQ(k.name, "saxpy");
  EXPECT_EQ(k.category, "user");
  EXPECT_EQ(k.default_block, 128);
  ASSERT_EQ(k.passes.size(), 1u);
  const KernelPass& p = k.passes[0];
  EXPECT_EQ(p.symbol, "saxpy_kernel");
  EXPECT_EQ(p.grid, GridPolicy::grid_stride);
  EXPECT_EQ(p.ilp, 2);
  EXPECT_EQ(p.elements_per_thread, 4);
  EXPECT_DOUBLE_EQ(p.inst_per_iteration.value_or(0), 7.5);
  EXPECT_EQ(p.registers, 24);
  EXPECT_EQ(p.registers_source, Source::spec_file);
  ASSERT_EQ(p.arrays.size(), 3u);
  EXPECT_EQ(p.arrays[1].hint, CacheHint::last_use);
  EXPECT_EQ(p.arrays[2].op, AccessOp::store);
  EXPECT_EQ(p.arrays[2].hint, CacheHint::streaming);
  EXPECT_EQ(thread_stride(p.arrays[0], p), 4);
  ASSERT_EQ(p.flops.size(), 1u);
  EXPECT_EQ(p.flops[0].op, FlopOp::fma);
  const ElementTraffic t = element_traffic(k, DType::f32);
  EXPECT_EQ(t.load_bytes, 8);
  EXPECT_EQ(t.store_bytes, 4);
  EXPECT_EQ(t.flops, 2);
  std::filesystem::remove_all(dir);
}

TEST(SpecFile, MultiPassKernel) {
  const auto specs = parse_kernel_specs(R"(
[[kernel]]
name = "chain"
dtypes = ["f32"]
  [[kernel.pass]]
  symbol = "first"
  arrays = [ { name = "a", op = "load" }, { name = "t", op = "store" } ]
  [[kernel.pass]]
  symbol = "second"
  arrays = [ { name = "t", op = "load" }, { name = "out", op = "store" } ]
)",
                                        "chain.toml");
  ASSERT_EQ(specs[0].passes.size(), 2u);
  EXPECT_EQ(specs[0].passes[1].symbol, "second");
}

TEST(SpecFile, ErrorsNameFileLineAndField) {
  EXPECT_EQ(error_of("[[kernel]]\nname = \"k\"\ndtypes = [\"f32\"]\narrays = [\n  { name = \"a\", op = \"read\" },\n]\n"),
            "my.toml:5: kernel 'k': arrays[0]: op: expected load or store, got \"read\"");
  EXPECT_EQ(error_of("[[kernel]]\nname = \"k\"\narrays = [ { name = \"a\", op = \"load\" } ]\n"),
            "my.toml:1: kernel 'k': dtypes: missing (required)");
  EXPECT_EQ(error_of("[[kernel]]\nname = \"k\"\ndtypes = [\"f33\"]\narrays = [ { name = \"a\", op = \"load\" } ]\n"),
            "my.toml:3: kernel 'k': dtypes: unknown type \"f33\" (known: f32, f16, bf16, fp8_e4m3, f64, i32, u8)");
  EXPECT_EQ(error_of("[[kernel]]\nname = \"k\"\ndtypes = [\"f32\"]\nblock = 100\narrays = [ { name = \"a\", op = \"load\" } ]\n"),
            "my.toml:4: kernel 'k': block: must be a multiple of 32, got 100");
  EXPECT_EQ(error_of("[[kernel]]\nname = \"k\"\ndtypes = [\"f32\"]\nelemnts_per_thread = 4\narrays = [ { name = \"a\", op = \"load\" } ]\n"),
            "my.toml:4: kernel 'k': elemnts_per_thread: unknown field");
  EXPECT_EQ(error_of("[[kernel]]\nname = \"k\"\ndtypes = [\"f32\"]\nelements_per_thread = 4\narrays = [ { name = \"a\", op = \"load\", vector = 3 } ]\n"),
            "my.toml:5: kernel 'k': arrays[0].vector: elements_per_thread (4) must be a multiple of vector (3)");
  EXPECT_EQ(error_of("[[kernel]]\nname = \"k\"\ndtypes = [\"f32\"]\nregisters = 300\narrays = [ { name = \"a\", op = \"load\" } ]\n"),
            "my.toml:4: kernel 'k': registers: must be between 0 and 255, got 300");
  // Syntax errors carry line and column.
  EXPECT_EQ(error_of("[[kernel]]\nname = \"k\n").rfind("my.toml:2:", 0), 0u);
  EXPECT_EQ(error_of("title = \"x\"\n"), "my.toml:1: title: unknown top-level field (expected [[kernel]] tables)");
}

std::string load_error_of(const std::filesystem::path& path) {
  try {
    load_kernel_spec_file(path);
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(SpecFile, OnlyARegularFileIsRead) {
  EXPECT_EQ(load_error_of("/nonexistent/k.toml"), "spec file '/nonexistent/k.toml' does not exist");
  EXPECT_EQ(load_error_of(std::filesystem::temp_directory_path()),
            "spec file '" + std::filesystem::temp_directory_path().string() + "' is a directory, not a TOML file");
  // A device never ends: reading it would never return.
  EXPECT_EQ(load_error_of("/dev/zero"), "spec file '/dev/zero' is not a regular file");
}

// Every numeric field has a range, checked as it is read, with the file and line.
TEST(SpecFile, NumbersOutOfRangeAreRefusedWhereTheyAreWritten) {
  const std::string head = "[[kernel]]\nname = \"k\"\ndtypes = [\"f32\"]\n";
  const std::string arrays = "arrays = [ { name = \"a\", op = \"load\" } ]\n";
  EXPECT_EQ(error_of(head + "inst_per_thread = 1e300\n" + arrays),
            "my.toml:4: kernel 'k': inst_per_thread: must be between 0 and 1000000000, got 1e+300");
  EXPECT_EQ(error_of(head + "inst_per_iteration = -1\n" + arrays),
            "my.toml:4: kernel 'k': inst_per_iteration: must be between 0 and 1000000000, got -1");
  EXPECT_EQ(error_of(head + "inst_per_thread = nan\n" + arrays),
            "my.toml:4: kernel 'k': inst_per_thread: must be between 0 and 1000000000, got nan");
  EXPECT_EQ(error_of(head + arrays + "flops = [ { type = \"f32\", op = \"add\", per_element = 1e308 } ]\n"),
            "my.toml:5: kernel 'k': flops[0]: per_element: must be between 0 and 1000000, got 1e+308");
  EXPECT_EQ(error_of(head + arrays + "flops = [ { type = \"f32\", op = \"add\", per_element = inf } ]\n"),
            "my.toml:5: kernel 'k': flops[0]: per_element: must be between 0 and 1000000, got inf");
  EXPECT_EQ(error_of(head + "ilp = 65\n" + arrays), "my.toml:4: kernel 'k': ilp: must be between 1 and 64, got 65");
  EXPECT_EQ(error_of(head + "arrays = [ { name = \"a\", op = \"load\", offset = 1, pattern = \"random\" } ]\n"),
            "my.toml:4: kernel 'k': arrays[0]: offset: applies to contiguous accesses (lanes on consecutive elements)");
  EXPECT_EQ(error_of(head + "arrays = [ { name = \"a\", op = \"load\", offset = 2000 } ]\n"),
            "my.toml:4: kernel 'k': arrays[0]: offset: must be between -1024 and 1024, got 2000");
  EXPECT_EQ(error_of(head + "arrays = [ { name = \"a\", op = \"load\", elements = \"n / 0\" } ]\n"),
            "my.toml:4: kernel 'k': arrays[0]: elements: expected \"n\", \"n / K\", \"K * n\", \"rows\", \"cols\" "
            "or a whole number of elements");
  EXPECT_EQ(error_of(head + "arrays = [ { name = \"a\", op = \"load\", l1_reuse = 0.5 } ]\n"),
            "my.toml:4: kernel 'k': arrays[0]: l1_reuse: must be between 1 and 1024, got 0.5");
}

TEST(SpecFile, StoresOutsideTheLoopAreCountedPerThreadOrPerWarpAlone) {
  const std::string head = "[[kernel]]\nname = \"k\"\ndtypes = [\"f32\"]\n";
  const auto k = parse_kernel_specs(head + "arrays = [ { name = \"y\", op = \"store\", per_warp = 1 } ]\n", "my.toml");
  EXPECT_EQ(k[0].passes[0].arrays[0].per_warp, 1.0);
  EXPECT_EQ(k[0].passes[0].arrays[0].per_element, 0.0);  // no share of n
  EXPECT_EQ(error_of(head + "arrays = [ { name = \"a\", op = \"load\", per_thread = 1 } ]\n"),
            "my.toml:4: kernel 'k': arrays[0]: per_thread: is for stores (a result stored after a loop, lane 0's "
            "store); a load once per thread is per_element = 1 / elements_per_thread");
  EXPECT_EQ(error_of(head + "arrays = [ { name = \"y\", op = \"store\", per_thread = 1, per_element = 0.5 } ]\n"),
            "my.toml:4: kernel 'k': arrays[0]: per_element: does not apply with per_thread: an access outside the "
            "element loop is counted per thread, on consecutive elements");
  EXPECT_EQ(error_of(head + "arrays = [ { name = \"y\", op = \"store\", per_thread = 1, per_warp = 1 } ]\n"),
            "my.toml:4: kernel 'k': arrays[0]: per_warp: give per_thread or per_warp, not both");
  EXPECT_EQ(error_of(head + "arrays = [ { name = \"y\", op = \"store\", per_warp = 0 } ]\n"),
            "my.toml:4: kernel 'k': arrays[0]: per_warp: must be more than 0");
}

// fields: a store's consecutive fields of each element's structure, within its stride, one
// structure per thread.
TEST(SpecFile, FieldsAreAStructuresStoresWithinItsStride) {
  const std::string head = "[[kernel]]\nname = \"k\"\ndtypes = [\"f32\"]\n";
  const auto k = parse_kernel_specs(head + "arrays = [ { name = \"v\", op = \"store\", stride = 3, fields = 3 } ]\n",
                                    "my.toml");
  EXPECT_EQ(k[0].passes[0].arrays[0].fields, 3);
  EXPECT_EQ(element_traffic(k[0], DType::f32).store_bytes, 12.0);
  EXPECT_EQ(error_of(head + "arrays = [ { name = \"v\", op = \"load\", stride = 3, fields = 3 } ]\n"),
            "my.toml:4: kernel 'k': arrays[0]: fields: is for stores (a load of further fields is an entry with "
            "reuse = \"l1\")");
  EXPECT_EQ(error_of(head + "arrays = [ { name = \"v\", op = \"store\", stride = 2, fields = 3 } ]\n"),
            "my.toml:4: kernel 'k': arrays[0]: fields: needs stride: the elements of each element's structure, at "
            "least fields x vector (3)");
  EXPECT_EQ(error_of(head + "arrays = [ { name = \"v\", op = \"store\", stride = 3, fields = 3, pattern = "
                            "\"column\" } ]\n"),
            "my.toml:4: kernel 'k': arrays[0]: fields: applies to a contiguous store made once per element (one "
            "structure per element, its fields one instruction each)");
  EXPECT_EQ(error_of(head + "elements_per_thread = 2\narrays = [ { name = \"v\", op = \"store\", stride = 6, "
                            "fields = 3 } ]\n"),
            "my.toml:5: kernel 'k': arrays[0].fields: needs one structure per thread and iteration: "
            "elements_per_thread (2) equal to vector (1)");
}

// A spec of many kernels, the last one repeating the first: the duplicate is found (one look-up
// per kernel, so this stays quick however long the file) and both lines are named.
TEST(SpecFile, DuplicateNamesAreFoundInALongSpec) {
  constexpr int kernels = 20000;
  std::string text;
  for (int i = 0; i < kernels; ++i)
    text += fmt::format("[[kernel]]\nname = \"k{}\"\ndtypes = [\"f32\"]\narrays = [ {{ name = \"a\", op = \"load\" }} ]\n", i);
  EXPECT_EQ(parse_kernel_specs(text, "many.toml").size(), static_cast<std::size_t>(kernels));
  text += "[[kernel]]\nname = \"k0\"\ndtypes = [\"f32\"]\narrays = [ { name = \"a\", op = \"load\" } ]\n";
  try {
    parse_kernel_specs(text, "many.toml");
    FAIL() << "the duplicate was not found";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), fmt::format("many.toml:{}: kernel 'k0': name: defined twice (first at line 1)",
                                                 4 * kernels + 1));
  }
}

}  // namespace
}  // namespace roofline
