#include "cli/launch_options.hpp"

#include <fmt/format.h>

#include <charconv>

#include "cli/size_list.hpp"
#include "kernels/resource_usage.hpp"
#include "models/error.hpp"

namespace roofline {

namespace {
// An empty value stands for "the default" inside these options; a user who typed one meant a value.
const CLI::Validator kNotEmpty(
    [](const std::string& text) { return text.empty() ? std::string("must not be empty") : std::string(); }, "",
    "not empty");

// 0 stands for "each kernel's own" inside; a user who writes 0 meant a size.
std::string block_problem(const std::string& text) {
  long long block = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), block);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size())
    return fmt::format("expected a whole number of threads, got '{}'", text);
  if (block < 32 || block > 1024 || block % 32 != 0)
    return fmt::format("must be a multiple of 32 between 32 and 1024, got {}", text);
  return "";
}
}  // namespace

void add_launch_options(CLI::App& cmd, LaunchOptions& opts) {
  cmd.add_option("-k,--kernel", opts.kernels, "kernel names or globs, e.g. add_f32x4 or 'add_*' (default: all)")
      ->delimiter(',');
  cmd.add_option("--suite", opts.suite, "only kernels of this suite (elementwise, techniques, probes, hadamard, reference, patterns)")
      ->check(kNotEmpty);
  cmd.add_option("--spec", opts.spec_file, "TOML spec file of your own kernels (docs/kernel-spec.md)")->check(kNotEmpty);
  cmd.add_option("-n,--n", opts.sizes,
                 "element counts: 268435456, 256M, 2^28 or 1<<28, comma-separated (by default a kernel whose spec "
                 "lists its own sizes, such as SGEMM, runs those)")
      ->capture_default_str();
  cmd.add_option("--dtype", opts.dtype, "element type (default: each kernel's first)")->check(kNotEmpty);
  cmd.add_option("--block", opts.block, "threads per block, a multiple of 32 up to 1024 (default: each kernel's)")
      ->check(CLI::Validator(block_problem, "", "block"));
  cmd.add_option("--cache", opts.cache, "cold (L2 flushed before each launch, as ncu), warm (back-to-back) or both")
      ->capture_default_str();
}

void set_timing(LaunchOptions& opts, Timing timing, bool cache_given) {
  opts.timing = timing;
  if (timing != Timing::loop) return;
  if (!cache_given) opts.cache = "warm";
  if (opts.cache != "warm")
    throw InputError(fmt::format("--timing loop times back-to-back launches, which nothing flushes the L2 between: "
                                 "use --cache warm (got --cache {})",
                                 opts.cache));
}

std::vector<std::pair<KernelSpec, Launch>> expand_launches(const LaunchOptions& opts, std::string_view arch) {
  const auto sizes = parse_size_list(opts.sizes);
  std::vector<CacheState> caches;
  if (opts.cache == "both") caches = {CacheState::cold, CacheState::warm};
  else caches = {cache_state_from_string(opts.cache)};
  std::optional<DType> dtype;
  if (!opts.dtype.empty()) {
    dtype = dtype_from_string(opts.dtype);
    if (!dtype) throw InputError(fmt::format("unknown dtype '{}' (known: f32, f16, bf16, fp8_e4m3, f64, i32, u8)", opts.dtype));
  }

  std::vector<std::pair<KernelSpec, Launch>> out;
  for (const auto& spec : select_kernels({opts.kernels, opts.suite, opts.spec_file})) {
    const KernelSpec resolved = with_compiled_registers(spec, arch);
    const bool own_sizes = !spec.sizes.empty() && opts.sizes == kSuiteSizes;
    for (auto n : own_sizes ? spec.sizes : sizes)
      for (auto cache : caches) {
        Launch l;
        l.kernel = spec.name;
        l.n = n;
        l.dtype = dtype.value_or(spec.dtypes.front());
        l.block = opts.block ? opts.block : spec.default_block;
        l.cache = cache;
        l.timing = opts.timing;
        out.emplace_back(resolved, l);
      }
  }
  return out;
}

}  // namespace roofline
