#pragma once
// Where a value came from. Every GPU parameter carries one so that outputs can say which
// ceilings are datasheet leads and which were measured on the device.
#include <string>
#include <string_view>

namespace roofline {

enum class Source {
  datasheet,           // vendor specification
  device_query,        // read from the present device (cudaGetDeviceProperties, NVML)
  calibrated,          // measured on this device by `roofline calibrate` (note holds the run id)
  measured_elsewhere,  // measured on another machine of the same model, cited in the GPU file
  compiler,            // taken from the compiler's resource report at build time
  spec_file,           // stated in a user's kernel spec file
  assumed,             // an engineering estimate; say why in the note
};

std::string_view to_string(Source s);
// Accepts the spellings to_string gives (those of the GPU files' sections). Throws InputError
// otherwise.
Source source_from_string(std::string_view s);

// A number with its provenance.
struct Quantity {
  double value = 0.0;
  Source source = Source::assumed;
  std::string note;
};

}  // namespace roofline
