#pragma once
// SassListing: the text `cuobjdump -sass` prints (optionally with `cuobjdump -res-usage`'s
// output appended), read into functions and their instructions. Pure text: no CUDA needed, so
// a listing made on a machine with the full toolkit can be read anywhere.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace roofline {

struct SassInstruction {
  std::uint32_t address = 0;
  std::string predicate;  // "@P0", "@!P1", "" when unpredicated
  std::string opcode;     // with its modifiers: "LDG.E.128.CONSTANT"
  std::string operands;   // the rest: "R4, desc[UR4][R2.64]"
  int line = 0;           // in the listing, for messages
};

struct SassFunction {
  std::string arch;       // "sm_90"
  std::string mangled;    // as the binary names it
  std::string demangled;  // = mangled for C names
  std::vector<SassInstruction> instructions;
  std::vector<std::pair<std::string, std::uint32_t>> labels;  // ".L_x_0" -> address of the next instruction
  std::optional<int> registers;                               // REG of -res-usage
  std::optional<std::int64_t> static_shared_bytes;            // SHARED of -res-usage, less the reserve
};

struct SassListing {
  std::vector<SassFunction> functions;  // in listing order
};

// Throws InputError when the text holds no SASS function (`file_name` names it).
SassListing parse_sass_listing(std::string_view text, std::string_view file_name);
SassListing read_sass_listing(const std::filesystem::path& path);

// The one function `name` means: its mangled or demangled name, its bare function name
// ("add_kernel") or that name with its template arguments ("add_kernel<int>"). Several
// architectures: `arch` ("sm_90"), by default the newest present. Throws InputError naming
// the candidates when nothing or more than one function matches.
const SassFunction& find_sass_function(const SassListing& listing, std::string_view name, std::string_view arch);

// The architecture number of "sm_90a" (90), for ordering; 0 when unreadable.
int sass_arch_number(std::string_view arch);

}  // namespace roofline
