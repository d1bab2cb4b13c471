// A value or an error message: what library functions return instead of throwing or exiting.
#pragma once
#include <string>
#include <utility>
#include <variant>

namespace dtb {

// What kind of failure an error is, so that a front end can answer it without reading the
// message (dtb's exit codes, HTTP statuses, Python exceptions).
enum class ErrorKind : unsigned char {
    unspecified,
    bad_input,  // malformed or out-of-range input: FEN, PDN, arguments, slice names
    tables,     // a table missing, corrupt, or of another variant or rules
    busy,       // the folder is held by another generator run
    system,     // the machine refused: disk full, a write failed, not enough memory
};

struct Error {
    std::string message;
    ErrorKind kind = ErrorKind::unspecified;
};

template <class T>
class Expected {
  public:
    Expected(T v) : v_(std::move(v)) {}
    Expected(Error e) : v_(std::move(e)) {}
    bool ok() const { return v_.index() == 0; }
    explicit operator bool() const { return ok(); }
    const T& value() const { return std::get<0>(v_); }
    T& value() { return std::get<0>(v_); }
    const T& operator*() const { return value(); }
    T& operator*() { return value(); }
    const T* operator->() const { return &value(); }
    T* operator->() { return &value(); }
    const std::string& error() const { return std::get<1>(v_).message; }
    ErrorKind error_kind() const { return std::get<1>(v_).kind; }

  private:
    std::variant<T, Error> v_;
};

}  // namespace dtb
