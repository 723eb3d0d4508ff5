// Reading `cuobjdump -sass` text and drafting a spec from it: hand-written listings for the
// loop, exit, width and name rules (the suite's own SASS is checked in sass_suite_test.cpp).
#include "models/sass_listing.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "models/error.hpp"
#include "models/spec_draft.hpp"
#include "models/spec_file.hpp"

namespace roofline {
namespace {

// A one-shot kernel: bounds check by a predicated EXIT, two loads, a store, the padding after
// the last EXIT (a branch to itself and NOPs) that no warp runs.
constexpr std::string_view kOneShot = R"sass(
Fatbin elf code:
================
arch = sm_90
code version = [1,8]
host = linux
compile_size = 64bit

	code for sm_90
		Function : _Z10add_kernelPKfS0_Pfi
	.headerflags	@"EF_CUDA_TEXMODE_UNIFIED EF_CUDA_64BIT_ADDRESS EF_CUDA_SM90 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM90)"
        /*0000*/                   LDC R1, c[0x0][0x28] ;                      /* 0x00000a00ff017b82 */
                                                                               /* 0x000fe40000000800 */
        /*0010*/                   S2R R0, SR_TID.X ;                          /* 0x0000000000007919 */
                                                                               /* 0x000e2e0000002100 */
        /*0020*/                   ISETP.GE.AND P0, PT, R0, UR4, PT ;
        /*0030*/               @P0 EXIT ;
        /*0040*/                   LDG.E.CONSTANT R2, desc[UR4][R2.64] ;
        /*0050*/                   LDG.E.CONSTANT R4, desc[UR4][R4.64] ;
        /*0060*/                   FADD R7, R2, R4 ;
        /*0070*/                   STG.E desc[UR4][R6.64], R7 ;
        /*0080*/                   EXIT ;
.L_x_0:
        /*0090*/                   BRA `(.L_x_0);
        /*00a0*/                   NOP;
        /*00b0*/                   NOP;
		..........
)sass";

// A grid-stride loop (tested at its bottom, guarded at the top), then a scalar remainder
// loop that full warps never run, with 128-bit accesses in the main loop.
constexpr std::string_view kGridStride = R"sass(
	code for sm_90
		Function : _Z11loop_kernelPKfPfi
	.headerflags	@"EF_CUDA_SM90"
        /*0000*/                   S2R R0, SR_TID.X ;
        /*0010*/                   ISETP.GE.AND P0, PT, R0, UR4, PT ;
        /*0020*/               @P0 BRA `(.L_x_0) ;
.L_x_1:
        /*0030*/                   LDG.E.128 R4, desc[UR4][R2.64] ;
        /*0040*/                   FADD R4, R4, 1 ;
        /*0050*/                   STG.E.128 desc[UR4][R8.64], R4 ;
        /*0060*/                   IADD3 R0, R0, UR5, RZ ;
        /*0070*/                   ISETP.GE.AND P0, PT, R0, UR4, PT ;
        /*0080*/              @!P0 BRA `(.L_x_1) ;
.L_x_0:
        /*0090*/                   ISETP.GE.AND P1, PT, R0, UR6, PT ;
        /*00a0*/               @P1 EXIT ;
.L_x_2:
        /*00b0*/                   LDG.E R4, desc[UR4][R2.64] ;
        /*00c0*/                   STG.E desc[UR4][R8.64], R4 ;
        /*00d0*/                   ISETP.GE.AND P1, PT, R0, UR6, PT ;
        /*00e0*/              @!P1 BRA `(.L_x_2) ;
        /*00f0*/                   EXIT ;
.L_x_3:
        /*0100*/                   BRA `(.L_x_3);
		..........

Resource usage:
 Common:
  GLOBAL:0
 Function _Z11loop_kernelPKfPfi:
  REG:24 STACK:0 SHARED:1536 LOCAL:0 CONSTANT[0]:380 TEXTURE:0 SURFACE:0 SAMPLER:0
)sass";

std::string error_of(auto&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(SassListing, ReadsFunctionsInstructionsAndLabels) {
  const SassListing l = parse_sass_listing(kOneShot, "k.sass");
  ASSERT_EQ(l.functions.size(), 1u);
  const SassFunction& f = l.functions[0];
  EXPECT_EQ(f.arch, "sm_90");
  EXPECT_EQ(f.demangled, "add_kernel(float const*, float const*, float*, int)");
  ASSERT_EQ(f.instructions.size(), 12u);
  EXPECT_EQ(f.instructions[3].predicate, "@P0");
  EXPECT_EQ(f.instructions[3].opcode, "EXIT");
  EXPECT_EQ(f.instructions[4].opcode, "LDG.E.CONSTANT");
  EXPECT_EQ(f.instructions[4].operands, "R2, desc[UR4][R2.64]");
  ASSERT_EQ(f.labels.size(), 1u);
  EXPECT_EQ(f.labels[0], (std::pair<std::string, std::uint32_t>{".L_x_0", 0x90}));
  EXPECT_FALSE(f.registers);
}

TEST(SassListing, OneShotCountsThePathPastThePredicatedExit) {
  const SpecDraft d = draft_spec(parse_sass_listing(kOneShot, "k.sass").functions[0]);
  EXPECT_FALSE(d.element_loop);
  EXPECT_EQ(d.per_thread.instructions, 9);  // the padding after the last EXIT is not counted
  EXPECT_EQ(d.per_iteration.instructions, 0);
  ASSERT_EQ(d.per_thread.memory.size(), 3u);  // LDC, LDG x2, STG
  EXPECT_EQ(d.per_thread.memory[1].opcode, "LDG.E.CONSTANT");
  EXPECT_EQ(d.per_thread.memory[1].count, 2);
  EXPECT_EQ(d.per_thread.memory[1].what, "global load, 32-bit");
  EXPECT_EQ(d.per_thread.memory[2].what, "global store, 32-bit");
  ASSERT_EQ(d.element_accesses.size(), 3u);
  EXPECT_EQ(d.element_accesses[2].op, "store");
  // The FADD, and the index's and the bound's integer instructions on the ALU pipe.
  std::vector<std::string> kinds;
  for (const auto& f : d.per_thread.flops) kinds.push_back(f.kind.text());
  EXPECT_EQ(std::ranges::count(kinds, "f32 add"), 1);
  EXPECT_GE(std::ranges::count(kinds, "i32 alu"), 1);
  EXPECT_TRUE(d.notes.empty()) << d.notes.front();
}

TEST(SassListing, GridStrideLoopSplitsPerThreadAndPerIterationAndSkipsTheTailLoop) {
  const SassListing l = parse_sass_listing(kGridStride, "k.sass");
  const SassFunction& f = l.functions[0];
  EXPECT_EQ(f.registers, 24);
  EXPECT_EQ(f.static_shared_bytes, 512);  // SHARED:1536 less the 1 KiB sm_90 reserves per block
  const SpecDraft d = draft_spec(f);
  EXPECT_TRUE(d.element_loop);
  EXPECT_EQ(d.per_iteration.instructions, 6);       // 0x30..0x80
  EXPECT_EQ(d.per_thread.instructions, 3 + 2 + 0);  // entry block, the remainder check and its EXIT
  ASSERT_EQ(d.per_iteration.memory.size(), 2u);
  EXPECT_EQ(d.per_iteration.memory[0].what, "global load, 128-bit");
  ASSERT_EQ(d.element_accesses.size(), 2u);
  EXPECT_EQ(d.element_accesses[0].bits, 128);
  ASSERT_EQ(d.notes.size(), 1u);
  EXPECT_NE(d.notes[0].find("remainder (tail) loop at /*00b0*/ (4 instructions per round)"), std::string::npos)
      << d.notes[0];
}

// A grid-stride loop that loads one word a trip into shared counters, a barrier, then a longer
// loop that only stores (a histogram's merge of its sub-histograms, unrolled): the element loop
// is the one that loads, though the other moves more bits, and the other is not counted per trip.
TEST(SassListing, TheElementLoopIsTheOneThatLoads) {
  const SpecDraft d = draft_spec(parse_sass_listing(R"sass(
	code for sm_90
		Function : _Z4histPjS_j
        /*0000*/                   S2R R0, SR_TID.X ;
        /*0010*/                   ISETP.GE.U32.AND P1, PT, R0, UR8, PT ;
        /*0020*/               @P1 BRA `(.L_x_0) ;
.L_x_1:
        /*0030*/                   LDG.E R4, desc[UR6][R2.64] ;
        /*0040*/                   ATOMS.POPC.INC.32 RZ, [R4+URZ] ;
        /*0050*/                   IADD3 R0, R0, UR5, RZ ;
        /*0060*/                   ISETP.GE.U32.AND P1, PT, R0, UR8, PT ;
        /*0070*/              @!P1 BRA `(.L_x_1) ;
.L_x_0:
        /*0080*/                   BAR.SYNC.DEFER_BLOCKING 0x0 ;
.L_x_2:
        /*0090*/                   LDS R6, [R5] ;
        /*00a0*/                   STG.E desc[UR6][R8.64], R6 ;
        /*00b0*/                   STG.E desc[UR6][R10.64], R6 ;
        /*00c0*/                   STG.E desc[UR6][R12.64], R6 ;
        /*00d0*/                   IADD3 R5, R5, 0x300, RZ ;
        /*00e0*/                   ISETP.GE.U32.AND P0, PT, R5, 0x100, PT ;
        /*00f0*/              @!P0 BRA `(.L_x_2) ;
        /*0100*/                   EXIT ;
.L_x_3:
        /*0110*/                   BRA `(.L_x_3);
		..........
)sass",
                                                   "h.sass")
                                    .functions[0]);
  ASSERT_TRUE(d.element_loop);
  ASSERT_FALSE(d.element_accesses.empty());
  EXPECT_EQ(d.element_accesses[0].opcode, "LDG.E");
  // The store-only loop is no walk of the data beside it (a row kernel's pass reloads its row):
  // a trip is the data loop's 5 instructions alone.
  EXPECT_EQ(d.per_iteration.instructions, 5);
}

// A 128-bit grid-stride loop, a barrier, then each thread stores its block's result with a
// 32-bit store: that store is the block's epilogue, counted, not a scalar remainder to skip.
TEST(SassListing, AnEpilogueBeyondTheBarrierIsCountedNotTakenForARemainder) {
  const SpecDraft d = draft_spec(parse_sass_listing(R"sass(
	code for sm_90
		Function : _Z4histPjP5uint4j
        /*0000*/                   S2R R0, SR_TID.X ;
        /*0010*/                   ISETP.GE.U32.AND P1, PT, R0, UR8, PT ;
        /*0020*/               @P1 BRA `(.L_x_0) ;
.L_x_1:
        /*0030*/                   LDG.E.128 R4, desc[UR6][R2.64] ;
        /*0040*/                   STS.U8 [R4], R5 ;
        /*0050*/                   IADD3 R0, R0, UR5, RZ ;
        /*0060*/                   ISETP.GE.U32.AND P1, PT, R0, UR8, PT ;
        /*0070*/              @!P1 BRA `(.L_x_1) ;
.L_x_0:
        /*0080*/                   BAR.SYNC.DEFER_BLOCKING 0x0 ;
        /*0090*/                   ISETP.GT.U32.AND P0, PT, R0, 0x3f, PT ;
        /*00a0*/               @P0 EXIT ;
        /*00b0*/                   LDS.U8 R6, [R5] ;
        /*00c0*/                   LDS.U8 R7, [R5+0x1] ;
        /*00d0*/                   IADD3 R6, R6, R7, RZ ;
        /*00e0*/                   STG.E desc[UR6][R8.64], R6 ;
        /*00f0*/                   EXIT ;
.L_x_2:
        /*0100*/                   BRA `(.L_x_2);
		..........
)sass",
                                                   "h.sass")
                                    .functions[0]);
  ASSERT_TRUE(d.element_loop);
  EXPECT_EQ(d.per_thread.instructions, 3 + 3 + 5);  // entry, barrier and exit test, the epilogue
  ASSERT_EQ(d.stores_outside_loop.size(), 1u);
  EXPECT_EQ(d.stores_outside_loop[0].opcode, "STG.E");
}

