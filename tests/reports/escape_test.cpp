// Names that reach a terminal or a markdown file may come from a spec file or a database:
// their control characters (ESC, newlines, C1 controls) are shown escaped, never sent raw.
#include <gtest/gtest.h>

#include <sstream>

#include "reports/format.hpp"
#include "reports/markdown_table.hpp"
#include "reports/text_table.hpp"

namespace roofline {
namespace {

bool has_control(const std::string& s) {
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if ((c < 0x20 && c != '\n') || c == 0x7f) return true;
    if (c == 0xc2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) >= 0x80 &&
        static_cast<unsigned char>(s[i + 1]) <= 0x9f)
      return true;
  }
  return false;
}

TEST(Escape, ControlCharactersAreWrittenAsHex) {
  EXPECT_EQ(escape_control_characters("a\x1b[31mb"), "a\\x1b[31mb");
  EXPECT_EQ(escape_control_characters("tab\there\nnl\x7f"), "tab\\x09here\\x0anl\\x7f");
  EXPECT_EQ(escape_control_characters("csi \xc2\x9b" "2J"), "csi \\xc2\\x9b2J");  // U+009B, the one-byte CSI
  EXPECT_EQ(escape_control_characters("12.1 \xc2\xb5s \xe2\x80\x94 ok"), "12.1 \xc2\xb5s \xe2\x80\x94 ok");  // µ, em dash
}

TEST(Escape, TerminalTableEscapesAndAlignsOnTheEscapedText) {
  TextTable t;
  t.add_column("kernel");
  t.add_column("note\x07");
  t.add_row({"evil\x1b]0;title\x07", "x"});
  t.add_row({"ok", "y"});
  std::ostringstream out;
  t.print_text(out);
  EXPECT_FALSE(has_control(out.str())) << out.str();
  EXPECT_EQ(out.str(),
            "kernel                note\\x07\n"
            "--------------------  --------\n"  // 20 = the escaped name's length
            "evil\\x1b]0;title\\x07  x\n"
            "ok                    y\n");
}

TEST(Escape, MarkdownShowsTheEscapeLiterally) {
  // "\\x1b" in markdown source renders as \x1b.
  EXPECT_EQ(markdown_escape("a\x1b[2Jb"), "a\\\\x1b\\[2Jb");
  ReportTable table;
  table.title = "runs \x1b[31m";
  table.header = {"kernel"};
  ReportCell cell;
  cell.text = "k\x1b";
  table.rows = {{cell}};
  std::ostringstream out;
  render_markdown_table(table, out);
  EXPECT_FALSE(has_control(out.str())) << out.str();
  EXPECT_EQ(out.str(), "## runs \\\\x1b\\[31m\n\n| kernel |\n| --- |\n| k\\\\x1b |\n\n");
  TextTable t;
  t.add_column("kernel");
  t.add_row({"k\x9b\x1b"});
  std::ostringstream md;
  t.print_markdown(md);
  EXPECT_FALSE(has_control(md.str())) << md.str();
}

}  // namespace
}  // namespace roofline
