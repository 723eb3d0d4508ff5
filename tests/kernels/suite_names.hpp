#pragma once
// The suite's kernel names, (names are interface: stored runs and scripts use them).
#include <string>
#include <vector>

inline const std::vector<std::string> kSuiteNames = {
    "add_f32",           "add_f32x4",          "add_f16",           "add_f16x2",
    "add_f16x8_unroll",  "add_f16x8_pack",     "add_bf16x8",        "add_fp8_e4m3",
    "add_f32_gridstride", "add_f32x4_gridstride", "add_f32x4_ilp2", "add_f32x4_ilp4", "add_f32x4_bulk",
    "read_only_f32",     "write_only_f32",     "write_only_f32_stride8", "add_f32x4_streaming",
    "add_f32x4_lastuse", "hadamard3_unfused",  "hadamard3_fused",   "hadamard3_fused_f32x4",
    "copy_d2d",          "add_f32_cub",
};
