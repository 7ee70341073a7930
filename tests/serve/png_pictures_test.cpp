// PNG pictures (issue 23): the SVG charts and boards rendered by librsvg (picture_file.hpp). A
// PNG is checked as a reader sees it: its signature, its IHDR's size against the SVG's, and its
// pixels decoded by cairo (a chart's bars and a board's pieces are there in their colours). Built
// without librsvg2-dev, every PNG asked for must instead be a clear error naming the package,
// with nothing solved first.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "tests/test_util.hpp"
#include "zermelo/serve/picture_file.hpp"

#if ZERMELO_HAVE_PNG
#include <cairo.h>
#endif

namespace zermelo {
namespace {

using testing::CommandResult;

using testing::run_cli_with_stderr;
#if ZERMELO_HAVE_PNG  // what reads the PNGs written, where there are any
std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

struct Size {
  unsigned width = 0, height = 0;
  bool operator==(const Size&) const = default;
};

// The size a PNG's header says, after its signature; {0, 0} if it is no PNG.
Size png_size(const std::string& png) {
  static const std::string kSignature("\x89PNG\r\n\x1a\n", 8);
  if (png.size() < 24 || png.compare(0, 8, kSignature) != 0 || png.compare(12, 4, "IHDR") != 0)
    return {};
  auto be32 = [&](std::size_t at) {
    unsigned v = 0;
    for (std::size_t i = 0; i < 4; ++i) v = v << 8 | static_cast<unsigned char>(png[at + i]);
    return v;
  };
  return {be32(16), be32(20)};
}

// The size an SVG of ours declares (its root's width and height).
Size svg_size(const std::string& svg) {
  auto attribute = [&](const std::string& name) {
    const auto at = svg.find(" " + name + "=\"");
    return at == std::string::npos
               ? 0u
               : static_cast<unsigned>(std::stoul(svg.substr(at + name.size() + 3)));
  };
  return {attribute("width"), attribute("height")};
}

// How many of the PNG's pixels are the opaque colour 0xRRGGBB, as cairo decodes the file.
std::size_t pixels_of(const std::string& png, std::uint32_t rgb) {
  struct Reader {
    const std::string& bytes;
    std::size_t at = 0;
  } reader{png};
  cairo_surface_t* s = cairo_image_surface_create_from_png_stream(
      [](void* r, unsigned char* data, unsigned int length) {
        auto& in = *static_cast<Reader*>(r);
        if (in.bytes.size() - in.at < length) return CAIRO_STATUS_READ_ERROR;
        std::memcpy(data, in.bytes.data() + in.at, length);
        in.at += length;
        return CAIRO_STATUS_SUCCESS;
      },
      &reader);
  std::size_t n = 0;
  if (cairo_surface_status(s) == CAIRO_STATUS_SUCCESS) {
    const int w = cairo_image_surface_get_width(s), h = cairo_image_surface_get_height(s);
    const int stride = cairo_image_surface_get_stride(s);
    const unsigned char* data = cairo_image_surface_get_data(s);
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        std::uint32_t px;
        std::memcpy(&px, data + y * stride + x * 4, 4);
        n += px == (0xff000000u | rgb);
      }
  }
  cairo_surface_destroy(s);
  return n;
}
#endif

TEST(PngPictures, AnSvgRenderedAtItsSize) {
  const std::string svg =
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"40\" height=\"30\">"
      "<rect width=\"40\" height=\"30\" fill=\"#fff\"/>"
      "<rect x=\"10\" y=\"10\" width=\"20\" height=\"10\" fill=\"#1f5fbf\"/></svg>";
  if (!png_supported()) {
    try {
      svg_to_png(svg);
      FAIL() << "a build without librsvg rendered a PNG";
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find("librsvg2-dev"), std::string::npos) << e.what();
    }
    return;
  }
#if ZERMELO_HAVE_PNG
  const std::string png = svg_to_png(svg);
  EXPECT_EQ(png_size(png), (Size{40, 30}));
  EXPECT_EQ(pixels_of(png, 0x1f5fbf), 200u);
  EXPECT_EQ(pixels_of(png, 0xffffff), 40u * 30 - 200);
  EXPECT_THROW(svg_to_png("<svg"), std::runtime_error);
  EXPECT_THROW(svg_to_png("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"90000\" "
                          "height=\"90000\"/>"),
               std::runtime_error);
#else
  FAIL() << "png_supported() says yes in a build without librsvg";
#endif
}

