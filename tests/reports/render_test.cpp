// Renderers from records: HTML parsed with libxml2, the SVG parsed as strict XML, markdown
// against a golden file, CSV/JSON exports, query printing, escaping and number formatting.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <libxml/HTMLparser.h>
#include <libxml/parser.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "reports/accuracy_report.hpp"
#include "reports/format.hpp"
#include "reports/html_report.hpp"
#include "reports/markdown_report.hpp"
#include "reports/query_format.hpp"
#include "reports/report_tables.hpp"
#include "reports/roofline_svg.hpp"
#include "reports/run_export.hpp"
#include "reports/text_table.hpp"
#include "tests/reports/report_fixtures.hpp"

namespace roofline {
namespace {
namespace fs = std::filesystem;

std::string html_of(const RunRecord& r) {
  std::ostringstream out;
  render_html_report(r, out);
  return out.str();
}

// A parsed document with XPath helpers.
class Doc {
 public:
  Doc(const std::string& text, bool html) {
    doc_ = html ? htmlReadMemory(text.data(), static_cast<int>(text.size()), "report.html", "utf-8",
                                 HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING | HTML_PARSE_NONET)
                : xmlReadMemory(text.data(), static_cast<int>(text.size()), "chart.svg", "utf-8", XML_PARSE_NONET);
    if (doc_) ctx_ = xmlXPathNewContext(doc_);
    if (ctx_ && !html) xmlXPathRegisterNs(ctx_, BAD_CAST "s", BAD_CAST "http://www.w3.org/2000/svg");
  }
  ~Doc() {
    if (ctx_) xmlXPathFreeContext(ctx_);
    if (doc_) xmlFreeDoc(doc_);
  }
  bool ok() const { return doc_ != nullptr; }
  int count(const std::string& xpath) const {
    xmlXPathObjectPtr o = xmlXPathEvalExpression(BAD_CAST xpath.c_str(), ctx_);
    const int n = o && o->nodesetval ? o->nodesetval->nodeNr : -1;
    xmlXPathFreeObject(o);
    return n;
  }
  std::vector<std::string> texts(const std::string& xpath) const {
    std::vector<std::string> out;
    xmlXPathObjectPtr o = xmlXPathEvalExpression(BAD_CAST xpath.c_str(), ctx_);
    if (o && o->nodesetval)
      for (int i = 0; i < o->nodesetval->nodeNr; ++i) {
        xmlChar* t = xmlNodeGetContent(o->nodesetval->nodeTab[i]);
        out.emplace_back(reinterpret_cast<const char*>(t));
        xmlFree(t);
      }
    xmlXPathFreeObject(o);
    return out;
  }