TEST(SassListing, WidthsAndSpaces) {
  const SpecDraft d = draft_spec(parse_sass_listing(R"sass(
	code for sm_90
		Function : widths
        /*0000*/                   LDG.E.U8 R2, desc[UR4][R2.64] ;
        /*0010*/                   LDG.E.S16 R3, desc[UR4][R2.64] ;
        /*0020*/                   LDG.E.64.CONSTANT R4, desc[UR4][R2.64] ;
        /*0030*/                   STS.128 [R0], R4 ;
        /*0040*/                   BAR.SYNC.DEFER_BLOCKING 0x0 ;
        /*0050*/                   LDS R6, [R0] ;
        /*0060*/                   ATOMS.ADD RZ, [R0], R6 ;
        /*0070*/                   RED.E.ADD.F32.FTZ.RN.STRONG.GPU desc[UR4][R2.64], R6 ;
        /*0080*/                   ATOMG.E.ADD.64.STRONG.GPU PT, R8, desc[UR4][R2.64], R8 ;
        /*0090*/                   HADD2.BF16_V2 R6, R6, R7 ;
        /*00a0*/                   HFMA2.MMA R7, -RZ, RZ, 0, 0 ;
        /*00b0*/                   EXIT ;
)sass",
                                                    "w.sass")
                                     .functions[0]);
  std::vector<std::string> what;
  for (const auto& m : d.per_thread.memory) what.push_back(m.what);
  EXPECT_EQ(what, (std::vector<std::string>{"global load, 8-bit", "global load, 16-bit", "global load, 64-bit",
                                            "shared store, 128-bit", "shared load, 32-bit", "shared atomic, 32-bit",
                                            "global atomic, 32-bit", "global atomic, 64-bit"}));
  EXPECT_EQ(d.per_thread.barriers, 1);
  ASSERT_EQ(d.per_thread.flops.size(), 1u);
  EXPECT_EQ(d.per_thread.flops[0].kind, (FlopKind{"bf16", "add", 2, ""}));
}

