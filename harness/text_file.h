// Writes a text output (a report, a table, a figure's CSV) whole or not at all: the text goes to
// a temporary file beside it, created exclusively and never through a link planted at its name,
// and is renamed over `path` only when every byte was written. A full disk or an I/O error
// leaves `path` as it was and no temporary file, and throws Error naming the file and the cause.
#pragma once

#include <string>

namespace ncp {

void WriteTextFile(const std::string& path, const std::string& text);

}  // namespace ncp
