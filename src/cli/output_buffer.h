// Where the person-facing commands write their reports: bytes collect in one
// block of memory and go to the file (stdout) each time the block fills, so a
// report of any size is streamed with constant memory and few system calls.
// The same buffer can append to a string instead (tests, small callers).
#pragma once

#include <cstddef>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>

namespace ksched {

class OutputBuffer {
 public:
  explicit OutputBuffer(std::FILE* file);
  explicit OutputBuffer(std::string* out);
  ~OutputBuffer();  // Flush()
  OutputBuffer(const OutputBuffer&) = delete;
  OutputBuffer& operator=(const OutputBuffer&) = delete;

  void Put(char c) {
    if (pos_ == capacity_) Drain();
    data_[pos_++] = c;
  }
  void Write(std::string_view s) {
    if (capacity_ - pos_ < s.size()) return WriteLarge(s);
    std::memcpy(data_.get() + pos_, s.data(), s.size());
    pos_ += s.size();
  }
  void Fill(char c, size_t count);

  // Room for `n` bytes written with PutUnsafe (the block grows if `n` is
  // larger than it).
  void Reserve(size_t n) {
    if (capacity_ - pos_ < n) MakeRoom(n);
  }
  void PutUnsafe(char c) { data_[pos_++] = c; }

  // Writes out everything buffered (and fflush()es the file).
  void Flush();
  // False once a write to the file failed (a closed pipe, a full disk).
  bool ok() const { return ok_; }
  // The errno of the failed write (0 while ok()).
  int error() const { return error_; }

 private:
  void Drain();
  void WriteLarge(std::string_view s);
  void WriteFile(const char* data, size_t n);
  void MakeRoom(size_t n);

  static constexpr size_t kBlock = 64 * 1024;
  std::FILE* file_ = nullptr;
  std::string* out_ = nullptr;
  std::unique_ptr<char[]> data_;
  size_t capacity_ = 0;
  size_t pos_ = 0;
  bool ok_ = true;
  int error_ = 0;
};

}  // namespace ksched
