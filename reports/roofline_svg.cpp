#include "reports/roofline_svg.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "reports/format.hpp"
#include "reports/report_tables.hpp"

namespace roofline {
namespace {

struct Point {
  double ai = 0, flops_per_s = 0;
};

struct Level {
  std::string_view name;   // "DRAM", "L2"
  std::string_view color;
  std::string_view shape;  // "circle", "square"
};
constexpr Level kDram{"DRAM", "#1f6fb4", "circle"};
constexpr Level kL2{"L2", "#d9730d", "square"};

std::optional<Point> make_point(double flops, double bytes, double seconds) {
  if (!(flops > 0) || !(bytes > 0) || !(seconds > 0)) return std::nullopt;
  return Point{flops / bytes, flops / seconds};
}

// Bytes at a level from measured counters: byte counters when present, else sectors x 32.
std::optional<double> measured_bytes(const Measurement& m, std::string_view bytes_a, std::string_view bytes_b,
                                     std::string_view sectors_a, std::string_view sectors_b) {
  const MetricValue* a = counter(m, bytes_a);
  const MetricValue* b = counter(m, bytes_b);
  if (a && b) return a->value + b->value;
  a = counter(m, sectors_a);
  b = counter(m, sectors_b);
  if (a && b) return 32.0 * (a->value + b->value);
  return std::nullopt;
}

struct LaunchPoints {
  std::string title;  // the tooltip's first lines
  std::optional<Point> pred_dram, meas_dram, pred_l2, meas_l2;
};

LaunchPoints points_of(std::size_t index, const LaunchRecord& l) {
  const Prediction& p = l.prediction;
  LaunchPoints lp;
  lp.title = fmt::format("#{} {}\nbound: {}", index + 1, launch_label(p.launch), to_string(p.binding));
  lp.pred_dram = make_point(p.flops, p.dram_bytes, p.duration_s);
  lp.pred_l2 = make_point(p.flops, p.l2_bytes, p.duration_s);
  if (l.measurement && l.measurement->time.median_s > 0) {
    // The kernel's FLOP count is the algorithm's; the measurement gives time and traffic.
    const Measurement& m = *l.measurement;
    const double t = m.time.median_s;
    const double dram = measured_bytes(m, metric::dram_bytes_read, metric::dram_bytes_write,
                                       metric::dram_sectors_read, metric::dram_sectors_write)
                            .value_or(p.dram_bytes);
    const double l2 = measured_bytes(m, "", "", metric::lts_tex_read, metric::lts_tex_write).value_or(p.l2_bytes);
    lp.meas_dram = make_point(p.flops, dram, t);
    lp.meas_l2 = make_point(p.flops, l2, t);
  }
  return lp;
}

// A profiled launch: measured points only, its FLOPs and traffic from its own counters.
LaunchPoints points_of(const ProfiledLaunchRecord& l) {
  const CounterAnalysis& a = l.analysis;
  LaunchPoints lp;
  lp.title = fmt::format("#{} {}\nlimiter: {}", l.launch.id.process_seq, l.launch.id.demangled,
                         a.limiter.empty() ? "unknown" : a.limiter);
  lp.meas_dram = make_point(a.flops, a.dram_bytes, a.duration_s);
  lp.meas_l2 = make_point(a.flops, a.l2_bytes, a.duration_s);
  return lp;
}

class Axes {
 public:
  Axes(double x0, double x1, double y0, double y1, double left, double top, double w, double h)
      : lx0_(std::log10(x0)), lx1_(std::log10(x1)), ly0_(std::log10(y0)), ly1_(std::log10(y1)),
        left_(left), top_(top), w_(w), h_(h) {}
  double x(double v) const { return left_ + (std::log10(v) - lx0_) / (lx1_ - lx0_) * w_; }
  double y(double v) const { return top_ + h_ - (std::log10(v) - ly0_) / (ly1_ - ly0_) * h_; }
  int x_decade_lo() const { return static_cast<int>(std::lround(lx0_)); }
  int x_decade_hi() const { return static_cast<int>(std::lround(lx1_)); }
  int y_decade_lo() const { return static_cast<int>(std::lround(ly0_)); }
  int y_decade_hi() const { return static_cast<int>(std::lround(ly1_)); }

