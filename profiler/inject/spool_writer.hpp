#pragma once
// The injection library's only output: JSON lines appended to <spool>/<pid>.jsonl, one record
// per line, each written with one write() so that a crash loses at most the record in flight
// and the roofline process can read the file while the program runs. Record shapes are read by
// cli/profile_spool.cpp:
//   {"type":"process", "pid", "exe", "device_name", ...}
//   {"type":"launch", "seq", "corr", "mangled", "demangled", "grid":[x,y,z], "block":[x,y,z],
//    "regs", "smem_static", "smem_dynamic", "device", "context", "stream", "api", "selected"}
//   {"type":"kernel", "corr", "graph_node", "start_ns", "end_ns", plus the launch fields}  (Activity API)
//   {"type":"counters", "corr", "status", "note", "passes", "values":{name: value}}
//   {"type":"error", "message"}
#include <mutex>
#include <string>
#include <string_view>

namespace roofline::inject {

// Builds one JSON object; values are escaped, numbers written exactly.
class JsonLine {
 public:
  JsonLine& field(std::string_view key, std::string_view value);
  JsonLine& field(std::string_view key, const char* value) { return field(key, std::string_view(value)); }
  JsonLine& field(std::string_view key, double value);
  JsonLine& field(std::string_view key, long long value);
  JsonLine& field(std::string_view key, unsigned long long value);
  JsonLine& field(std::string_view key, int value) { return field(key, static_cast<long long>(value)); }
  JsonLine& field(std::string_view key, bool value);
  JsonLine& triple(std::string_view key, long long x, long long y, long long z);
  JsonLine& raw(std::string_view key, std::string_view json);  // an already-built JSON value
  std::string str() const { return text_ + "}"; }

 private:
  void key(std::string_view k);
  std::string text_ = "{";
};

std::string json_escape(std::string_view s);

class SpoolWriter {
 public:
  // Opens <dir>/<pid>.jsonl for appending; an empty dir writes nothing.
  explicit SpoolWriter(const std::string& dir);
  ~SpoolWriter();
  SpoolWriter(const SpoolWriter&) = delete;
  SpoolWriter& operator=(const SpoolWriter&) = delete;
  void write(const JsonLine& line);

 private:
  int fd_ = -1;
  std::mutex mutex_;
};

}  // namespace roofline::inject
