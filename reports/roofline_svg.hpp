#pragma once
// The hierarchical roofline chart as SVG: log-log, FLOP/s against arithmetic intensity, with
// the DRAM roof (dram_bandwidth_sustained), the L2 roof (l2_bandwidth) and the FP32 compute
// roof of the run's GpuSpec. Per launch and memory level the predicted point (hollow) and the
// measured point (filled) joined by a line; a <title> tooltip on each. A launch without a
// measurement shows its predicted points only; a launch without FLOPs cannot be placed on a
// roofline and is counted in a note under the chart.
#include <iosfwd>

#include "reports/report_data.hpp"

namespace roofline {

struct RooflineSvgOptions {
  bool xml_declaration = true;  // false when the SVG is inlined into HTML
  int width = 960;
  int height = 600;
};

void render_roofline_svg(const RunRecord& run, std::ostream& out, const RooflineSvgOptions& options = {});

}  // namespace roofline