 private:
  double lx0_, lx1_, ly0_, ly1_, left_, top_, w_, h_;
};

double decade_below(double v) { return std::pow(10.0, std::floor(std::log10(v))); }
double decade_above(double v) { return std::pow(10.0, std::ceil(std::log10(v))); }

void marker_at(std::ostream& out, double cx, double cy, const Level& level, bool filled) {
  const std::string fill = filled ? std::string(level.color) : "white";
  if (level.shape == "circle")
    out << fmt::format(R"(<circle cx="{:.1f}" cy="{:.1f}" r="4" fill="{}" stroke="{}" stroke-width="1.5"/>)", cx, cy,
                       fill, level.color);
  else
    out << fmt::format(R"(<rect x="{:.1f}" y="{:.1f}" width="7" height="7" fill="{}" stroke="{}" stroke-width="1.5"/>)",
                       cx - 3.5, cy - 3.5, fill, level.color);
}

void marker(std::ostream& out, const Axes& ax, const Point& p, const Level& level, bool filled) {
  marker_at(out, ax.x(p.ai), ax.y(p.flops_per_s), level, filled);
}

std::string point_text(std::string_view what, const std::optional<Point>& p) {
  if (!p) return "";
  return fmt::format("\n{}: {} FLOP/B, {}", what, format_number(p->ai), format_quantity(p->flops_per_s, "FLOP/s"));
}

// The points to draw, and the range the axes must show.
struct Placed {
  std::vector<LaunchPoints> launches;
  std::size_t unplotted = 0;
  double x0 = 0, x1 = 0, y0 = 0, y1 = 0;  // decades around every point, ridge and roof
};

Placed place_points(const RunRecord& run, double peak, double bw_dram, double bw_l2) {
  Placed placed;
  double xmin = std::numeric_limits<double>::max(), xmax = 0, ymin = std::numeric_limits<double>::max(), ymax = 0;
  const auto extend = [&](const std::optional<Point>& p) {
    if (!p) return;
    xmin = std::min(xmin, p->ai);
    xmax = std::max(xmax, p->ai);
    ymin = std::min(ymin, p->flops_per_s);
    ymax = std::max(ymax, p->flops_per_s);
  };
  const auto place = [&](LaunchPoints lp) {
    if (!lp.pred_dram && !lp.pred_l2 && !lp.meas_dram && !lp.meas_l2) {
      ++placed.unplotted;
      return;
    }
    for (const auto* p : {&lp.pred_dram, &lp.meas_dram, &lp.pred_l2, &lp.meas_l2}) extend(*p);
    placed.launches.push_back(std::move(lp));
  };
  for (std::size_t i = 0; i < run.launches.size(); ++i) place(points_of(i, run.launches[i]));
  for (const auto& l : run.profiled) place(points_of(l));
  // The ridge points and the compute roof belong in view too.
  for (double bw : {bw_dram, bw_l2})
    if (bw > 0 && peak > 0) extend(Point{peak / bw, peak});
  if (xmax == 0) {
    xmin = 0.01;
    xmax = 100;
    ymin = 1e9;
    ymax = 1e13;
  }
  placed.x0 = decade_below(xmin / 1.5), placed.x1 = decade_above(xmax * 1.5);
  placed.y0 = decade_below(ymin / 1.5), placed.y1 = decade_above(ymax * 1.5);
  return placed;
}

struct Frame {
  double W, H, left, top, pw, ph;
};

void draw_grid_and_axes(std::ostream& out, const Axes& ax, const Frame& f) {
  out << R"(<g class="grid" stroke="#e3e3e3" stroke-width="1">)";
  for (int d = ax.x_decade_lo(); d <= ax.x_decade_hi(); ++d) {
    const double x = ax.x(std::pow(10.0, d));
    out << fmt::format(R"(<line x1="{:.1f}" y1="{}" x2="{:.1f}" y2="{}"/>)", x, f.top, x, f.top + f.ph);
  }
  for (int d = ax.y_decade_lo(); d <= ax.y_decade_hi(); ++d) {
    const double y = ax.y(std::pow(10.0, d));
    out << fmt::format(R"(<line x1="{}" y1="{:.1f}" x2="{}" y2="{:.1f}"/>)", f.left, y, f.left + f.pw, y);
  }
  out << "</g>\n<g class=\"axes\">";
  out << fmt::format(R"(<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="#444"/>)", f.left, f.top, f.pw, f.ph);
  for (int d = ax.x_decade_lo(); d <= ax.x_decade_hi(); ++d)
    out << fmt::format(R"(<text x="{:.1f}" y="{}" text-anchor="middle">{}</text>)", ax.x(std::pow(10.0, d)),
                       f.top + f.ph + 18, html_escape(format_number(std::pow(10.0, d))));
  for (int d = ax.y_decade_lo(); d <= ax.y_decade_hi(); ++d)
    out << fmt::format(R"(<text x="{}" y="{:.1f}" text-anchor="end" dominant-baseline="middle">{}</text>)",
                       f.left - 6, ax.y(std::pow(10.0, d)), html_escape(format_quantity(std::pow(10.0, d), "FLOP/s")));
  out << fmt::format(R"(<text x="{}" y="{}" text-anchor="middle">arithmetic intensity (FLOP per byte at the level)</text>)",
                     f.left + f.pw / 2, f.H - 18);
  out << fmt::format(R"svg(<text transform="translate(18 {}) rotate(-90)" text-anchor="middle">performance (FP32 FLOP/s)</text>)svg",
                     f.top + f.ph / 2);
  out << "</g>\n";
}

// The DRAM and L2 roofs and the FP32 peak, clipped to the plot, and the legend beside it.
void draw_roofs_and_legend(std::ostream& out, const Axes& ax, const Frame& f, const Placed& pl, const GpuSpec& g,
                           double peak) {
  int legend_row = 0;
  const double lx = f.left + f.pw + 16;
  const auto legend = [&](std::string_view color, const std::string& label, bool dashed) {
    const double y = f.top + 10 + 18.0 * legend_row++;
    out << fmt::format(R"(<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{}" stroke-width="2.5"{}/>)", lx, y, lx + 22,
                       y, color, dashed ? R"( stroke-dasharray="6 3")" : "");
    out << fmt::format(R"(<text x="{}" y="{}" dominant-baseline="middle">{}</text>)", lx + 28, y, html_escape(label));
  };
  const auto roof = [&](std::string_view color, const std::string& name, const Quantity& q, bool dashed) {
    const double bw = q.value;
    if (!(bw > 0) || !(peak > 0)) return;
    const double ridge = peak / bw;
    const double xa = std::max(pl.x0, pl.y0 / bw);
    out << fmt::format(R"(<polyline class="roof" fill="none" stroke="{}" stroke-width="2.5"{} points="{:.1f},{:.1f} {:.1f},{:.1f} {:.1f},{:.1f}"><title>{}</title></polyline>)",
                       color, dashed ? R"( stroke-dasharray="6 3")" : "", ax.x(xa), ax.y(xa * bw),
                       ax.x(std::min(ridge, pl.x1)), ax.y(std::min(ridge, pl.x1) * bw), ax.x(pl.x1),
                       ax.y(std::min(pl.x1 * bw, peak)),
                       html_escape(fmt::format("{} roof: {} ({}{}); ridge at {} FLOP/B", name,
                                               format_quantity(bw, "B/s"), to_string(q.source),
                                               q.note.empty() ? "" : ", " + q.note, format_number(ridge))))
        << '\n';
    legend(color, fmt::format("{} {} ({})", name, format_quantity(bw, "B/s"), to_string(q.source)), dashed);
  };
  roof(kDram.color, "DRAM", g.dram_bandwidth_sustained, false);
  roof(kL2.color, "L2", g.l2_bandwidth, true);
  if (peak > 0) {
    out << fmt::format(R"(<line class="roof" x1="{:.1f}" y1="{:.1f}" x2="{:.1f}" y2="{:.1f}" stroke="#333" stroke-width="1" stroke-dasharray="2 2"><title>{}</title></line>)",
                       ax.x(pl.x0), ax.y(peak), ax.x(pl.x1), ax.y(peak),
                       html_escape(fmt::format("FP32 peak: {} ({} SMs x {} x {} FMA/clk x 2)",
                                               format_quantity(peak, "FLOP/s"), format_number(g.sm_count.value),
                                               format_quantity(g.sm_clock_hz.value, "Hz"),
                                               format_number(g.fp32_fma_per_clock_per_sm.value))))
        << '\n';
    legend("#333", fmt::format("FP32 {}", format_quantity(peak, "FLOP/s")), false);
  }
  for (const auto& [level, filled] : {std::pair{kDram, false}, std::pair{kDram, true}, std::pair{kL2, false},
                                      std::pair{kL2, true}}) {
    const double y = f.top + 14 + 18.0 * legend_row++;
    marker_at(out, lx + 11, y, level, filled);
    out << fmt::format(R"(<text x="{}" y="{}" dominant-baseline="middle">{} {}</text>)", lx + 28, y, level.name,
                       filled ? "measured" : "predicted");
  }
  out << '\n';
}

void draw_launches(std::ostream& out, const Axes& ax, const std::vector<LaunchPoints>& launches) {
  out << "<g class=\"launches\">\n";
  for (const auto& lp : launches) {
    out << "<g class=\"launch\"><title>"
        << html_escape(fmt::format("{}{}{}{}{}", lp.title, point_text("predicted DRAM", lp.pred_dram),
                                   point_text("measured DRAM", lp.meas_dram), point_text("predicted L2", lp.pred_l2),
                                   point_text("measured L2", lp.meas_l2)))
        << "</title>";
    for (const auto& [level, pred, meas] : {std::tuple{kDram, lp.pred_dram, lp.meas_dram},
                                             std::tuple{kL2, lp.pred_l2, lp.meas_l2}}) {
      if (pred && meas)
        out << fmt::format(R"(<line x1="{:.1f}" y1="{:.1f}" x2="{:.1f}" y2="{:.1f}" stroke="{}" stroke-opacity="0.6"/>)",
                           ax.x(pred->ai), ax.y(pred->flops_per_s), ax.x(meas->ai), ax.y(meas->flops_per_s),
                           level.color);
      if (pred) marker(out, ax, *pred, level, false);
      if (meas) marker(out, ax, *meas, level, true);
    }
    out << "</g>\n";
  }
  out << "</g>\n";
}

}  // namespace

void render_roofline_svg(const RunRecord& run, std::ostream& out, const RooflineSvgOptions& options) {
  const GpuSpec& g = run.gpu;
  const double peak = fp32_peak_flops(g);
  const Placed placed = place_points(run, peak, g.dram_bandwidth_sustained.value, g.l2_bandwidth.value);
  const double W = options.width, H = options.height;
  const double left = 90, right = 300, top = 40, bottom = 60;  // right: room for the legend's longest label
  const Frame frame{W, H, left, top, W - left - right, H - top - bottom};
  const Axes ax(placed.x0, placed.x1, placed.y0, placed.y1, left, top, frame.pw, frame.ph);

  if (options.xml_declaration) out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out << fmt::format(
      R"(<svg xmlns="http://www.w3.org/2000/svg" class="roofline" width="{0}" height="{1}" viewBox="0 0 {0} {1}" font-family="sans-serif" font-size="12">)",
      options.width, options.height);
  out << "\n<title>" << html_escape(fmt::format("Hierarchical roofline — {} ({})", g.name, g.id)) << "</title>\n";
  out << fmt::format(R"(<rect x="0" y="0" width="{}" height="{}" fill="white"/>)", W, H) << '\n';
  out << fmt::format(R"(<text x="{}" y="22" font-size="15" font-weight="bold">{}</text>)", left,
                     html_escape(fmt::format("Hierarchical roofline — {}", g.name.empty() ? g.id : g.name)))
      << '\n';
  draw_grid_and_axes(out, ax, frame);
  draw_roofs_and_legend(out, ax, frame, placed, g, peak);
  draw_launches(out, ax, placed.launches);
  if (placed.unplotted > 0)
    out << fmt::format(R"(<text class="note" x="{}" y="{}" font-size="11">{} launch(es) without FLOPs are not on the chart.</text>)",
                       left, H - 4, placed.unplotted)
        << '\n';
  out << "</svg>\n";
}

}  // namespace roofline
