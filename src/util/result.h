// Errors as values.
//
// Every fallible operation in ksched returns either a value or an Error whose
// message is meant for a person: it names the file, the object and the field
// involved, so the caller can print it unchanged. No exceptions cross public
// APIs; the few libraries that throw (nlohmann::json, CLI11) are wrapped at the boundary.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace ksched {

struct Error {
  std::string message;
  // The HTTP status of a failed API server call (client/), 0 otherwise.
  int http_code = 0;

  // Prefix the message with context, e.g. "file.yaml: " or "Pod default/x: ".
  Error& Prepend(const std::string& context) {
    message = context + message;
    return *this;
  }
};

// Result<T> holds either a T or an Error. Kept tiny on purpose: std::expected
// is C++23 and the project targets C++20.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}      // NOLINT: implicit by design
  Result(Error error) : v_(std::move(error)) {}  // NOLINT: implicit by design

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }

  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  const Error& error() const { return std::get<1>(v_); }
  Error& error() { return std::get<1>(v_); }

 private:
  std::variant<T, Error> v_;
};

// Status is a Result without a value.
class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(Error error) : error_(std::move(error)), ok_(false) {}  // NOLINT
  static Status Ok() { return Status(); }

  bool ok() const { return ok_; }
  explicit operator bool() const { return ok_; }
  const Error& error() const { return error_; }
  Error& error() { return error_; }

 private:
  Error error_;
  bool ok_ = true;
};

inline Error MakeError(std::string message) { return Error{std::move(message)}; }

}  // namespace ksched
