#pragma once
// A table of already-formatted cells, printed as aligned text, CSV, GitHub markdown or JSON.
// Every tabular output of the CLI goes through it.
#include <ostream>
#include <string>
#include <vector>

#include "reports/output_format.hpp"

namespace roofline {

enum class Align { left, right };

class TextTable {
 public:
  void add_column(std::string title, Align align = Align::left);
  void add_row(std::vector<std::string> cells);  // one cell per column
  bool empty() const { return rows_.empty(); }

  void print_text(std::ostream& out) const;      // aligned columns, a rule under the header, controls escaped
  void print_csv(std::ostream& out) const;       // RFC 4180
  void print_markdown(std::ostream& out) const;  // GitHub-flavoured, cells markdown-escaped
  // An array of one object per row, each cell (as formatted) under its column's title.
  void print_json(std::ostream& out) const;
  void print(std::ostream& out, OutputFormat format) const;

 private:
  struct Column {
    std::string title;
    Align align;
  };
  std::vector<Column> columns_;
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace roofline
