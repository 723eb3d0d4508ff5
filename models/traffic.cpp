#include "models/traffic.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <map>
#include <set>

namespace roofline {
namespace {

// Sector statistics of one warp of `threads` active threads. Thread t's k-th access of the
// iteration covers bytes [O + r*R + (t mod L)*S + k*W, ... + W), S = stride bytes, W = access
// bytes, O = offset bytes off an aligned line, L = lanes per row and r = t / L the lane's row,
// R apart: rows never share a line.
struct WarpPattern {
  double l1_sectors = 0, wavefronts = 0, footprint = 0, partial = 0;
};

struct LaneLayout {
  std::int64_t stride_bytes = 0, access_bytes = 0, offset_bytes = 0;
  int lanes_per_row = 32;
};

WarpPattern warp_pattern(int threads, int accesses, const LaneLayout& lanes, int wavefront_bytes) {
  constexpr std::int64_t kRowApart = std::int64_t{1} << 32;
  WarpPattern w;
  std::map<std::int64_t, std::int64_t> covered;  // sector -> bytes written (union over accesses)
  const std::int64_t origin = (lanes.offset_bytes % 128 + 128) % 128;  // only the place within a line matters
  const std::int64_t width = lanes.access_bytes;
  for (int k = 0; k < accesses; ++k) {
    std::map<int, std::set<std::int64_t>> rows;  // row -> its sectors in this request
    for (int t = 0; t < threads; ++t) {
      const int row = t / lanes.lanes_per_row;
      const std::int64_t begin =
          origin + row * kRowApart + (t % lanes.lanes_per_row) * lanes.stride_bytes + k * width;
      for (std::int64_t s = begin / kSectorBytes; s <= (begin + width - 1) / kSectorBytes; ++s) {
        rows[row].insert(s);
        const std::int64_t lo = std::max(begin, s * kSectorBytes);
        const std::int64_t hi = std::min(begin + width, (s + 1) * kSectorBytes);
        covered[s] += hi - lo;
      }
    }
    // One wavefront moves up to wavefront_bytes of whole sectors of one row.
    for (const auto& [row, sectors] : rows) {
      w.l1_sectors += static_cast<double>(sectors.size());
      w.wavefronts += std::max(1.0, static_cast<double>(sectors.size() * kSectorBytes) / wavefront_bytes);
    }
  }
  w.footprint = static_cast<double>(covered.size());
  for (const auto& [s, bytes] : covered) w.partial += bytes < kSectorBytes ? 1 : 0;
  return w;
}

ArrayTraffic contiguous_traffic(const ArrayAccess& array, const KernelPass& pass, DType launch_dtype, std::int64_t n,
                                int wavefront_bytes) {
  const std::int64_t esize = size_bytes(element_type(array, launch_dtype));
  const int ept = pass.elements_per_thread;
  const int accesses = ept / array.vector;  // access instructions per thread per iteration
  const std::int64_t stride_bytes = thread_stride(array, pass) * esize;
  const std::int64_t access_bytes = array.vector * esize;

  // Thread-iterations over the whole launch; the grid policy changes who runs them, not how many.
  const std::int64_t thread_iters = (n + ept - 1) / ept;
  const std::int64_t full_warps = thread_iters / 32;
  const int tail_threads = static_cast<int>(thread_iters % 32);

  ArrayTraffic t;
  t.useful_bytes = static_cast<double>(n * esize);
  t.buffer_bytes = static_cast<double>(thread_iters) * static_cast<double>(stride_bytes);
  t.requests = static_cast<double>(full_warps * accesses + (tail_threads ? accesses : 0));

  const LaneLayout lanes{stride_bytes, access_bytes, array.offset * esize, array.lanes_per_row};
  const WarpPattern full = warp_pattern(32, accesses, lanes, wavefront_bytes);
  const WarpPattern tail = tail_threads ? warp_pattern(tail_threads, accesses, lanes, wavefront_bytes) : WarpPattern{};
  const double warps = static_cast<double>(full_warps);
  t.l1_sectors = warps * full.l1_sectors + tail.l1_sectors;
  t.l1_wavefronts = warps * full.wavefronts + tail.wavefronts;
  t.footprint_sectors = warps * full.footprint + tail.footprint;
  if (array.op == AccessOp::store) {
    t.partial_sectors = warps * full.partial + tail.partial;
    t.revisited_sectors = warps * (full.l1_sectors - full.footprint) + (tail.l1_sectors - tail.footprint);
  }

  // Contiguous arrays end where the data ends: the last thread covers only n % ept elements,
  // so the footprint is the byte count rounded up to sectors and at most one sector is partial.
  if (stride_bytes == static_cast<std::int64_t>(ept) * esize) {
    const std::int64_t bytes = n * esize;
    t.footprint_sectors = static_cast<double>((bytes + kSectorBytes - 1) / kSectorBytes);
    if (array.op == AccessOp::store) t.partial_sectors = bytes % kSectorBytes ? 1 : 0;
    t.buffer_bytes = static_cast<double>(bytes);
  }
  return t;
}

// Elements the array spans when the spec says so ("elements"); nullopt: one per access.
std::optional<double> declared_elements(const ArrayAccess& a, std::int64_t n, const Dimensions& dims) {
  if (!a.elements) return std::nullopt;
  switch (a.elements->of) {
    case ArrayExtent::Of::n: return static_cast<double>(n) * a.elements->fraction;
    case ArrayExtent::Of::rows: return static_cast<double>(dims.rows);
    case ArrayExtent::Of::cols: return static_cast<double>(dims.cols);
    case ArrayExtent::Of::count: break;
  }
  return static_cast<double>(a.elements->count);
}

// A column, gather or broadcast entry: every request a warp of lanes in their own sectors (one
// sector for a broadcast), each sector its own wavefront; the footprint is what the array spans.
ArrayTraffic scattered_traffic(const ArrayAccess& a, std::int64_t esize, double accesses, double elements) {
  const double access_bytes = static_cast<double>(a.vector * esize);
  const double sectors_per_lane = std::ceil(access_bytes / kSectorBytes);
  ArrayTraffic t;
  t.requests = std::ceil(accesses / 32);
  const double lanes = a.pattern == AccessPattern::broadcast ? 1 : 32;
  t.l1_sectors = t.requests * lanes * sectors_per_lane;
  t.l1_wavefronts = t.requests * lanes;
  t.useful_bytes = accesses * access_bytes;
  t.footprint_sectors = std::ceil(elements * static_cast<double>(esize) / kSectorBytes);
  t.buffer_bytes = elements * static_cast<double>(esize);
  // Column stores write part of a sector each; the warps beside them write the rest while the
  // sector is still in L2, so none is filled from DRAM (docs/model.md).
  return t;
}

// Stores outside the element loop, whatever n: per launched thread, one coalesced warp request
// each (thread after thread on consecutive elements: a column sum's results), or per warp, lane 0
// alone, one request of its own sectors (warp after warp on consecutive elements: a row's sum).
// The sectors lane 0 writes in part are completed in L2 by the warps beside it, as a column
// store's are, so none is filled from DRAM.
ArrayTraffic outside_loop_traffic(const ArrayAccess& a, std::int64_t esize, double threads, int wavefront_bytes) {
  const std::int64_t access_bytes = a.vector * esize;
  const double warps = std::ceil(threads / 32);
  ArrayTraffic t;
  if (a.per_thread > 0) {
    const WarpPattern w = warp_pattern(32, 1, LaneLayout{access_bytes, access_bytes, 0, 32}, wavefront_bytes);
    t.requests = warps * a.per_thread;
    t.l1_sectors = t.requests * w.l1_sectors;
    t.l1_wavefronts = t.requests * w.wavefronts;
    t.useful_bytes = threads * a.per_thread * static_cast<double>(access_bytes);
  } else {
    t.requests = warps * a.per_warp;
    t.l1_sectors = t.requests * std::ceil(static_cast<double>(access_bytes) / kSectorBytes);
    t.l1_wavefronts = t.requests;
    t.useful_bytes = t.requests * static_cast<double>(access_bytes);
  }
  t.footprint_sectors = std::ceil(t.useful_bytes / kSectorBytes);
  t.buffer_bytes = t.useful_bytes;
  if (a.per_thread > 0) t.partial_sectors = std::fmod(t.useful_bytes, kSectorBytes) > 0 ? 1 : 0;
  return t;
}

// The footprint of an array that spans `elements` (the spec's `elements`): at most that, where
// its accesses cover more (a stencil's neighbours re-read it); more than one access per element
// covers where it spans more (a 2x2 pooling's input, 4 n for n outputs: its accesses spread over
// it, up to the sectors they touch).
void limit_footprint(ArrayTraffic& t, double elements, std::int64_t esize) {
  const double bytes = elements * static_cast<double>(esize);
  t.footprint_sectors = std::min(std::max(t.footprint_sectors, t.l1_sectors), std::ceil(bytes / kSectorBytes));
  t.buffer_bytes = bytes;
}

}  // namespace

ArrayTraffic array_traffic(const ArrayAccess& array, const KernelPass& pass, DType launch_dtype, std::int64_t n,
                           const Dimensions& dims, int wavefront_bytes, double threads) {
  const std::int64_t esize = size_bytes(element_type(array, launch_dtype));
  const std::optional<double> spans = declared_elements(array, n, dims);
  if (array.outside_loop()) {
    ArrayTraffic t = outside_loop_traffic(array, esize, threads, wavefront_bytes);
    if (spans) limit_footprint(t, *spans, esize);
    return t;
  }
  const double repeat = array.per_element * (array.times == Scale::cols ? static_cast<double>(dims.cols) : 1.0);
  if (array.pattern != AccessPattern::contiguous) {
    const double accesses = static_cast<double>(n) * repeat / array.vector;
    return scattered_traffic(array, esize, accesses, spans.value_or(static_cast<double>(n)));
  }
  // Interleaved elements: each access is one coalesced warp access, as if a thread held only
  // one access's elements.
  KernelPass access_pass = pass;
  if (pass.interleaved) access_pass.elements_per_thread = array.vector;
  // Once per thread (a row pointer, a row's result, where a thread handles a row): the lanes'
  // accesses are consecutive, one element each, over n / elements_per_thread elements.
  const int ept = pass.elements_per_thread;
  const bool per_thread = !pass.interleaved && ept > 1 && std::abs(repeat * ept - 1) < 1e-9;
  if (per_thread) access_pass.elements_per_thread = array.vector;
  // A structure's fields: a thread's `fields` accesses one after another within its stride, as a
  // thread's accesses of several elements are (n x fields elements, fields x vector a thread).
  if (array.fields > 1) access_pass.elements_per_thread = array.fields * array.vector;
  const std::int64_t elements = per_thread ? (n + ept - 1) / ept : n * array.fields;
  ArrayTraffic t = contiguous_traffic(array, access_pass, launch_dtype, elements, wavefront_bytes);
  // Repeated accesses make more requests of the same shape over the same footprint.
  const double scale = per_thread ? 1.0 : repeat;
  t.requests *= scale;
  t.l1_sectors *= scale;
  t.revisited_sectors *= scale;
  t.l1_wavefronts *= scale;
  t.useful_bytes *= scale;
  if (spans) limit_footprint(t, *spans, esize);
  return t;
}

}  // namespace roofline