// Tensor-core instructions are listed with the spec's op and their multiply-adds per thread:
// m16n8k16 over a warp's 32 threads is 64, m64n128k16 over a warpgroup's 128 is 1024; those
// the model has no rate for are named as such, never dropped.
TEST(SassListing, TensorCoreInstructionsCarryTheirMultiplyAdds) {
  const SpecDraft d = draft_spec(parse_sass_listing(R"sass(
	code for sm_90
		Function : tensor
        /*0000*/                   HMMA.16816.F32 R4, R8, R12, R4 ;
        /*0010*/                   HMMA.16816.F32.BF16 R16, R8, R12, R16 ;
        /*0020*/                   HMMA.1688.F32.TF32 R20, R8, R12, R20 ;
        /*0030*/                   HGMMA.64x128x16.F32 R24, gdesc[UR4], R24 ;
        /*0040*/                   IMMA.16832.S8.S8 R4, R8, R12, R4 ;
        /*0050*/                   EXIT ;
)sass",
                                                    "t.sass")
                                     .functions[0]);
  std::vector<std::string> what;
  for (const auto& f : d.per_thread.flops) what.push_back(f.kind.text());
  EXPECT_EQ(what, (std::vector<std::string>{"f16 mma m16n8k16, 64 multiply-adds a thread",
                                            "bf16 mma m16n8k16, 64 multiply-adds a thread",
                                            "tf32 mma m16n8k8, 32 multiply-adds a thread (the model has no TF32 rate)",
                                            "f16 wgmma m64n128k16, 1024 multiply-adds a thread",
                                            "tensor cores, IMMA: the model has no rate for it"}));
}