 private:
  xmlDocPtr doc_ = nullptr;
  xmlXPathContextPtr ctx_ = nullptr;
};

// A table asked for as JSON is an array of one object per row, each cell under its column's
// title in the columns' order, as formatted (a terminal's escapes are for the terminal only).
TEST(TextTableJson, EachRowIsAnObjectKeyedByTheColumnTitles) {
  TextTable t;
  t.add_column("metric");
  t.add_column("value", Align::right);
  t.add_row({"dram__sectors_read.sum", "4194304"});
  t.add_row({"na\x1bme \"q\"", "1.2 µs"});
  std::ostringstream out;
  t.print(out, OutputFormat::json);
  const auto j = nlohmann::ordered_json::parse(out.str());
  ASSERT_TRUE(j.is_array());
  ASSERT_EQ(j.size(), 2u);
  EXPECT_EQ(j[0].begin().key(), "metric");
  EXPECT_EQ(j[0]["value"], "4194304");
  EXPECT_EQ(j[1]["metric"], "na\x1bme \"q\"");
  EXPECT_EQ(j[1]["value"], "1.2 µs");
}

TEST(HtmlReport, HasFactsChartTablesAndSummary) {
  const RunRecord r = test::sample_run(8, true);
  const std::string html = html_of(r);
  Doc d(html, true);
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d.count("//svg"), 1);
  EXPECT_EQ(d.count("//svg//polyline[@class='roof']"), 2);   // DRAM and L2
  EXPECT_EQ(d.count("//svg//g[@class='launch']"), 8);
  EXPECT_EQ(d.count("//svg//g[@class='launch']/line"), 16);  // predicted-measured joins at DRAM and L2
  EXPECT_GE(d.count("//svg//g[@class='launch']/title"), 8);  // tooltips
  for (const char* id : {"run", "device", "ceilings", "summary", "accuracy", "roofline", "launches", "bounds",
                         "counters", "diagnostics"})
    EXPECT_EQ(d.count(std::string("//section[@id='") + id + "']"), 1) << id;
  EXPECT_EQ(d.count("//table[@class='launches']/tbody/tr"), 8);
  EXPECT_EQ(d.count("//table[@class='bounds']/tbody/tr"), 8);
  EXPECT_EQ(d.count("//table[@class='bounds']//td[contains(@class,'binding')]"), 8);
  EXPECT_EQ(d.count("//table[@class='bounds']//span[@class='fill']"), 8 * 7);
  EXPECT_EQ(d.count("//table[@class='counters']/tbody/tr"), 8 * 4);
  EXPECT_GT(d.count("//table[@class='counters']//td[contains(@class,'bad')]"), 0);  // large errors highlighted
  EXPECT_EQ(d.count("//table[@class='ceilings']/tbody/tr"), static_cast<int>(gpu_params().size()));
  // Ceilings show where they came from.
  const auto ceilings = d.texts("//table[@class='ceilings']/tbody/tr/td[3]");
  EXPECT_NE(std::find(ceilings.begin(), ceilings.end(), "calibrated"), ceilings.end());
  EXPECT_GE(d.count("//table[@class='summary']/tbody/tr"), 1);
  EXPECT_EQ(d.count("//link|//script|//img|//iframe"), 0);  // self-contained, nothing fetched
  EXPECT_EQ(html.find("http://", html.find("</svg>")), std::string::npos);
}

// sample_run(8): launch i's time and DRAM reads are off by err = 0.02 (i % 7) - 0.04, so
// rel_error = -err / (1 + err): |e| = 4.2, 2.0, 0, 2.0, 3.8, 5.7, 7.4, 4.2 % (i = 0..7).
//   duration within 10 %: 8 of 8; median |e| = (3.85 + 4.17) / 2 = 4.0 %.
//   DRAM reads within 5 %: all but i = 5, 6: 6 of 8 = 75 %. DRAM writes exact: 100 %.
//   instructions 1 / 1.2 - 1 = -16.7 %: 0 of 8. Limiter latency for i = 3, 7: 6 of 8 agree.
TEST(HtmlReport, AccuracyAgainstTheTargetsByHand) {
  const RunRecord r = test::sample_run(8, true);
  Doc d(html_of(r), true);
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d.count("//section[@id='accuracy']/h2[.='Accuracy against the targets']"), 1);
  // After the summary, before the chart.
  using Ids = std::vector<std::string>;
  EXPECT_EQ(d.texts("//section[@id='accuracy']/preceding-sibling::section[1]/@id"), Ids{"summary"});
  EXPECT_EQ(d.texts("//section[@id='accuracy']/following-sibling::section[1]/@id"), Ids{"roofline"});
  EXPECT_EQ(d.texts("//table[@class='accuracy']/thead//th"),
            (std::vector<std::string>{"target", "goal", "achieved", "verdict"}));
  const std::vector<std::vector<std::string>> want = {
      {"duration within ±10 % of the measured median", "≥ 90 % of launches", "100.0 % of 8", "met"},
      {"median |duration error|", "≤ 5 %", "4.0 %", "met"},
      {"predicted bound = measured limiter", "≥ 95 % of launches", "75.0 % of 8", "MISSED"},
      {"dram__sectors_read.sum within ±5 %", "≥ 90 % of launches", "75.0 % of 8", "MISSED"},
      {"dram__sectors_write.sum within ±5 %", "≥ 90 % of launches", "100.0 % of 8", "met"},
      {"smsp__inst_executed.sum within ±5 %", "≥ 90 % of launches", "0.0 % of 8", "MISSED"}};
  ASSERT_EQ(d.count("//table[@class='accuracy']/tbody/tr"), static_cast<int>(want.size()));
  for (std::size_t i = 0; i < want.size(); ++i)
    EXPECT_EQ(d.texts(fmt::format("//table[@class='accuracy']/tbody/tr[{}]/td", i + 1)), want[i]) << "row " << i + 1;
  EXPECT_EQ(d.count("//table[@class='accuracy']//td[4][contains(@class,'bad')]"), 3);  // MISSED stands out
  EXPECT_EQ(d.count("//table[@class='accuracy']//td[4][contains(@class,'good')]"), 3);
}

