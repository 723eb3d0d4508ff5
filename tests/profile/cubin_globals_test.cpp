// The module-scope variables the profiler saves for replay, read from a real cubin: nvcc -cubin
// -arch=sm_90 of tests/profile/data/globals_fixture.cu (CUDA 13.0), committed beside it.
#include "profiler/inject/cubin_globals.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace roofline::inject {
namespace {

std::string fixture() {
  std::ifstream in(ROOFLINE_SOURCE_DIR "/tests/profile/data/globals_fixture.cubin", std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(CubinGlobals, DeviceAndManagedVariablesAreFoundConstantAndSharedAreNot) {
  const std::string cubin = fixture();
  ASSERT_GT(cubin.size(), 1000u);
  // blocks_seen and managed_flag in .nv.global, the initialised static table in .nv.global.init,
  // app::state under its mangled name; coefficients (__constant__) and tile (__shared__) are not
  // writable module variables.
  EXPECT_EQ(writable_globals(cubin), (std::vector<std::string>{"_ZN3app5stateE", "blocks_seen", "managed_flag", "table"}));
}

TEST(CubinGlobals, AnythingButAWellFormedElfImageGivesNone) {
  const std::string cubin = fixture();
  EXPECT_TRUE(writable_globals("").empty());
  EXPECT_TRUE(writable_globals("not an ELF image at all, just text").empty());
  EXPECT_TRUE(writable_globals(std::string_view(cubin).substr(0, 64)).empty());  // the header alone
  // Cut anywhere, it never reads past the end: at most the names it could still reach.
  for (std::size_t cut = 0; cut < cubin.size(); cut += 97) EXPECT_LE(writable_globals(cubin.substr(0, cut)).size(), 4u);
  std::string scrambled = cubin;
  for (std::size_t i = 64; i < scrambled.size(); i += 13) scrambled[i] = static_cast<char>(scrambled[i] ^ 0x5a);
  EXPECT_LE(writable_globals(scrambled).size(), 4u);
}

}  // namespace
}  // namespace roofline::inject
