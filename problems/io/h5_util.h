// Small RAII layer over the HDF5 C API. HDF5's own error printing is switched off; every failure
// throws ncp::Error with one line "<file>: <object path>: <problem>", e.g.
// "data.h5: /problems/p0/b: missing dataset".
#pragma once

#include <hdf5.h>

#include <cstdint>
#include <span>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace ncp::h5 {

// Owns one HDF5 identifier of any kind (file, group, dataset, dataspace, datatype, attribute,
// property list) and closes it with the matching H5?close.
class Handle {
 public:
  Handle() = default;
  explicit Handle(hid_t id) : id_(id) {}
  Handle(Handle&& o) noexcept : id_(o.id_) { o.id_ = H5I_INVALID_HID; }
  Handle& operator=(Handle&& o) noexcept;
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  ~Handle() { Reset(); }

  hid_t id() const { return id_; }
  bool valid() const { return id_ >= 0; }
  // Closes now; returns false when HDF5 reports a failure (e.g. a write that could not be flushed).
  bool Reset();

 private:
  hid_t id_ = H5I_INVALID_HID;
};

// "" when reading `count` elements of `element_bytes` each is plausible for the file that holds
// `loc` (at most 64 × its size + 64 MB) and, when `loc` is a chunked dataset, its chunks are no
// larger than the data or 64 MB; otherwise the reason, naming the declared size. A corrupt
// header can declare any extent or chunk: checked before anything is allocated or inflated.
std::string ImplausibleSize(hid_t loc, double count, std::size_t element_bytes);

// Fixed-length UTF-8 string type of `width` bytes (at least 1), NUL-padded: how the suite writes
// strings (variable-length ones live in HDF5's global heap, whose reader breaks on corrupt files).
Handle FixedStringType(std::size_t width);

// Turns off HDF5's automatic error-stack printing for the calling thread.
void SilenceErrors();

// Why an HDF5 file at `path` that would not open opens without HDF5's file lock: another
// program holds it open for writing (the message to give), or "" when it is damaged instead.
std::string HeldOpenForWriting(const std::string& path, unsigned flags);

// The first link in `file` that is not a hard link ("/runs/x: an external link to 'f:/obj'",
// or a soft link), "" when there is none: a file the suite wrote holds its data itself, and a
// link would read another object or another file in its place.
std::string FirstNonHardLink(hid_t file);

// Creates an HDF5 file at `path` that is built in memory (the core driver) and written to disk
// once, when it is closed: libhdf5 crashes in its own error path when a write fails while it
// copies or writes objects (a full disk), whereas a failed write at close is an error it
// returns. What stands at `path` (a stale file, a link) is unlinked first and the create is
// exclusive, so nothing is written through a link. Returns the identifier, or an invalid one.
hid_t CreateInMemory(const std::string& path, hid_t fcpl, Handle fapl);

// Closes a file made by CreateInMemory, which writes it; throws Error naming `path` and the
// cause when that fails (the caller removes the partial file).
void CloseWritten(Handle& file, const std::string& path);

// A group (or the root group of a file) together with the names used in error messages.
class Group {
 public:
  // `read`: the bytes read so far through this group's file, shared by the groups opened from
  // it (a fresh count when absent).
  Group(Handle handle, std::string file, std::string path, std::shared_ptr<double> read = nullptr)
      : handle_(std::move(handle)),
        file_(std::move(file)),
        path_(std::move(path)),
        read_(read ? std::move(read) : std::make_shared<double>(0.0)) {}

  hid_t id() const { return handle_.id(); }
  const std::string& file() const { return file_; }
  const std::string& path() const { return path_; }
  void Close() { handle_.Reset(); }
  // "/problems/p0" + "b" -> "/problems/p0/b".
  std::string PathOf(const std::string& name) const;
  [[noreturn]] void Fail(const std::string& name, const std::string& problem) const;

  // Links and children.
  bool Has(const std::string& name) const;       // any link (group or dataset)
  bool HasGroup(const std::string& name) const;  // a link that is a group
  Group Open(const std::string& name) const;     // throws "missing group"
  Group Create(const std::string& name) const;
  std::vector<std::string> Children() const;  // link names in name order

