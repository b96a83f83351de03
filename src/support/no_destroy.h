// NoDestroy<T>: a value that is constructed in place and never destroyed.
//
// Used for the plugin singleton: a plugin is dlopen'ed by the core after the
// program registered its exit-time unregistration, so the plugin's static
// destructors would run before the core's last calls into it.
#pragma once

#include <memory>
#include <utility>

namespace omptarget {

template <typename T>
class NoDestroy {
 public:
  template <typename... ArgTs>
  explicit NoDestroy(ArgTs &&...Args) {
    std::construct_at(&Value_, std::forward<ArgTs>(Args)...);
  }
  ~NoDestroy() {}  // intentionally leaves Value_ alive
  NoDestroy(const NoDestroy &) = delete;
  NoDestroy &operator=(const NoDestroy &) = delete;

  T &get() { return Value_; }

 private:
  union {
    T Value_;
  };
};

}  // namespace omptarget
