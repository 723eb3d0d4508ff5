#include "models/detail/sass_instruction_kind.hpp"

#include <fmt/format.h>

#include <array>
#include <cstdio>
#include <utility>
#include <vector>

#include "models/enum_names.hpp"

namespace roofline::detail {
namespace {

// The modifiers after the base opcode: "LDG.E.128.CONSTANT" -> E, 128, CONSTANT.
std::vector<std::string_view> modifiers(const SassInstruction& in) {
  std::vector<std::string_view> out;
  std::string_view rest = in.opcode;
  const std::size_t dot = rest.find('.');
  if (dot == std::string_view::npos) return out;
  rest.remove_prefix(dot + 1);
  while (!rest.empty()) {
    const std::size_t next = rest.find('.');
    out.push_back(rest.substr(0, next));
    if (next == std::string_view::npos) break;
    rest.remove_prefix(next + 1);
  }
  return out;
}

bool has_modifier(const SassInstruction& in, std::string_view m) {
  for (std::string_view x : modifiers(in))
    if (x == m) return true;
  return false;
}

// Width in bits from the size modifier; 32 when none is written.
int access_bits(const SassInstruction& in) {
  for (std::string_view m : modifiers(in)) {
    if (m == "128") return 128;
    if (m == "64") return 64;
    if (m == "U8" || m == "S8") return 8;
    if (m == "U16" || m == "S16") return 16;
  }
  return 32;
}

struct OpcodeAccess {
  std::string_view opcode;
  MemorySpace space;
  MemoryDirection direction;
};

constexpr std::array kAccesses{
    OpcodeAccess{"LDG", MemorySpace::global, MemoryDirection::load},
    OpcodeAccess{"STG", MemorySpace::global, MemoryDirection::store},
    OpcodeAccess{"ATOMG", MemorySpace::global, MemoryDirection::atomic},
    OpcodeAccess{"ATOM", MemorySpace::global, MemoryDirection::atomic},
    OpcodeAccess{"RED", MemorySpace::global, MemoryDirection::atomic},
    OpcodeAccess{"REDG", MemorySpace::global, MemoryDirection::atomic},
    OpcodeAccess{"LDS", MemorySpace::shared, MemoryDirection::load},
    OpcodeAccess{"LDSM", MemorySpace::shared, MemoryDirection::load},
    OpcodeAccess{"STS", MemorySpace::shared, MemoryDirection::store},
    OpcodeAccess{"ATOMS", MemorySpace::shared, MemoryDirection::atomic},
    OpcodeAccess{"LDC", MemorySpace::constant, MemoryDirection::load},
    OpcodeAccess{"ULDC", MemorySpace::constant, MemoryDirection::load},
    OpcodeAccess{"LDL", MemorySpace::local, MemoryDirection::load},
    OpcodeAccess{"STL", MemorySpace::local, MemoryDirection::store},
    OpcodeAccess{"LD", MemorySpace::generic, MemoryDirection::load},
    OpcodeAccess{"ST", MemorySpace::generic, MemoryDirection::store},
    OpcodeAccess{"UBLKCP", MemorySpace::bulk_copy, MemoryDirection::load},
    OpcodeAccess{"UTMALDG", MemorySpace::bulk_copy, MemoryDirection::load},
    OpcodeAccess{"UTMASTG", MemorySpace::bulk_copy, MemoryDirection::store},
    OpcodeAccess{"LDGSTS", MemorySpace::bulk_copy, MemoryDirection::load},
};

}  // namespace

std::string_view base_opcode(const SassInstruction& in) {
  const std::string_view op = in.opcode;
  return op.substr(0, op.find('.'));
}

std::optional<MemoryAccess> memory_access(const SassInstruction& in) {
  const std::string_view base = base_opcode(in);
  for (const OpcodeAccess& a : kAccesses)
    if (a.opcode == base)
      return MemoryAccess{a.space, a.direction, a.space == MemorySpace::bulk_copy ? 0 : access_bits(in)};
  return std::nullopt;
}

bool is_barrier(const SassInstruction& in) { return base_opcode(in) == "BAR"; }

// The tensor-core instructions: HMMA (mma.sync; shape "16816" is m16n8k16, per warp) and
// HGMMA (wgmma; shape "64x128x16", per warpgroup of 128 threads). Others (integer, FP8, FP64,
// sparse) are named with no rate: the model has none for them.
std::string tensor_cores_text(const SassInstruction& in, std::string_view base) {
  const std::string type = has_modifier(in, "BF16") ? "bf16" : has_modifier(in, "TF32") ? "tf32" : "f16";
  const std::vector<std::string_view> mods = modifiers(in);
  if ((base != "HMMA" && base != "HGMMA") || has_modifier(in, "SP") || mods.empty())
    return fmt::format("tensor cores, {}: the model has no rate for it", base);
  int m = 0, n = 0, k = 0;
  const std::string shape(mods.front());
  if (base == "HMMA") {
    static constexpr std::array<std::pair<std::string_view, std::array<int, 3>>, 3> kShapes{{
        {"16816", {16, 8, 16}}, {"1688", {16, 8, 8}}, {"1684", {16, 8, 4}}}};
    for (const auto& [name, mnk] : kShapes)
      if (name == shape) m = mnk[0], n = mnk[1], k = mnk[2];
  } else if (std::sscanf(shape.c_str(), "%dx%dx%d", &m, &n, &k) != 3) {
    m = 0;
  }
  const char* op = base == "HMMA" ? "mma" : "wgmma";
  if (m <= 0) return fmt::format("{} {}, shape {} not read: count its multiply-adds by hand", type, op, shape);
  const int threads = base == "HMMA" ? 32 : 128;
  return fmt::format("{} {} m{}n{}k{}, {} multiply-adds a thread{}", type, op, m, n, k, m * n * k / threads,
                     type == "tf32" ? " (the model has no TF32 rate)" : "");
}

std::optional<FlopKind> flop_kind(const SassInstruction& in) {
  struct Opcode {
    std::string_view opcode, type, op;
    int packed = 1;
  };
  static constexpr std::array<Opcode, 38> kFlops{{
      {"FADD", "f32", "add"},
      {"FMUL", "f32", "mul"},
      {"FFMA", "f32", "fma"},
      {"DADD", "f64", "add"},
      {"DMUL", "f64", "mul"},
      {"DFMA", "f64", "fma"},
      // Half precision: the type (f16, or bf16 by a BF16 modifier) is read from the instruction.
      {"HADD2", "", "add", 2},
      {"HMUL2", "", "mul", 2},
      {"HFMA2", "", "fma", 2},
      {"HADD", "", "add"},
      {"HMUL", "", "mul"},
      {"HFMA", "", "fma"},
      // The special function unit (ncu's XU pipe): transcendentals and type conversions.
      {"MUFU", "f32", "sfu"},
      {"F2F", "f32", "sfu"},
      {"F2I", "f32", "sfu"},
      {"I2F", "f32", "sfu"},
      {"FRND", "f32", "sfu"},
      // The ALU pipe: integer arithmetic but multiplies (IMAD and IMUL run on the FMA pipe),
      // logic, shifts, compares, selects and FP32 compares, minima and maxima.
      {"IADD3", "i32", "alu"},
      {"IADD", "i32", "alu"},
      {"LOP3", "i32", "alu"},
      {"LOP", "i32", "alu"},
      {"SHF", "i32", "alu"},
      {"SHL", "i32", "alu"},
      {"SHR", "i32", "alu"},
      {"LEA", "i32", "alu"},
      {"ISETP", "i32", "alu"},
      {"SEL", "i32", "alu"},
      {"IMNMX", "i32", "alu"},
      {"IABS", "i32", "alu"},
      {"PRMT", "i32", "alu"},
      {"BMSK", "i32", "alu"},
      {"BREV", "i32", "alu"},
      {"FLO", "i32", "alu"},
      {"PLOP3", "i32", "alu"},
      {"FSETP", "i32", "alu"},
      {"FSEL", "i32", "alu"},
      {"FMNMX", "i32", "alu"},
      {"F2FP", "i32", "alu"},
  }};
  const std::string_view base = base_opcode(in);
  if (base.ends_with("MMA")) return FlopKind{"", "", 1, tensor_cores_text(in, base)};
  for (const Opcode& o : kFlops)
    if (o.opcode == base) {
      if (base[0] != 'H') return FlopKind{std::string(o.type), std::string(o.op), 1, ""};
      // HFMA2.MMA R, -RZ, RZ, c is how the compiler moves a constant into a register.
      if (in.operands.find("-RZ, RZ") != std::string::npos) return std::nullopt;
      return FlopKind{has_modifier(in, "BF16_V2") || has_modifier(in, "BF16") ? "bf16" : "f16", std::string(o.op),
                      o.packed, ""};
    }
  return std::nullopt;
}

bool never_executes(const SassInstruction& in) { return in.predicate == "@!PT"; }
bool is_conditional(const SassInstruction& in) { return !in.predicate.empty() && in.predicate != "@PT"; }
bool is_branch(const SassInstruction& in) { return base_opcode(in) == "BRA"; }
bool is_exit(const SassInstruction& in) { return base_opcode(in) == "EXIT" || base_opcode(in) == "RET"; }
bool is_indirect_branch(const SassInstruction& in) {
  const std::string_view b = base_opcode(in);
  return b == "BRX" || b == "JMX" || b == "JMP";
}
bool is_call(const SassInstruction& in) { return base_opcode(in) == "CALL"; }

std::string branch_target(const SassInstruction& in) {
  const std::string& ops = in.operands;
  if (const std::size_t open = ops.find("`("); open != std::string::npos) {
    const std::size_t close = ops.find(')', open);
    return ops.substr(open + 2, close - open - 2);
  }
  const std::size_t hex = ops.rfind("0x");
  if (hex == std::string::npos) return {};
  std::size_t end = hex + 2;
  while (end < ops.size() && std::isxdigit(static_cast<unsigned char>(ops[end]))) ++end;
  return ops.substr(hex, end - hex);
}

bool has_condition_operand(const SassInstruction& in) {
  // The target is the last operand; anything before it is a condition (or a divergence mask).
  const std::size_t comma = in.operands.find(',');
  return comma != std::string::npos && comma < in.operands.find("`(");
}

constexpr EnumNames<MemorySpace, 6> kSpaceNames{{{MemorySpace::global, "global"},
                                                 {MemorySpace::shared, "shared"},
                                                 {MemorySpace::constant, "constant"},
                                                 {MemorySpace::local, "local"},
                                                 {MemorySpace::generic, "generic"},
                                                 {MemorySpace::bulk_copy, "bulk copy"}}};
constexpr EnumNames<MemoryDirection, 3> kDirectionNames{
    {{MemoryDirection::load, "load"}, {MemoryDirection::store, "store"}, {MemoryDirection::atomic, "atomic"}}};

std::string_view to_string(MemorySpace s) { return name_of(kSpaceNames, s); }
std::string_view to_string(MemoryDirection d) { return name_of(kDirectionNames, d); }

}  // namespace roofline::detail
