// The registers and predicates an instruction reads and writes, as the draft's walks follow them.
#include "models/detail/sass_registers.hpp"

#include <gtest/gtest.h>

#include <string>

namespace roofline::detail {
namespace {

SassInstruction instruction(std::string predicate, std::string opcode, std::string operands) {
  return {0, std::move(predicate), std::move(opcode), std::move(operands), 0};
}

TEST(SassRegisters, PairsWideResultsAndUniformRegisters) {
  EXPECT_EQ(registers_named("R4, desc[UR4][R2.64], R10"), (std::vector<int>{4, 2, 3, 10}));
  EXPECT_EQ(registers_named("UR4, RZ, PR"), (std::vector<int>{}));
  const SassInstruction load = instruction("", "LDG.E.128", "R8, desc[UR4][R2.64]");
  EXPECT_EQ(registers_written(load, memory_access(load)), (std::vector<int>{8, 9, 10, 11}));
  const SassInstruction store = instruction("", "STG.E", "desc[UR4][R2.64], R7");
  EXPECT_TRUE(registers_written(store, memory_access(store)).empty());
  EXPECT_EQ(registers_named(operands_read(store, memory_access(store))), (std::vector<int>{2, 3, 7}));
  const SassInstruction wide = instruction("", "IMAD.WIDE", "R6, R13, 0x4, R6");
  EXPECT_EQ(registers_written(wide, std::nullopt), (std::vector<int>{6, 7}));
}

TEST(SassRegisters, PredicatesAComparisonWritesAndASelectOrGuardReads) {
  const SassInstruction setp = instruction("", "FSETP.GEU.AND", "P0, PT, R3, -126, PT");
  EXPECT_EQ(predicates_written(setp), (std::vector<int>{0}));
  EXPECT_TRUE(predicates_read(setp).empty());
  EXPECT_EQ(predicates_read(instruction("@!P0", "FMUL", "R3, R3, 0.5")), (std::vector<int>{0}));
  EXPECT_EQ(predicates_read(instruction("", "FSEL", "R5, R3, R4, !P2")), (std::vector<int>{2}));
  EXPECT_EQ(predicates_read(instruction("", "ISETP.GE.AND.EX", "P0, PT, R3, UR5, PT, P1")), (std::vector<int>{1}));
  const SassInstruction lop = instruction("", "LOP3.LUT", "P0, RZ, R11, 0x7fffffff, RZ, 0xc0, !PT");
  EXPECT_EQ(predicates_written(lop), (std::vector<int>{0}));
  EXPECT_TRUE(predicates_read(lop).empty());
  // PLOP3 writes its first two and reads the rest.
  const SassInstruction plop = instruction("", "PLOP3.LUT", "P0, PT, P1, P2, PT, 0x80, 0x0");
  EXPECT_EQ(predicates_written(plop), (std::vector<int>{0}));
  EXPECT_EQ(predicates_read(plop), (std::vector<int>{1, 2}));
}

}  // namespace
}  // namespace roofline::detail
