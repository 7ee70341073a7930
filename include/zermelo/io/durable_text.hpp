// A small text file (a job's manifest, an external solve's record) read whole, and replaced
// durably.
//
// Records that say what a long job has finished must survive a kill or a power cut in one piece:
// the text goes to `<path>.tmp`, is fsync'd, renamed over `path`, and the directory is synced, so
// a reader finds the old text or the new one, never an empty or partial file.
#pragma once
#include <string>

namespace zermelo {

// Throws std::runtime_error naming the file and the system's reason if any step fails.
void replace_text_durably(const std::string& path, const std::string& text);

// The file's whole text; throws std::runtime_error "<path>: cannot read <what>" if it cannot.
std::string read_text_file(const std::string& path, const std::string& what);

}  // namespace zermelo
