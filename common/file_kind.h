// What stands at a path when it is not a regular file. Inputs and outputs are regular files
// only: an output's rename would put a file where a device stood, and an input's open blocks on
// a FIFO until some writer comes (and a pipe cannot be read twice, as the guarded readers do).
#pragma once

#include <string>

namespace ncp {

// "a FIFO", "a character device", "a block device", "a socket", "a folder" or "not a regular
// file" for what `path` names (through links); "" for a regular file or where nothing stands.
std::string NonRegularKind(const std::string& path);

// Throws Error "<path>: cannot open: is a FIFO: …" when `path` names something other than a
// regular file; nothing where it is one or where nothing stands (the open then says why).
void RefuseNonRegularInput(const std::string& path);

// Throws Error when `path` holds a NUL character: the operating system would see only the name
// before it, another file (from Python, where strings may hold one; a command line cannot).
// Called by every input's and output's check (RefuseNonRegularInput, ReplaceFile, the outputs).
void RefuseNulInPath(const std::string& path);

}  // namespace ncp