// A wait loop (no global memory) on the only path is counted once and said so; a forward
// branch that leaves two exits is counted by its longer side and said so.
TEST(SassListing, SpinLoopsAndBranchesAreCountedOnceAndNoted) {
  const SpecDraft d = draft_spec(parse_sass_listing(R"sass(
	code for sm_90
		Function : waits
        /*0000*/                   ISETP.NE.AND P0, PT, R0, RZ, PT ;
        /*0010*/               @P0 BRA `(.L_x_1) ;
.L_x_0:
        /*0020*/                   SYNCS.PHASECHK.TRANS64.TRYWAIT P1, [UR4], R2 ;
        /*0030*/              @!P1 BRA `(.L_x_0) ;
        /*0040*/                   LDS.128 R4, [R0] ;
        /*0050*/                   STG.E.128 desc[UR4][R2.64], R4 ;
        /*0060*/                   EXIT ;
.L_x_1:
        /*0070*/                   STG.E.128 desc[UR4][R2.64], RZ ;
        /*0080*/                   EXIT ;
)sass",
                                                    "w.sass")
                                     .functions[0]);
  EXPECT_FALSE(d.element_loop);
  EXPECT_EQ(d.per_thread.instructions, 7);
  ASSERT_EQ(d.notes.size(), 2u);
  EXPECT_NE(d.notes[0].find("a wait or spin loop, 2 instructions"), std::string::npos) << d.notes[0];
  EXPECT_NE(d.notes[1].find("2 paths of different lengths"), std::string::npos) << d.notes[1];
}

