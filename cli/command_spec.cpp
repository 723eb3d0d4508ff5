// `roofline spec --from-sass FILE --kernel NAME` (or --from-binary): a kernel spec drafted from a
// compiled function's SASS — the instruction counts, memory instructions, registers and shared
// memory — with what a binary cannot say marked FILL IN.
#include <fmt/format.h>

#include <fstream>
#include <iostream>

#include "cli/commands.hpp"
#include "cli/cuobjdump.hpp"
#include "models/error.hpp"
#include "models/sass_listing.hpp"
#include "models/spec_draft.hpp"

namespace roofline {
namespace {

struct SpecOptions {
  std::string from_sass, from_binary, kernel, arch, output;
};

void draft(const SpecOptions& o) {
  if (o.from_sass.empty() == o.from_binary.empty())
    throw InputError("give one of --from-sass FILE (cuobjdump -sass output) or --from-binary FILE");
  const SassListing listing = o.from_sass.empty() ? parse_sass_listing(cuobjdump_listing(o.from_binary), o.from_binary)
                                                  : read_sass_listing(o.from_sass);
  const SpecDraft d = draft_spec(find_sass_function(listing, o.kernel, o.arch));
  const std::string source = o.from_sass.empty() ? fmt::format("cuobjdump -sass -res-usage {}", o.from_binary)
                                                 : fmt::format("the SASS listing {}", o.from_sass);
  if (o.output.empty()) {
    write_spec_draft(d, source, std::cout);
    return;
  }
  std::ofstream out(o.output);
  if (!out) throw InputError(fmt::format("cannot write {}", o.output));
  write_spec_draft(d, source, out);
  if (!out.flush()) throw Error(fmt::format("writing {} failed", o.output));
}

}  // namespace

void add_spec_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("spec", "Draft a kernel spec (TOML) from a compiled kernel's SASS (no GPU needed)");
  auto o = std::make_shared<SpecOptions>();
  cmd->add_option("--from-sass", o->from_sass,
                  "the text `cuobjdump -sass BINARY` printed (with `cuobjdump -res-usage BINARY` appended for "
                  "registers and shared memory)");
  cmd->add_option("--from-binary", o->from_binary, "a CUDA program or object: runs cuobjdump on it");
  cmd->add_option("-k,--kernel", o->kernel,
                  "the function: mangled, demangled, bare (add_kernel) or with template arguments (add_kernel<int>)")
      ->required();
  cmd->add_option("--arch", o->arch, "the architecture's code to read, e.g. sm_90 (default: the newest present)");
  cmd->add_option("-o,--output", o->output, "write the draft here (default: stdout)");
  cmd->footer(
      "The draft counts warp instructions per thread outside the element loop and per loop iteration on the\n"
      "path a full warp takes (past the bounds-check exit, around scalar remainder loops), the memory\n"
      "instructions by space and width, barriers, registers and static shared memory. What SASS cannot say\n"
      "(array names, elements per thread, dtypes, flops) is marked FILL IN; notes say where the structure\n"
      "is not a simple loop nest. Format: docs/kernel-spec.md.\n\n"
      "Examples:\n"
      "  cuobjdump -sass app > app.sass; cuobjdump -res-usage app >> app.sass\n"
      "  roofline spec --from-sass app.sass --kernel 'saxpy_kernel<int>' --output saxpy.toml\n"
      "  roofline spec --from-binary ./app --kernel saxpy_kernel --arch sm_90\n"
      "  roofline predict --spec saxpy.toml --n 2^24   # once the FILL IN lines are filled in");
  cmd->callback([o] { draft(*o); });
}

}  // namespace roofline
