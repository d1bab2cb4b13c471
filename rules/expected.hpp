// A value or an error message: what library functions return instead of throwing or exiting.
#pragma once
#include <string>
#include <utility>
#include <variant>

namespace dtb {

struct Error {
    std::string message;
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
    const T* operator->() const { return &value(); }
    const std::string& error() const { return std::get<1>(v_).message; }

private:
    std::variant<T, Error> v_;
};

}  // namespace dtb