TEST(SassListing, NamesPickOneFunctionOrListTheCandidates) {
  const std::string two_archs = R"sass(
	code for sm_80
		Function : _Z1kIiEvPfT_
        /*0000*/                   EXIT ;
		Function : _Z1kIxEvPfT_
        /*0000*/                   EXIT ;
	code for sm_90
		Function : _Z1kIiEvPfT_
        /*0000*/                   NOP ;
        /*0010*/                   EXIT ;
		Function : _Z1kIxEvPfT_
        /*0000*/                   EXIT ;
)sass";
  const SassListing l = parse_sass_listing(two_archs, "t.sass");
  EXPECT_EQ(find_sass_function(l, "k<int>", "").arch, "sm_90");  // the newest by default
  EXPECT_EQ(find_sass_function(l, "k<int>", "").instructions.size(), 2u);
  EXPECT_EQ(find_sass_function(l, "_Z1kIiEvPfT_", "sm_80").arch, "sm_80");
  EXPECT_EQ(find_sass_function(l, "void k<long long>(float*, long long)", "sm_90").mangled, "_Z1kIxEvPfT_");
  const std::string ambiguous = error_of([&] { find_sass_function(l, "k", ""); });
  EXPECT_NE(ambiguous.find("'k' matches 2 functions for sm_90: 'k<int>' (_Z1kIiEvPfT_), 'k<long long>' (_Z1kIxEvPfT_)"),
            std::string::npos)
      << ambiguous;
  EXPECT_NE(error_of([&] { find_sass_function(l, "k<int>", "sm_75"); }).find("has no code for sm_75"),
            std::string::npos);
  EXPECT_NE(error_of([&] { find_sass_function(l, "q", ""); })
                .find("no function 'q' in the SASS listing; functions: k<int>, "
                      "k<long long>"),
            std::string::npos);
  EXPECT_NE(error_of([] { parse_sass_listing("hello\n", "x.sass"); }).find("x.sass: no SASS function in it"),
            std::string::npos);
  EXPECT_NE(error_of([] {
              draft_spec(parse_sass_listing("Function : f\n /*0000*/ BRA `(.L_x_9) ;\n", "b.sass").functions[0]);
            }).find("branches to '.L_x_9'"),
            std::string::npos);
}

