// The explorer's page (web/: HTML, script, style) compiled into the binary, so that `zermelo
// serve` works from a build tree, after `cmake --install` and from any working directory, with
// no file to find at run time. cmake/embed_web.cmake writes the table at build time from the
// files in web/; a change to one of them rebuilds it.
#pragma once
#include <string_view>
#include <vector>

namespace zermelo {

struct WebAsset {
  std::string_view name;          // the file's name in web/, e.g. "explorer.js"
  std::string_view content_type;  // from its extension
  std::string_view body;
};

const std::vector<WebAsset>& web_assets();

}  // namespace zermelo