TEST(HtmlReport, RunTimedByTheDurationCounterSaysSo) {
  RunRecord r = test::sample_run(2, true);
  EXPECT_EQ(Doc(html_of(r), true).count("//p[@class='banner']"), 0);
  r.launches[1].comparison->duration_source = "counter";  // as roofline stored comparisons before
  const auto banners = Doc(html_of(r), true).texts("//p[@class='banner']");
  ASSERT_EQ(banners.size(), 1u);
  EXPECT_NE(banners[0].find("gpu__time_duration.sum"), std::string::npos) << banners[0];
  EXPECT_NE(banners[0].find("roofline accuracy"), std::string::npos) << banners[0];
}

// Markdown table rows under `## heading`, each split into its cells ('\|' stays in a cell).
std::vector<std::vector<std::string>> markdown_rows(const std::string& md, const std::string& heading) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(md.substr(md.find("## " + heading + "\n")));
  std::string line;
  std::getline(in, line);  // the heading
  while (std::getline(in, line) && (rows.empty() || !line.empty())) {
    if (line.rfind("| ", 0) != 0) continue;
    std::vector<std::string> cells;
    std::string cell;
    for (std::size_t i = 1; i < line.size(); ++i) {
      if (line[i] == '|' && line[i - 1] != '\\') {
        cells.push_back(cell.substr(1, cell.size() - 2));  // the padding spaces
        cell.clear();
      } else {
        cell += line[i];
      }
    }
    rows.push_back(std::move(cells));
  }
  if (rows.size() > 2) rows.erase(rows.begin(), rows.begin() + 2);  // header and alignment rows
  return rows;
}

TEST(AccuracyReport, ShowsTheAchievedValuesTheHtmlReportShows) {
  const RunRecord r = test::sample_run(8, true);
  std::ostringstream out;
  render_accuracy_markdown(r, run_summary(r), "roofline accuracy --run 1", out);
  const std::string md = out.str();
  EXPECT_EQ(md.find("## Accuracy against the targets"), md.find("## "));  // the first section
  const auto md_rows = markdown_rows(md, "Accuracy against the targets");
  Doc d(html_of(r), true);
  const auto html_achieved = d.texts("//table[@class='accuracy']/tbody/tr/td[3]");
  const auto html_verdicts = d.texts("//table[@class='accuracy']/tbody/tr/td[4]");
  ASSERT_EQ(md_rows.size(), html_achieved.size());
  ASSERT_EQ(md_rows.size(), 6u);
  for (std::size_t i = 0; i < md_rows.size(); ++i) {
    ASSERT_EQ(md_rows[i].size(), 4u) << i;
    EXPECT_EQ(md_rows[i][2], html_achieved[i]) << "row " << i + 1;
    EXPECT_EQ(md_rows[i][3], (html_verdicts[i] == "MISSED" ? "**MISSED**" : html_verdicts[i])) << "row " << i + 1;
  }
}

TEST(HtmlReport, HostileKernelNameIsEscapedEverywhere) {
  const RunRecord r = test::sample_run(3, true);
  const std::string html = html_of(r);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_NE(html.find("&lt;script&gt;alert(1)&lt;/script&gt;&amp;&quot;"), std::string::npos);
  Doc d(html, true);
  EXPECT_EQ(d.count("//script"), 0);
  const auto kernels = d.texts("//table[@class='launches']/tbody/tr/td[2]");
  ASSERT_EQ(kernels.size(), 3u);
  EXPECT_EQ(kernels[1], test::kHostileName);  // parsed back, the text is the name itself
  // The GPU name's '<' '&' are escaped in the title and the chart too.
  EXPECT_EQ(d.texts("//title").at(0), "roofline run 1 — Test GPU <80GB> & co");
}