// cuobjdump's SHARED counts, from sm_80 on, the 1 KiB the driver reserves for a block that uses
// shared memory; the draft gives the kernel's own bytes, as the driver reports them.
TEST(SassListing, SharedMemoryIsTheKernelsOwnWithoutTheReserve) {
  const std::string listing = R"sass(
	code for sm_75
		Function : _Z4tilePf
        /*0000*/                   EXIT ;
	code for sm_90
		Function : _Z4tilePf
        /*0000*/                   EXIT ;
		Function : _Z7dynamicPf
        /*0000*/                   EXIT ;

Fatbin elf code:
================
arch = sm_75
Resource usage:
 Common:
  GLOBAL:0
 Function _Z4tilePf:
  REG:8 STACK:0 SHARED:4096 LOCAL:0 CONSTANT[0]:360 TEXTURE:0 SURFACE:0 SAMPLER:0

Fatbin elf code:
================
arch = sm_90
Resource usage:
 Common:
  GLOBAL:0
 Function _Z4tilePf:
  REG:8 STACK:0 SHARED:5120 LOCAL:0 CONSTANT[0]:360 TEXTURE:0 SURFACE:0 SAMPLER:0
 Function _Z7dynamicPf:
  REG:8 STACK:0 SHARED:1024 LOCAL:0 CONSTANT[0]:360 TEXTURE:0 SURFACE:0 SAMPLER:0
)sass";
  const SassListing l = parse_sass_listing(listing, "t.sass");
  EXPECT_EQ(find_sass_function(l, "tile", "sm_75").static_shared_bytes, 4096);
  EXPECT_EQ(find_sass_function(l, "tile", "sm_90").static_shared_bytes, 4096);
  EXPECT_EQ(find_sass_function(l, "dynamic", "sm_90").static_shared_bytes, 0);  // dynamic shared memory only
}

// A PyTorch extension's kernel, templated on c10::BFloat16 (its loads four elements of 2 bytes):
// the signature gives the dtype, and the accesses count 2-byte elements, where the draft had
// assumed f32 and 4-byte elements (giving 2 elements of what are 4).
constexpr std::string_view kBf16 = R"sass(
	code for sm_90
		Function : _Z13swiglu_kernelIN3c108BFloat16EEvPKT_S4_PS2_x
	.headerflags	@"EF_CUDA_SM90"
        /*0000*/                   S2R R0, SR_TID.X ;
        /*0010*/                   ISETP.GE.AND P0, PT, R0, UR4, PT ;
        /*0020*/               @P0 EXIT ;
        /*0030*/                   LDG.E.64.CONSTANT R2, desc[UR4][R2.64] ;
        /*0040*/                   LDG.E.64.CONSTANT R4, desc[UR4][R4.64] ;
        /*0050*/                   FMUL R6, R2, R4 ;
        /*0060*/                   STG.E.64 desc[UR4][R8.64], R6 ;
        /*0070*/                   EXIT ;
.L_x_0:
        /*0080*/                   BRA `(.L_x_0);
		..........
)sass";

TEST(SassListing, TheSignatureGivesTheDtypeAndTheElementsInAnAccess) {
  std::ostringstream out;
  write_spec_draft(draft_spec(parse_sass_listing(kBf16, "ext.sass").functions[0]), "ext.sass", out);
  const std::string text = out.str();
  EXPECT_NE(text.find("dtypes = [\"bf16\"]  # its pointer parameters point to c10::BFloat16\n"), std::string::npos)
      << text;
  const std::vector<KernelSpec> specs = parse_kernel_specs(text, "draft.toml");
  ASSERT_EQ(specs.size(), 1u);
  EXPECT_EQ(specs[0].dtypes, (std::vector<DType>{DType::bf16}));
  const KernelPass& p = specs[0].passes[0];
  EXPECT_EQ(p.elements_per_thread, 4);  // 64 bits of 2-byte elements
  ASSERT_EQ(p.arrays.size(), 3u);
  for (const ArrayAccess& a : p.arrays) EXPECT_EQ(a.vector, 4);
}

// A chain from a load to the store: a conversion-free SiLU-like path with two SFU operations, a
// comparison whose predicate guards a correction, a division's slow path by a call, and work on
// the thread's index that no load feeds.
constexpr std::string_view kChain = R"sass(
	code for sm_90
		Function : _Z5chainPKfPfi
	.headerflags	@"EF_CUDA_SM90"
        /*0000*/                   S2R R0, SR_TID.X ;
        /*0010*/                   IMAD R1, R0, R0, R0 ;
        /*0020*/                   IMAD R1, R1, R0, R1 ;
        /*0030*/                   IMAD R1, R1, R0, R1 ;
        /*0040*/                   LDG.E.CONSTANT R2, desc[UR4][R4.64] ;
        /*0050*/                   FMUL R3, R2, -1.4426950216293334961 ;
        /*0060*/                   FSETP.GEU.AND P0, PT, R3, -126, PT ;
        /*0070*/              @!P0 FMUL R3, R3, 0.5 ;
        /*0080*/                   MUFU.EX2 R5, R3 ;
        /*0090*/                   FADD R5, R5, 1 ;
        /*00a0*/                   MUFU.RCP R6, R5 ;
        /*00b0*/                   FFMA R7, R2, R6, RZ ;
        /*00c0*/                   FCHK P1, R2, R5 ;
        /*00d0*/              @!P1 BRA `(.L_x_0) ;
        /*00e0*/                   MOV R8, 0x100 ;
        /*00f0*/                   CALL.REL.NOINC `(.L_x_1) ;
        /*0100*/                   IMAD.MOV.U32 R7, RZ, RZ, R9 ;
.L_x_0:
        /*0110*/                   STG.E desc[UR4][R10.64], R7 ;
        /*0120*/                   EXIT ;
.L_x_1:
        /*0130*/                   MOV R9, R2 ;
        /*0140*/                   RET.REL.NODEC R8 `(_Z5chainPKfPfi) ;
