// A picture written to the file a command was given, in the format its name asks for: `.svg` as
// drawn, `.png` rendered from that same SVG (`solve --plot FILE.png`, `plot --out FILE.png`,
// `query --png FILE`), for places that show no SVG: a slide, a chat, some image viewers.
//
// Every picture is drawn once, as SVG (svg_chart.hpp, board_picture.hpp). The PNG is that SVG
// rendered by librsvg with cairo (Debian's librsvg2-dev), so there is no second renderer to keep
// in step with the first. A build without librsvg2-dev still reads and writes SVG; a PNG asked
// of it is an error that names the package.
#pragma once
#include <string>

namespace zermelo {

// Whether this build can render PNG (it found librsvg2-dev).
bool png_supported();

// The SVG rendered as a PNG file's bytes, at the SVG's own width and height in pixels. Throws
// std::runtime_error on an SVG librsvg cannot read, or when this build has no PNG.
std::string svg_to_png(const std::string& svg);

// Throws, naming the file, unless `path` ends in .svg or .png (any case) and this build can
// write that format: called before a long command, so that a bad name fails at once.
void check_picture_path(const std::string& path);

// Writes `svg` to `path` as its extension asks (check_picture_path's rules), or throws naming it.
void write_picture(const std::string& path, const std::string& svg);

// Writes `text` to `path` as it is (an SVG whatever the name: `query --svg`), or throws naming it.
void write_text_file(const std::string& path, const std::string& text);

}  // namespace zermelo
