// `roofline spec --from-sass FILE --kernel NAME` (or --from-binary): a kernel spec drafted from a
// compiled function's SASS — the instruction counts, memory instructions, registers and shared
// memory — with what a binary cannot say marked FILL IN.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <fstream>
#include <iostream>

#include "cli/commands.hpp"
#include "cli/cuobjdump.hpp"
#include "cli/predict_from_run.hpp"
#include "models/error.hpp"
#include "models/sass_listing.hpp"
#include "models/spec_draft.hpp"
#include "reports/sqlite_store.hpp"

namespace roofline {
namespace {

struct SpecOptions {
  std::string from_sass, from_binary, from_run, db = "roofline.db", kernel, arch, output;
};

// The launches of the one kernel `name` names in a stored profile or import run.
SpecDraft draft_from_run(const SpecOptions& o) {
  const SqliteStore store(o.db, OpenMode::read_only);
  const RunRecord run = store.load_run(profile_run_id(store, o.from_run));
  if (run.run.kind == RunKind::suite)
    throw InputError(fmt::format("run {} is a suite run: --from-run takes a profile or import run", run.run.id));
  std::vector<ProfiledLaunch> launches;
  std::vector<std::string> kernels;
  for (const ProfiledLaunchRecord& r : run.profiled)
    if (names_kernel(o.kernel, r.launch.id.mangled, r.launch.id.demangled)) {
      launches.push_back(r.launch);
      if (std::find(kernels.begin(), kernels.end(), r.launch.id.demangled) == kernels.end())
        kernels.push_back(r.launch.id.demangled);
    }
  if (kernels.empty())
    throw InputError(fmt::format("no launch of '{}' in run {} (`roofline report {}` lists them)", o.kernel,
                                 run.run.id, run.run.id));
  if (kernels.size() > 1)
    throw InputError(fmt::format("'{}' names {} kernels in run {}: '{}'; pass one of these names", o.kernel,
                                 kernels.size(), run.run.id, fmt::join(kernels, "', '")));
  return draft_spec(launches, std::to_string(run.run.id));
}

void draft(const SpecOptions& o) {
  if (o.from_sass.empty() + o.from_binary.empty() + o.from_run.empty() != 2)
    throw InputError("give one of --from-sass FILE (cuobjdump -sass output), --from-binary FILE or --from-run RUN");
  std::string source;
  SpecDraft d;
  if (!o.from_run.empty()) {
    d = draft_from_run(o);
    source = fmt::format("run {} in {}", o.from_run, o.db);
  } else {
    const SassListing listing = o.from_sass.empty()
                                    ? parse_sass_listing(cuobjdump_listing(o.from_binary), o.from_binary)
                                    : read_sass_listing(o.from_sass);
    d = draft_spec(find_sass_function(listing, o.kernel, o.arch));
    source = o.from_sass.empty() ? fmt::format("cuobjdump -sass -res-usage {}", o.from_binary)
                                 : fmt::format("the SASS listing {}", o.from_sass);
  }
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
  cmd->add_option("--from-run", o->from_run,
                  "a stored profile or import run (an id or latest): the kernel's smsp__inst_executed per warp");
  cmd->add_option("--db", o->db, "with --from-run: the database holding it")->capture_default_str();
  cmd->add_option("-k,--kernel", o->kernel,
                  "the function: mangled, demangled, bare (add_kernel) or with template arguments (add_kernel<int>)")
      ->required();
  cmd->add_option("--arch", o->arch, "the architecture's code to read, e.g. sm_90 (default: the newest present)");
  cmd->add_option("-o,--output", o->output, "write the draft here (default: stdout)");
  cmd->footer(
      "The draft counts warp instructions per thread outside the element loop and per loop iteration on the\n"
      "path a full warp takes (past the bounds-check exit, around scalar remainder loops), the memory\n"
      "instructions by space and width, barriers, registers and static shared memory; the dtypes come from\n"
      "the types the kernel's pointer parameters point to, where its name has a signature. What the binary\n"
      "cannot say (array names, elements per thread, flops) is marked FILL IN; notes say where the\n"
      "structure is not a simple loop nest. Format: docs/kernel-spec.md.\n\n"
      "Examples:\n"
      "  cuobjdump -sass app > app.sass; cuobjdump -res-usage app >> app.sass\n"
      "  roofline spec --from-sass app.sass --kernel 'saxpy_kernel<int>' --output saxpy.toml\n"
      "  roofline spec --from-binary ./app --kernel saxpy_kernel --arch sm_90\n"
      "  roofline spec --from-run latest --kernel saxpy_kernel   # a profiled launch's counts\n"
      "  roofline predict --spec saxpy.toml --n 2^24   # once the FILL IN lines are filled in");
  cmd->callback([o] { draft(*o); });
}

}  // namespace roofline