TEST(HtmlReport, PredictedOnlyRunShowsPredictedPointsAndSaysSo) {
  const RunRecord r = test::sample_run(4, false);
  const std::string html = html_of(r);
  Doc d(html, true);
  EXPECT_NE(html.find("Nothing was measured"), std::string::npos);
  EXPECT_EQ(d.count("//svg//g[@class='launch']"), 4);
  EXPECT_EQ(d.count("//svg//g[@class='launch']/line"), 0);
  EXPECT_EQ(d.count("//svg//g[@class='launch']/*[@fill!='white' and name()!='title']"), 0);  // hollow only
  EXPECT_EQ(d.count("//svg//g[@class='launch']/circle"), 4);
  EXPECT_EQ(d.count("//table[@class='counters']/tbody/tr"), 4 * 4);
  EXPECT_EQ(d.count("//section[@id='accuracy']"), 0);  // nothing measured: no targets to judge
  EXPECT_EQ(d.texts("//section[@id='roofline']/preceding-sibling::section[1]/@id"),
            std::vector<std::string>{"summary"});
}

TEST(RooflineSvg, StandaloneChartIsWellFormedXml) {
  RunRecord r = test::sample_run(5, true);
  r.launches[2].prediction.flops = 0;  // a copy kernel: no FLOPs, not on a roofline
  std::ostringstream out;
  render_roofline_svg(r, out);
  const std::string svg = out.str();
  ASSERT_EQ(svg.rfind("<?xml", 0), 0u);
  Doc d(svg, false);
  ASSERT_TRUE(d.ok()) << "not well-formed XML";
  EXPECT_EQ(d.count("/s:svg"), 1);
  EXPECT_EQ(d.count("//s:g[@class='launch']"), 4);
  EXPECT_EQ(d.count("//s:text[@class='note']"), 1);
  const auto titles = d.texts("//s:g[@class='launch']/s:title");
  EXPECT_NE(titles.at(1).find(test::kHostileName), std::string::npos);
  // The inline copy in the HTML is well-formed XML as well.
  const std::string html = html_of(r);
  const auto a = html.find("<svg"), b = html.find("</svg>");
  ASSERT_NE(a, std::string::npos);
  Doc inline_svg(html.substr(a, b + 6 - a), false);
  EXPECT_TRUE(inline_svg.ok());
}

TEST(MarkdownReport, MatchesGoldenFile) {
  const RunRecord r = test::sample_run(4, true);
  std::ostringstream out;
  render_markdown_report(r, out, "report.svg");
  const std::string md = out.str();
  const fs::path golden = fs::path(ROOFLINE_SOURCE_DIR) / "tests/reports/golden/report.md";
  if (std::getenv("ROOFLINE_UPDATE_GOLDEN")) {
    std::ofstream(golden) << md;
    GTEST_SKIP() << "golden file rewritten: " << golden;
  }
  std::ifstream in(golden);
  ASSERT_TRUE(in) << "missing " << golden << " (run with ROOFLINE_UPDATE_GOLDEN=1 to create it)";
  std::stringstream want;
  want << in.rdbuf();
  EXPECT_EQ(md, want.str()) << "to accept the change: ROOFLINE_UPDATE_GOLDEN=1 ctest -R reports_render";
  EXPECT_NE(md.find("![Hierarchical roofline](report.svg)"), std::string::npos);
  EXPECT_NE(md.find("\\<script\\>alert(1)\\</script\\>\\&\""), std::string::npos);
  EXPECT_EQ(md.find("<script>"), std::string::npos);
}

