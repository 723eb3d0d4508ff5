#include "profiler/counter_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>

namespace roofline {
namespace {

// Read-only is enough for flock, so a file another user created is usable too.
int open_lock_file(const std::string& path) {
  return ::open(path.c_str(), O_RDONLY | O_CREAT | O_CLOEXEC, 0644);
}

int flock_retrying(int fd, int op) {
  int rc;
  do rc = ::flock(fd, op);
  while (rc != 0 && errno == EINTR);
  return rc;
}

}  // namespace

CounterLock::CounterLock(std::string_view gpu_key) {
  const char* tmp = std::getenv("TMPDIR");
  const std::string base = std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/roofline-gpu-" +
                           std::string(gpu_key);
  lock_path_ = base + ".lock";
  lock_fd_ = open_lock_file(lock_path_);
  members_fd_ = open_lock_file(base + ".members");
  if (members_fd_ >= 0) flock_retrying(members_fd_, LOCK_SH);
}

CounterLock::~CounterLock() {
  if (lock_fd_ >= 0) ::close(lock_fd_);
  if (members_fd_ >= 0) ::close(members_fd_);  // closing drops the locks
}

void CounterLock::acquire() {
  if (lock_fd_ >= 0) flock_retrying(lock_fd_, LOCK_EX);
}

void CounterLock::release() {
  if (lock_fd_ >= 0) flock_retrying(lock_fd_, LOCK_UN);
}

bool CounterLock::alone() {
  if (members_fd_ < 0) return true;
  // Our shared lock becomes exclusive only if no other process holds one. A conversion may drop
  // the old lock first (flock(2)), so the shared one is taken again either way.
  const bool only_us = flock_retrying(members_fd_, LOCK_EX | LOCK_NB) == 0;
  flock_retrying(members_fd_, LOCK_SH);
  return only_us;
}

}  // namespace roofline
