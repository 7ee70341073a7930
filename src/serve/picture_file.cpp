// Pictures written as SVG or PNG (picture_file.hpp). The PNG is librsvg's rendering of the SVG
// on a cairo image surface, written by cairo's PNG encoder.
#include "zermelo/serve/picture_file.hpp"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <memory>
#include <stdexcept>

#ifndef ZERMELO_HAVE_PNG  // set by the build where it found librsvg2-dev
#define ZERMELO_HAVE_PNG 0
#endif
#if ZERMELO_HAVE_PNG
#include <cairo.h>
#include <librsvg/rsvg.h>
#endif

#if ZERMELO_HAVE_PNG && defined(ZERMELO_SANITIZED)
// LeakSanitizer's hook for suppressions, in the sanitized build only. librsvg draws text through
// fontconfig, whose font caches live as long as the process and are never freed: reported as
// leaks at exit, they made every PNG-writing command fail under the sanitizers. Our own code's
// leaks are still reported. Quietly: a command's output stays its own (tests read it as JSON).
extern "C" const char* __lsan_default_suppressions() { return "leak:libfontconfig.so\n"; }
extern "C" const char* __lsan_default_options() { return "print_suppressions=0"; }
#endif

namespace zermelo {
namespace {

constexpr const char* kNoPng =
    "PNG output needs librsvg2-dev, which this zermelo was built without: install it "
    "(apt-get install librsvg2-dev, or tools/setup.sh) and rebuild, or ask for a .svg file";

enum class Format { kSvg, kPng, kUnknown };

Format format_of(const std::string& path) {
  if (path.size() < 5) return Format::kUnknown;  // a name before the extension
  std::string ext = path.substr(path.size() - 4);
  for (char& ch : ext) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return ext == ".svg" ? Format::kSvg : ext == ".png" ? Format::kPng : Format::kUnknown;
}

#if ZERMELO_HAVE_PNG
// The largest side rendered: our charts are 900 pixels wide, boards smaller; a larger SVG is
// not one of ours, and its surface could take gigabytes.
constexpr double kMaxSide = 16384;

struct Unref {
  void operator()(RsvgHandle* h) const { g_object_unref(h); }
  void operator()(cairo_surface_t* s) const { cairo_surface_destroy(s); }
  void operator()(cairo_t* c) const { cairo_destroy(c); }
  void operator()(GError* e) const { g_error_free(e); }
};

[[noreturn]] void fail(const std::string& what, GError* error) {
  std::unique_ptr<GError, Unref> owned(error);
  throw std::runtime_error(what + (error ? std::string(": ") + error->message : std::string()));
}

cairo_status_t append(void* out, const unsigned char* data, unsigned int length) {
  static_cast<std::string*>(out)->append(reinterpret_cast<const char*>(data), length);
  return CAIRO_STATUS_SUCCESS;
}
#endif

}  // namespace

bool png_supported() { return ZERMELO_HAVE_PNG != 0; }

#if ZERMELO_HAVE_PNG
std::string svg_to_png(const std::string& svg) {
  GError* error = nullptr;
  std::unique_ptr<RsvgHandle, Unref> handle(
      rsvg_handle_new_from_data(reinterpret_cast<const guint8*>(svg.data()), svg.size(), &error));
  if (!handle) fail("cannot read the SVG to render it as PNG", error);
  double w = 0, h = 0;
  if (!rsvg_handle_get_intrinsic_size_in_pixels(handle.get(), &w, &h))
    throw std::runtime_error("cannot render an SVG without a width and a height as PNG");
  if (!(w >= 1 && h >= 1 && w <= kMaxSide && h <= kMaxSide))
    throw std::runtime_error("cannot render an SVG of " + std::to_string(w) + " x " +
                             std::to_string(h) + " pixels as PNG (at most 16384 a side)");
  const int width = static_cast<int>(std::ceil(w)), height = static_cast<int>(std::ceil(h));
  std::unique_ptr<cairo_surface_t, Unref> surface(
      cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height));
  std::unique_ptr<cairo_t, Unref> cr(cairo_create(surface.get()));
  const RsvgRectangle viewport{0, 0, w, h};
  if (!rsvg_handle_render_document(handle.get(), cr.get(), &viewport, &error))
    fail("cannot render the SVG as PNG", error);
  if (cairo_status(cr.get()) != CAIRO_STATUS_SUCCESS)
    throw std::runtime_error(std::string("cannot render the SVG as PNG: ") +
                             cairo_status_to_string(cairo_status(cr.get())));
  cairo_surface_flush(surface.get());
  std::string png;
  const cairo_status_t s = cairo_surface_write_to_png_stream(surface.get(), append, &png);
  if (s != CAIRO_STATUS_SUCCESS)
    throw std::runtime_error(std::string("cannot encode the PNG: ") + cairo_status_to_string(s));
  return png;
}
#else
std::string svg_to_png(const std::string&) { throw std::runtime_error(kNoPng); }
#endif

void check_picture_path(const std::string& path) {
  switch (format_of(path)) {
    case Format::kSvg:
      return;
    case Format::kPng:
      if (!png_supported()) throw std::runtime_error(path + ": " + kNoPng);
      return;
    case Format::kUnknown:
      throw std::runtime_error(path + ": a picture's name must end in .svg or .png");
  }
}

void write_picture(const std::string& path, const std::string& svg) {
  check_picture_path(path);
  write_text_file(path, format_of(path) == Format::kPng ? svg_to_png(svg) : svg);
}

void write_text_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  out.close();
  if (!out) throw std::runtime_error("cannot write " + path + ": " + std::strerror(errno));
}

}  // namespace zermelo