TEST(RunExport, CsvIsLongFormatAndQuoted) {
  const RunRecord r = test::sample_run(3, true);
  std::ostringstream out;
  write_run_csv(r, out);
  std::istringstream in(out.str());
  std::string line;
  std::vector<std::string> lines;
  while (std::getline(in, line)) lines.push_back(line);
  ASSERT_EQ(lines.size(), 1u + 3 * 4);
  EXPECT_EQ(lines[0].substr(0, 20), "run,launch,kernel,ca");
  EXPECT_NE(out.str().find("\"<script>alert(1)</script>&\"\"\""), std::string::npos);
  EXPECT_NE(lines[1].find("gpu__time_duration.sum,ns,"), std::string::npos);
}

TEST(RunExport, JsonHoldsTheWholeRun) {
  const RunRecord r = test::sample_run(3, true);
  std::ostringstream out;
  write_run_json(r, out);
  const auto j = nlohmann::json::parse(out.str());
  EXPECT_EQ(j["launches"].size(), 3u);
  EXPECT_EQ(j["launches"][1]["prediction"]["launch"]["kernel"], test::kHostileName);
  EXPECT_EQ(j["launches"][1]["prediction"]["launch"]["timing"], "event");
  EXPECT_EQ(j["gpu"]["params"]["dram_bandwidth_sustained"]["source"], "calibrated");
  EXPECT_EQ(j["launches"][0]["comparison"]["unit_loads"].size(), 2u);
}

TEST(QueryFormat, TableCsvJson) {
  QueryResult r{{"kernel", "n", "ratio", "note"},
                {{std::string("a,\"b\""), std::int64_t{1048576}, 0.1 + 0.2, std::monostate{}},
                 {std::string("µs"), std::int64_t{2}, 1.0, std::string("x")}}};
  std::ostringstream t, c, j;
  print_query_result(r, OutputFormat::table, t);
  print_query_result(r, OutputFormat::csv, c);
  print_query_result(r, OutputFormat::json, j);
  EXPECT_NE(t.str().find("1048576"), std::string::npos);
  EXPECT_NE(t.str().find("0.3\n"), std::string::npos);
  EXPECT_EQ(t.str().find("0.30000000000000004"), std::string::npos);
  EXPECT_NE(t.str().find("(2 rows)"), std::string::npos);
  EXPECT_EQ(c.str(), "kernel,n,ratio,note\n\"a,\"\"b\"\"\",1048576,0.30000000000000004,\nµs,2,1,x\n");
  const auto js = nlohmann::json::parse(j.str());
  EXPECT_EQ(js[0]["n"], 1048576);
  EXPECT_TRUE(js[0]["note"].is_null());
  EXPECT_EQ(js[1]["kernel"], "µs");
}

TEST(Format, EscapingAndNumbers) {
  EXPECT_EQ(html_escape("<a href=\"x\">&'"), "&lt;a href=&quot;x&quot;&gt;&amp;&#39;");
  EXPECT_EQ(markdown_escape("a|b add_f32 _x *y*"), "a\\|b add_f32 \\_x \\*y\\*");
  EXPECT_EQ(csv_field("plain"), "plain");
  EXPECT_EQ(csv_field("a\nb"), "\"a\nb\"");
  EXPECT_EQ(format_number(3.14159), "3.142");
  EXPECT_EQ(format_number(1048576), "1048576");
  EXPECT_EQ(format_number(2.5e-7), "2.5e-07");
  EXPECT_EQ(format_quantity(3.35e12, "B/s"), "3.35 TB/s");
  EXPECT_EQ(format_quantity(1.24e-3, "s"), "1.24 ms");
  EXPECT_EQ(format_quantity(4.2e-6, "s"), "4.2 µs");
  EXPECT_EQ(format_quantity(4700, "ns"), "4.7 µs");
  EXPECT_EQ(format_quantity(1024, "count"), "1024");
  EXPECT_EQ(format_quantity(128, "FMA/clk"), "128 FMA/clk");
  EXPECT_EQ(format_percent(-0.0455, true), "-4.5 %");
  EXPECT_EQ(format_exact(0.1), "0.1");
}

}  // namespace
}  // namespace roofline
