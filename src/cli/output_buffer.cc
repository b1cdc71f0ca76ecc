#include "cli/output_buffer.h"

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace ksched {

OutputBuffer::OutputBuffer(std::FILE* file)
    : file_(file), data_(new char[kBlock]), capacity_(kBlock) {}

OutputBuffer::OutputBuffer(std::string* out)
    : out_(out), data_(new char[kBlock]), capacity_(kBlock) {}

OutputBuffer::~OutputBuffer() { Flush(); }

void OutputBuffer::WriteLarge(std::string_view s) {
  Drain();
  if (s.size() < capacity_) {
    std::memcpy(data_.get(), s.data(), s.size());
    pos_ = s.size();
  } else if (file_ != nullptr) {  // larger than a block: straight through
    WriteFile(s.data(), s.size());
  } else {
    out_->append(s);
  }
}

void OutputBuffer::Fill(char c, size_t count) {
  while (count > 0) {
    if (pos_ == capacity_) Drain();
    size_t n = std::min(count, capacity_ - pos_);
    std::memset(data_.get() + pos_, c, n);
    pos_ += n;
    count -= n;
  }
}

void OutputBuffer::Drain() {
  if (pos_ == 0) return;
  if (file_ != nullptr) {
    WriteFile(data_.get(), pos_);
  } else {
    out_->append(data_.get(), pos_);
  }
  pos_ = 0;
}

void OutputBuffer::WriteFile(const char* data, size_t n) {
  if (!ok_) return;  // the first failure stops the output
  if (std::fwrite(data, 1, n, file_) != n) {
    ok_ = false;
    error_ = errno;
  }
}

void OutputBuffer::MakeRoom(size_t n) {
  Drain();
  if (n <= capacity_) return;
  data_.reset(new char[n]);
  capacity_ = n;
}

void OutputBuffer::Flush() {
  Drain();
  if (file_ != nullptr && ok_ && std::fflush(file_) != 0) {
    ok_ = false;
    error_ = errno;
  }
}

}  // namespace ksched
