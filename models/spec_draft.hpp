#pragma once
// SpecDraft: the part of a kernel spec (docs/kernel-spec.md) a compiled function's SASS can
// say — warp instructions per thread and per element-loop iteration, its memory instructions
// by space and width, barriers, registers and static shared memory — rendered as a TOML spec
// whose remaining fields are marked `# FILL IN:`.
#include <cstdint>
#include <optional>
#include <span>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "models/profiled_launch.hpp"
#include "models/sass_listing.hpp"

namespace roofline {

// Instructions of one opcode (with its modifiers) in a region of the function.
struct CountedInstruction {
  std::string opcode;  // "LDG.E.128.CONSTANT"
  std::string what;    // "global load, 128-bit"
  int count = 0;
};

// The arithmetic one instruction does, as a spec's `flops` entry counts it.
struct FlopKind {
  std::string type;  // "f32", "f16", "bf16", "f64", "i32"
  std::string op;    // "add", "mul", "fma", "sfu", "alu"; empty for a tensor-core instruction
  int packed = 1;    // 2: the paired forms (HADD2, HFMA2 ...)
  // A tensor-core instruction: its type, shape and multiply-adds a thread, or why the model has no
  // rate for it; the user's to turn into flops.
  std::string tensor_cores;
  std::string text() const;  // "f32 add", "f16 fma x2", or the tensor-core text
  bool operator==(const FlopKind&) const = default;
};

// Arithmetic instructions of one opcode (with its modifiers) in a region of the function.
struct CountedFlop {
  std::string opcode;  // "HFMA2.BF16_V2"
  FlopKind kind;
  int count = 0;
};

// What one region (a thread's path outside the element loop, or one loop iteration) executes.
struct InstructionRegion {
  double instructions = 0;                 // warp instructions, predicated-off ones included
  std::vector<CountedInstruction> memory;  // in first-appearance order
  std::vector<CountedFlop> flops;          // FP, special-function, ALU and tensor-core arithmetic
  int barriers = 0;                        // BAR.SYNC
  int shuffles = 0;                        // SHFL (a reduction's trees)
};

// One global access (or bulk copy) instruction of the element region: a candidate array of the spec.
struct ElementAccess {
  std::string opcode;
  std::string op;  // "load", "store", "atomic"
  int bits = 32;
  int depends_on = 0;  // the earlier load (numbered from 1 among the walk's loads) its address comes from; 0: none
  // A field of one structure per thread: accesses at offsets within `structure_bytes` of one base
  // address that an IMAD.WIDE made of the thread's index times those bytes (an array of
  // structures). structure: numbered from 1 in order of appearance; 0: none.
  int structure = 0;
  int structure_bytes = 0;
  int field_offset = 0;
};

struct SpecDraft {
  std::string arch, mangled, demangled;  // arch: empty when drafted from a run
  std::string function_name;  // the bare name, as `symbol`
  bool element_loop = false;  // grid-stride (or another loop over elements)
  InstructionRegion per_thread, per_iteration;
  std::vector<ElementAccess> element_accesses;  // of the loop body, or of the per-thread path without a loop
  std::vector<ElementAccess> stores_outside_loop;  // with a loop: the global stores of the path outside it
  // Of one pass of the loop body: its global loads, and the most of them in flight at once (issued,
  // their registers not yet read): an unrolled loop's loads hoisted above their uses.
  int loop_loads = 0, loop_loads_in_flight = 0;
  // Without a loop: the path's global loads per round, a round ending where the thread first
  // waits for one of its loads (two or more: later loads wait for an earlier round).
  std::vector<int> load_rounds;
  // The longest chain of dependent operations on loaded values in the element region (one pass of
  // the loop body and its walks, or the thread's path): operations of fixed latency, operations
  // through the SFU, and its SM cycles at the latencies the suite's specs count by hand.
  int chain_fixed = 0, chain_sfu = 0, chain_cycles = 0;
  std::optional<int> block;  // threads per block: a profiled launch's (a binary does not say)
  std::optional<int> registers;
  std::optional<std::int64_t> static_shared_bytes;
  std::vector<std::string> notes;  // where the structure is not a simple loop nest, what was guessed
  std::string counted_from;        // the counts' origin: "counted from SASS (sm_90, function f)"
  std::string resources_from;      // the registers' and shared memory's origin
  // Drafted from a run: its FP and special-function operations per launched thread, by kind
  // ("f64 fma"), a launch's counters over its threads (a binary's are in the regions' flops).
  std::vector<std::pair<std::string, double>> measured_flops;
};

SpecDraft draft_spec(const SassFunction& f);
// From the launches of one kernel in a stored profile or import run (`run` names it): its warp
// instructions per warp (smsp__inst_executed over launched warps), registers and shared memory.
// Throws InputError when no launch has the counter.
SpecDraft draft_spec(std::span<const ProfiledLaunch> launches, std::string_view run);
// The draft as a spec file; `source` says where it came from (the command line, a file).
void write_spec_draft(const SpecDraft& d, std::string_view source, std::ostream& out);

}  // namespace roofline