  // 1-D datasets. Reads check the element class (integer / float) and the rank; integers are
  // range-checked against the destination type.
  void WriteDoubles(const std::string& name, std::span<const double> v) const;
  void WriteInts(const std::string& name, std::span<const std::int32_t> v) const;
  void WriteInt64s(const std::string& name, std::span<const std::int64_t> v) const;
  void WriteBytes(const std::string& name, std::span<const std::uint8_t> v) const;
  void WriteStrings(const std::string& name, const std::vector<std::string>& v) const;
  std::vector<double> ReadDoubles(const std::string& name) const;
  std::vector<std::int32_t> ReadInts(const std::string& name) const;
  std::vector<std::int64_t> ReadInt64s(const std::string& name) const;
  std::vector<std::uint8_t> ReadBytes(const std::string& name) const;
  std::vector<std::string> ReadStrings(const std::string& name) const;
  // A string dataset holding exactly one element (any rank), e.g. a scalar title.
  std::string ReadString(const std::string& name) const;
  // Every element of a float dataset of any rank, in storage (row-major) order, as libfclib's
  // H5LTread_dataset_double reads it: an N × 1 vector as N values.
  std::vector<double> ReadDoublesFlat(const std::string& name) const;
  // An integer dataset holding exactly one element, of any rank: 0-D (h5py's default for a
  // scalar), 1-D of 1, or 1 × 1 (MATLAB); range-checked against int32.
  std::int32_t ReadOneInt(const std::string& name) const;
  // Number of elements of a dataset of any rank whose element class is `cls`; throws "missing
  // dataset" or "wrong dtype". Lets callers check sizes before handing a file to another reader.
  std::int64_t Count(const std::string& name, H5T_class_t cls) const;
  // Extent of a dataset of element class `cls` (empty for a scalar): its rank is the size; throws
  // as Count does.
  std::vector<hsize_t> Dims(const std::string& name, H5T_class_t cls) const;

  // 2-D row-major float64 datasets of shape rows × cols.
  void WriteDoubles2D(const std::string& name, std::span<const double> v, std::int64_t rows,
                      std::int64_t cols) const;
  // Checks that the dataset is 2-D with `cols` columns; returns the data, sets *rows.
  std::vector<double> ReadDoubles2D(const std::string& name, std::int64_t cols,
                                    std::int64_t* rows) const;

  // Scalar attributes on this group. Strings are variable-length UTF-8 (h5py reads them as str);
  // reads accept fixed-length strings too.
  bool HasAttr(const std::string& name) const;
  std::vector<std::string> AttrNames() const;
  void SetString(const std::string& name, const std::string& value) const;
  void SetDouble(const std::string& name, double value) const;
  void SetInt(const std::string& name, std::int64_t value) const;
  void SetUInt64(const std::string& name, std::uint64_t value) const;
  std::string GetString(const std::string& name) const;
  double GetDouble(const std::string& name) const;  // accepts integer or float attributes
  // Integers, read in their stored sign; a value outside the returned type is refused.
  std::int64_t GetInt(const std::string& name) const;
  std::uint64_t GetUInt64(const std::string& name) const;
  int GetInt32(const std::string& name) const;
  // Attribute class is H5T_STRING.
  bool AttrIsString(const std::string& name) const;

 private:
  void WriteNumeric(const std::string& name, hid_t file_type, hid_t mem_type, const void* data,
                    int rank, const hsize_t* dims) const;
  // Opens a dataset, checks its class and rank, returns the dims.
  // Opens a dataset and checks its element class; rank < 0 accepts any rank.
  Handle OpenDataset(const std::string& name, H5T_class_t cls, int rank,
                     std::vector<hsize_t>* dims) const;
  std::vector<std::int64_t> ReadIntegers(const std::string& name) const;
  // Every element of a float dataset of rank `rank` (< 0: any), the file's reads charged.
  std::vector<double> ReadDoublesOfRank(const std::string& name, int rank) const;
  // Adds what a read of dataset `name` will allocate to the file's count, and throws when the
  // file's reads add up to more than the bound one dataset has (kMaxInflation × the file's size
  // + kSlackBytes): many datasets each under it (a few kB of compressed zeros apiece) took GBs.
  void Charge(const std::string& name, hid_t ds, double bytes) const;
  Handle OpenAttr(const std::string& name) const;
  void ReadScalarAttr(const std::string& name, hid_t mem_type, void* out, bool allow_float) const;
  void CheckOneValue(hid_t space, const std::string& name) const;
  bool AttrUnsigned(const std::string& name) const;
  void WriteScalarAttr(const std::string& name, hid_t file_type, hid_t mem_type,
                       const void* value) const;

  Handle handle_;
  std::string file_;
  std::string path_;
  std::shared_ptr<double> read_;
};

// An open HDF5 file. Opening distinguishes a missing file, a file that is not HDF5 and a
// truncated or corrupt one.
class File {
 public:
  // Built in memory (CreateInMemory); Close() writes it to `path` or throws.
  static File Create(const std::string& path);
  static File OpenReadOnly(const std::string& path);
  static File OpenReadWrite(const std::string& path);
  // True when `path` is a readable file with the HDF5 signature; never throws.
  static bool IsHdf5(const std::string& path);

  const std::string& path() const { return path_; }
  Group& root() { return root_; }
  const Group& root() const { return root_; }
  // Flushes and closes; throws when HDF5 reports a failure. The destructor closes silently.
  void Close();

 private:
  File(Handle file, const std::string& path);
  static File Open(const std::string& path, unsigned flags);

  std::string path_;
  Handle file_;
  Group root_;
  bool in_memory_ = false;  // made by Create(): Close() writes it
};

}  // namespace ncp::h5
