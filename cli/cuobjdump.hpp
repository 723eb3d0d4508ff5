#pragma once
// cuobjdump, the CUDA toolkit's disassembler, run on a compiled program for `spec --from-binary`.
#include <filesystem>
#include <string>

namespace roofline {

// `cuobjdump -sass BINARY` followed by `cuobjdump -res-usage BINARY`: the text
// parse_sass_listing reads. cuobjdump is looked for next to nvcc, on PATH, in $CUDA_HOME/bin
// and in /usr/local/cuda/bin; when none has it, the InputError says how to make the listing
// elsewhere and use --from-sass.
std::string cuobjdump_listing(const std::filesystem::path& binary);

}  // namespace roofline
