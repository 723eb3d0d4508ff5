#include "models/spec_draft.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iterator>
#include <map>
#include <numeric>
#include <optional>
#include <set>
#include <tuple>

#include "models/detail/sass_control_flow.hpp"
#include "models/detail/sass_dependent_chain.hpp"
#include "models/detail/sass_instruction_kind.hpp"
#include "models/detail/sass_registers.hpp"
#include "models/detail/sass_warp_path.hpp"
#include "models/detail/symbol_dtypes.hpp"
#include "models/error.hpp"
#include "models/metric.hpp"
#include "models/profiled_launch.hpp"

namespace roofline {

std::string FlopKind::text() const {
  if (!tensor_cores.empty()) return tensor_cores;
  return fmt::format("{} {}{}", type, op, packed > 1 ? " x2" : "");
}

namespace {

using detail::ControlFlow;

// Adds `sign` to the count of `opcode` in a list of CountedInstruction or CountedFlop, a new entry
// described by `what` where the opcode is not listed yet.
template <class Counted, class What>
void add(std::vector<Counted>& list, const std::string& opcode, What what, int sign) {
  auto found = std::find_if(list.begin(), list.end(), [&](const Counted& c) { return c.opcode == opcode; });
  if (found == list.end())
    list.push_back({opcode, std::move(what), sign});
  else
    found->count += sign;
}

std::string describe(const detail::MemoryAccess& a) {
  if (a.space == detail::MemorySpace::bulk_copy)
    return fmt::format("{} ({})", to_string(a.space), to_string(a.direction));
  return fmt::format("{} {}, {}-bit", to_string(a.space), to_string(a.direction), a.bits);
}

// Adds (sign +1) or removes (-1) the instructions of `blocks` to a region.
void count(InstructionRegion& r, const SassFunction& f, const ControlFlow& cf, const std::vector<std::size_t>& blocks,
           int sign) {
  for (std::size_t b : blocks)
    for (std::size_t i = cf.blocks[b].first; i < cf.blocks[b].end; ++i) {
      const SassInstruction& in = f.instructions[i];
      r.instructions += sign;
      if (const auto a = detail::memory_access(in)) add(r.memory, in.opcode, describe(*a), sign);
      if (auto flop = detail::flop_kind(in)) add(r.flops, in.opcode, std::move(*flop), sign);
      if (detail::is_barrier(in)) r.barriers += sign;
      if (detail::base_opcode(in) == "SHFL") r.shuffles += sign;
    }
  std::erase_if(r.memory, [](const CountedInstruction& c) { return c.count == 0; });
  std::erase_if(r.flops, [](const CountedFlop& c) { return c.count == 0; });
}

// A global load (global or generic space), the kind whose rounds and in-flight counts the draft gives.
bool global_load(const std::optional<detail::MemoryAccess>& a) {
  return a && a->direction == detail::MemoryDirection::load &&
         (a->space == detail::MemorySpace::global || a->space == detail::MemorySpace::generic);
}

// The address operand of a global access, "[R2.64+0xc]": its base register and byte offset;
// nullopt for an address with no register of its own (a uniform one) or one it cannot read.
struct Address {
  int base = 0;
  int offset = 0;
};
std::optional<Address> address_of(std::string_view operands) {
  const std::size_t open = operands.rfind('['), close = operands.find(']', open);
  if (open == std::string_view::npos || close == std::string_view::npos) return std::nullopt;
  const std::string_view inside = operands.substr(open + 1, close - open - 1);
  if (inside.empty() || inside.front() != 'R') return std::nullopt;
  // "R2.64" names the pair R2, R3: the base is its first.
  const std::vector<int> registers = detail::registers_named(inside.substr(0, inside.find_first_of("+-")));
  if (registers.empty()) return std::nullopt;
  Address a{registers.front(), 0};
  if (const std::size_t sign = inside.find_first_of("+-"); sign != std::string_view::npos) {
    const std::string number(inside.substr(sign + 1));
    char* end = nullptr;
    const long value = std::strtol(number.c_str(), &end, 0);
    if (end == number.c_str() || *end != '\0') return std::nullopt;
    a.offset = static_cast<int>(inside[sign] == '-' ? -value : value);
  }
  return a;
}

// The register an operand names alone ("R5"), or -1.
int register_of(std::string_view operand) {
  const std::vector<int> r = detail::registers_named(operand);
  return r.size() == 1 && operand.starts_with('R') ? r.front() : -1;
}

// An immediate operand ("0x1c"), or 0.
int immediate_of(std::string_view operand) {
  return operand.starts_with("0x") ? static_cast<int>(std::strtol(std::string(operand).c_str(), nullptr, 16)) : 0;
}

// The constant `in` multiplies one register by into another ("LEA R7, R0, R0, 0x1": 3; "IMAD
// R7, R0, 0x3, RZ": 3), or none.
std::optional<int> factor_of(const SassInstruction& in) {
  const std::vector<std::string_view> parts = detail::operand_list(in.operands);
  if (parts.size() != 4) return std::nullopt;
  const int source = register_of(parts[1]);
  if (source < 0) return std::nullopt;
  const int shift = immediate_of(parts[3]);
  if (in.opcode == "LEA" && register_of(parts[2]) == source && shift > 0 && shift < 16) return (1 << shift) + 1;
  if ((in.opcode == "IMAD" || in.opcode == "IMAD.SHL.U32") && immediate_of(parts[2]) > 0 && parts[3] == "RZ")
    return immediate_of(parts[2]);
  return std::nullopt;
}

// The bytes an IMAD.WIDE scales a thread's index by to make a 64-bit address ("IMAD.WIDE R2, R5,
// 0x1c, R2": 28), or 0. An index already multiplied by a factor that is no power of two (3 i:
// an array of 3-vectors) scales by its product: a thread's structure, where a power of two is
// more often a thread's chunk of elements, which the draft counts apart.
int index_scale(const SassInstruction& in, const std::map<int, int>& factor) {
  if (!in.opcode.starts_with("IMAD.WIDE")) return 0;
  const std::vector<std::string_view> parts = detail::operand_list(in.operands);
  if (parts.size() != 4 || !parts[2].starts_with("0x")) return 0;
  const int bytes = immediate_of(parts[2]);
  const auto it = factor.find(register_of(parts[1]));
  const bool structure = it != factor.end() && (it->second & (it->second - 1)) != 0;
  return structure ? bytes * it->second : bytes;
}

// A base address: a register and which write of it (one value of the register).
using Base = std::pair<int, int>;

// Numbers the structures among `accesses` (per access its base, if any, and offset; per base the
// scale its IMAD.WIDE gave): two or more distinct offsets off one base, every access within the
// scale, which is wider than each access.
void mark_structures(std::vector<ElementAccess>& accesses, const std::vector<std::optional<Base>>& bases,
                     const std::vector<int>& offsets, const std::map<Base, int>& scale_of_base) {
  std::map<Base, std::vector<std::size_t>> by_base;
  for (std::size_t i = 0; i < accesses.size(); ++i)
    if (bases[i] && scale_of_base.contains(*bases[i])) by_base[*bases[i]].push_back(i);
  std::vector<std::vector<std::size_t>> structures;
  for (const auto& [base, members] : by_base) {
    const int bytes = scale_of_base.at(base);
    std::set<int> distinct;
    bool within = true;
    for (std::size_t i : members) {
      distinct.insert(offsets[i]);
      within = within && offsets[i] >= 0 && offsets[i] + accesses[i].bits / 8 <= bytes && accesses[i].bits / 8 < bytes;
    }
    if (within && distinct.size() >= 2) structures.push_back(members);
  }
  std::ranges::sort(structures, {}, [](const auto& m) { return m.front(); });
  for (std::size_t s = 0; s < structures.size(); ++s)
    for (std::size_t i : structures[s]) {
      accesses[i].structure = static_cast<int>(s) + 1;
      accesses[i].structure_bytes = scale_of_base.at(*bases[i]);
      accesses[i].field_offset = offsets[i];
    }
}

// The global accesses of `blocks` in program order. A load whose address is computed from what
// an earlier load of the same walk brought (an index, a row pointer) names the latest such load
// (`depends_on`): each register carries the loads its value was computed from. Accesses off one
// base at offsets within the bytes its index was scaled by are the fields of a structure.
std::vector<ElementAccess> element_accesses(const SassFunction& f, const ControlFlow& cf,
                                            const std::vector<std::size_t>& blocks) {
  std::vector<ElementAccess> out;
  std::map<int, std::set<int>> from;  // register -> the loads (numbered from 1) its value comes from
  std::map<int, int> version;         // register -> how many times it was written
  std::map<Base, int> scale_of_base;  // a base an IMAD.WIDE wrote -> the bytes it scaled the index by
  std::map<int, int> factor;          // register -> the constant it multiplied another register by
  std::vector<std::optional<Base>> bases;  // per access
  std::vector<int> offsets;
  int loads = 0;
  for (std::size_t b : blocks)
    for (std::size_t i = cf.blocks[b].first; i < cf.blocks[b].end; ++i) {
      const SassInstruction& in = f.instructions[i];
      const auto a = detail::memory_access(in);
      std::set<int> sources;
      for (int r : detail::registers_named(detail::operands_read(in, a)))
        if (auto it = from.find(r); it != from.end()) sources.insert(it->second.begin(), it->second.end());
      const bool element = a && (a->space == detail::MemorySpace::global || a->space == detail::MemorySpace::generic ||
                                 a->space == detail::MemorySpace::bulk_copy);
      const bool load = element && a->direction == detail::MemoryDirection::load;
      if (element) {
        // The address is what the brackets name ([R2.64]); a store's other operand is its data.
        int after = 0;
        const std::string_view operands(in.operands);
        for (std::size_t open = operands.find('['); open != std::string::npos; open = operands.find('[', open + 1))
          for (int r : detail::registers_named(operands.substr(open, operands.find(']', open) - open)))
            if (auto it = from.find(r); it != from.end() && !it->second.empty())
              after = std::max(after, *it->second.rbegin());
        out.push_back({in.opcode, std::string(to_string(a->direction)), a->bits, after});
        const auto address = address_of(operands);
        bases.push_back(address ? std::optional<Base>(Base{address->base, version[address->base]}) : std::nullopt);
        offsets.push_back(address ? address->offset : 0);
      }
      if (load) sources = {++loads};  // what a load brings comes from it, not from its address
      const int scale = index_scale(in, factor);
      const auto multiple = factor_of(in);
      for (int r : detail::registers_written(in, a)) {
        from[r] = sources;
        ++version[r];
        factor.erase(r);
      }
      if (multiple)
        if (const auto written = detail::registers_written(in, a); written.size() == 1)
          factor[written.front()] = *multiple;
      if (scale > 0)
        if (const auto written = detail::registers_written(in, a); !written.empty())
          scale_of_base[{written.front(), version[written.front()]}] = scale;
    }
  mark_structures(out, bases, offsets, scale_of_base);
  return out;
}

std::string listing(const std::vector<CountedInstruction>& list) {
  std::string out;
  for (const CountedInstruction& c : list)
    out += fmt::format("{}{} x {} ({})", out.empty() ? "" : ", ", c.count, c.opcode, c.what);
  return out.empty() ? "none" : out;
}

// The global loads of `blocks`, walked in order.
struct LoadWalk {
  int loads = 0;
  int most_in_flight = 0;   // issued, their registers not yet read, at once
  std::vector<int> rounds;  // loads per round: a round ends where the thread first waits for one of its loads
};

// Walks `blocks` in order: each global load adds its destination registers to the loads in
// flight, and an instruction that reads any of them retires that load. The first read of a
// load issued since the thread last waited is a wait: the loads issued before it come back
// together, a round.
LoadWalk walk_loads(const SassFunction& f, const ControlFlow& cf, const std::vector<std::size_t>& blocks) {
  struct Pending {
    int first = 0, count = 1;
    bool this_round = true;
  };
  std::vector<Pending> pending;
  LoadWalk w;
  int in_round = 0;
  for (std::size_t b : blocks)
    for (std::size_t i = cf.blocks[b].first; i < cf.blocks[b].end; ++i) {
      const SassInstruction& in = f.instructions[i];
      const auto access = detail::memory_access(in);
      for (int r : detail::registers_named(detail::operands_read(in, access))) {
        auto reads = [&](const Pending& p) { return r >= p.first && r < p.first + p.count; };
        if (in_round > 0 && std::ranges::any_of(pending, [&](const Pending& p) { return p.this_round && reads(p); })) {
          w.rounds.push_back(in_round);
          in_round = 0;
          for (Pending& p : pending) p.this_round = false;
        }
        std::erase_if(pending, reads);
      }
      if (global_load(access)) {
        ++w.loads;
        ++in_round;
        if (const auto dest = detail::registers_written(in, access); !dest.empty())
          pending.push_back({dest.front(), static_cast<int>(dest.size())});
        w.most_in_flight = std::max(w.most_in_flight, static_cast<int>(pending.size()));
      }
    }
  if (in_round > 0) w.rounds.push_back(in_round);
  return w;
}

// Elements of `element_bytes` an access moves per thread (at least one).
int elements_in(const ElementAccess& a, int element_bytes) { return std::max(1, a.bits / 8 / element_bytes); }

// The element types the kernel's signature gives (its pointer parameters'), for `dtypes` and for
// the elements in an access: 4-byte elements assumed where the signature names none, or several.
struct SignatureTypes {
  std::vector<DType> dtypes;
  std::string spelled;  // "c10::BFloat16 and float"
  int element_bytes = 4;
};

SignatureTypes signature_types(const SpecDraft& d) {
  const auto parameters = detail::pointer_parameters(d.demangled);
  SignatureTypes t{detail::parameter_dtypes(parameters), "", 4};
  std::vector<std::string> names;
  for (const auto& p : parameters)
    if (std::ranges::find(names, p.spelled) == names.end()) names.push_back(p.spelled);
  for (std::size_t i = 0; i < names.size(); ++i)
    t.spelled += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
  if (t.dtypes.size() == 1) t.element_bytes = size_bytes(t.dtypes.front());
  return t;
}


// The draft's comments: where it came from, and the SASS's counts by region.
void write_draft_header(const SpecDraft& d, std::string_view source, std::ostream& out) {
  out << fmt::format("# Drafted from {}:\n#   {}\n#   {}\n", source, d.mangled, d.demangled);
  out << "# Lines marked FILL IN are what a binary cannot say; the counts are warp instructions, as\n"
         "# smsp__inst_executed counts them (predicated-off instructions included).\n";
  for (const std::string& note : d.notes) out << "# NOTE: " << note << '\n';
  if (!d.arch.empty())
    out << fmt::format("# per thread, outside the loop: {} instructions; memory: {}; barriers: {}\n",
                       d.per_thread.instructions, listing(d.per_thread.memory), d.per_thread.barriers);
  if (d.element_loop)
    out << fmt::format("# per loop iteration: {} instructions; memory: {}; barriers: {}\n",
                       d.per_iteration.instructions, listing(d.per_iteration.memory), d.per_iteration.barriers);
}

// `ilp`, with what the SASS says of the loads a thread keeps in flight.
void write_ilp(const SpecDraft& d, std::ostream& out) {
  out << "ilp = 1  # FILL IN: iterations whose loads are issued before the first use";
  if (d.loop_loads > 1)
    out << fmt::format(" (one pass of the loop body keeps up to {} of its {} global loads in flight: divide by the "
                       "loads of one iteration)",
                       d.loop_loads_in_flight, d.loop_loads);
  if (const int loads = std::accumulate(d.load_rounds.begin(), d.load_rounds.end(), 0); loads > 1) {
    std::string rounds;
    for (std::size_t i = 0; i < d.load_rounds.size(); ++i)
      rounds += fmt::format("{}{}", i == 0 ? "" : i + 1 == d.load_rounds.size() ? " then " : ", ", d.load_rounds[i]);
    out << (d.load_rounds.size() == 1
                ? fmt::format(" (the path's {} global loads are all in flight at once: one round)", loads)
                : fmt::format(" (the path's {} global loads go in {} rounds, {}: each round waits for the one "
                              "before; rounds of one array's elements are trips, `iterations`, a load whose "
                              "address an earlier one gives is `depends_on`)",
                              loads, d.load_rounds.size(), rounds));
  }
  out << '\n';
}

// `flops`: the element region's FP, special-function and ALU instructions as operations per
// element, over the elements a thread takes (a pass of a loop: the user divides by ilp as for
// inst_per_iteration); the tensor-core instructions stay a comment, their multiply-adds per
// element the user's to say.
void write_flops(const std::vector<CountedFlop>& flops, int elements, bool loop, std::ostream& out) {
  struct Entry {
    FlopKind kind;
    int count = 0;
    std::vector<std::string> opcodes;
  };
  std::vector<Entry> entries;
  std::vector<std::string> tensor;
  for (const CountedFlop& c : flops) {
    if (!c.kind.tensor_cores.empty()) {
      tensor.push_back(fmt::format("{} x {} ({})", c.count, c.opcode, c.kind.tensor_cores));
      continue;
    }
    auto same = std::ranges::find(entries, c.kind, &Entry::kind);
    if (same == entries.end()) same = entries.insert(entries.end(), Entry{c.kind, 0, {}});
    same->count += c.count;
    same->opcodes.push_back(fmt::format("{} x {}", c.count, c.opcode));
  }
  const std::string over = fmt::format(
      "the SASS {} over elements_per_thread's {}{}; predicated instructions counted as if they ran",
      loop ? "per loop iteration" : "per thread", elements, loop ? " (divide by ilp if a pass runs ilp iterations)" : "");
  const std::string rest =
      tensor.empty() ? "" : fmt::format("; FILL IN the tensor cores' multiply-adds: {}", fmt::join(tensor, ", "));
  if (entries.empty()) {
    out << fmt::format("flops = []  # {}: no FP arithmetic{}\n", over, rest);
    return;
  }
  out << fmt::format("flops = [  # {}{}\n", over, rest);
  for (const Entry& e : entries)
    out << fmt::format("  {{ type = \"{}\", op = \"{}\", per_element = {:.4g}{} }},  # {}\n", e.kind.type, e.kind.op,
                       static_cast<double>(e.count) * e.kind.packed / elements,
                       e.kind.packed > 1 ? ", packed = 2" : "", fmt::join(e.opcodes, ", "));
  out << "]\n";
}

// `dependent_cycles`: the SASS's longest chain on loaded values; a run cannot say.
void write_dependent_cycles(const SpecDraft& d, std::ostream& out) {
  if (d.arch.empty()) {
    out << "# dependent_cycles: unknown (a run cannot say; `roofline spec --from-binary` counts the chain)\n";
    return;
  }
  out << fmt::format("dependent_cycles = {}  # {}: the longest chain of dependent operations on loaded values{}, {} "
                     "of fixed latency x {} cycles and {} through the SFU x {} (assumed latencies, "
                     "docs/kernel-spec.md){}\n",
                     d.chain_cycles, d.counted_from, d.element_loop ? " in one pass of the loop body" : "",
                     d.chain_fixed, detail::kFixedLatencyCycles, d.chain_sfu, detail::kSfuLatencyCycles,
                     d.element_loop ? "; divide by ilp if a pass runs ilp iterations" : "");
}

// Barriers, block reductions, registers and shared memory.
void write_block_resources(const SpecDraft& d, std::ostream& out) {
  const bool from_sass = !d.arch.empty();
  if (from_sass && d.per_thread.barriers > 0)
    out << fmt::format("barriers_per_block = {}  # {}: BAR.SYNC outside the loop\n", d.per_thread.barriers,
                       d.counted_from);
  // A block reduction is a warp's tree of five shuffles, two barriers, a tree over the partials
  // and a broadcast: eleven shuffles.
  if (from_sass && d.per_thread.barriers >= 2 && d.per_thread.shuffles >= 5)
    out << fmt::format("block_reductions = {}  # FILL IN: block-wide reductions run one after another (guessed from "
                       "the {} shuffles and {} barriers outside the loop; independent ones whose trees interleave "
                       "count once)\n",
                       std::min(d.per_thread.barriers / 2, std::max(1, (d.per_thread.shuffles + 5) / 11)),
                       d.per_thread.shuffles, d.per_thread.barriers);
  if (d.registers)
    out << fmt::format("registers = {}  # {}\n", *d.registers, d.resources_from);
  else
    out << "# registers: unknown; append `cuobjdump -res-usage BINARY` to the listing to count them\n";
  if (d.static_shared_bytes)
    out << fmt::format("shared_bytes = {}  # {}\n", *d.static_shared_bytes, d.resources_from);
  else
    out << "# shared_bytes: unknown; append `cuobjdump -res-usage BINARY` to the listing to count it\n";
}

void write_dtypes(const SignatureTypes& t, std::ostream& out) {
  if (t.dtypes.empty()) {
    out << "dtypes = [\"f32\"]  # FILL IN: the launch dtypes (neither the SASS nor the kernel's signature says)\n";
    return;
  }
  const auto name = [](DType x) { return fmt::format("\"{}\"", to_string(x)); };
  if (t.dtypes.size() == 1)
    out << fmt::format("dtypes = [{}]  # its pointer parameters point to {}\n", name(t.dtypes.front()), t.spelled);
  else
    out << fmt::format("dtypes = [{}]  # FILL IN: its pointer parameters point to {}: the launch dtype here, and "
                       "`type` on each array of another\n",
                       name(t.dtypes.front()), t.spelled);
}

// The stores of a structure's consecutive fields from its first, one after another in program
// order, each as wide as the others, starting at element_accesses[i]: how many (1 where they are
// not such a run).
std::size_t field_run(const std::vector<ElementAccess>& accesses, std::size_t i) {
  const ElementAccess& first = accesses[i];
  if (first.op != "store" || first.structure == 0 || first.field_offset != 0 || first.bits == 0) return 1;
  std::size_t n = 1;
  while (i + n < accesses.size()) {
    const ElementAccess& a = accesses[i + n];
    if (a.op != "store" || a.structure != first.structure || a.bits != first.bits ||
        a.field_offset != static_cast<int>(n) * first.bits / 8)
      break;
    ++n;
  }
  return n;
}

// One entry per global access of the element region, in program order, then the stores outside it.
// The fields of one structure per thread are one array (`struct_N`) whose neighbouring threads are
// the structure's elements apart (`stride`); its later loads find the sectors its first brought,
// and its stores of consecutive fields from the first are one entry (`fields`).
void write_arrays(const SpecDraft& d, int element_bytes, std::ostream& out) {
  out << "# FILL IN: one entry per array (merge the instructions of one array), its name, and vector = access bytes /\n"
         "# element bytes; the entries below are the element region's global instructions (and bulk copies), in\n"
         "# program order.\n";
  out << "arrays = [\n";
  if (d.element_accesses.empty()) out << "  { name = \"FILL_IN\", op = \"load\" },  # FILL IN: the arrays\n";
  int loads = 0, stores = 0;
  std::vector<std::string> load_names;  // by load number, for depends_on
  std::set<int> structures_loaded;
  for (std::size_t i = 0; i < d.element_accesses.size(); ++i) {
    const ElementAccess& a = d.element_accesses[i];
    const bool load = a.op == "load";
    const std::size_t fields = a.structure_bytes % element_bytes == 0 ? field_run(d.element_accesses, i) : 1;
    const std::string name = a.structure > 0 ? fmt::format("struct_{}", a.structure)
                                             : fmt::format("{}_{}", load ? "load" : "store", load ? ++loads : ++stores);
    if (load) load_names.push_back(name);
    std::string keys;
    if (a.structure > 0) {
      keys += a.structure_bytes % element_bytes == 0 ? fmt::format(", stride = {}", a.structure_bytes / element_bytes)
                                                     : ", stride = 1";
      if (load && !structures_loaded.insert(a.structure).second) keys += ", reuse = \"l1\"";
      if (fields > 1) keys += fmt::format(", fields = {}", fields);
    }
    if (a.depends_on > 0 && a.depends_on <= static_cast<int>(load_names.size()))
      keys += fmt::format(", depends_on = \"{}\"", load_names[a.depends_on - 1]);
    std::string what = a.bits == 0
                           ? "a bulk copy: its bytes are an operand"
                           : fmt::format("{} B per thread{}", a.bits / 8,
                                         a.op == "atomic" ? "; an atomic: the spec has no atomic op" : "");
    if (fields > 1)
      what += fmt::format("; the {} fields from +0 of a {}-byte structure per thread, one instruction each", fields,
                          a.structure_bytes);
    else if (a.structure > 0)
      what += fmt::format("; the field at +{} of a {}-byte structure per thread{}", a.field_offset, a.structure_bytes,
                          a.structure_bytes % element_bytes == 0
                              ? ""
                              : fmt::format(": FILL IN stride, the structure's bytes over the element's ({})",
                                            element_bytes));
    out << fmt::format("  {{ name = \"{}\", op = \"{}\", vector = {}{} }},  # {}{} ({}{})\n", name,
                       load ? "load" : "store", elements_in(a, element_bytes), keys, a.opcode,
                       fields > 1 ? fmt::format(" x {}", fields) : "", what,
                       a.depends_on > 0 ? "; its address comes from what that load brought" : "");
    i += fields - 1;
  }
  for (const ElementAccess& a : d.stores_outside_loop)
    out << fmt::format("  {{ name = \"store_{}\", op = \"store\", vector = {}, per_thread = 1 }},  # {} ({} B per "
                       "thread, outside the element loop: once per thread; per_warp = 1 if one lane of a warp "
                       "stores)\n",
                       ++stores, elements_in(a, element_bytes), a.opcode, a.bits / 8);
  out << "]\n";
}

}  // namespace

SpecDraft draft_spec(const SassFunction& f) {
  const ControlFlow cf = detail::control_flow(f);
  const detail::WarpPath path = detail::full_warp_path(f, cf);
  SpecDraft d;
  d.arch = f.arch;
  d.mangled = f.mangled;
  d.demangled = f.demangled;
  d.function_name = kernel_function_name(f.demangled);
  d.element_loop = !path.iteration.empty();
  count(d.per_thread, f, cf, path.blocks, +1);
  if (path.path_holds_iteration) count(d.per_thread, f, cf, path.iteration, -1);
  count(d.per_thread, f, cf, path.walks_on_path, -1);
  count(d.per_iteration, f, cf, path.iteration, +1);
  count(d.per_iteration, f, cf, path.walks, +1);
  d.element_accesses = element_accesses(f, cf, d.element_loop ? path.iteration : path.blocks);
  // An element costs a trip of the loop and of each walk beside it, one after another: their chains add.
  for (const auto* region : d.element_loop ? std::vector{&path.iteration, &path.walks} : std::vector{&path.blocks}) {
    const detail::DependentChain chain = detail::longest_dependent_chain(f, cf, *region);
    d.chain_fixed += chain.fixed;
    d.chain_sfu += chain.sfu;
    d.chain_cycles += chain.cycles();
  }
  if (d.element_loop) {
    const LoadWalk loop = walk_loads(f, cf, path.iteration);
    d.loop_loads = loop.loads;
    d.loop_loads_in_flight = loop.most_in_flight;
    std::vector<std::size_t> outside;
    std::ranges::copy_if(path.blocks, std::back_inserter(outside),
                         [&](std::size_t b) { return std::ranges::find(path.iteration, b) == path.iteration.end(); });
    std::ranges::copy_if(element_accesses(f, cf, outside), std::back_inserter(d.stores_outside_loop),
                         [](const ElementAccess& a) { return a.op == "store"; });
  } else {
    d.load_rounds = walk_loads(f, cf, path.blocks).rounds;
  }
  d.registers = f.registers;
  d.static_shared_bytes = f.static_shared_bytes;
  d.notes = path.notes;
  d.counted_from = fmt::format("counted from SASS ({}, function {})", d.arch, kernel_display_name(d.demangled));
  d.resources_from = fmt::format("cuobjdump -res-usage ({})", d.arch);
  return d;
}

SpecDraft draft_spec(std::span<const ProfiledLaunch> launches, std::string_view run) {
  std::vector<double> per_warp;
  const ProfiledLaunch* first = nullptr;
  for (const ProfiledLaunch& l : launches) {
    const MetricValue* inst = counter(l, metric::inst_executed);
    const std::int64_t warps = l.id.grid.count() * ((l.id.block.count() + 31) / 32);
    if (inst == nullptr || warps <= 0) continue;
    per_warp.push_back(inst->value / static_cast<double>(warps));
    if (first == nullptr) first = &l;
  }
  if (first == nullptr)
    throw InputError(fmt::format("no launch of '{}' in run {} has {}: profile it with counters",
                                 launches.empty() ? "" : launches.front().id.demangled, run, metric::inst_executed));
  SpecDraft d;
  d.mangled = first->id.mangled;
  d.demangled = first->id.demangled;
  d.function_name = kernel_function_name(d.demangled);
  double sum = 0;
  for (double v : per_warp) sum += v;
  d.per_thread.instructions = std::round(sum / static_cast<double>(per_warp.size()) * 100) / 100;
  const auto [low, high] = std::minmax_element(per_warp.begin(), per_warp.end());
  d.counted_from = fmt::format("measured: {} per warp, mean of {} launch(es) of run {}", metric::inst_executed,
                               per_warp.size(), run);
  if (*high - *low > 0.005)
    d.notes.push_back(fmt::format("the launches differ: {:.2f} to {:.2f} instructions per warp", *low, *high));
  d.notes.push_back(
      "a run counts every instruction together: a grid-stride loop's iterations are folded into inst_per_thread (fit "
      "launches of two sizes, or draft from the SASS, to split them), and the memory instructions are not known");
  if (std::ranges::all_of(launches, [&](const ProfiledLaunch& l) { return l.id.block == first->id.block; }))
    d.block = static_cast<int>(first->id.block.count());
  else
    d.notes.push_back("the launches differ in block size: the first's is not given");
  if (first->id.registers_per_thread > 0) d.registers = first->id.registers_per_thread;
  d.static_shared_bytes = first->id.static_shared_bytes;
  d.resources_from = fmt::format("the launch in run {}", run);
  // The first launch's arithmetic per thread (a warp instruction of the XU or ALU pipe: 32
  // operations).
  const double threads = static_cast<double>(first->id.grid.count() * first->id.block.count());
  for (const auto& [name, kind, lanes] :
       {std::tuple{metric::fadd, "f32 add", 1}, {metric::fmul, "f32 mul", 1}, {metric::ffma, "f32 fma", 1},
        {metric::hadd, "f16 add (x2 where packed)", 1}, {metric::hmul, "f16 mul (x2 where packed)", 1},
        {metric::hfma, "f16 fma (x2 where packed)", 1}, {metric::dadd, "f64 add", 1}, {metric::dmul, "f64 mul", 1},
        {metric::dfma, "f64 fma", 1}, {metric::sfu_inst, "f32 sfu", 32}, {metric::alu_inst, "i32 alu", 32}})
    if (const MetricValue* v = counter(*first, name); v != nullptr && v->value > 0 && threads > 0)
      d.measured_flops.emplace_back(kind, v->value * lanes / threads);
  return d;
}

void write_spec_draft(const SpecDraft& d, std::string_view source, std::ostream& out) {
  const std::string& counted = d.counted_from;
  const bool from_sass = !d.arch.empty();
  write_draft_header(d, source, out);
  const InstructionRegion& element = d.element_loop ? d.per_iteration : d.per_thread;
  const SignatureTypes types = signature_types(d);
  int elements = 1;
  for (const ElementAccess& a : d.element_accesses) elements = std::max(elements, elements_in(a, types.element_bytes));

  out << "\n[[kernel]]\n";
  out << fmt::format("name = \"{}\"  # FILL IN: a name of your choice\n", d.function_name);
  out << "description = \"\"  # FILL IN\n";
  out << "category = \"user\"\n";
  write_dtypes(types, out);
  if (d.block)
    out << fmt::format("block = {}  # {}\n", *d.block, d.resources_from);
  else
    out << "block = 256  # FILL IN: threads per block of the launch\n";
  out << fmt::format("symbol = \"{}\"\n", d.function_name);
  out << fmt::format(
      "elements_per_thread = {}  # FILL IN: logical elements per thread per iteration (guessed from the "
      "widest access, {})\n",
      elements, types.dtypes.size() == 1 ? fmt::format("of {}-byte elements", types.element_bytes)
                                         : std::string("if elements are 4 bytes"));
  write_ilp(d, out);
  out << fmt::format("grid = \"{}\"  # {}\n", d.element_loop ? "grid-stride" : "one-shot",
                     d.element_loop ? "an element loop: FILL IN one-shot if it is not a grid-stride loop"
                     : from_sass    ? "no element loop in the SASS"
                                    : "FILL IN: a run does not say");
  out << fmt::format("inst_per_thread = {}  # {}\n", d.per_thread.instructions, counted);
  out << fmt::format("inst_per_iteration = {}  # {}{}\n", d.per_iteration.instructions, counted,
                     d.element_loop ? "; one pass of the loop body: divide by ilp if a pass runs ilp iterations" : "");
  write_dependent_cycles(d, out);
  write_block_resources(d, out);
  write_arrays(d, types.element_bytes, out);
  if (from_sass) {
    write_flops(element.flops, elements, d.element_loop, out);
  } else {
    std::vector<std::string> measured;
    for (const auto& [kind, per_thread] : d.measured_flops)
      measured.push_back(fmt::format("{:.4g} {}", per_thread, kind));
    out << fmt::format("flops = []  # FILL IN: arithmetic per element; measured per launched thread: {}\n",
                       measured.empty() ? std::string("none") : fmt::format("{}", fmt::join(measured, ", ")));
  }
}

}  // namespace roofline
