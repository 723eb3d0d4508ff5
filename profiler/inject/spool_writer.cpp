#include "profiler/inject/spool_writer.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>

namespace roofline::inject {

std::string json_escape(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  for (const char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", u);
      out += buf;
    } else {
      out += c;
    }
  }
  return out;
}

void JsonLine::key(std::string_view k) {
  if (text_.size() > 1) text_ += ',';
  text_ += '"';
  text_ += k;
  text_ += "\":";
}

JsonLine& JsonLine::field(std::string_view k, std::string_view value) {
  key(k);
  text_ += '"' + json_escape(value) + '"';
  return *this;
}

JsonLine& JsonLine::field(std::string_view k, double value) {
  key(k);
  if (!std::isfinite(value)) {
    text_ += "null";
    return *this;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", value);
  text_ += buf;
  return *this;
}

JsonLine& JsonLine::field(std::string_view k, long long value) {
  key(k);
  text_ += std::to_string(value);
  return *this;
}

JsonLine& JsonLine::field(std::string_view k, unsigned long long value) {
  key(k);
  text_ += std::to_string(value);
  return *this;
}

JsonLine& JsonLine::field(std::string_view k, bool value) {
  key(k);
  text_ += value ? "true" : "false";
  return *this;
}

JsonLine& JsonLine::triple(std::string_view k, long long x, long long y, long long z) {
  key(k);
  text_ += '[' + std::to_string(x) + ',' + std::to_string(y) + ',' + std::to_string(z) + ']';
  return *this;
}

JsonLine& JsonLine::raw(std::string_view k, std::string_view json) {
  key(k);
  text_ += json;
  return *this;
}

SpoolWriter::SpoolWriter(const std::string& dir) {
  if (dir.empty()) return;
  const std::string path = dir + "/" + std::to_string(::getpid()) + ".jsonl";
  fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
}

SpoolWriter::~SpoolWriter() {
  if (fd_ >= 0) ::close(fd_);
}

void SpoolWriter::write(const JsonLine& line) {
  if (fd_ < 0) return;
  const std::string text = line.str() + "\n";
  std::lock_guard lock(mutex_);
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd_, text.data() + done, text.size() - done);
    if (n <= 0) return;  // nowhere to report it: the profiled program must not fail for us
    done += static_cast<std::size_t>(n);
  }
}

}  // namespace roofline::inject
