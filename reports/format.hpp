#pragma once
// The one place for escaping and number formatting used by every renderer (HTML, SVG,
// markdown, CSV, text tables). Add a variant here rather than writing another copy.
#include <string>
#include <string_view>

namespace roofline {

// Text for HTML/SVG/XML element content and attribute values: & < > " ' escaped.
std::string html_escape(std::string_view s);
// Text for a GitHub-flavoured markdown table cell: markdown punctuation backslash-escaped,
// '|' escaped, newlines folded, other control characters as `\x1b`, so that names such as
// `<script>` stay literal text.
std::string markdown_escape(std::string_view s);
// Text for a terminal: control characters (C0, DEL and C1, such as ESC) written as `\x1b`, so
// names from a spec file or a database cannot move the cursor, recolour or retitle a terminal.
std::string escape_control_characters(std::string_view s);
// One CSV field (RFC 4180): quoted when it holds a comma, quote, CR or LF.
std::string csv_field(std::string_view s);

// A number for people: up to `digits` significant digits, no exponent between 1e-4 and 1e15,
// trailing zeros dropped. NaN/inf spelled "nan"/"inf".
std::string format_number(double v, int digits = 4);
// A number with an SI prefix and unit ("3.35 TB/s", "12.1 µs", "80 GB"). "s" scales down
// (ms, µs, ns) and "ns" is shown as a duration; B, B/s, Hz, FLOP, FLOP/s and inst/s scale up
// (k, M, G, T, P); "count" and "ratio" print the plain number without a unit; any other unit
// ("%", "inst/clk", "sector") follows the plain number after a space.
std::string format_quantity(double v, std::string_view unit, int digits = 3);
// Seconds as a duration ("1.24 ms").
inline std::string format_duration(double seconds) { return format_quantity(seconds, "s"); }
// A fraction as a percentage with one decimal ("12.5 %"); signed when `sign`.
std::string format_percent(double fraction, bool sign = false);
// A number that round-trips exactly (JSON/CSV exports): shortest repr, "" for NaN.
std::string format_exact(double v);

}  // namespace roofline