.L_x_2:
        /*0150*/                   BRA `(.L_x_2);
		..........
)sass";

// FMUL, FSETP, the guarded FMUL, EX2, FADD, RCP, FFMA (5 of fixed latency and 2 through the SFU:
// 5 x 4 + 2 x 16 = 52 cycles); the call's result continues the longest chain then on the path
// (the FFMA's) by its move, one more: 56. The index arithmetic (three IMADs) is no load's.
// An index multiplied by 7 (an IMAD by an immediate) before the IMAD.WIDE by 4 addresses a
// 28-byte structure: two fields loaded, two stored from the first; an index multiplied by 8 (a
// power of two) is a thread's chunk of elements, no structure.
constexpr std::string_view kSevenFloats = R"sass(
	code for sm_90
		Function : _Z6sevensPfi
	.headerflags	@"EF_CUDA_SM90"
        /*0000*/                   S2R R0, SR_TID.X ;
        /*0010*/                   ISETP.GE.AND P0, PT, R0, UR4, PT ;
        /*0020*/               @P0 EXIT ;
        /*0030*/                   IMAD R7, R0, 0x7, RZ ;
        /*0040*/                   IMAD.WIDE R2, R7, 0x4, R2 ;
        /*0050*/                   LDG.E R4, desc[UR4][R2.64+0x4] ;
        /*0060*/                   LDG.E R5, desc[UR4][R2.64] ;
        /*0070*/                   FADD R4, R4, R5 ;
        /*0080*/                   STG.E desc[UR4][R2.64], R4 ;
        /*0090*/                   STG.E desc[UR4][R2.64+0x4], R5 ;
        /*00a0*/                   EXIT ;
        /*00b0*/                   BRA 0xb0;
		..........
)sass";

TEST(SassListing, AnIndexTimesAnOddFactorAddressesAStructure) {
  const SpecDraft d = draft_spec(parse_sass_listing(kSevenFloats, "s.sass").functions[0]);
  ASSERT_EQ(d.element_accesses.size(), 4u);
  for (const ElementAccess& a : d.element_accesses) EXPECT_EQ(a.structure_bytes, 28);
  std::ostringstream out;
  write_spec_draft(d, "s.sass", out);
  const auto& arrays = parse_kernel_specs(out.str(), "draft.toml").at(0).passes.at(0).arrays;
  ASSERT_EQ(arrays.size(), 3u);  // two loads, the stores one entry
  EXPECT_EQ(arrays[0].stride, 7);
  EXPECT_EQ(arrays[1].reuse, Reuse::l1);
  EXPECT_EQ(arrays[2].fields, 2);
  std::string eight(kSevenFloats);
  eight.replace(eight.find("0x7, RZ"), 3, "0x8");
  for (const ElementAccess& a : draft_spec(parse_sass_listing(eight, "s.sass").functions[0]).element_accesses)
    EXPECT_EQ(a.structure, 0);
}

TEST(SassListing, TheDependentChainRunsFromALoadThroughPredicatesAndCalls) {
  const SpecDraft d = draft_spec(parse_sass_listing(kChain, "c.sass").functions[0]);
  EXPECT_EQ(d.chain_fixed, 6);
  EXPECT_EQ(d.chain_sfu, 2);
  EXPECT_EQ(d.chain_cycles, 6 * 4 + 2 * 16);
  std::ostringstream out;
  write_spec_draft(d, "c.sass", out);
  EXPECT_NE(out.str().find("dependent_cycles = 56  # counted from SASS (sm_90, function chain): the longest chain of "
                           "dependent operations on loaded values, 6 of fixed latency x 4 cycles and 2 through the SFU "
                           "x 16"),
            std::string::npos)
      << out.str();
  const KernelPass drafted = parse_kernel_specs(out.str(), "draft.toml").at(0).passes.at(0);
  EXPECT_EQ(drafted.dependent_cycles, 56);
  // Its MUFU.EX2 and MUFU.RCP are two special-function operations a thread.
  const auto sfu = std::ranges::find(drafted.flops, FlopOp::sfu, &FlopCount::op);
  ASSERT_NE(sfu, drafted.flops.end()) << out.str();
  EXPECT_DOUBLE_EQ(sfu->per_element, 2);
  // Drafted from a run, the chain is unknown and said to be.
  std::ostringstream run;
  SpecDraft from_run = d;
  from_run.arch.clear();
  write_spec_draft(from_run, "run 1", run);
  EXPECT_NE(run.str().find("# dependent_cycles: unknown (a run cannot say"), std::string::npos) << run.str();
}

TEST(SassListing, TheDraftIsASpecFileWithTheCounts) {
  std::ostringstream out;
  write_spec_draft(draft_spec(parse_sass_listing(kGridStride, "k.sass").functions[0]), "k.sass", out);
  const std::string text = out.str();
  EXPECT_NE(text.find("# FILL IN"), std::string::npos);
  EXPECT_NE(text.find("inst_per_iteration = 6  # counted from SASS (sm_90, function loop_kernel)"), std::string::npos)
      << text;
  const std::vector<KernelSpec> specs = parse_kernel_specs(text, "draft.toml");
  ASSERT_EQ(specs.size(), 1u);
  const KernelPass& p = specs[0].passes[0];
  EXPECT_EQ(p.symbol, "loop_kernel");
  EXPECT_EQ(p.grid, GridPolicy::grid_stride);
  EXPECT_EQ(p.inst_per_thread, 5);
  EXPECT_EQ(p.inst_per_iteration, 6);
  EXPECT_EQ(p.registers, 24);
  EXPECT_EQ(p.static_shared_bytes, 512);
  EXPECT_EQ(p.elements_per_thread, 4);
  ASSERT_EQ(p.arrays.size(), 2u);
  EXPECT_EQ(p.arrays[0].vector, 4);
  EXPECT_EQ(p.arrays[1].op, AccessOp::store);
  // The loop body's one FADD over the 4 elements a pass takes: a quarter of an add per element.
  const auto add = std::ranges::find(p.flops, FlopOp::add, &FlopCount::op);
  ASSERT_NE(add, p.flops.end()) << text;
  EXPECT_EQ(add->type, DType::f32);
  EXPECT_DOUBLE_EQ(add->per_element, 0.25);
}

// From a run, the arithmetic per launched thread is a comment the user turns into flops: 4096
// blocks of 256 threads, 2^26 DFMAs (64 a thread) and 2^18 XU warp instructions (8 operations a
// thread).
TEST(SassListing, ADraftFromARunSaysTheArithmeticPerThread) {
  ProfiledLaunch l;
  l.id.demangled = l.id.mangled = "poly";
  l.id.grid = {4096, 1, 1};
  l.id.block = {256, 1, 1};
  l.counters = {{std::string(metric::inst_executed), 32768.0 * 100},
                {std::string(metric::dfma), 67108864},
                {std::string(metric::sfu_inst), 262144},
                {std::string(metric::fadd), 0}};
  std::ostringstream out;
  write_spec_draft(draft_spec(std::span(&l, 1), "1"), "run 1", out);
  EXPECT_NE(out.str().find("flops = []  # FILL IN: arithmetic per element; measured per launched thread: 64 f64 fma, "
                           "8 f32 sfu\n"),
            std::string::npos)
      << out.str();
}

}  // namespace
}  // namespace roofline
