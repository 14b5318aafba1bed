// Snapshot files are outside input: a JSON file (or cluster-info dump) must load or be reported, never crash.
#include <cstddef>
#include <cstdint>
#include <string>

#include "snapshot/snapshot_loader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  sextant::ingest_profiles profiles;
  sextant::object_store store;
  sextant::served_kinds served;
  sextant::snapshot_loader loader(store, served, profiles, {});
  sextant::snapshot_report report;
  loader.load_text("fuzz.json", std::string(reinterpret_cast<const char*>(data), size), true, report);
  return 0;
}
