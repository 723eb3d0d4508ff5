#include "reports/gpu_params_table.hpp"

#include "reports/format.hpp"

namespace roofline {

TextTable gpu_params_table(const GpuSpec& g) {
  TextTable t;
  t.add_column("parameter");
  t.add_column("value", Align::right);
  t.add_column("unit");
  t.add_column("source");
  t.add_column("note");
  for (const auto& p : gpu_params()) {
    const Quantity& q = g.*(p.member);
    t.add_row({std::string(p.key), format_number(q.value, 6), std::string(p.unit), std::string(to_string(q.source)),
               q.note.empty() ? std::string(p.description) : q.note});
  }
  return t;
}

}  // namespace roofline