TEST(PngPictures, APictureIsNamedSvgOrPng) {
  EXPECT_NO_THROW(check_picture_path("chart.svg"));
  EXPECT_NO_THROW(check_picture_path("dir/CHART.SVG"));
  for (const char* bad : {"chart.gif", "chart", ".svg", "chart.svgz", "chart.png.txt"}) {
    try {
      check_picture_path(bad);
      FAIL() << bad << " was taken";
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find("must end in .svg or .png"), std::string::npos)
          << e.what();
    }
  }
  if (png_supported())
    EXPECT_NO_THROW(check_picture_path("chart.Png"));
  else
    EXPECT_THROW(check_picture_path("chart.png"), std::runtime_error);
}

// solve, bfs, plot and query write PNG where asked; a bad name fails before any work.
TEST(PngPictures, FromTheCommandLine) {
  testing::ScratchDir dir;
  const std::string plies = dir / "plies.png";
  CommandResult bad = run_cli_with_stderr(
      "--work-dir " + (dir / "bad") + " solve tictactoe --in-ram --plot " + (dir / "plies.gif"));
  EXPECT_NE(bad.code, 0);
  EXPECT_NE(bad.out.find("plies.gif: a picture's name must end in .svg or .png"), std::string::npos)
      << bad.out;
  EXPECT_FALSE(std::filesystem::exists(dir / "bad/manifest.json")) << "it solved first";
  EXPECT_NE(run_cli_with_stderr("plot " + (dir / "none.json") + " --out " + (dir / "x.jpg")).code,
            0);

  CommandResult solve = run_cli_with_stderr("--json --work-dir " + (dir / "w") +
                                            " solve tictactoe --in-ram --plot " + plies);
  if (!png_supported()) {
    EXPECT_NE(solve.code, 0);
    EXPECT_NE(solve.out.find("librsvg2-dev"), std::string::npos) << solve.out;
    EXPECT_FALSE(std::filesystem::exists(dir / "w/manifest.json")) << "it solved first";
    return;
  }
#if ZERMELO_HAVE_PNG
  ASSERT_EQ(solve.code, 0) << solve.out;
  std::ofstream(dir / "solve.json") << solve.out;
  ASSERT_EQ(
      run_cli_with_stderr("plot " + (dir / "solve.json") + " --out " + (dir / "again.png")).code,
      0);
  ASSERT_EQ(
      run_cli_with_stderr("plot " + (dir / "solve.json") + " --out " + (dir / "again.svg")).code,
      0);
  const std::string png = file_bytes(plies);
  EXPECT_EQ(png_size(png), svg_size(file_bytes(dir / "again.svg")));
  EXPECT_EQ(png_size(png), (Size{900, 460}));
  EXPECT_GT(pixels_of(png, 0x1f5fbf), 2000u);     // the bars, in the first series' colour
  EXPECT_EQ(file_bytes(dir / "again.png"), png);  // the same SVG, the same PNG

  const std::string levels = dir / "bfs.PNG";
  CommandResult bfs =
      run_cli_with_stderr("--work-dir " + (dir / "b") + " bfs tictactoe --plot " + levels);
  ASSERT_EQ(bfs.code, 0) << bfs.out;
  EXPECT_EQ(png_size(file_bytes(levels)), (Size{900, 460}));
  EXPECT_GT(pixels_of(file_bytes(levels), 0x1f5fbf), 2000u);

  // The board: the X's blue strokes and the O's red one on the squares' two colours.
  const std::string board = dir / "board.png";
  CommandResult q = run_cli_with_stderr("--work-dir " + (dir / "w") + " query X.O...... --png " +
                                        board + " --svg " + (dir / "board.svg"));
  ASSERT_EQ(q.code, 0) << q.out;
  const std::string board_png = file_bytes(board);
  EXPECT_EQ(png_size(board_png), svg_size(file_bytes(dir / "board.svg")));
  EXPECT_GT(svg_size(file_bytes(dir / "board.svg")).width, 50u);
  EXPECT_GT(pixels_of(board_png, 0x1f5fbf), 100u);
  EXPECT_GT(pixels_of(board_png, 0xc0392b), 100u);
  EXPECT_GT(pixels_of(board_png, 0xf4ecd8), 5u * 1000);
#else
  FAIL() << "png_supported() says yes in a build without librsvg";
#endif
}

}  // namespace
}  // namespace zermelo
