// The reproductions' figures: a script of plots/ run by /usr/bin/python3 (matplotlib there).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ncp {

// Runs /usr/bin/python3 <source>/plots/<script> with `args`, without a shell (an output folder
// may hold spaces or quotes), its standard error discarded. Returns what it printed on standard
// output when it exited 0; nothing where python3, matplotlib or the script failed.
std::optional<std::string> RunPlotScript(std::string_view script,
                                         const std::vector<std::string>& args);

// The sentence that follows a figure's data in a report: "; figure: `<png>`.\n" when `drawn`,
// else why there is none (the script named).
std::string FigureSentence(bool drawn, const std::string& png, std::string_view script);

}  // namespace ncp
