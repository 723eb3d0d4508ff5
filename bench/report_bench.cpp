// Reports benchmarks: rendering the HTML report of a 10,000-launch run (< 2 s), and a
// v_compare query over 1,000,000 stored metric values (< 200 ms). Numbers: docs/results/bench-reports.md.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <filesystem>
#include <sstream>

#include "reports/html_report.hpp"
#include "reports/markdown_report.hpp"
#include "reports/sqlite_store.hpp"
#include "tests/reports/report_fixtures.hpp"

namespace roofline {
namespace {
namespace fs = std::filesystem;

const RunRecord& big_run() {
  static const RunRecord r = test::sample_run(10'000, true);
  return r;
}

void BM_HtmlReport10kLaunches(benchmark::State& state) {
  const RunRecord& r = big_run();
  std::size_t bytes = 0;
  for (auto _ : state) {
    std::ostringstream out;
    render_html_report(r, out);
    bytes = out.str().size();
    benchmark::DoNotOptimize(bytes);
  }
  state.counters["MB"] = static_cast<double>(bytes) / 1e6;
}
BENCHMARK(BM_HtmlReport10kLaunches)->Unit(benchmark::kMillisecond)->Iterations(3);

void BM_MarkdownReport10kLaunches(benchmark::State& state) {
  const RunRecord& r = big_run();
  for (auto _ : state) {
    std::ostringstream out;
    render_markdown_report(r, out, "report.svg");
    benchmark::DoNotOptimize(out.str().size());
  }
}
BENCHMARK(BM_MarkdownReport10kLaunches)->Unit(benchmark::kMillisecond)->Iterations(3);

// 1,000,000 metric values: 8 runs x 15,625 launches x 8 values (4 metrics, both sides),
// written through the store's own API (one transaction per launch) once per process.
struct MillionValues {
  fs::path dir = fs::temp_directory_path() / ("roofline-bench-" + std::to_string(getpid()));
  fs::path db = dir / "bench.db";
  std::int64_t run_id = 0;
  MillionValues() {
    fs::remove_all(dir);
    fs::create_directories(dir);
    SqliteStore s(db);
    const RunRecord r = test::sample_run(0, true);
    const KernelSpec k = test::sample_kernel("add_f32");
    for (int run = 0; run < 8; ++run) {
      run_id = s.begin_run(r.run, r.gpu);
      for (int i = 0; i < 15'625; ++i) s.record_launch(run_id, k, test::sample_launch(i, "add_f32", true));
      s.finish_run(run_id, RunStatus::complete);
    }
  }
  ~MillionValues() { fs::remove_all(dir); }
};
const MillionValues& million() {
  static const MillionValues m;
  return m;
}

void query_bench(benchmark::State& state, const std::string& sql) {
  const auto& m = million();
  SqliteStore ro(m.db, OpenMode::read_only);
  std::size_t rows = 0;
  for (auto _ : state) {
    rows = ro.query(sql).rows.size();
    benchmark::DoNotOptimize(rows);
  }
  state.counters["rows"] = static_cast<double>(rows);
}

// One run's comparison (62,500 rows) from a database of 1,000,000 values: the common question.
void BM_VCompareOneRun(benchmark::State& state) {
  query_bench(state, "SELECT kernel, n, dtype, cache, metric, predicted, measured, ratio FROM v_compare "
                     "WHERE run_id = " + std::to_string(million().run_id));
}
BENCHMARK(BM_VCompareOneRun)->Unit(benchmark::kMillisecond)->Iterations(5);

// The same run's rows computed by SQLite but not materialized: the view's own cost.
void BM_VCompareOneRunSqliteOnly(benchmark::State& state) {
  query_bench(state, "SELECT count(*), sum(predicted), sum(measured), sum(ratio), max(length(kernel)), "
                     "max(length(metric)) FROM v_compare WHERE run_id = " + std::to_string(million().run_id));
}
BENCHMARK(BM_VCompareOneRunSqliteOnly)->Unit(benchmark::kMillisecond)->Iterations(5);

// Every row of v_compare (500,000 launch x metric rows from 1,000,000 values), materialized.
void BM_VCompareAllRows(benchmark::State& state) {
  query_bench(state, "SELECT kernel, n, dtype, cache, metric, predicted, measured, ratio FROM v_compare");
}
BENCHMARK(BM_VCompareAllRows)->Unit(benchmark::kMillisecond)->Iterations(5);

// Every row of v_compare computed by SQLite (all 1,000,000 values read), not materialized.
void BM_VCompareAllRowsSqliteOnly(benchmark::State& state) {
  query_bench(state, "SELECT count(*), sum(predicted), sum(measured), sum(ratio), max(length(kernel)), "
                     "max(length(metric)) FROM v_compare");
}
BENCHMARK(BM_VCompareAllRowsSqliteOnly)->Unit(benchmark::kMillisecond)->Iterations(5);

// The accuracy question over all of it: error statistics per metric.
void BM_VCompareAggregate(benchmark::State& state) {
  query_bench(state,
              "SELECT metric, count(*), avg(abs(rel_error)), max(abs(rel_error)), "
              "sum(abs(rel_error) <= 0.05) FROM v_compare GROUP BY metric");
}
BENCHMARK(BM_VCompareAggregate)->Unit(benchmark::kMillisecond)->Iterations(5);

// A filtered question: one metric, errors above 5 %.
void BM_VCompareFiltered(benchmark::State& state) {
  query_bench(state,
              "SELECT kernel, n, cache, predicted, measured, ratio FROM v_compare "
              "WHERE metric = 'smsp__inst_executed.sum' AND abs(rel_error) > 0.05");
}
BENCHMARK(BM_VCompareFiltered)->Unit(benchmark::kMillisecond)->Iterations(5);

}  // namespace
}  // namespace roofline

BENCHMARK_MAIN();
