#include "models/sass_listing.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>

#include "models/error.hpp"
#include "models/profiled_launch.hpp"

namespace roofline {
namespace {

// Template arguments are never cut when candidates are listed.
constexpr std::size_t kWholeTemplate = 1 << 20;

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

// "/*0090*/   @P0 EXIT ;   /* 0x... */" -> the instruction; nullopt for any other line
// (encoding-only lines are "/* 0x000fe40000000800 */").
std::optional<SassInstruction> parse_instruction(std::string_view line, int line_number) {
  line = trim(line);
  if (!starts_with(line, "/*")) return std::nullopt;
  const std::size_t close = line.find("*/");
  if (close == std::string_view::npos) return std::nullopt;
  const std::string_view address = trim(line.substr(2, close - 2));
  if (address.empty() || starts_with(address, "0x") ||
      !std::all_of(address.begin(), address.end(), [](char c) { return std::isxdigit(static_cast<unsigned char>(c)); }))
    return std::nullopt;
  std::string_view text = line.substr(close + 2);
  const std::size_t end = text.find(';');
  if (end == std::string_view::npos) return std::nullopt;
  text = text.substr(0, end);
  // Older architectures group dual-issued instructions in braces.
  std::string body;
  for (char c : text)
    if (c != '{' && c != '}') body += c;
  std::string_view rest = trim(body);
  SassInstruction in;
  in.address = static_cast<std::uint32_t>(std::stoul(std::string(address), nullptr, 16));
  in.line = line_number;
  auto next_token = [&rest] {
    const std::size_t space = rest.find_first_of(" \t");
    const std::string_view token = rest.substr(0, space);
    rest = space == std::string_view::npos ? std::string_view{} : trim(rest.substr(space));
    return std::string(token);
  };
  if (starts_with(rest, "@")) in.predicate = next_token();
  in.opcode = next_token();
  in.operands = std::string(rest);
  if (in.opcode.empty()) return std::nullopt;
  return in;
}

// "REG:16 STACK:0 SHARED:0 ..." -> the value of key, or nullopt.
std::optional<std::int64_t> resource_value(std::string_view line, std::string_view key) {
  for (std::size_t at = line.find(key); at != std::string_view::npos; at = line.find(key, at + 1)) {
    if (at > 0 && !std::isspace(static_cast<unsigned char>(line[at - 1]))) continue;
    const std::string digits(line.substr(at + key.size()));
    try {
      return std::stoll(digits);
    } catch (const std::exception&) {
      return std::nullopt;
    }
  }
  return std::nullopt;
}

struct ResourceUsage {
  std::string arch, mangled;
  std::optional<std::int64_t> registers, shared;
};

// -res-usage's SHARED counts, on sm_80 and later, the 1 KiB the driver reserves for every block
// that uses shared memory (static or dynamic) beside the kernel's own: seen on sm_90, where a
// 32 x 32 float tile reads SHARED:5120 and a kernel with dynamic shared memory only SHARED:1024,
// against the driver's static sizes of 4096 and 0. The model adds that reserve itself.
std::int64_t static_shared_of(std::int64_t shared, std::string_view arch) {
  constexpr std::int64_t kReservedSince80 = 1024;
  return sass_arch_number(arch) >= 80 ? std::max<std::int64_t>(0, shared - kReservedSince80) : shared;
}

}  // namespace

int sass_arch_number(std::string_view arch) {
  if (starts_with(arch, "sm_")) arch.remove_prefix(3);
  int n = 0;
  for (char c : arch) {
    if (!std::isdigit(static_cast<unsigned char>(c))) break;
    n = n * 10 + (c - '0');
  }
  return n;
}

SassListing parse_sass_listing(std::string_view text, std::string_view file_name) {
  SassListing listing;
  std::vector<ResourceUsage> usage;
  std::string arch;              // of the ELF being read ("code for sm_90", "arch = sm_90")
  SassFunction* open = nullptr;  // the function whose instructions are being read
  std::string pending_usage;     // -res-usage: the function named on the previous line
  int line_number = 0;
  std::istringstream in{std::string(text)};
  for (std::string raw; std::getline(in, raw);) {
    ++line_number;
    const std::string_view line = trim(raw);
    if (starts_with(line, "code for ")) {
      arch = std::string(trim(line.substr(9)));
      open = nullptr;
    } else if (starts_with(line, "arch = ")) {
      arch = std::string(trim(line.substr(7)));
      open = nullptr;
    } else if (starts_with(line, "Function : ")) {
      SassFunction f;
      f.arch = arch;
      f.mangled = std::string(trim(line.substr(11)));
      f.demangled = demangle_symbol(f.mangled);
      listing.functions.push_back(std::move(f));
      open = &listing.functions.back();
    } else if (starts_with(line, "Function ") && line.back() == ':') {
      pending_usage = std::string(trim(line.substr(9, line.size() - 10)));
      open = nullptr;
    } else if (!pending_usage.empty() && starts_with(line, "REG:")) {
      usage.push_back({arch, pending_usage, resource_value(line, "REG:"), resource_value(line, "SHARED:")});
      pending_usage.clear();
    } else if (open != nullptr) {
      if (starts_with(line, "....")) {
        open = nullptr;
      } else if (!line.empty() && line.back() == ':' && line.find(' ') == std::string_view::npos) {
        // The label's address is that of the instruction that follows it; fixed up below.
        open->labels.emplace_back(std::string(line.substr(0, line.size() - 1)), UINT32_MAX);
      } else if (auto instruction = parse_instruction(line, line_number)) {
        for (auto& [label, address] : open->labels)
          if (address == UINT32_MAX) address = instruction->address;
        open->instructions.push_back(std::move(*instruction));
      }
    }
  }
  std::erase_if(listing.functions, [](const SassFunction& f) { return f.instructions.empty(); });
  if (listing.functions.empty())
    throw InputError(
        fmt::format("{}: no SASS function in it (expected the text `cuobjdump -sass BINARY` prints, with "
                    "'Function : name' headers)",
                    file_name));
  for (const ResourceUsage& u : usage)
    for (SassFunction& f : listing.functions)
      if (f.mangled == u.mangled && (u.arch.empty() || f.arch.empty() || u.arch == f.arch)) {
        if (u.registers) f.registers = static_cast<int>(*u.registers);
        if (u.shared) f.static_shared_bytes = static_shared_of(*u.shared, u.arch.empty() ? f.arch : u.arch);
      }
  return listing;
}

SassListing read_sass_listing(const std::filesystem::path& path) {
  std::error_code ec;
  const auto type = std::filesystem::status(path, ec).type();
  if (type == std::filesystem::file_type::not_found)
    throw InputError(fmt::format("SASS listing '{}' does not exist", path.string()));
  if (!ec && type != std::filesystem::file_type::regular)
    throw InputError(
        fmt::format("SASS listing '{}' is not a regular file (expected `cuobjdump -sass` output)", path.string()));
  std::ifstream in(path);
  if (!in) throw InputError(fmt::format("cannot open SASS listing '{}'", path.string()));
  std::ostringstream text;
  text << in.rdbuf();
  return parse_sass_listing(text.str(), path.string());
}

const SassFunction& find_sass_function(const SassListing& listing, std::string_view name, std::string_view arch) {
  std::vector<const SassFunction*> named;
  for (const SassFunction& f : listing.functions)
    if (names_kernel(name, f.mangled, f.demangled)) named.push_back(&f);
  if (named.empty()) {
    std::vector<std::string> names;
    for (const SassFunction& f : listing.functions) names.push_back(kernel_display_name(f.demangled));
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    throw InputError(fmt::format("no function '{}' in the SASS listing; functions: {}", name, fmt::join(names, ", ")));
  }
  std::string chosen_arch(arch);
  if (chosen_arch.empty())
    for (const SassFunction* f : named)
      if (sass_arch_number(f->arch) > sass_arch_number(chosen_arch)) chosen_arch = f->arch;
  std::vector<const SassFunction*> matches;
  for (const SassFunction* f : named)
    if (f->arch == chosen_arch) matches.push_back(f);
  if (matches.empty()) {
    std::vector<std::string> archs;
    for (const SassFunction* f : named) archs.push_back(f->arch);
    std::sort(archs.begin(), archs.end());
    archs.erase(std::unique(archs.begin(), archs.end()), archs.end());
    throw InputError(fmt::format("function '{}' has no code for {} in the SASS listing; it has: {} (pass --arch)", name,
                                 chosen_arch, fmt::join(archs, ", ")));
  }
  if (matches.size() > 1) {
    std::vector<std::string> candidates;
    for (const SassFunction* f : matches)
      candidates.push_back(fmt::format("'{}' ({})", kernel_display_name(f->demangled, kWholeTemplate), f->mangled));
    throw InputError(
        fmt::format("'{}' matches {} functions for {}: {}; pass one of these names (or the mangled one) "
                    "as --kernel",
                    name, matches.size(), chosen_arch, fmt::join(candidates, ", ")));
  }
  return *matches.front();
}

}  // namespace roofline
