// Result<T>: a value or an error message. The core returns these; only app/ turns an
// error into a line on stderr and an exit code.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace rig {

// What went wrong, in one line meant for a person (no trailing newline).
struct Error {
    std::string message;
    std::string code;  // optional: a check finding code that says what it was ("external-path-refused")
};

template <typename T>
class Result {
public:
    Result(T value) : v_(std::move(value)) {}
    Result(Error error) : v_(std::move(error)) {}

    bool ok() const { return std::holds_alternative<T>(v_); }
    explicit operator bool() const { return ok(); }
    T& value() { return std::get<T>(v_); }
    const T& value() const { return std::get<T>(v_); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    T& operator*() { return value(); }
    const T& operator*() const { return value(); }
    const Error& error() const { return std::get<Error>(v_); }

private:
    std::variant<T, Error> v_;
};

}  // namespace rig
