#pragma once
// Reads what the injection library wrote while a profiled program ran: one <pid>.jsonl file per
// process (record shapes in profiler/inject/spool_writer.hpp), read while the program runs (for
// the progress lines) and once more when it has ended, into ProfiledLaunch records.
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "models/profiled_launch.hpp"

namespace roofline {

struct SpoolProcess {
  int pid = 0;
  std::string command;
  std::vector<std::string> errors;  // what the injection library could not do, in its words
};

class SpoolReader {
 public:
  explicit SpoolReader(std::filesystem::path dir) : dir_(std::move(dir)) {}
  // Reads the lines written since the last call; returns the launches whose counters arrived in
  // them (for progress lines), in arrival order.
  std::vector<ProfiledLaunch> poll();
  // Every launch of every process, ordered by start time (launches with no recorded start, e.g.
  // after a crash, follow their process's others in launch order).
  std::vector<ProfiledLaunch> launches();
  std::vector<SpoolProcess> processes() const;
  // Gives selected launches that never got their counters (the program crashed or was killed
  // before their batch was replayed) a note saying so. Call once the program has ended.
  void note_missing_counters();
  // Launches that the options selected for counters (any process).
  std::int64_t selected() const { return selected_; }

 private:
  struct Entry {
    ProfiledLaunch launch;
    std::uint64_t start_ns = 0;
    bool has_launch_record = false;
    bool selected = false;  // its counters were asked for
    bool from_counters = false;  // a graph kernel known only from its counters record
  };
  struct GraphCounters {  // one kernel node of a graph launch, by its topological position
    int index = 0;
    ProfiledLaunch counters;
  };
  struct File {
    std::uintmax_t offset = 0;
    std::string partial;  // an incomplete last line, kept until its newline arrives
    SpoolProcess process;
    std::map<std::pair<std::uint64_t, std::uint64_t>, Entry> entries;  // (correlation, graph node)
    std::uint64_t uncorrelated = 0;  // kernel records without a correlation so far (device-run graph kernels)
    std::map<std::uint64_t, std::vector<GraphCounters>> graph_counters;  // by the graph launch's correlation
  };
  static void attach_graph_counters(File& f);
  void read_line(File& f, const std::string& line, std::vector<ProfiledLaunch>& arrived);
  std::filesystem::path dir_;
  std::map<std::string, File> files_;
  std::int64_t selected_ = 0;
};

}  // namespace roofline
